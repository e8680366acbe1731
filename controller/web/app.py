"""The app factory: the referee's web face, ready for uvicorn.

The service (``courtpiece run`` / ``simulate``) owns the referee, the journal and the
PIN; this module only wires them to routes, so tests can build the same app around an
in-process referee.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.staticfiles import StaticFiles
from starlette.requests import ClientDisconnect

from controller.referee.referee import Referee
from controller.signals.voice_settings import VoiceControl
from controller.web.admin_routes import Gate, admin_router
from controller.web.body_limit import BodyLimit, client_went_away
from controller.web.broadcast import Broadcast
from controller.web.calibrate_routes import (
    MAX_UPLOAD_BYTES,
    ZONES_FILE,
    FrameGetter,
    ZonesHook,
    calibrate_router,
)
from controller.web.pin import PinCheck, valid_pin
from controller.web.public_routes import STATIC, public_router
from controller.web.security import RateLimiter, Sessions, load_or_create_secret
from controller.web.voice_routes import voice_router
from controller.web.welcome import Welcome, welcome_router

#: Everything comes from this Pi: no CDN, no inline script, no framing by other sites.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


def create_app(referee: Referee, *, admin_pin: str | PinCheck, table_log: Callable[[], str] | None = None,
               state_dir: Path | None = None, limiter: RateLimiter | None = None,
               camera_frame: FrameGetter | None = None, zones_file: Path | None = None,
               on_zones: ZonesHook | None = None, welcome: Welcome | None = None,
               voice: VoiceControl | None = None) -> FastAPI:
    """Build the dashboard app for ``referee``.

    ``admin_pin``: the table PIN, as digits kept in memory or a hashed
    :class:`controller.web.pin.PinFile`.
    ``table_log``: returns the table log text for download (default: from the referee's
    journal, or its in-memory inputs). ``state_dir``: where the cookie-signing secret is
    kept (None: a new secret per start). ``limiter``: PIN rate limiter (tests inject one
    with a fake clock). ``camera_frame``: the running camera's latest BGR frame (None:
    no camera; the calibration page then draws on an uploaded photo). ``zones_file``:
    where the camera zones are saved (default ``state_dir/camera-zones.json``, where the
    service reads them). ``on_zones``: hands saved zones to the running camera reader.
    ``welcome``: the table screen's QR card and first-start PIN (default: the card for a
    server on 127.0.0.1, no PIN to show). ``voice``: the running voice's volume and mute,
    for the admin page (None: the voice is off on this table).

    Every request body is limited as it streams in (:class:`BodyLimit`); the server-side
    limits (connections, headers, Host) are :func:`controller.web.server.make_server`'s.
    """
    if isinstance(admin_pin, str) and not valid_pin(admin_pin):
        raise ValueError("the admin PIN must be 4 to 12 digits")
    broadcast = Broadcast(referee)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        broadcast.start(asyncio.get_running_loop())
        try:
            yield
        finally:
            broadcast.stop()

    app = FastAPI(title="Court Piece Referee", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    gate = Gate(Sessions(load_or_create_secret(state_dir)), limiter or RateLimiter(), admin_pin)
    app.state.broadcast = broadcast
    app.state.gate = gate

    @app.middleware("http")
    async def headers(request: Request, call_next: Callable[[Request], object]) -> Response:
        response: Response = await call_next(request)  # type: ignore[misc]
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    app.include_router(public_router(referee, broadcast))
    app.include_router(admin_router(referee, gate, table_log))
    if zones_file is None and state_dir is not None:
        zones_file = Path(state_dir) / ZONES_FILE
    app.include_router(calibrate_router(gate, zones_file=zones_file, camera_frame=camera_frame,
                                        on_zones=on_zones))
    app.include_router(welcome_router(welcome or Welcome("127.0.0.1"), gate))
    app.include_router(voice_router(voice, gate))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # Outermost of the app's own middleware: the size is checked before any route, login
    # or CSRF check reads a byte. The photo upload alone may be large.
    app.add_exception_handler(ClientDisconnect, client_went_away)  # type: ignore[arg-type]
    app.add_middleware(BodyLimit, per_path={"/admin/api/calibrate/frame": MAX_UPLOAD_BYTES + 64 * 1024})
    return app
