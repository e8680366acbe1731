"""Players known by id: two people of one name at two tables stay two players; a player
the director registered carries a club id across tables and nights; the CSV names the
id; an older club file (players by name only) opens with every row kept."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

from clubkit import play
from fastapi.testclient import TestClient

from controller.club.outbox import batches_of
from controller.club.scoreboard import Scoreboard
from controller.club.simclub import SimTable, short_match
from controller.club.standings import players
from controller.club.store import SCHEMA, ClubStore
from controller.club.tournament import Director
from controller.club.web import create_club_app

PIN = "24680"


def test_one_name_at_two_tables_is_two_players(tmp_path):
    board = Scoreboard(ClubStore(tmp_path / "club.sqlite3"))
    play(board, tmp_path, "t1", ["Asha", "Bilal", "Chand", "Dua"], 1)
    play(board, tmp_path, "t2", ["Asha", "Emaan", "Faraz", "Gul"], 2)
    stats = players(board.matches())
    ashas = sorted(pid for pid, p in stats.items() if p.name == "Asha")
    assert ashas == ["t1:0:Asha", "t2:0:Asha"]
    assert all(stats[pid].matches == 1 for pid in ashas)
    with TestClient(create_club_app(board, admin_pin=PIN, state_dir=tmp_path)) as client:
        rows = list(csv.DictReader(io.StringIO(client.get("/api/players.csv").text)))
        assert [r["id"] for r in rows if r["name"] == "Asha"] == ashas
        assert len(rows) == 8
        one = client.get("/api/players/t2:0:Asha").json()
        assert [m["table"] for m in one["matches"]] == ["t2"]
    board.store.close()


def test_a_registered_player_keeps_one_id_across_tables_and_nights(tmp_path):
    store = ClubStore(tmp_path / "club.sqlite3")
    board = Scoreboard(store)
    director = Director(store)
    first = store.night
    director.register("Asha", "Chand")
    director.register("Bilal", "Dua")
    assert store.members()[(first, "Asha & Chand")] == [("Asha", "p1"), ("Chand", "p2")]
    store.set_round(first, 1, [("t1", "Asha & Chand", "Bilal & Dua")])
    play(board, tmp_path, "t1", ["Asha", "Bilal", "Chand", "Dua"], 1)
    play(board, tmp_path, "t2", ["Asha", "Emaan", "Faraz", "Gul"], 2)  # another Asha, not registered
    store.new_night("second night")
    director.register("p1", "Hina")  # the same Asha, registered again by her club id
    store.set_round(store.night, 1, [("t3", "Asha & Hina", "Faraz & Gul")])
    director.register("Faraz", "Gul")
    play(board, tmp_path, "t3", ["Asha", "Faraz", "Hina", "Gul"], 3)
    stats = players(board.matches(), director.registry())
    assert stats["p1"].name == "Asha" and stats["p1"].matches == 2  # t1 on night one, t3 on night two
    assert stats["t2:0:Asha"].matches == 1 and "t1:0:Asha" not in stats and "t3:0:Asha" not in stats
    with TestClient(create_club_app(board, admin_pin=PIN, state_dir=tmp_path)) as client:
        both = client.get("/api/players/p1").json()
        assert [m["table"] for m in both["matches"]] == ["t1", "t3"]
        tonight = client.get("/api/players/p1?night=current").json()
        assert tonight["stats"]["matches"] == 1 and [m["table"] for m in tonight["matches"]] == ["t3"]
        absent = client.get(f"/api/players/t2:0:Asha?night={store.night}").json()
        assert absent["stats"]["matches"] == 0 and absent["matches"] == []  # no match that night: empty
        assert client.get("/api/players/p99").status_code == 404
        st = client.get("/api/standings").json()
        assert {tuple(t["ids"]) for t in st["tournament"]["teams"]} >= {("p1", "p5")}
    store.close()


OLD_SCHEMA = (  # the club file as schema 1 wrote it: teams by name only
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE nights (id INTEGER PRIMARY KEY, name TEXT NOT NULL, started REAL NOT NULL)",
    """CREATE TABLE batches (tbl TEXT NOT NULL, seq INTEGER NOT NULL, prev INTEGER NOT NULL,
        received REAL NOT NULL, night INTEGER NOT NULL, events TEXT NOT NULL, PRIMARY KEY (tbl, seq))""",
    """CREATE TABLE tables (name TEXT PRIMARY KEY, have INTEGER NOT NULL DEFAULT 0,
        last INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'unknown', status_at REAL,
        state TEXT, state_at REAL)""",
    """CREATE TABLE teams (night INTEGER NOT NULL, name TEXT NOT NULL, player_a TEXT NOT NULL,
        player_b TEXT NOT NULL, PRIMARY KEY (night, name))""",
    """CREATE TABLE rounds (night INTEGER NOT NULL, number INTEGER NOT NULL, tbl TEXT NOT NULL,
        team_a TEXT NOT NULL, team_b TEXT NOT NULL, PRIMARY KEY (night, number, tbl))""",
)


def test_an_older_club_file_keeps_its_data_and_gets_ids(tmp_path):
    path = tmp_path / "club.sqlite3"
    t = SimTable("t1", tmp_path / "t1", None, seed=4)
    t.new_match(short_match(["Asha", "Bilal", "Chand", "Dua"], hands=1))
    t.play()
    batches = batches_of(t.referee, "t1")
    t.close()
    old = sqlite3.connect(path)
    for stmt in OLD_SCHEMA:
        old.execute(stmt)
    old.execute("INSERT INTO nights VALUES (1, 'club night', 1.0)")
    old.execute("INSERT INTO meta VALUES ('night', '1')")
    old.executemany("INSERT INTO batches VALUES (?,?,?,?,?,?)",
                    [("t1", b.seq, b.prev, 2.0, 1, json.dumps(b.events)) for b in batches])
    old.execute("INSERT INTO tables (name, have, last) VALUES ('t1', ?, ?)", (batches[-1].seq, batches[-1].seq))
    old.execute("INSERT INTO teams VALUES (1, 'Asha & Chand', 'Asha', 'Chand')")
    old.execute("INSERT INTO rounds VALUES (1, 1, 't1', 'Asha & Chand', 'Bilal & Dua')")
    old.commit()
    old.close()
    store = ClubStore(path)
    assert store._meta("schema") == str(SCHEMA) and store.night == 1
    assert store.members() == {(1, "Asha & Chand"): [("Asha", "p1"), ("Chand", "p2")]}
    assert [b.seq for b, _ in store.batches("t1")] == [b.seq for b in batches]
    board = Scoreboard(store)
    assert board.tables["t1"].have == batches[-1].seq and [m.over for m in board.matches()] == [True]
    stats = players(board.matches(), Director(store).registry())
    assert stats["p1"].name == "Asha" and stats["p2"].name == "Chand" and stats["t1:1:Bilal"].matches == 1
    store.close()
    again = ClubStore(path)  # opening again mints nothing new
    assert again.members() == {(1, "Asha & Chand"): [("Asha", "p1"), ("Chand", "p2")]}
    again.close()
