"""The club scoreboard's pages and API, fed straight from simulated tables' batches (no
broker): spectators read; only the director, with the PIN, changes anything."""

from __future__ import annotations

import csv
import io

import pytest
from fastapi.testclient import TestClient

from controller.club.outbox import batches_of
from controller.club.scoreboard import Scoreboard
from controller.club.simclub import SimMatch, SimTable
from controller.club.standings import standings
from controller.club.store import ClubStore
from controller.club.topics import StateMessage, StatusMessage
from controller.club.web import create_club_app
from controller.web.security import RateLimiter

PIN = "24680"


@pytest.fixture
def club(tmp_path):
    board = Scoreboard(ClubStore(tmp_path / "club.sqlite3"))
    for i, (name, preset) in enumerate([("t1", "court-piece"), ("t2", "online-points")]):
        t = SimTable(name, tmp_path / name, None, seed=20 + i)
        seats = [f"{name}-{s}" for s in ("Asha", "Bilal", "Chand", "Dua")]
        t.new_match(SimMatch(seats, preset, {"match-end": "hands", "match-target": 2}))
        t.play()
        board.handle(f"courtpiece/tables/{name}/status", StatusMessage("online", 100.0).to_bytes())
        for b in batches_of(t.referee, name):
            board.handle(f"courtpiece/tables/{name}/events", b.to_bytes())
        state = StateMessage(name, t.referee.last_seq, b.seq, 101.0, t.referee.public_state())
        board.handle(f"courtpiece/tables/{name}/state", state.to_bytes())
        t.close()
    board.handle("courtpiece/tables/t2/status", StatusMessage("offline", 200.0).to_bytes())
    app = create_club_app(board, admin_pin=PIN, state_dir=tmp_path, limiter=RateLimiter(max_failures=3))
    with TestClient(app) as client:
        yield client, board
    board.store.close()


def test_pages_and_live_grid(club):
    client, board = club
    for path in ("/", "/table/t1", "/player/t1:0:t1-Asha", "/admin", "/club-static/club.js", "/static/css/app.css"):
        r = client.get(path)
        assert r.status_code == 200, path
    assert "Content-Security-Policy" in client.get("/").headers
    tables = {t["name"]: t for t in client.get("/api/tables").json()}
    assert tables["t1"]["status"] == "idle"  # the match is over
    assert tables["t2"]["status"] == "offline" and tables["t2"]["since"] == 200.0
    assert tables["t1"]["seats"][0] == "t1-Asha" and tables["t1"]["score"] is not None
    one = client.get("/api/tables/t1").json()
    assert one["matches"][0]["over"] and one["state"]["setup"]["preset"] == "court-piece"
    assert client.get("/api/tables/nope").status_code == 404


def test_standings_players_and_csv(club):
    client, board = club
    st = client.get("/api/standings").json()
    assert len(st["standings"]) == 4 and len(st["matches"]) == 2
    assert [r["team"] for r in st["standings"]] == [r.team for r in standings(board.matches())]
    p = client.get("/api/players/t2:1:t2-Bilal").json()
    assert p["stats"]["matches"] == 1 and p["stats"]["hands"] == 2 and len(p["matches"]) == 1
    assert client.get("/api/players/nobody").status_code == 404
    rows = list(csv.DictReader(io.StringIO(client.get("/api/players.csv").text)))
    assert len(rows) == 8 and {"id", "name", "hands_won", "court_seven", "trump_calls_won", "bids_broken"} <= set(rows[0])
    assert sum(int(r["hands_won"]) for r in rows) == 2 * 2 * 2  # two tables, two hands, two winners each
    assert client.get("/api/standings?night=all").json()["night"] is None
    assert client.get("/api/standings?night=x").status_code == 400


