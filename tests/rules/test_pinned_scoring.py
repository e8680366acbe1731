"""Scoring verdicts that mutation testing found unpinned: what the online scores say to
the table, two trick-streak courts inside one hand of all thirteen, option names as the
config file spells them, and the event names the table log uses.

See docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
    banded_hands,
    of_type,
    rotate,
    run_hand,
    strong_hands,
    sweep_hands,
)

from controller.rules import Match, Suit, preset  # noqa: E402
from controller.rules.cards import card  # noqa: E402
from controller.rules.events import (  # noqa: E402
    CourtsScored,
    HandWon,
    MatchStarted,
    PointsScored,
    TrickWon,
)
from controller.rules.options import HandEnd  # noqa: E402


def online_hand(m: Match, winning_team: int, court: bool) -> list:
    """One hand of online rung won by ``winning_team``: with a court its strong seat takes
    every trick; without, the losers take the first two tricks."""
    caller = m.hand.caller
    assert caller is not None
    if court:
        strong = caller if caller % 2 == winning_team else (caller + 1) % 4
        return run_hand(m, strong_hands(strong), [strong] * 8, trump=Suit.S)
    w, o = winning_team, 1 - winning_team
    winners: list[int | None] = [o, o, w, w, w + 2, w + 2, w, w, w + 2, w + 2]
    return run_hand(m, rotate(banded_hands(), winning_team), winners, trump=Suit.C)


@pytest.mark.parametrize(("caller_wins", "court", "scored"), [
    (True, False, (1, 1, "caller's team won the round")),
    (True, True, (1, 3, "caller's team won with a court")),
    (False, False, (0, 2, "opponents won the round")),
    (False, True, (0, 4, "opponents won with a court")),
])
def test_online_simple_says_who_won_the_round_and_how(caller_wins: bool, court: bool,
                                                       scored: tuple[int, int, str]) -> None:
    """002 online simple: the points and what the table is told: the caller's team or
    the opponents, a plain round or a court (winning before the others take a trick)."""
    m = Match(preset("online-points"), first_dealer=0)  # caller seat 1, team 1
    events = online_hand(m, 1 if caller_wins else 0, court)
    assert [(p.team, p.points, p.reason) for p in of_type(events, PointsScored)] == [scored]


@pytest.mark.parametrize(("caller_wins", "scored"), [(True, (1, 1, "court")), (False, (0, 3, "goon court"))])
def test_online_courts_names_the_callers_court_and_the_goon_court(caller_wins: bool,
                                                                   scored: tuple[int, int, str]) -> None:
    """002 online courts: the caller's team's court scores 1, the opponents' (goon) court 3."""
    m = Match(preset("online-points", "courts-scoring"), first_dealer=0)
    events = online_hand(m, 1 if caller_wins else 0, court=True)
    assert [(p.team, p.points, p.reason) for p in of_type(events, PointsScored)] == [scored]


def sweep(m: Match) -> list:
    """The caller's team takes all thirteen tricks of the current hand (playing on at 7-0)."""
    caller = m.hand.caller
    assert caller is not None
    return run_hand(m, sweep_hands(caller), [caller] * 13, trump=Suit.S, play_on=True)


def test_two_trick_streak_courts_in_one_hand_of_thirteen_still_make_fifty_two() -> None:
    """003: seven tricks in a row score a court, counted across hands; all thirteen in a
    hand are worth 52 courts in all, the streak's courts included. Team 0 takes all
    thirteen of hand one (a streak court after trick 7, then six more running), then all
    thirteen of hand two: its streak reaches seven twice inside hand two (after tricks 1
    and 8), and each hand totals exactly 52."""
    m = Match(preset("trick-streak"), first_dealer=3)  # seat 0 calls
    first = sweep(m)
    assert [c.courts for c in of_type(first, CourtsScored) if c.reason == "7 tricks in a row"] == [1]
    assert sum(c.courts for c in of_type(first, CourtsScored) if c.team == 0) == 52
    assert m.public_view()["trick_streak"] == {"team": 0, "count": 6, "target": 7}
    assert m.hand.caller is not None and m.hand.caller % 2 == 0
    second = sweep(m)
    assert [(w.team, w.tricks) for w in of_type(second, HandWon)] == [(0, (13, 0))]
    streak = [c for c in of_type(second, CourtsScored) if c.reason == "7 tricks in a row"]
    assert [(c.team, c.courts) for c in streak] == [(0, 1), (0, 1)]
    assert sum(c.courts for c in of_type(second, CourtsScored) if c.team == 0) == 52


# ---------------------------------------------------------------------------- names


def test_options_can_be_overridden_by_their_config_file_names() -> None:
    """The config file and the CLI write options in kebab-case (``hand-end``)."""
    o = preset("court-piece", **{"hand-end": "all", "sweep-stop": "yes"})
    assert o.hand_end is HandEnd.ALL and o.sweep_stop is True


def test_events_are_named_in_kebab_case_in_the_table_log() -> None:
    assert MatchStarted(0, "dealt").to_dict() == {"event": "match-started", "dealer": 0, "knowledge": "dealt"}
    won = TrickWon(3, 2, ((2, card("AS")), (3, None)), False).to_dict()
    assert won == {"event": "trick-won", "trick": 3, "winner": 2, "cards": [[2, "AS"], [3, None]],
                   "to_pile": False}
    assert PointsScored(1, 3, "court").kind == "points-scored"
