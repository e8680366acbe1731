"""The move timer records one timeout per turn when a seat is too slow (online preset)."""

from __future__ import annotations

from controller.readers.sightings import CardSeen
from controller.referee.move_timer import MoveTimer
from controller.referee.referee import Referee


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_slow_seat_gets_one_timeout_per_turn_and_the_clock_restarts():
    r = Referee()
    r.command("new-match", {"preset": "online-points", "knowledge": "played", "first_dealer": 0,
                            "options": {"move-timer": 15}}, at=0.0)
    r.command("call-trump", {"suit": "S"}, at=0.0)
    clock = Clock()
    timer = MoveTimer(r, clock=clock)
    assert not timer.tick()  # the clock starts for seat 1's lead
    clock.now = 14.9
    assert not timer.tick()
    clock.now = 15.1
    assert timer.tick()
    clock.now = 40.0
    assert not timer.tick()  # once per turn
    timeouts = [e for e in r.events if e["event"] == "move-timed-out"]
    assert [e["seat"] for e in timeouts] == [1]
    r.sighting(CardSeen("seat1", "AH", 41.0, "hub"))
    assert not timer.tick()  # seat 2's turn: a fresh clock
    clock.now = 50.0
    assert not timer.tick()
    clock.now = 56.5
    assert timer.tick()
    assert [e["seat"] for e in r.events if e["event"] == "move-timed-out"] == [1, 2]


def test_no_timer_without_the_option():
    r = Referee()
    r.command("new-match", {"preset": "court-piece", "knowledge": "played"}, at=0.0)
    r.command("call-trump", {"suit": "S"}, at=0.0)
    clock = Clock()
    timer = MoveTimer(r, clock=clock)
    timer.tick()
    clock.now = 10_000
    assert not timer.tick()
