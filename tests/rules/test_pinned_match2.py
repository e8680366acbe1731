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
    cards,
    deal,
    deal_first_batch,
    play_script,
    run_hand,
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


def test_legal_plays_while_the_leaders_card_is_taken_back_are_the_whole_hand() -> None:
    """Band rung 6.3: seat 0 won with a plain ace and leads another ace while holding other
    cards; flagged, he takes it back after seat 1 has played. With no card led now, any
    card of seat 2 may go down."""
    from test_pinned_play import ace_deal, ace_table, play_eleven_diamond_tricks

    hands = ace_deal("AS 2C", "AH AC")
    m = ace_table(hands, "dealt")
    play_eleven_diamond_tricks(m, hands)
    m.apply(I.Play(0, card("AS")))
    m.apply(I.Play(1, min(m.hand.holdings[1])))
    m.apply(I.TakeBack(0))
    assert m.hand.led_suit() is None and len(m.hand.trick) == 1
    assert m.legal_plays(2) == sorted(m.hand.holdings[2]) and len(m.legal_plays(2)) == 2


def test_a_match_starts_with_its_dealer_and_knowledge_and_counts_its_deals() -> None:
    """The referee and the bots tell one deal from the next by ``deals_started``: one per
    hand (and per redeal), from the first."""
    with pytest.raises(ValueError):
        Match(preset("court-piece"), first_dealer=4)
    m = Match(preset("court-piece"), first_dealer=2, knowledge="played")
    assert (m.events[0].dealer, m.events[0].knowledge) == (2, "played")  # type: ignore[attr-defined]
    assert m.deals_started == 1
    hands = strong_hands(1)
    m = Match(preset("court-piece"), first_dealer=0)
    assert m.public_view()["hand_knowledge"] == "dealt" and m.public_view()["showing"] is None
    run_hand(m, hands, [1] * 7, trump=Suit.S)
    assert m.hand.number == 2 and m.deals_started == 2


def test_a_table_that_deals_four_first_calls_after_sixteen_cards() -> None:
    """A house deal of 4-4-5: the caller has seen his first four cards after sixteen."""
    m = Match(preset("court-piece", deal_batches=(4, 4, 5)), first_dealer=0)
    hands = strong_hands(1)
    deal(m, hands, 16)
    m.apply(I.CallTrump(1, Suit.S))
    assert m.hand.trump == Suit.S


def test_the_showing_view_says_which_tricks_are_asked_about_and_how_many_cards_are_left() -> None:
    from test_showing import REVOKER, SWEEP, play_until_hand_ends, start

    m = start("court-piece")
    play_until_hand_ends(m)
    (asked,) = m.public_view()["showing"]
    assert asked == {"seat": REVOKER, "suits": ["S"], "tricks": [1], "shown": [], "left": 6}
    c = min((c for c in SWEEP[REVOKER] if int(c) not in m.hand.played and c.suit != Suit.S), key=lambda c: c.rank)
    m.apply(I.ShowCard(REVOKER, c))
    (asked,) = m.public_view()["showing"]
    assert (asked["shown"], asked["left"]) == ([c.text], 5)


def test_the_showing_view_lists_a_seats_suits_in_the_order_it_claimed_them() -> None:
    """'played' mode: seat 3 threw a diamond on the first heart lead and another on the
    first spade lead, then followed; his side took seven running and stopped. He is asked
    to show hearts and spades, in the order of the tricks that made the claims."""
    m = Match(preset("court-piece"), first_dealer=0, knowledge="played")
    m.apply(I.CallTrump(1, Suit.C))
    tricks = ["AH 5H 3D 9H", "AS 5S 2D 8S", "AD 6D 4D 9D", "KD 7D 5D TD",
              "AC 6C 2C 9C", "KC 7C 3C TC", "QC 8C 4C JC"]
    for trick in tricks:
        play_script(m, zip((1, 2, 3, 0), cards(trick), strict=True))
    m.apply(I.PlayOn(False))
    assert m.phase is Phase.SHOW
    (asked,) = m.public_view()["showing"]
    assert (asked["seat"], asked["suits"], asked["tricks"]) == (3, ["H", "S"], [1, 2])
