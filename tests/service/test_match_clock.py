"""The match clock: time left from journaled timestamps, and time called once when it is up.

Time is injected (a wall clock the test moves); the journal is a real SQLite file, and a
restart is a new Referee restoring from it, as the service does.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from tablekit import feed, input_for, new_match_args  # noqa: E402

from controller.referee.journal import Journal  # noqa: E402
from controller.referee.match_clock import SOURCE, MatchClock, match_minutes  # noqa: E402
from controller.referee.referee import Referee  # noqa: E402
from controller.rules import Phase, preset  # noqa: E402
from controller.sim.bots import BotTable  # noqa: E402

START = 1_700_000_000.0
TIMED = {"match-end": "time", "match-target": 30}  # thirty minutes


class Wall:
    """A wall clock the test sets."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def timed_match(referee: Referee, options: dict | None = None) -> None:
    args = new_match_args("court-piece", options=TIMED if options is None else options)
    referee.command("new-match", args, at=START, source="test")


class Table:
    """Bots playing one match through the referee, an input a second after the last."""

    def __init__(self, referee: Referee, seed: int) -> None:
        import random

        self.referee = referee
        self.bots = BotTable(referee.match, random.Random(seed))
        self.at = START

    def play(self, inputs: int = 100_000) -> None:
        for _ in range(inputs):
            if self.referee.match.phase is Phase.OVER:
                return
            self.bots.match = self.referee.match  # undo rebuilds the match object
            kind, payload = input_for(self.bots.next_input())
            self.at += 1.0
            feed(self.referee, kind, payload, self.at)


def clock_calls(referee: Referee) -> list:
    return [e for e in referee.entries if e.source == SOURCE]


def test_minutes_only_for_a_match_played_to_a_time():
    assert match_minutes(preset("court-piece", **TIMED)) == 30
    assert match_minutes(preset("court-piece", **{"match-end": "time"})) == 0  # time called by hand
    assert match_minutes(preset("court-piece", **{"match-end": "hands", "match-target": 30})) == 0


def test_time_left_counts_from_the_new_match_input_and_is_in_the_public_state():
    r = Referee()
    timed_match(r)
    wall = Wall(START + 61.5)
    clock = MatchClock(r, now=wall)
    state = r.public_state()["clock"]
    assert state == {"minutes": 30, "started_at": START, "ends_at": START + 1800, "left": 1738.5, "time_up": False}
    wall.now = START + 5000
    assert r.public_state()["clock"]["left"] == 0.0
    assert clock.reading() is not None


def test_no_clock_in_a_match_without_minutes():
    r = Referee()
    timed_match(r, {"match-end": "hands", "match-target": 2})
    clock = MatchClock(r, now=Wall(START + 10_000))
    assert r.public_state()["clock"] is None
    assert not clock.tick()
    assert not r.match.time_up


def test_time_up_is_called_once_and_the_engine_finishes_the_hand():
    r = Referee()
    timed_match(r)
    wall = Wall(START)
    clock = MatchClock(r, now=wall)
    table = Table(r, 3)
    table.play(70)  # into the first hand's play
    assert r.match.phase is not Phase.OVER
    wall.now = START + 1799.9
    assert not clock.tick()
    wall.now = START + 1800.0
    assert clock.tick()
    assert not clock.tick()  # once
    calls = clock_calls(r)
    assert [c.payload["name"] for c in calls] == ["time-up"] and calls[0].at == START + 1800.0
    assert r.match.time_up and r.public_state()["clock"]["time_up"]
    assert any(e.get("event") == "time-up-noted" for e in r.events)
    hands_before = r.match.tally.hands_played
    assert r.match.phase is not Phase.OVER  # the hand in progress is played out first
    table.play()
    over = [e for e in r.events if e.get("event") == "match-over"]
    assert len(over) == 1 and over[0].get("reason") == "time is up"
    assert r.match.tally.hands_played == hands_before + 1


def test_an_undone_call_is_not_made_again():
    r = Referee()
    timed_match(r)
    wall = Wall(START + 1800)
    clock = MatchClock(r, now=wall)
    Table(r, 3).play(20)
    assert clock.tick()
    r.command("undo", source="admin")  # the table plays one more hand
    assert not r.match.time_up
    wall.now += 600
    assert not clock.tick()
    assert not r.match.time_up


def test_a_restart_reads_the_same_clock_and_does_not_call_time_twice(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    r = Referee(journal)
    timed_match(r)
    Table(r, 3).play(60)  # past a hand start: the restart begins at a snapshot
    journal.close()

    wall = Wall(START + 600)
    journal = Journal.open(path)
    again = Referee(journal)
    again.restore()
    assert not any(e.get("event") == "match-setup" for e in again.events)  # came back from a snapshot
    clock = MatchClock(again, now=wall)
    assert again.public_state()["clock"]["left"] == 1200.0
    wall.now = START + 1800
    assert clock.tick()
    journal.close()

    journal = Journal.open(path)
    third = Referee(journal)
    third.restore()
    assert third.match.time_up
    clock = MatchClock(third, now=Wall(START + 4000))
    assert third.public_state()["clock"]["time_up"]
    assert not clock.tick()
    assert sum(1 for e in journal.entries() if e.source == SOURCE) == 1
    journal.close()


def test_a_new_match_restarts_the_clock():
    r = Referee()
    timed_match(r)
    wall = Wall(START + 100)
    MatchClock(r, now=wall)
    r.command("new-match", new_match_args("court-piece", options={"match-end": "time", "match-target": 5}),
              at=START + 90, source="test")
    assert r.public_state()["clock"]["left"] == 290.0
