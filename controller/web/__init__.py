"""The local web dashboard: table screen, phone dashboard, admin page and live stream.

``create_app`` (in :mod:`controller.web.app`) builds the FastAPI app around a running
:class:`controller.referee.referee.Referee`; the service mounts it and serves it with uvicorn.
"""
