"""No action without the PIN; PIN guesses limited; cross-site posts refused."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))

from webdrive import new_match  # noqa: E402

from controller.referee.referee import Referee  # noqa: E402
from controller.web.app import create_app  # noqa: E402
from controller.web.security import SESSION_COOKIE, RateLimiter  # noqa: E402

PIN = "271828"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def referee():
    r = Referee()
    new_match(r, "court-piece")
    return r


@pytest.fixture
def client(referee, clock, tmp_path):
    app = create_app(referee, admin_pin=PIN, state_dir=tmp_path, limiter=RateLimiter(clock=clock))
    with TestClient(app) as c:
        yield c


def csrf(c: TestClient) -> str:
    return c.get("/admin/api/session").json()["csrf"]


def login(c: TestClient, pin: str = PIN):
    return c.post("/admin/api/login", json={"pin": pin, "csrf": csrf(c)})


def api_routes(routes) -> list[APIRoute]:
    """Every HTTP route, through included routers (kept nested by newer FastAPI)."""
    out = []
    for r in routes:
        if isinstance(r, APIRoute):
            out.append(r)
        elif hasattr(r, "original_router"):
            out += api_routes(r.original_router.routes)
    return out


def mutating_routes(app) -> list[str]:
    return sorted({r.path for r in api_routes(app.routes) if r.methods - {"GET", "HEAD"}})


def test_every_changing_endpoint_refuses_without_an_admin_session(client, referee):
    routes = mutating_routes(client.app)
    assert "/admin/api/command" in routes and len(routes) >= 3
    before = referee.public_state()["seq"]
    token = csrf(client)  # a real, but not admin, session
    for path in routes:
        if path in ("/admin/api/login", "/admin/api/logout"):
            continue
        for body in ({"name": "undo"}, {"name": "undo", "csrf": token},
                     {"name": "new-match", "args": {"preset": "rang"}, "csrf": token}):
            r = client.post(path, json=body)
            assert r.status_code in (401, 403), (path, body, r.status_code)
    fresh = TestClient(client.app)  # no cookie at all
    assert fresh.post("/admin/api/command", json={"name": "undo"}).status_code == 403
    assert fresh.get("/admin/api/log").status_code == 401
    assert client.get("/admin/api/log").status_code == 401
    assert referee.public_state()["seq"] == before


def test_reading_changes_nothing(client, referee):
    before = referee.public_state()["seq"]
    gets = [r.path for r in api_routes(client.app.routes) if "GET" in r.methods and "{" not in r.path]
    assert "/api/state" in gets and "/admin/api/session" in gets
    for path in gets:
        client.get(path)
    assert referee.public_state()["seq"] == before


def test_the_pin_unlocks_commands_and_the_log(client, referee):
    old_cookie = (client.get("/admin/api/session"), client.cookies.get(SESSION_COOKIE))[1]
    assert login(client, "000000").status_code == 401
    r = login(client)
    assert r.status_code == 200 and r.json()["admin"] is True
    assert client.cookies.get(SESSION_COOKIE) != old_cookie  # new session id once admin
    token = r.json()["csrf"]
    before = referee.public_state()["seq"]
    r = client.post("/admin/api/command", json={"name": "time-up"}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and r.json()["events"][0]["event"] == "time-up-noted"
    assert referee.public_state()["view"]["match_end"]["time_up"]
    log = client.get("/admin/api/log")
    assert log.status_code == 200 and '"new-match"' in log.text and '"time-up"' in log.text
    r = client.post("/admin/api/command", json={"name": "undo"}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and r.json()["events"][0]["event"] == "undone"
    assert referee.public_state()["seq"] == before + 2
    assert not referee.public_state()["view"]["match_end"]["time_up"]
    # the old (pre-login) cookie is not admin
    other = TestClient(client.app, cookies={SESSION_COOKIE: old_cookie})
    assert other.get("/admin/api/log").status_code == 401
    # a tampered cookie is nobody
    sid, _, mac = client.cookies.get(SESSION_COOKIE).rpartition(".")
    forged = TestClient(client.app, cookies={SESSION_COOKIE: f"{sid}x.{mac}"})
    assert forged.get("/admin/api/log").status_code == 401
    # logging out ends it
    assert client.post("/admin/api/logout", json={"csrf": token}).status_code == 200
    assert client.get("/admin/api/log").status_code == 401


def test_secret_trump_choice_is_taken_and_not_echoed(client, referee):
    from webdrive import BotDriver
    driver = BotDriver(referee, seed=1)
    referee.command("new-match", {"preset": "hidden-rung", "knowledge": "played"}, source="test")
    driver.bots.match = referee.match
    token = login(client).json()["csrf"]
    r = client.post("/admin/api/command", json={"name": "hide-trump", "args": {"suit": "D"}},
                    headers={"X-CSRF-Token": token})
    assert r.status_code == 200
    assert [e["event"] for e in r.json()["events"]] == ["trump-hidden"]
    assert referee.match.hand.trump is not None and not referee.match.hand.trump_public
    assert '"D"' not in client.get("/api/state").text


def test_cross_site_posts_are_refused(client, referee):
    token = login(client).json()["csrf"]
    before = referee.public_state()["seq"]
    evil = {"Origin": "http://evil.example", "X-CSRF-Token": token}
    assert client.post("/admin/api/command", json={"name": "undo"}, headers=evil).status_code == 403
    assert client.post("/admin/api/command", json={"name": "undo"}).status_code == 403  # no token
    assert client.post("/admin/api/command", json={"name": "undo"},
                       headers={"X-CSRF-Token": token[:-1] + ("1" if token.endswith("0") else "0")}).status_code == 403
    form = client.post("/admin/api/login", data={"pin": PIN, "csrf": csrf(client)},
                       headers={"Origin": "http://evil.example"})
    assert form.status_code == 403
    assert client.post("/admin/api/login", data={"pin": PIN}).status_code == 403  # form without token
    assert referee.public_state()["seq"] == before
    same = {"Origin": "http://testserver", "X-CSRF-Token": token}
    assert client.post("/admin/api/command", json={"name": "undo"}, headers=same).status_code == 200
    page = client.get("/admin")
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]


def test_another_sites_page_cannot_open_the_stream(client):
    """A page of another site, open in a player's browser, cannot read the table's stream
    (before, /ws took any Origin); the table's own pages and non-browser clients can."""
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect("/ws", headers={"Origin": "http://evil.example"}) as ws:
            ws.receive_json()
    assert closed.value.code == 1008
    with client.websocket_connect("/ws", headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_json()  # the snapshot
    with client.websocket_connect("/ws") as ws:
        assert ws.receive_json()


def test_pin_guesses_are_rate_limited(client, clock):
    for _ in range(3):
        assert login(client, "111111").status_code == 401
    r = login(client, "111111")  # the fourth wrong PIN starts the delays
    assert r.status_code == 401 and int(r.headers["retry-after"]) > 0
    r = login(client)  # even the right PIN waits now
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
    clock.now += 3
    assert login(client).status_code == 200


def test_a_pin_is_generated_once_and_kept_as_a_private_hash(tmp_path):
    from controller.web.pin import PinFile

    store = PinFile(tmp_path)
    pin = store.load_or_create()
    assert pin is not None and len(pin) == 8 and pin.isdigit()
    text = (tmp_path / "admin-pin").read_text()
    assert pin not in text and text.startswith("scrypt$")
    assert stat.S_IMODE(os.stat(tmp_path / "admin-pin").st_mode) == 0o600
    assert PinFile(tmp_path).load_or_create() is None  # never shown twice
    assert store.verify(pin) and not store.verify("000000")
    with pytest.raises(ValueError):
        create_app(Referee(), admin_pin="")
    with pytest.raises(ValueError):
        create_app(Referee(), admin_pin="abc")


def test_many_addresses_guessing_lose_their_free_tries_but_never_lock_out_another(clock):
    """With hundreds of addresses each guess was three free tries: 250 addresses, 1,000
    PINs checked. Past ``busy_after`` wrong PINs table-wide in the window, a new
    address's first wrong PIN already waits; the organiser's right PIN is not held up,
    and once the window is quiet the free tries are back."""
    limiter = RateLimiter(clock=clock, busy_after=30, busy_window=600.0)
    for i in range(30):
        address = f"10.0.{i}.1"
        assert limiter.begin(address) == 0
        assert limiter.failure(address) == 0  # each address's first wrong PIN is free so far...
    assert limiter.begin("10.0.99.1") == 0
    assert limiter.failure("10.0.99.1") > 0  # ...now it is not
    assert limiter.begin("10.0.99.2") == 0  # an address that typed nothing wrong is not held
    limiter.success("10.0.99.2")
    clock.now += 601
    assert limiter.begin("10.0.99.3") == 0 and limiter.failure("10.0.99.3") == 0


def test_pin_checks_at_once_are_capped_table_wide_so_pages_keep_their_workers():
    """Each PIN check waits for the one scrypt thread on a web worker thread that pages and
    commands share. Checks from many addresses at once beyond MAX_PIN_CHECKS are told to
    try again (429) instead of queueing, and are not counted as wrong PINs."""
    import asyncio
    import threading
    import time

    from fastapi import HTTPException

    from controller.web.admin_routes import MAX_PIN_CHECKS, Gate
    from controller.web.security import Sessions

    running = 0
    most = 0
    lock = threading.Lock()

    class SlowPin:
        def verify(self, pin: str) -> bool:
            nonlocal running, most
            with lock:
                running += 1
                most = max(most, running)
            time.sleep(0.3)
            with lock:
                running -= 1
            return pin == PIN

    limiter = RateLimiter()
    gate = Gate(Sessions(b"k" * 32), limiter, SlowPin())

    class Req:
        def __init__(self, host: str) -> None:
            self.client = type("C", (), {"host": host})()

    async def one(i: int) -> int:
        try:
            await gate.check_pin(Req(f"10.1.0.{i}"), "000000")  # type: ignore[arg-type]
        except HTTPException as exc:
            return exc.status_code
        return 200

    async def burst() -> list[int]:
        return await asyncio.gather(*(one(i) for i in range(20)))

    codes = asyncio.run(burst())
    assert codes.count(401) == MAX_PIN_CHECKS and codes.count(429) == 20 - MAX_PIN_CHECKS
    assert most <= MAX_PIN_CHECKS
    assert all(limiter.retry_after(f"10.1.0.{i}") == 0 for i in range(20))  # none counted against
