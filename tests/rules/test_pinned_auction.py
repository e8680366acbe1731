"""Band rung's auction and the start of a hand, pinned where mutation testing found no
test looking: whose turn it is to bid after passes, and that the first word of a hand
(a bid, a pass, a call) starts it, so time running out lets it be played out.
See docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import card, deal_first_batch, of_type, strong_hands  # noqa: E402

from controller.rules import Match, Suit, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import BidMade, BidPassed, MatchOver  # noqa: E402


def test_the_bidding_turn_skips_seats_that_have_passed() -> None:
    """004: passes are final. Dealer 0: seat 1 passes, seat 2 bids 9, seat 3 bids 10,
    seat 0 passes; seat 1 may not speak again, so it is seat 2's turn."""
    m = Match(preset("band-rung"), first_dealer=0)
    deal_first_batch(m, strong_hands(2))
    events = m.apply(I.Pass(1))
    assert [e.seat for e in of_type(events, BidPassed)] == [1]
    m.apply(I.Bid(2, 9))
    events = m.apply(I.Bid(3, 10))
    assert [(e.seat, e.tricks, e.open_suit) for e in of_type(events, BidMade)] == [(3, 10, None)]
    m.apply(I.Pass(0))
    auction = m.public_view()["auction"]
    assert auction["turn"] == 2 and auction["passed"] == [0, 1] and not auction["done"]


def test_an_open_challenge_is_announced_as_a_thirteen_in_that_suit() -> None:
    m = Match(preset("band-rung"), first_dealer=0)
    deal_first_batch(m, strong_hands(2))
    m.apply(I.Bid(1, 13))
    events = m.apply(I.OpenChallenge(2, Suit.D))
    assert [(e.seat, e.tricks, e.open_suit) for e in of_type(events, BidMade)] == [(2, 13, Suit.D)]
    assert m.hand.bid_forced is False


@pytest.mark.parametrize(("name", "variants", "first"), [
    ("band-rung", (), I.Bid(1, 9)),
    ("band-rung", (), I.Pass(1)),
    ("court-piece", (), I.CallTrump(1, Suit.S)),
    ("hidden-rung", (), I.HideTrump(1, card("2H"))),
    ("court-piece", ("trump-card-show",), I.ShowTrump(1, card("2H"))),
    ("court-piece", ("trump-deferred",), I.CallTrumpByCard(1, 6)),
])
def test_the_first_word_of_a_hand_starts_it_so_time_up_waits_for_its_end(
        name: str, variants: tuple[str, ...], first: object) -> None:
    """000/001/003: when the agreed time passes, the hand in progress is finished. In
    'played' mode nothing is dealt, so the hand is under way from its first bid, pass or
    trump call: time running out then ends nothing yet."""
    m = Match(preset(name, *variants), first_dealer=0, knowledge="played")
    m.apply(first)
    assert not of_type(m.apply(I.TimeUp()), MatchOver)
    assert m.public_view()["match_over"] is None


def test_without_the_forced_dealer_a_last_bid_after_three_passes_wins_at_once() -> None:
    """004 names the dealer caller at 9 when the others pass; as an option a table may
    let the dealer bid instead: after three passes his bid takes the call outright."""
    m = Match(preset("band-rung", dealer_forced_bid=False), first_dealer=0)
    deal_first_batch(m, strong_hands(2))
    for seat in (1, 2, 3):
        m.apply(I.Pass(seat))
    assert m.public_view()["auction"]["turn"] == 0
    m.apply(I.Bid(0, 11))
    assert m.hand.caller == 0 and m.hand.bid == 11 and m.hand.bid_forced is False
    assert m.public_view()["auction"]["done"] is True
