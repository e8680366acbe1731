"""The club scoreboard's web face: the grid of tables, a page per table, the night's
standings, a page per player, CSV export, and the director's admin behind a PIN.

Spectators only read: every GET is public and shows only what the tables published
(already public). Changes (a new night, teams, rounds) are POSTs through the same gate
as the table's admin page (``controller.web``: PIN with rate limit, signed session
cookie, CSRF token, same-origin check). Pages share the table screen's stylesheet, and
a table's page *is* the table screen (:func:`club_table_page`).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.requests import ClientDisconnect

from controller.club.ledger import PlayerStats
from controller.club.scoreboard import Scoreboard
from controller.club.standings import Registry, players, seat_ids, standings
from controller.club.tournament import Director
from controller.web.admin_routes import Gate, _body, session_router
from controller.web.app import CSP
from controller.web.body_limit import BodyLimit, client_went_away
from controller.web.pin import PinCheck, valid_pin
from controller.web.public_routes import STATIC as TABLE_STATIC
from controller.web.public_routes import languages
from controller.web.security import RateLimiter, Sessions, load_or_create_secret

STATIC = Path(__file__).parent / "static"
STAT_COLUMNS = ("id", "name", "matches", "matches_won", "hands", "hands_won", "courts_total", "court_seven",
                "court_thirteen", "court_goon", "court_streak", "court_revoke", "revokes", "trump_calls",
                "trump_calls_won", "bids_made", "bids_broken")


#: The table screen's boot script, and the club's in its place: the same page, CSS and
#: renderer, fed from the club's copy of what the table published instead of a WebSocket.
TABLE_BOOT = '<script type="module" src="/static/js/table-page.js"></script>'
CLUB_BOOT = ('<link rel="stylesheet" href="/club-static/club.css">\n'
             '<script type="module" src="/club-static/club-table.js"></script>')
#: The welcome card shows the table's own address and first PIN: not the club's to show.
WELCOME = re.compile(r'<script type="module" src="/static/js/welcome\.js"></script>\n?')


def club_table_page() -> str:
    """The table screen's page (``controller/web/static/table.html``) with the club's
    feed: read on every request, so the club always shows what the table shows."""
    html = (TABLE_STATIC / "table.html").read_text(encoding="utf-8")
    if TABLE_BOOT not in html:
        raise RuntimeError("the table screen's page no longer boots from /static/js/table-page.js; "
                           "the club's table page (controller/club/web.py) must follow it")
    return WELCOME.sub("", html.replace(TABLE_BOOT, CLUB_BOOT, 1))


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html", headers={"Cache-Control": "no-cache"})


def stat_rows(board: Scoreboard, night: int | None, registry: Registry | None = None) -> list[dict[str, Any]]:
    rows = []
    for p in sorted(players(board.matches(night), registry).values(), key=lambda p: (p.name.lower(), p.id)):
        d = p.to_dict()
        for kind, n in d.pop("courts").items():
            d[f"court_{kind}"] = n
        rows.append(d)
    return rows


def create_club_app(board: Scoreboard, *, admin_pin: str | PinCheck, club_name: str = "Court Piece club",
                    state_dir: Path | None = None, limiter: RateLimiter | None = None) -> FastAPI:
    if isinstance(admin_pin, str) and not valid_pin(admin_pin):
        raise ValueError("the director's PIN must be 4 to 12 digits")
    app = FastAPI(title=club_name, docs_url=None, redoc_url=None, openapi_url=None)
    gate = Gate(Sessions(load_or_create_secret(state_dir)), limiter or RateLimiter(), admin_pin)
    director = Director(board.store)
    app.state.gate = gate
    app.add_exception_handler(ClientDisconnect, client_went_away)  # type: ignore[arg-type]
    app.add_middleware(BodyLimit)  # every body counted as it streams: 64 KiB (docs/web.md)

    @app.middleware("http")
    async def headers(request: Request, call_next: Callable[[Request], Any]) -> Response:
        response: Response = await call_next(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    def night_of(night: str | None) -> int | None:
        if night in (None, "", "current"):
            return board.store.night
        if night == "all":
            return None
        try:
            n = int(str(night))
        except ValueError:
            raise HTTPException(400, "night must be a number, 'current' or 'all'") from None
        if not 0 <= n < 2**63:  # SQLite's integers: past them a query is an OverflowError
            raise HTTPException(400, "no such night")
        return n

    # ------------------------------------------------------------ pages
    for route, name in (("/", "club.html"), ("/player/{player:path}", "player.html"), ("/admin", "admin.html")):
        app.add_api_route(route, (lambda n=name: _page(n)), methods=["GET"], include_in_schema=False)
    club_table_page()  # the table screen's page must still fit: fail at start, not on the night

    @app.get("/table/{table}", include_in_schema=False)
    def table_page(table: str) -> HTMLResponse:
        return HTMLResponse(club_table_page(), headers={"Cache-Control": "no-cache"})

    @app.get("/api/languages")
    def langs() -> JSONResponse:
        return JSONResponse(languages())

    # ------------------------------------------------------------ public data
    @app.get("/api/club")
    def club() -> JSONResponse:
        return JSONResponse({"name": club_name, "night": board.store.night, "nights": board.store.nights(),
                             "connected": board.connected, "version": board.version})

    @app.get("/api/tables")
    def tables() -> JSONResponse:
        return JSONResponse(board.snapshot())

    @app.get("/api/tables/{table}")
    def table(table: str) -> JSONResponse:
        data = board.table(table)
        if data is None:
            raise HTTPException(404, "no such table")
        return JSONResponse(data)

    @app.get("/api/standings")
    def standing(night: str | None = None) -> JSONResponse:
        n = night_of(night)
        matches = board.matches(n)
        # a night with registered teams is a tournament: its table counts the rounds' results
        tournament = n is not None and bool(director.teams(n))
        rows = director.standings(n, matches) if tournament and n is not None else standings(matches)
        return JSONResponse({"night": n, "standings": [r.to_dict() for r in rows],
                             "counted": "rounds" if tournament else "matches",
                             "matches": [m.to_dict() for m in matches],
                             "tournament": director.summary(n, matches) if n is not None else None})

    @app.get("/api/players")
    def player_list(night: str | None = "all") -> JSONResponse:
        return JSONResponse(stat_rows(board, night_of(night), director.registry()))

    @app.get("/api/players.csv")
    def players_csv(night: str | None = "all") -> PlainTextResponse:
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=STAT_COLUMNS, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for row in stat_rows(board, night_of(night), director.registry()):
            w.writerow(row)
        return PlainTextResponse(buf.getvalue(), media_type="text/csv", headers={
            "Content-Disposition": 'attachment; filename="courtpiece-players.csv"'})

    @app.get("/api/players/{player:path}")
    def player(player: str, night: str | None = "all") -> JSONResponse:
        """One player by id (``p12`` registered, else ``table:seat:name``); a night with
        no match of theirs gives empty figures, not an error, so a night picker can ask."""
        n = night_of(night)
        registry = director.registry()
        every = players(board.matches(None), registry)
        if player not in every:
            raise HTTPException(404, "no such player")
        stats = players(board.matches(n), registry).get(player) or PlayerStats(every[player].name, player)
        played = [m.to_dict() for m in board.matches(n) if player in seat_ids(m, registry)]
        return JSONResponse({"stats": stats.to_dict(), "matches": played})

    # ------------------------------------------------------------ the director
    app.include_router(session_router(gate))  # the table's own PIN sign-in, delays and all

    async def admin_body(request: Request) -> dict[str, Any]:
        body = await _body(request)
        gate.check_post(request, body.get("csrf"))
        gate.require_admin(request)
        return body

    @app.post("/admin/api/night")
    async def new_night(request: Request) -> JSONResponse:
        body = await admin_body(request)
        name = str(body.get("name") or "").strip()[:60]
        if not name:
            raise HTTPException(400, "name the night")
        return JSONResponse({"night": board.store.new_night(name)})

    @app.post("/admin/api/teams")
    async def add_team(request: Request) -> JSONResponse:
        body = await admin_body(request)
        try:
            team = director.register(str(body.get("a", "")), str(body.get("b", "")))
        except ValueError as err:
            raise HTTPException(400, str(err)) from None
        ids = [pid for _name, pid in board.store.members().get((board.store.night, team), [])]
        return JSONResponse({"team": team, "ids": ids})  # the club ids to register them by on a later night

    @app.post("/admin/api/round")
    async def next_round(request: Request) -> JSONResponse:
        body = await admin_body(request)
        tables_now = board.seatable()  # an archive (NAME~2) is no table to seat a match at
        try:
            pairs = director.next_round(str(body.get("method", "round-robin")), tables_now,
                                        board.matches(board.store.night))
        except ValueError as err:
            raise HTTPException(400, str(err)) from None
        return JSONResponse({"round": pairs})

    @app.post("/admin/api/afresh")
    async def afresh(request: Request) -> JSONResponse:
        body = await admin_body(request)
        try:
            done = board.start_afresh(str(body.get("table", "")))
        except KeyError:
            raise HTTPException(404, "no such table") from None
        except ValueError as err:
            raise HTTPException(409, str(err)) from None
        return JSONResponse(done)

    app.mount("/club-static", StaticFiles(directory=STATIC), name="club-static")
    app.mount("/static", StaticFiles(directory=TABLE_STATIC), name="static")
    return app
