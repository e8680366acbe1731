"""What the table is told when a card lands after its hand is over: mutation testing
found the choice of sentence unpinned. A card read after the last trick (a late read,
or players carrying on) belongs to the hand just finished, not to a mistake in the new
one, and the refusal says so; anything else gets the ordinary refusal.
See docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
    card,
    complete_deal,
    deal_first_batch,
    play_script,
    run_hand,
    script_tricks,
    strong_hands,
)

from controller.rules import Match, OutOfTurn, Suit, WrongPhase, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402


def after_one_hand(knowledge: str, names: list[str] | None = None) -> Match:
    """Court Piece, dealer 0: seat 1 calls spades and takes the first seven tricks; the
    winners stop there, so hand 2 is waiting to begin."""
    m = Match(preset("court-piece"), first_dealer=0, knowledge=knowledge, seat_names=names)
    hands = strong_hands(1)
    if knowledge == "dealt":
        run_hand(m, hands, [1] * 7, trump=Suit.S)
    else:
        m.apply(I.CallTrump(1, Suit.S))
        play_script(m, script_tricks(hands, 1, [1] * 7, trump=Suit.S))
        m.apply(I.PlayOn(False))
    assert m.hand.number == 2
    return m


def refusal(m: Match, seat: int, text: str) -> str:
    with pytest.raises((WrongPhase, OutOfTurn)) as caught:
        m.apply(I.Play(seat, card(text)))
    return str(caught.value)


def test_a_card_after_the_last_trick_is_told_as_belonging_to_the_finished_hand() -> None:
    m = after_one_hand("dealt", ["Ali", "Ben", "Cyd", "Dev"])
    assert refusal(m, 2, "2C") == "hand 1 is over: 2C from Cyd is not counted (hand 2 waits for the deal)"


def test_in_played_mode_the_next_hand_waits_for_the_trump_call() -> None:
    m = after_one_hand("played")
    assert refusal(m, 3, "4D") == "hand 1 is over: 4D from seat 3 is not counted (hand 2 waits for the trump call)"


def test_once_the_next_deal_has_begun_a_stray_card_is_an_ordinary_refusal() -> None:
    m = after_one_hand("dealt")
    m.apply(I.Deal(card("2C")))
    assert refusal(m, 2, "3C") == "the deal is not finished (1 of 52 cards seen)"


def test_a_card_from_no_seat_is_not_blamed_on_the_finished_hand() -> None:
    m = after_one_hand("dealt")
    assert "hand 1 is over" not in refusal(m, 4, "2C")


def test_after_a_redeal_no_hand_was_played_to_its_end() -> None:
    """002's low-cards redeal: the same hand is dealt again; a card played then is not a
    leftover of a finished hand."""
    m = Match(preset("online-points", "redeal"), first_dealer=0)
    deal_first_batch(m, complete_deal(["", "2S 3H 4D 5C TS", "", ""]))
    m.apply(I.RequestRedeal(1))
    assert "is over" not in refusal(m, 2, "2C")


def test_the_first_hand_of_a_match_has_no_finished_hand_before_it() -> None:
    m = Match(preset("court-piece"), first_dealer=0)
    assert "is over" not in refusal(m, 1, "2C")


def test_once_the_next_hand_has_a_call_a_stray_card_is_an_ordinary_refusal() -> None:
    """001 Trump Deferred in 'played' mode: the caller of hand 2 has asked for his sixth
    card to be turned; hand 2 has begun, so a card now is a mistake in hand 2."""
    m = Match(preset("court-piece", "trump-deferred"), first_dealer=0, knowledge="played")
    hands = strong_hands(1)
    m.apply(I.CallTrump(1, Suit.S))
    play_script(m, script_tricks(hands, 1, [1] * 7, trump=Suit.S))
    m.apply(I.PlayOn(False))
    assert m.hand.number == 2 and m.hand.caller is not None
    m.apply(I.CallTrumpByCard(m.hand.caller, 6))
    assert refusal(m, 0, "2C") == "play waits for the trump call"
