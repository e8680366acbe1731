"""Pairings on known examples: the circle-method round robin and a Swiss round."""

from __future__ import annotations

import pytest

from controller.club.ledger import MatchRecord
from controller.club.outbox import batches_of
from controller.club.scoreboard import Scoreboard
from controller.club.simclub import SimTable, short_match
from controller.club.standings import standings
from controller.club.store import ClubStore
from controller.club.tournament import Director, round_robin, seat_round, swiss


def test_round_robin_of_four_is_the_circle():
    assert round_robin(["A", "B", "C", "D"]) == [
        [("A", "D"), ("B", "C")],
        [("A", "C"), ("D", "B")],
        [("A", "B"), ("C", "D")],
    ]


def test_round_robin_of_five_gives_each_team_one_bye():
    rounds = round_robin(list("ABCDE"))
    assert len(rounds) == 5 and all(len(r) == 2 for r in rounds)
    met = [frozenset(p) for r in rounds for p in r]
    assert len(met) == len(set(met)) == 10  # every pair exactly once
    sitting_out = [set("ABCDE") - {t for p in r for t in p} for r in rounds]
    assert sorted(t for s in sitting_out for t in s) == list("ABCDE")


def test_swiss_pairs_top_down_and_backtracks():
    ranked = ["A", "B", "C", "D", "E", "F"]
    assert swiss(ranked, []) == [("A", "B"), ("C", "D"), ("E", "F")]
    # after round 1, E-F cannot meet again: B drops to E so D can take F
    assert swiss(ranked, [("A", "B"), ("C", "D"), ("E", "F")]) == [("A", "C"), ("B", "E"), ("D", "F")]
    assert swiss(["A", "B", "C"], []) == [("A", "B")]  # the lowest sits out
    with pytest.raises(ValueError):
        swiss(["A", "B"], [("B", "A")])


def test_the_movement_needs_enough_tables():
    assert seat_round([("A", "B"), ("C", "D")], ["t2", "t1"]) == [("t1", "A", "B"), ("t2", "C", "D")]
    with pytest.raises(ValueError, match="need 2 tables"):
        seat_round([("A", "B"), ("C", "D")], ["t1"])


def finished(table, a, b, winner, courts):
    m = MatchRecord(table, 1, "court-piece", [a[0], b[0], a[1], b[1]], courts=list(courts))
    m.over, m.winner = True, winner
    return m


def test_swiss_rounds_follow_the_standings(tmp_path):
    store = ClubStore(tmp_path / "club.sqlite3")
    d = Director(store)
    names = [d.register(a, b) for a, b in [("A1", "A2"), ("B1", "B2"), ("C1", "C2"), ("D1", "D2")]]
    assert names == ["A1 & A2", "B1 & B2", "C1 & C2", "D1 & D2"]
    first = d.next_round("swiss", ["t1", "t2"], [])
    assert first == [("t1", "A1 & A2", "B1 & B2"), ("t2", "C1 & C2", "D1 & D2")]
    # B and D won: the winners meet, then the losers
    results = [finished("t1", ("A1", "A2"), ("B1", "B2"), 1, (0, 1)),
               finished("t2", ("C1", "C2"), ("D1", "D2"), 1, (0, 2))]
    second = d.next_round("swiss", ["t1", "t2"], results)
    assert second == [("t1", "D1 & D2", "B1 & B2"), ("t2", "A1 & A2", "C1 & C2")]
    assert sorted(store.rounds(store.night)) == [1, 2]
    with pytest.raises(ValueError, match="unknown pairing"):
        d.next_round("knockout", ["t1", "t2"], results)
    store.close()


def test_a_tournament_table_counts_the_rounds_results_only(tmp_path):
    """A friendly between rounds (a registered team against an unregistered pair) is in
    the night's matches but not in the tournament's table; each pairing shows its result."""

    board = Scoreboard(ClubStore(tmp_path / "club.sqlite3"))
    director = Director(board.store)
    for a, b in [("A1", "A2"), ("B1", "B2"), ("C1", "C2"), ("D1", "D2")]:
        director.register(a, b)
    seated = director.next_round("round-robin", ["t1", "t2"], [])
    assert seated == [("t1", "A1 & A2", "D1 & D2"), ("t2", "B1 & B2", "C1 & C2")]
    for name, matches in (("t1", [["A1", "D1", "A2", "D2"], ["A1", "X1", "A2", "X2"]]),
                          ("t2", [["B1", "C1", "B2", "C2"]])):
        table = SimTable(name, tmp_path / name, None, seed=len(name) + len(matches))
        for seats in matches:
            table.new_match(short_match(seats, hands=1))
            table.play()
        for batch in batches_of(table.referee, name):
            board.handle(f"courtpiece/tables/{name}/events", batch.to_bytes())
        table.close()
    night = board.store.night
    every = {r.team: r.played for r in standings(board.matches(night))}
    assert every["A1 & A2"] == 2 and "X1 & X2" in every
    rows = director.standings(night, board.matches(night))
    assert sorted(r.team for r in rows) == ["A1 & A2", "B1 & B2", "C1 & C2", "D1 & D2"]
    assert all(r.played == 1 for r in rows)
    results = [t["result"] for r in director.summary(night, board.matches(night))["rounds"] for t in r["tables"]]
    assert [r["table"] for r in results] == ["t1", "t2"]
    assert all(r["winner"] in (None, *pair) for r, pair in zip(results, [("A1 & A2", "D1 & D2"),
                                                                        ("B1 & B2", "C1 & C2")], strict=True))
