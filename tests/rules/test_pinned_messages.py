"""Who a refusal names. A refused card is a physical card somebody saw land, so the
sentence must name the right players, by the names the table gave them; mutation testing
found the seat lookups behind these sentences unpinned. See docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import banded_hands, card, deal, deal_first_batch, play  # noqa: E402

from controller.rules import ImpossibleInput, Match, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402


def named_table() -> Match:
    """Hidden rung, dealer 3 (Dev): Ali (seat 0) calls, hides a club and leads."""
    hands = banded_hands()
    m = Match(preset("hidden-rung"), first_dealer=3, seat_names=["Ali", "Ben", "Cyd", "Dev"])
    deal_first_batch(m, hands)
    m.apply(I.HideTrump(0, hands[0][3]))
    deal(m, hands)
    return m


def refused(m: Match, move: object) -> str:
    with pytest.raises(ImpossibleInput) as caught:
        m.apply(move)
    return str(caught.value)


def test_a_play_out_of_turn_names_both_players() -> None:
    m = named_table()
    assert refused(m, I.Play(1, card("8S"))) == "it is Ali's turn, not Ben's"


def test_a_card_from_the_wrong_seat_names_whose_it_is() -> None:
    m = named_table()
    assert refused(m, I.Play(0, card("8S"))) == "8S was dealt to Ben, it cannot come from Ali"


def test_an_ask_out_of_turn_names_the_asker_even_from_no_seat() -> None:
    m = named_table()
    assert refused(m, I.AskTrump(2)) == "Cyd may only ask for the trump on his turn"
    assert refused(m, I.AskTrump(4)) == "seat 4 may only ask for the trump on his turn"


def test_a_card_seen_again_says_who_played_it_and_when() -> None:
    m = named_table()
    play(m, "9H 8H")
    assert refused(m, I.Play(2, card("9H"))) == "9H was played by Ali in this trick; it cannot come from Cyd as well"
    play(m, "QH JH")
    assert refused(m, I.Play(2, card("9H"))) == "9H was played by Ali in trick 1; it cannot come from Cyd as well"
    assert refused(m, I.Play(2, card("QH"))) == (
        "QH is already on the table (Cyd played it in trick 1); seen again, it is counted once")
