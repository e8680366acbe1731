"""A card played after band rung's hand is over is refused with a sentence that names its
player -- the dealer's seat too -- and says what the next hand waits for: the auction
(source 004). Mutation testing found this unpinned (docs/mutation.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import card, of_type  # noqa: E402

from controller.rules import Match, Phase, Suit, WrongPhase, preset  # noqa: E402
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
