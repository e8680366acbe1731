"""Read-only routes anyone on the table's network may use: pages, state, the live stream.

Nothing here changes the match, and nothing here reads a seat's private view: the
state is ``Referee.public_state()`` and events pass through :func:`public_event`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, WebSocket
from fastapi.responses import FileResponse, JSONResponse

from controller.referee.referee import Referee
from controller.rules.options import PRESETS
from controller.web.broadcast import Broadcast
from controller.web.option_schema import option_schema
from controller.web.redact import public_event
from controller.web.security import same_origin

STATIC = Path(__file__).parent / "static"
I18N = STATIC / "i18n"


def languages() -> list[dict[str, Any]]:
    """Every ``static/i18n/<code>.json``: a translator adds a language by adding a file."""
    out = []
    for path in sorted(I18N.glob("*.json")):
        meta = json.loads(path.read_text(encoding="utf-8")).get("_meta", {})
        out.append({"code": path.stem, "name": meta.get("name", path.stem), "dir": meta.get("dir", "ltr")})
    return out


def presets() -> dict[str, Any]:
    return {
        "presets": [{"name": p.name, "summary": p.summary, "variants": sorted(p.variants),
                     "options": p.options.changed_from_default()} for p in PRESETS.values()],
        # each option typed (kind, choices), so the admin page draws a form, not free text
        "options": option_schema(),
    }


def page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html", headers={"Cache-Control": "no-cache"})


def public_router(referee: Referee, broadcast: Broadcast) -> APIRouter:
    r = APIRouter()

    # Pages answer HEAD like GET: kiosk launchers and uptime checks probe with HEAD.
    @r.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def dashboard() -> FileResponse:
        return page("index.html")

    @r.api_route("/table", methods=["GET", "HEAD"], include_in_schema=False)
    def table() -> FileResponse:
        return page("table.html")

    @r.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @r.get("/api/state")
    def state() -> JSONResponse:
        return JSONResponse(referee.public_state())

    @r.get("/api/events")
    def events(after: int = 0) -> JSONResponse:
        out = [e for e in (public_event(ev) for ev in referee.public_events(after, newest=500))
               if e is not None]
        return JSONResponse(out[-500:])

    @r.get("/api/languages")
    def langs() -> JSONResponse:
        return JSONResponse(languages())

    @r.get("/api/presets")
    def preset_list() -> JSONResponse:
        return JSONResponse(presets())

    @r.websocket("/ws")
    async def stream(ws: WebSocket) -> None:
        # another site's page in a player's browser may not open the stream: it carries
        # only public data, but it is this table's, for its own pages (and the Host
        # allowlist already keeps other names out)
        if not same_origin(ws.headers.get("origin"), None, ws.headers.get("host")):
            await ws.close(code=1008)
            return
        await broadcast.serve(ws)

    return r
