"""Admin routes: everything that changes the match, behind the table PIN.

Each POST passes three gates, in this order: the browser's ``Origin`` must be this
site, the CSRF token must match the session cookie, and (except for logging in) the
session must be admin. Wrong PINs slow down the address that typed them
(:class:`controller.web.security.RateLimiter`).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from starlette.concurrency import run_in_threadpool

from controller.referee.actions import COMMANDS
from controller.referee.journal import export_log, write_entries
from controller.referee.referee import Referee
from controller.rules.options import PRESETS
from controller.web.commands_now import commands_now
from controller.web.pin import PinCheck, PlainPin
from controller.web.public_routes import page
from controller.web.redact import public_event
from controller.web.security import SESSION_COOKIE, RateLimiter, Sessions, same_origin


def default_table_log(referee: Referee) -> str:
    """The table log (header + inputs, JSON lines) straight from the referee."""
    buf = io.StringIO()
    if referee.journal is not None:
        export_log(referee.journal, buf)
        return buf.getvalue()
    header = {"type": "header", "version": 1, **(referee.setup.to_dict() if referee.setup else {})}
    buf.write(json.dumps(header) + "\n")
    write_entries(list(referee.entries), buf)
    return buf.getvalue()


#: PIN checks that may wait for the hash at once, table-wide; more are told to try again.
MAX_PIN_CHECKS = 4
#: The header that marks that 429 (the admin page tries again by itself, a second later).
PIN_QUEUE = "X-Pin-Queue"


class Gate:
    """The checks shared by every admin route."""

    def __init__(self, sessions: Sessions, limiter: RateLimiter, pin: str | PinCheck) -> None:
        self.sessions = sessions
        self.limiter = limiter
        self.pin: PinCheck = PlainPin(pin) if isinstance(pin, str) else pin
        #: called after each right PIN (the table screen stops showing a new PIN then)
        self.on_login: list[Callable[[], None]] = []
        #: PIN checks under way (waiting for the hash or being hashed)
        self._checking = 0

    async def check_pin(self, request: Request, pin: Any) -> None:
        """Raise 429 while this address must wait, 401 for a wrong PIN.

        The wait is checked before the PIN is hashed, so a locked-out guesser costs the
        Pi no scrypt work, and an address has one PIN check at a time (guesses sent
        together wait their turn, each counted); the hash runs in a worker thread, off
        the event loop.
        """
        client = request.client.host if request.client else "?"
        wait = self.limiter.begin(client)
        if wait > 0:
            raise HTTPException(429, "too many wrong PINs, or one being checked: wait and try again",
                                headers={"Retry-After": str(int(wait) + 1)})
        if self._checking >= MAX_PIN_CHECKS:
            # PINs are hashed one at a time; each waiting check holds one of the web
            # server's worker threads, which the pages and the table's commands share.
            # 250 addresses guessing at once held them all: /api/state took 8-15 s.
            self.limiter.abandon(client)
            raise HTTPException(429, "other PINs are being checked: try again in a moment",
                                headers={"Retry-After": "1", PIN_QUEUE: "busy"})
        self._checking += 1  # (on the event loop: no lock needed)
        try:
            right = await run_in_threadpool(self.pin.verify, str(pin or "").strip())
        except BaseException:
            self.limiter.abandon(client)
            raise
        finally:
            self._checking -= 1
        if not right:
            wait = self.limiter.failure(client)
            raise HTTPException(401, "wrong PIN", headers={"Retry-After": str(int(wait) + 1)} if wait else None)
        self.limiter.success(client)
        for hook in self.on_login:
            hook()

    def sid(self, request: Request) -> str | None:
        return self.sessions.sid_of(request.cookies.get(SESSION_COOKIE))

    def check_post(self, request: Request, token: str | None) -> str:
        """Origin and CSRF for any POST; returns the session id."""
        self._same_site(request)
        sid = self.sid(request)
        if not self.sessions.csrf_ok(sid, token or request.headers.get("x-csrf-token")):
            raise HTTPException(403, "missing or bad CSRF token: reload the admin page")
        assert sid is not None
        return sid

    def before_upload(self, request: Request) -> None:
        """Origin and admin session, from the headers alone, before a large body is read:
        parsing an upload spools it to a temporary file, and nobody else's is read at all.
        (Its CSRF token, in the body, is checked after, by :meth:`check_post`.)"""
        self._same_site(request)
        self.require_admin(request)

    @staticmethod
    def _same_site(request: Request) -> None:
        h = request.headers
        if not same_origin(h.get("origin"), h.get("referer"), h.get("host")):
            raise HTTPException(403, "cross-site request refused")

    def require_admin(self, request: Request) -> str:
        sid = self.sid(request)
        if not self.sessions.is_admin(sid):
            raise HTTPException(401, "admin PIN required")
        assert sid is not None
        return sid


def set_session(response: Response, cookie: str) -> None:
    response.set_cookie(SESSION_COOKIE, cookie, httponly=True, samesite="strict", path="/")


async def _body(request: Request) -> dict[str, Any]:
    """A JSON object or form fields; anything else is an empty dict."""
    ctype = request.headers.get("content-type", "")
    try:
        if ctype.startswith("application/json"):
            data = await request.json()
            return data if isinstance(data, dict) else {}
        if ctype.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
            return {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    except (ValueError, UnicodeDecodeError, RecursionError):  # nested past Python's depth
        raise HTTPException(400, "unreadable request body") from None
    return {}


def session_router(gate: Gate) -> APIRouter:
    """Signing in and out with the admin PIN: the same on a table and on the club's
    scoreboard (per-address PIN delays, CSRF, a new session id once admin)."""
    r = APIRouter()

    @r.get("/admin/api/session")
    def session(request: Request) -> JSONResponse:
        sid = gate.sid(request)
        cookie = None
        if sid is None:
            sid, cookie = gate.sessions.new_cookie()
        resp = JSONResponse({"admin": gate.sessions.is_admin(sid), "csrf": gate.sessions.csrf_token(sid)},
                            headers={"Cache-Control": "no-store"})
        if cookie:
            set_session(resp, cookie)
        return resp

    @r.post("/admin/api/login")
    async def login(request: Request) -> JSONResponse:
        body = await _body(request)
        old = gate.check_post(request, body.get("csrf"))
        await gate.check_pin(request, body.get("pin"))
        gate.sessions.revoke(old)
        sid, cookie = gate.sessions.new_cookie()  # a new id once admin: no session fixation
        gate.sessions.grant_admin(sid)
        resp = JSONResponse({"admin": True, "csrf": gate.sessions.csrf_token(sid)})
        set_session(resp, cookie)
        return resp

    @r.post("/admin/api/logout")
    async def logout(request: Request) -> JSONResponse:
        body = await _body(request)
        sid = gate.check_post(request, body.get("csrf"))
        gate.sessions.revoke(sid)
        return JSONResponse({"admin": False})

    return r


def admin_router(referee: Referee, gate: Gate, table_log: Callable[[], str] | None) -> APIRouter:
    r = APIRouter()
    r.include_router(session_router(gate))

    @r.get("/admin", include_in_schema=False)
    def admin_page() -> FileResponse:
        return page("admin.html")

    @r.post("/admin/api/command")
    async def command(request: Request) -> JSONResponse:
        body = await _body(request)
        gate.check_post(request, body.get("csrf"))
        gate.require_admin(request)
        name = str(body.get("name", ""))
        args = body.get("args") or {}
        if name not in COMMANDS or not isinstance(args, dict):
            raise HTTPException(400, f"unknown command {name!r}")
        if name == "new-match" and args.get("preset") not in PRESETS:
            raise HTTPException(400, "choose a preset")
        # In a worker thread: an undo rebuilds the hand under the referee's lock, and the
        # event loop must keep serving the table screen and the other clients meanwhile.
        events = await run_in_threadpool(referee.command, name, args, source="admin")
        shown = [e for e in (public_event(ev) for ev in events) if e is not None]
        return JSONResponse({"events": shown})

    @r.get("/admin/api/state")
    def admin_state(request: Request) -> JSONResponse:
        """The state with every revoke proof: a proving card may still be in a hand, so
        the public state names it only once the rules make it public."""
        gate.require_admin(request)
        return JSONResponse(referee.admin_state(), headers={"Cache-Control": "no-store"})

    @r.get("/admin/api/commands")
    def commands(request: Request) -> JSONResponse:
        """The commands the referee would accept now, each with what it will do: the
        admin page offers only these."""
        gate.require_admin(request)
        return JSONResponse({"seq": referee.last_seq, "commands": commands_now(referee)},
                            headers={"Cache-Control": "no-store"})

    @r.get("/admin/api/log")
    def download_log(request: Request) -> PlainTextResponse:
        gate.require_admin(request)
        text = table_log() if table_log is not None else default_table_log(referee)
        return PlainTextResponse(text, media_type="application/x-ndjson", headers={
            "Content-Disposition": 'attachment; filename="table-log.jsonl"', "Cache-Control": "no-store"})

    return r
