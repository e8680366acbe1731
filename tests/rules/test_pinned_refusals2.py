"""Refusals mutation testing found unpinned (docs/mutation.md): a card played after band
rung's hand is over (004) names its player -- the dealer's seat too -- and what the next
hand waits for; a refused card is named in the full sentence only.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import banded_hands, card, deal, deal_first_batch, of_type  # noqa: E402

from controller.rules import (  # noqa: E402
    CardSeenTwice,
    Match,
    NotInHand,
    Phase,
    Suit,
    TooManyCards,
    WrongPhase,
    preset,
)
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import Event, HandWon  # noqa: E402

NAMES = ("Asif", "Bilal", "Chetan", "Dua")

# Bilal leads every trick and everyone follows; the kings come after the aces, so no ace
# is led straight after an ace win (004 6.3).
BILAL_WINS = ("AS 2S 3S 4S", "KS 5S 6S 7S", "AH 2H 3H 4H", "KH 5H 6H 7H", "AD 2D 3D 4D",
              "KD 5D 6D 7D", "AC 2C 3C 4C", "KC 5C 6C 7C", "QS 8S 9S TS", "QH 8H 9H TH",
              "QD 8D 9D TD", "QC 8C 9C TC")


def test_a_card_after_band_rungs_hand_is_refused_while_the_next_auction_waits() -> None:
    """Played mode, dealer Asif: Bilal bids nine, hides clubs and makes his bid. Asif, still
    holding a card, lays it down: it is not counted, and the sentence says why."""
    m = Match(preset("band-rung"), first_dealer=0, knowledge="played", seat_names=NAMES)
    for move in (I.Bid(1, 9), I.Pass(2), I.Pass(3), I.Pass(0)):
        m.apply(move)
    m.apply(I.HideTrump(1, suit=Suit.C))
    events: list[Event] = []
    for trick in BILAL_WINS:
        for seat, text in zip((1, 2, 3, 0), trick.split(), strict=True):
            if m.hand.number == 1 and m.phase is Phase.PLAY:
                events += m.apply(I.Play(seat, card(text)))
    (won,) = of_type(events, HandWon)
    assert (won.team, won.reason) == (1, "bid made")
    assert m.hand.number == 2 and m.phase is Phase.CALL
    with pytest.raises(WrongPhase, match=r"^hand 1 is over: JS from Asif is not counted "
                                         r"\(hand 2 waits for the auction\)$"):
        m.apply(I.Play(0, card("JS")))


def test_a_card_drawn_twice_is_named_to_the_admin_and_hidden_from_the_table() -> None:
    """001's draw for the deal: the same card cannot be drawn by two players. The full
    sentence names it; the public one, as for every refusal, says only "a card"."""
    m = Match(preset("court-piece", draw="dealer"), first_dealer=0, seat_names=NAMES)
    m.apply(I.DrawCard(0, card("9S")))
    with pytest.raises(CardSeenTwice) as err:
        m.apply(I.DrawCard(1, card("9S")))
    assert (str(err.value), err.value.public, err.value.card) == \
        ("9S was already drawn", "a card was already drawn", card("9S"))


def test_a_shown_trump_card_not_among_the_first_five_is_refused_by_name() -> None:
    """001 Trump Card Show: the card shown must be one of the caller's first five. Asif
    (seat 0, dealer Dua) holds 5S 5H 5D 5C 9S first; the ace of spades is not among them."""
    m = Match(preset("court-piece", "trump-card-show"), first_dealer=3, seat_names=NAMES)
    deal_first_batch(m, banded_hands())
    with pytest.raises(NotInHand, match="^AS is not among Asif's first 5 cards$") as err:
        m.apply(I.ShowTrump(0, card("AS")))
    assert err.value.public == "a card is not among Asif's first 5 cards"


def test_a_card_dealt_twice_names_the_player_who_has_it() -> None:
    hands = banded_hands()
    m = Match(preset("court-piece"), first_dealer=3, seat_names=NAMES)
    deal_first_batch(m, hands)
    again = hands[1][0]  # Bilal's first card comes over the deal spot again
    with pytest.raises(CardSeenTwice) as err:
        m.apply(I.Deal(again))
    assert (str(err.value), err.value.card) == (f"{again} was already dealt to Bilal this hand", again)


def test_a_53rd_card_is_refused_while_the_trump_call_waits() -> None:
    """Hidden rung (002): Bilal may lay his trump down after the whole deal. Until he does,
    the table waits; a card read over the deal spot now cannot be a 53rd."""
    hands = banded_hands()
    m = Match(preset("hidden-rung"), first_dealer=0, seat_names=NAMES)
    deal(m, hands)
    assert m.phase is Phase.CALL and m.hand.deal_index == 52
    with pytest.raises(TooManyCards) as err:
        m.apply(I.Deal(card("AS")))
    assert str(err.value).startswith("all 52 cards are already dealt, so AS is not counted")
    assert err.value.card == card("AS") and m.hand.deal_index == 52
