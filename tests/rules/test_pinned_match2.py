"""Match-level surfaces a mutation run found unpinned (second round): a copy of a copy taken
at a hand start, and what ``legal_plays`` offers while a trick is being corrected.

Undo and restart keep copies of the match (``Match.copy``); the admin page and the bots
ask ``legal_plays``. A wrong engine here changes no verdict of a finished hand, yet
rebuilds the wrong position or offers the wrong cards. See docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
    card,
    deal,
    deal_first_batch,
    play_script,
    script_tricks,
    snapshot,
    strong_hands,
)

from controller.rules import Match, OutOfTurn, Phase, Suit, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402


def test_a_copy_of_a_hand_start_copy_rebuilds_from_that_start_after_a_refusal() -> None:
    """Undo keeps a copy taken at a hand start and hands out copies of it. Seat 0 takes the
    first seven tricks on such a copy of a copy; a card from the wrong seat, refused after
    the 7-0 choice had moved the match, must leave it as it was: rebuilt from the same
    hand start (it has no first deal of its own to replay from)."""
    hands = strong_hands(0)
    m = Match(preset("court-piece"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.S))
    deal(m, hands)
    again = m.copy(stack=False).copy()
    play_script(again, script_tricks(hands, 0, [0] * 7, trump=Suit.S))
    assert again.phase is Phase.PLAY_ON and len(again.inputs) == 28
    before = snapshot(again)
    with pytest.raises(OutOfTurn):
        again.apply(I.Play(2, card(again.seat_view(2)["my_hand"][0])))
    assert snapshot(again) == before and len(again.seat_view(0)["my_hand"]) == 6
