"""Online rung's points (source 002) at tables that mix in another way of choosing the
caller: whose side counts as the caller's when an auction or nobody picks him. Mutation
testing found these verdicts unpinned (docs/mutation.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import band_rung_hand, deal, of_type, script_tricks, strong_hands  # noqa: E402

from controller.rules import Match, Phase, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import HandWon, PointsScored  # noqa: E402
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
