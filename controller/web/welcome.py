"""The table screen's welcome card: a QR code of the dashboard's address, and the new PIN.

Why: players join from their phones, and typing ``http://192.168.1.23:8000/`` is where
a club night stalls. The table screen shows the address as a QR code at first start and
whenever the organiser asks from the admin page. The code is drawn here by ``segno`` as
SVG (no network, no script). At first start the new admin PIN is on the card too, but
only for the table screen itself (a browser on this Pi, i.e. a loopback client): a
phone sees the QR code, never the PIN. The PIN is forgotten at the first admin login.
"""

from __future__ import annotations

import io
import ipaddress
import threading
import time
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import JSONResponse

from controller.web.address import dashboard_address
from controller.web.admin_routes import Gate, _body

#: How long the card stays up when the organiser asks for it.
SHOW_FOR = 120.0
NO_STORE = {"Cache-Control": "no-store"}


@lru_cache(maxsize=8)
def qr_svg(url: str) -> bytes:
    """The URL as a QR code in SVG (black on white, quiet zone included)."""
    import segno

    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", scale=8, border=4, xmldecl=False,
                                    title="Dashboard address", dark="#000", light="#fff")
    return buf.getvalue()


def is_loopback(request: Request) -> bool:
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Welcome:
    """Whether the card is up, and the new PIN while nobody has logged in with it yet."""

    def __init__(self, listen_host: str, new_pin: str | None = None, *, clock: Any = time.monotonic) -> None:
        self.listen_host = listen_host
        self._pin = new_pin
        self._clock = clock
        self._until = 0.0
        self._lock = threading.Lock()

    def show(self, on: bool = True) -> None:
        with self._lock:
            self._until = self._clock() + SHOW_FOR if on else 0.0
            if not on:
                self._pin = None

    def forget_pin(self) -> None:
        with self._lock:
            self._pin = None

    def view(self, port: int, loopback: bool) -> dict[str, Any]:
        addr = dashboard_address(self.listen_host, port)
        with self._lock:
            pin = self._pin
            shown = pin is not None or self._clock() < self._until
        return {"show": shown, "url": addr.url, "names": list(addr.names), "reachable": addr.reachable,
                "qr": "/api/address.svg", "pin": pin if loopback else None}


def _port(request: Request) -> int:
    server = request.scope.get("server")
    return int(server[1]) if server and server[1] else 80


def welcome_router(welcome: Welcome, gate: Gate) -> APIRouter:
    r = APIRouter()
    gate.on_login.append(welcome.forget_pin)

    @r.get("/api/welcome")
    def welcome_view(request: Request) -> JSONResponse:
        return JSONResponse(welcome.view(_port(request), is_loopback(request)), headers=NO_STORE)

    @r.get("/api/address.svg")
    def address_qr(request: Request) -> Response:
        url = dashboard_address(welcome.listen_host, _port(request)).url
        return Response(qr_svg(url), media_type="image/svg+xml", headers=NO_STORE)

    @r.post("/admin/api/show-address")
    async def show_address(request: Request) -> JSONResponse:
        body = await _body(request)
        gate.check_post(request, body.get("csrf"))
        gate.require_admin(request)
        show = body.get("show", True)
        if not isinstance(show, bool):
            raise HTTPException(400, "show is true or false")
        welcome.show(show)
        return JSONResponse({"show": show, "seconds": SHOW_FOR if show else 0})

    return r