def test_spectators_read_only_director_with_pin(club):
    client, _board = club
    csrf = client.get("/admin/api/session").json()["csrf"]
    h = {"X-CSRF-Token": csrf}
    assert client.post("/admin/api/teams", json={"a": "X", "b": "Y"}, headers=h).status_code == 401
    assert client.post("/admin/api/login", json={"pin": "0000"}, headers=h).status_code == 401
    assert client.post("/admin/api/login", json={"pin": PIN}).status_code == 403  # no CSRF token
    r = client.post("/admin/api/login", json={"pin": PIN}, headers=h)
    assert r.status_code == 200
    h = {"X-CSRF-Token": r.json()["csrf"]}
    for a, b in [("A1", "A2"), ("B1", "B2"), ("C1", "C2"), ("D1", "D2")]:
        assert client.post("/admin/api/teams", json={"a": a, "b": b}, headers=h).status_code == 200
    seated = client.post("/admin/api/round", json={"method": "round-robin"}, headers=h).json()["round"]
    assert seated == [["t1", "A1 & A2", "D1 & D2"], ["t2", "B1 & B2", "C1 & C2"]]
    st = client.get("/api/standings").json()["tournament"]
    assert len(st["teams"]) == 4 and st["rounds"][0]["number"] == 1
    assert client.post("/admin/api/round", json={"method": "?"}, headers=h).status_code == 400
    assert client.post("/admin/api/afresh", json={"table": "nope"}, headers=h).status_code == 404
    healthy = client.post("/admin/api/afresh", json={"table": "t1"}, headers=h)
    assert healthy.status_code == 409 and "twice" in healthy.json()["detail"]  # nothing to start afresh
    assert client.post("/admin/api/night", json={"name": "Friday"}, headers=h).json()["night"] == 2
    assert client.get("/api/standings").json()["standings"] == []  # a new night starts empty
    assert len(client.get("/api/standings?night=1").json()["standings"]) == 4
    # a player registered on night 1 is registered again by club id, under the same id
    again = client.post("/admin/api/teams", json={"a": "p1", "b": "E1"}, headers=h).json()
    assert again == {"team": "A1 & E1", "ids": ["p1", "p9"]}
    assert client.post("/admin/api/teams", json={"a": "p99", "b": "E2"}, headers=h).status_code == 400


@pytest.mark.parametrize("night", ["99999999999999999999999", "-99999999999999999999999", "-1"])
def test_a_night_past_any_number_is_a_bad_request_not_a_crash(club, night):
    client, _board = club
    for path in ("/api/standings", "/api/players"):
        r = client.get(path, params={"night": night})
        assert r.status_code == 400 and "night" in r.json()["detail"], (path, r.text)


def test_a_state_nested_past_pythons_depth_or_too_big_breaks_no_page(club):
    """Anyone holding t2's broker password can publish t2's state. One nested 100,000
    deep made /api/tables a 500 for every table, also after a restart (the state is
    kept); one of 100 MB filled memory, database and every spectator's page."""
    from controller.club.scoreboard import MAX_STATE_BYTES

    client, board = club
    before = client.get("/api/tables/t2").json()["state"]
    deep = StateMessage("t2", 99, 1, 1.0, {"x": "PLACE"}).to_bytes().replace(
        b'{"x":"PLACE"}', b"[" * 100_000 + b"]" * 100_000)  # as the table's own writer lays it out
    board.handle("courtpiece/tables/t2/state", deep)
    r = client.get("/api/tables")
    assert r.status_code == 200 and {t["name"] for t in r.json()} == {"t1", "t2"}
    assert client.get("/api/tables/t2").status_code == 200
    assert client.get("/api/tables/t1").json()["state"]["setup"]["preset"] == "court-piece"
    big = StateMessage("t2", 100, 1, 1.0, {"view": {}, "junk": "x" * (MAX_STATE_BYTES + 1)}).to_bytes()
    with pytest.raises(ValueError, match="not kept"):  # the message handler logs it, once a minute
        board.handle("courtpiece/tables/t2/state", big)
    assert len(client.get("/api/tables/t2").content) < MAX_STATE_BYTES
    assert before is not None


def test_a_state_that_is_no_tables_state_and_event_floods_break_no_page(club, monkeypatch):
    """Sent with t2's password: a state whose view is a number was a 500 on /api/tables
    for every table (and after a restart); batches of 8 MB chained one after another
    filled the scoreboard's memory and database."""
    import controller.club.scoreboard as sb
    from controller.club.topics import Batch

    client, board = club
    for bad in ({"view": 5}, {"view": "x"}, {"setup": [1]}):
        board.handle("courtpiece/tables/t2/state", StateMessage("t2", 99, 1, 1.0, bad).to_bytes())
        assert client.get("/api/tables").status_code == 200, bad
        assert client.get("/api/tables/t2").status_code == 200, bad
    t2 = board.tables["t2"]
    big = Batch("t2", t2.have + 1, t2.have, [{"event": "note", "text": "x" * sb.MAX_BATCH_BYTES}],
                journal=t2.journal).to_bytes()
    with pytest.raises(ValueError, match="not kept"):
        board.handle("courtpiece/tables/t2/events", big)
    assert board.tables["t2"].have == t2.have
    monkeypatch.setattr(sb, "MAX_TABLE_BYTES", board.tables["t2"].heard + 600)  # a table that said enough
    small = Batch("t2", t2.have + 1, t2.have, [{"event": "note", "text": "y" * 500}], journal=t2.journal)
    with pytest.raises(ValueError, match="not kept"):
        board.handle("courtpiece/tables/t2/events", small.to_bytes())
