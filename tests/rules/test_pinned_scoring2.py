"""Scoring verdicts mutation testing found unpinned (docs/mutation.md): online rung's
points (source 002) at tables that choose the caller another way, and the courts for all
thirteen tricks (002's goon court, 003's trick streak).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import band_rung_hand, deal, of_type, run_hand, script_tricks, strong_hands  # noqa: E402

from controller.rules import Match, Phase, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import CourtsScored, HandWon, PointsScored, StreakUpdated  # noqa: E402
from controller.rules.options import Scoring  # noqa: E402


def test_online_points_after_an_auction_count_the_bidders_side_as_the_callers() -> None:
    """Band rung's auction with online scoring: Chetan (seat 2, not the dealer's next seat)
    wins the bid and takes every trick, so his side scores as the caller's team."""
    m = Match(preset("band-rung", scoring=Scoring.ONLINE_SIMPLE), first_dealer=0)
    events = band_rung_hand(m, 0, 9, True)
    assert m.history[-1]["caller"] == 2
    assert [(p.team, p.points, p.reason) for p in of_type(events, PointsScored)] == \
        [(0, 3, "caller's team won with a court")]


def test_online_points_without_a_caller_count_the_dealers_next_seat_as_the_caller() -> None:
    """Be-ranga (no caller; the first card off suit sets trump) with online scoring: the
    side of the seat after the dealer stands in for the caller's. Dealer Dua (seat 3), so
    Asif's side counts as the callers; whoever wins the hand is scored that way."""
    m = Match(preset("be-ranga", scoring=Scoring.ONLINE_SIMPLE), first_dealer=3)
    hands = strong_hands(0)
    events = deal(m, hands)
    for seat, c in script_tricks(hands, 0, [0] * 13):
        if m.phase is Phase.PLAY_ON:
            events += m.apply(I.PlayOn(False))
        if m.phase is not Phase.PLAY:
            break
        events += m.apply(I.Play(seat, c))
    (won,) = of_type(events, HandWon)
    assert m.hand.caller is None and won.tricks[1 - won.team] == 0
    side = "caller's team" if won.team == 0 else "opponents"
    assert [(p.team, p.reason) for p in of_type(events, PointsScored)] == [(won.team, f"{side} won with a court")]


# ------------------------------------------------------------ courts for all thirteen


@pytest.mark.parametrize(("dealer", "court"), [
    (2, (0, 3, "goon court: dealer's team took all 13")),
    (3, (0, 1, "all thirteen tricks")),
])
def test_all_thirteen_in_double_sir_is_a_goon_court_only_for_the_dealers_side(
        dealer: int, court: tuple[int, int, str]) -> None:
    """002: taking all 13 is one court, or a goon court of three when the dealer's own side
    does it. Asif's side (seats 0 and 2) plays on from 7-0 and takes every trick; taking
    all thirteen also starts the count of hands in a row afresh."""
    m = Match(preset("double-sir"), first_dealer=dealer)
    events = run_hand(m, strong_hands(0), [0] * 13, play_on=True)
    assert [(c.team, c.courts, c.reason) for c in of_type(events, CourtsScored)] == [court]
    assert of_type(events, StreakUpdated) == [StreakUpdated(0, 0)]


def test_all_thirteen_pays_only_what_the_trick_streak_has_not_paid_already() -> None:
    """003 counts a court for seven tricks running. At a table paying one court for all
    thirteen, the side that took them all was paid that court at the seventh trick: the
    hand's end adds no second court (and no empty one)."""
    m = Match(preset("trick-streak", court_all_thirteen=1), first_dealer=3)
    events = run_hand(m, strong_hands(0), [0] * 13, play_on=True)
    assert [(c.team, c.courts, c.reason) for c in of_type(events, CourtsScored)] == [(0, 1, "7 tricks in a row")]
    (won,) = of_type(events, HandWon)
    assert won.tricks == (13, 0)


def test_bid_scoring_without_a_caller_counts_the_dealers_side_as_the_bidders() -> None:
    """Be-ranga (no caller, so no bid) at a table set to band rung's bid scoring: the
    dealer's side stands in for the bidders, and a bid of nothing scores nothing."""
    m = Match(preset("be-ranga", scoring=Scoring.BID), first_dealer=3)
    hands = strong_hands(0)
    events = deal(m, hands)
    for seat, c in script_tricks(hands, 0, [0] * 13):
        if m.phase is Phase.PLAY_ON:
            events += m.apply(I.PlayOn(False))
        if m.phase is not Phase.PLAY:
            break
        events += m.apply(I.Play(seat, c))
    (won,) = of_type(events, HandWon)
    side = "made" if won.team == 1 else "lost"  # Dua, the dealer, sits on side 1
    assert [(p.team, p.points, p.reason) for p in of_type(events, PointsScored)] == [(won.team, 0, f"bid of 0 {side}")]


def test_band_rung_keeps_each_sides_points_beside_the_net_figure() -> None:
    """004 shows one net figure, but the tally keeps what each side scored: side 0 makes
    nine twice (9 points each), then side 1 makes nine once."""
    m = Match(preset("band-rung"), first_dealer=0)
    band_rung_hand(m, 0, 9, True)
    band_rung_hand(m, 0, 9, True)
    band_rung_hand(m, 1, 9, True)
    assert (m.tally.score, m.tally.net) == ([18, 9], 9)
