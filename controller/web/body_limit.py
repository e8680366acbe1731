"""Request bodies limited while they arrive, before any route sees them.

Why a middleware and not a check in each route: a route that parses a form or JSON has
already taken the whole body into memory (or spooled it to disk) before it can look at
its size, and a login check comes after the parse too. Here the bytes are counted as
the server hands them over: a declared ``Content-Length`` over the limit is answered
413 at once, unread; a chunked body is cut off the moment it passes the limit. Either
way the 413 says ``Connection: close``, so the rest is never read (uvicorn stops
reading a body the app does not ask for).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

Scope = dict[str, Any]
Message = dict[str, Any]

#: Every JSON command, login and form on the dashboard fits many times over.
DEFAULT_LIMIT = 64 * 1024


async def client_went_away(_request: Request, _exc: ClientDisconnect) -> Response:
    """A body that stopped coming: its client left, or the server closed it at the body's
    deadline (``[web] body_timeout``). Nobody is there to read an answer, and it is what
    the deadline is for, not a fault of the program, so no traceback goes to the log
    (someone dripping bodies on the club's Wi-Fi would otherwise fill it)."""
    return Response(status_code=400)


class BodyTooLarge(Exception):
    """Raised into the app once the body passed its limit (the 413 is already sent)."""


class BodyLimit:
    """ASGI middleware: at most ``limit`` body bytes, or ``per_path[path]`` for that path."""

    def __init__(self, app: Any, limit: int = DEFAULT_LIMIT, per_path: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.per_path = dict(per_path or {})

    def limit_for(self, path: str) -> int:
        return self.per_path.get(path, self.limit)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("path", ""))
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _send_413(send, limit)
            return
        seen = 0
        answered = False
        started = False

        async def counting_receive() -> Message:
            nonlocal seen, answered
            message: Message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    if not started and not answered:
                        answered = True
                        await _send_413(send, limit)
                    raise BodyTooLarge
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if answered:
                return  # the 413 is the answer; whatever the app says after it is dropped
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except BodyTooLarge:
            if not answered:
                raise
        except Exception:
            # A route that wrapped BodyTooLarge in its own error (e.g. "unreadable
            # upload"): the client has its 413, and the log needs no traceback.
            if not answered:
                raise


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _send_413(send: Any, limit: int) -> None:
    body = f"request body larger than {limit} bytes\n".encode()
    await send({"type": "http.response.start", "status": 413, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
