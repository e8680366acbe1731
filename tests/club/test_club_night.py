"""A club night through a real broker: a round robin of four teams on two tables, the
broker killed mid-round, one table's link cut for a while. The scoreboard must end with
every table's journal exactly once: standings equal what the journals say."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from clubkit import board_link, journal_matches, table_link, wait_for  # noqa: E402
from cutproxy import CutProxy  # noqa: E402

from controller.club.outbox import batches_of  # noqa: E402
from controller.club.scoreboard import Scoreboard  # noqa: E402
from controller.club.simclub import SimMatch, SimTable  # noqa: E402
from controller.club.standings import players, standings  # noqa: E402
from controller.club.store import ClubStore  # noqa: E402
from controller.club.tournament import Director, round_result  # noqa: E402
from controller.referee.journal import Journal  # noqa: E402

PLAYERS = [("Asha", "Chand"), ("Bilal", "Dua"), ("Esha", "Ghani"), ("Farah", "Hina")]


def caught_up(board: Scoreboard, tables: list[SimTable]) -> bool:
    for t in tables:
        want = batches_of(t.referee, t.name)
        live = board.tables.get(t.name)
        if want and (live is None or live.have != want[-1].seq):
            return False
    return True


def test_round_robin_night_with_faults(broker, tmp_path):
    store = ClubStore(tmp_path / "club.sqlite3")
    board = Scoreboard(store, board_link(broker)).start()
    director = Director(store)
    teams = {director.register(a, b): (a, b) for a, b in PLAYERS}
    with CutProxy(broker.port) as proxy:
        t1 = SimTable("t1", tmp_path / "t1", table_link(broker, "t1"), seed=11, revoke_rate=0.04).start()
        t2 = SimTable("t2", tmp_path / "t2", table_link(broker, "t2", port=proxy.port), seed=12,
                      revoke_rate=0.04).start()
        tables = {"t1": t1, "t2": t2}
        try:
            for number in (1, 2, 3):
                seated = director.next_round("round-robin", list(tables), board.matches(store.night))
                assert len(seated) == 2
                for name, a, b in seated:
                    (p0, p2), (p1, p3) = teams[a], teams[b]
                    preset = "court-piece" if name == "t1" else "online-points"
                    tables[name].new_match(SimMatch([p0, p1, p2, p3], preset,
                                                    {"match-end": "hands", "match-target": 2}))
                if number == 2:  # the broker dies mid-round and comes back
                    t1.play(steps=60)
                    t2.play(steps=60)
                    broker.kill()
                    t1.play(steps=40)
                    t2.play(steps=40)
                    broker.start()
                if number == 3:  # t2's Wi-Fi drops for a while; it keeps refereeing
                    wait_for(lambda: t2.publisher.connected, "t2 back on the broker")
                    t2.play(steps=30)
                    proxy.cut()
                    t2.play()
                    t1.play()
                    wait_for(lambda: board.tables["t2"].status == "offline", "t2 shown offline")
                    proxy.restore()
                for t in tables.values():
                    t.play()
            wait_for(lambda: caught_up(board, list(tables.values())), "the scoreboard to catch up")
        finally:
            for t in tables.values():
                t.close()
            board.stop()

    # every input exactly once, in journal order
    for name, t in tables.items():
        want = batches_of(t.referee, name)
        held = [b for b, _night in store.batches(name)]
        assert [(b.seq, b.prev, b.events) for b in held] == [(b.seq, b.prev, b.events) for b in want]
    # standings equal what the journals say
    expected = []
    for name, t in tables.items():
        with Journal.open(t.state_dir / "journal.sqlite3") as journal:
            expected += journal_matches(name, list(journal.entries()))
    got = board.matches(store.night)
    assert len(got) == len(expected) == 6
    assert [r.to_dict() for r in standings(got)] == [r.to_dict() for r in standings(expected)]
    assert sorted((m.table, m.seats, m.courts, m.points, m.winner, m.hands_won) for m in got) == \
        sorted((m.table, m.seats, m.courts, m.points, m.winner, m.hands_won) for m in expected)
    # the players' figures add up to the same matches and hands
    stats = players(got)
    assert sum(p.matches for p in stats.values()) == 4 * 6
    assert sum(p.hands_won for p in stats.values()) == 2 * sum(sum(m.hands_won) for m in expected)
    flagged = {name: p.revokes for name, p in players(expected).items()}
    assert {name: p.revokes for name, p in stats.items()} == flagged and sum(flagged.values()) > 0
    # every round's result is on the board, and every pair of teams met once
    rounds = store.rounds(store.night)
    met = set()
    for seated in rounds.values():
        for _t, a, b in seated:
            assert round_result((a, b), got) is not None
            met.add(frozenset((a, b)))
    assert len(met) == 6
    assert sum(live.duplicates for live in board.tables.values()) >= 0  # duplicates were dropped, not counted
    store.close()
