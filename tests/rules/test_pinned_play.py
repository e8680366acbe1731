"""Play-stage verdicts that mutation testing found unpinned: band rung's ace rule when
the leader has nothing but aces left, taking a card back, and the per-seat turn.

Source 004 §6.3 lets a seat that won with a plain ace lead another ace only when it has
no other card to lead; the engine must tell "has no other card" apart from "chose an
ace", from the hand it was dealt, or, in 'played' mode, from what is still unplayed.
See docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
    banded_hands,
    card,
    cards,
    complete_deal,
    deal,
    deal_first_batch,
    of_type,
    parse_hands,
    play,
)

from controller.rules import InvalidChoice, Match, Phase, Suit, WrongPhase, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    CardTakenBack,
    PlayAccepted,
    RevokeFlagged,
    RevokeProof,
    TrickWon,
    TrumpAsked,
    TrumpRevealed,
)

# Seat 0 (the caller, dealer 3) holds eleven diamonds and two more cards; nobody else
# holds a diamond, so seat 0's diamond leads win every trick. Its 11th lead is the ace
# of diamonds (a plain ace win: diamonds were led), then it leads the ace of spades.
DIAMONDS = "4D 5D 6D 7D 8D 9D TD JD QD KD AD"


def ace_deal(last_two: str, early_discards: str, kept: str = "") -> list[list]:
    """Seat 0: the diamonds and ``last_two``; the other 39 cards dealt round seats 1-3,
    ``early_discards`` first so they are thrown on the first diamond leads, ``kept`` last
    so they are still in hand after eleven tricks."""
    mine = cards(DIAMONDS + " " + last_two)
    early, late = cards(early_discards), cards(kept)
    middle = sorted(c for c in map(card, _all_texts()) if c not in mine + early + late)
    rest = early + middle + late
    others = [rest[i::3] for i in range(3)]
    hands = [mine, others[0], others[1], others[2]]
    parse_hands(hands)  # a whole deck, thirteen each
    return hands


def _all_texts() -> list[str]:
    return [r + s for s in "SHDC" for r in "23456789TJQKA"]


def ace_table(hands: list[list], knowledge: str) -> Match:
    """Court Piece with the ace rule on and all thirteen tricks played; diamonds trump."""
    m = Match(preset("court-piece", ace_rules=True, hand_end="all", play_on=False),
              first_dealer=3, knowledge=knowledge)
    if knowledge == "dealt":
        deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.D))
    if knowledge == "dealt":
        deal(m, hands)
    return m


def play_eleven_diamond_tricks(m: Match, hands: list[list]) -> None:
    """Seat 0 leads its eleven diamonds; seats 1-3 throw their cards in dealt order."""
    for t, lead in enumerate(cards(DIAMONDS)):
        m.apply(I.Play(0, lead))
        for seat in (1, 2, 3):
            m.apply(I.Play(seat, hands[seat][t]))
        if m.phase is Phase.PLAY_ON:
            m.apply(I.PlayOn(True))
    assert [e.winner for e in of_type(m.events, TrickWon)] == [0] * 11


@pytest.mark.parametrize("knowledge", ["dealt", "played"])
def test_an_ace_lead_after_an_ace_win_stands_when_only_aces_are_left(knowledge: str) -> None:
    """004 §6.3: seat 0 won with the ace of diamonds and now holds only the aces of spades
    and hearts: leading an ace is all it can do, so nothing is flagged."""
    hands = ace_deal("AS AH", "AC")
    m = ace_table(hands, knowledge)
    play_eleven_diamond_tricks(m, hands)
    events = m.apply(I.Play(0, card("AS")))
    assert [e.card for e in of_type(events, PlayAccepted)] == [card("AS")]
    assert not of_type(events, RevokeFlagged)


@pytest.mark.parametrize("knowledge", ["dealt", "played"])
def test_an_ace_lead_after_an_ace_win_is_flagged_when_another_card_is_left(knowledge: str) -> None:
    """004 §6.3: the same, but seat 0's last two cards are the ace of spades and a small
    club. In 'played' mode the engine knows it because every other ace is already out,
    so seat 0's last card cannot be an ace."""
    hands = ace_deal("AS 2C", "AH AC")
    m = ace_table(hands, knowledge)
    play_eleven_diamond_tricks(m, hands)
    events = m.apply(I.Play(0, card("AS")))
    assert [f.rule for f in of_type(events, RevokeFlagged)] == ["ace-withdraw"]


def test_in_played_mode_an_unseen_ace_keeps_the_lead_unflagged() -> None:
    """'played' mode, one unseen ace left besides the one led: seat 0's last card may be
    that ace, so the engine cannot call the ace lead a breach."""
    hands = ace_deal("AS 2C", "AC", kept="AH")  # the ace of hearts stays unseen
    m = ace_table(hands, "played")
    play_eleven_diamond_tricks(m, hands)
    assert not of_type(m.apply(I.Play(0, card("AS"))), RevokeFlagged)


# ---------------------------------------------------------------------------- take back


def test_a_seat_with_no_card_in_the_trick_has_nothing_to_take_back() -> None:
    hands = ace_deal("AS AH", "AC")
    m = ace_table(hands, "dealt")
    m.apply(I.Play(0, card("4D")))
    with pytest.raises(InvalidChoice):
        m.apply(I.TakeBack(2))


def test_turn_is_only_told_during_play() -> None:
    hands = ace_deal("AS AH", "AC")
    m = Match(preset("court-piece"), first_dealer=3)
    assert m.turn() is None  # the deal has not started
    deal_first_batch(m, hands)
    assert m.turn() is None and m.phase is not Phase.PLAY


# ---------------------------------------------------------------------------- asking


def hidden_table(**overrides: object) -> tuple[Match, list]:
    """Hidden rung, dealer 3: seat 0 hides the 2 of hearts and leads the ace of spades;
    seat 1 holds the spades from the king down to the 9."""
    hands = complete_deal(["AS 2H 3D 4C 5C", "KS QS JS TS 9S", "", ""], voids={})
    m = Match(preset("hidden-rung", **overrides), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.HideTrump(0, card("2H")))
    deal(m, hands)
    m.apply(I.Play(0, card("AS")))
    return m, hands


def test_asking_for_the_trump_while_holding_the_led_suit_is_a_revoke() -> None:
    """002: only a player who cannot follow may ask for the hidden trump. Seat 1 holds
    spades and asks anyway: the trump is turned up (the ask cannot be unsaid) and seat 1
    is flagged for not following, proven by his lowest spade, which only he is told."""
    m, _ = hidden_table()
    events = m.apply(I.AskTrump(1))
    assert [e.seat for e in of_type(events, TrumpAsked)] == [1]
    assert [e.suit for e in of_type(events, TrumpRevealed)] == [Suit.H]
    (flag,) = of_type(events, RevokeFlagged)
    assert (flag.seat, flag.card, flag.trick, flag.rule, flag.suit, flag.proof) == (
        1, None, 1, "follow-suit", Suit.S, None)
    assert [(p.seat, p.card, p.trick) for p in of_type(events, RevokeProof)] == [(1, card("9S"), 1)]
    with pytest.raises(WrongPhase):
        m.apply(I.AskTrump(1))  # the trump is already public


def test_a_player_who_asked_need_not_trump_where_the_table_says_so() -> None:
    """The asker-must-trump rule is an option: without it, seat 1 (void in clubs here
    after a club lead) may ask and then throw a diamond."""
    hands = complete_deal(["4C 2H 3D AS 5S", "KS 3H 9D TD JD", "", ""], voids={1: "C"})
    for must, flagged in ((False, []), (True, ["trump-after-ask"])):
        m = Match(preset("hidden-rung", must_trump_after_ask=must), first_dealer=3)
        deal_first_batch(m, hands)
        m.apply(I.HideTrump(0, card("2H")))
        deal(m, hands)
        m.apply(I.Play(0, card("4C")))
        m.apply(I.AskTrump(1))
        events = m.apply(I.Play(1, card("9D")))
        assert [f.rule for f in of_type(events, RevokeFlagged)] == flagged


# ---------------------------------------------------------------------------- take back


def test_a_card_taken_back_is_in_the_hand_again_and_can_be_played_later() -> None:
    """000's correction: the revoker takes his card back; it is his to play again, and
    nothing of it stays on the table."""
    hands = banded_hands()
    m = Match(preset("rang"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    m.apply(I.Play(0, card("9H")))
    assert of_type(m.apply(I.Play(1, card("8S"))), RevokeFlagged)
    events = m.apply(I.TakeBack(1))
    assert [(e.seat, e.card, e.trick) for e in of_type(events, CardTakenBack)] == [(1, card("8S"), 1)]
    assert "8S" in m.seat_view(1)["my_hand"] and len(m.seat_view(1)["my_hand"]) == 13
    assert [c["card"] for c in m.public_view()["trick"]["cards"]] == ["9H"]
    m.apply(I.Play(1, card("KH")))
    play(m, "QH JH")  # nobody played between the revoke and its correction: no one may change,
    assert of_type(m.events, TrickWon)[-1].winner == 1  # so the last card closes the trick
    m.apply(I.Play(1, card("8S")))  # the same card, now legally led
    assert [c["card"] for c in m.public_view()["trick"]["cards"]] == ["8S"]


def test_played_mode_a_later_card_proves_the_revoke_of_an_earlier_trick() -> None:
    """Only played cards seen: seat 1 threw the 8 of spades on a heart lead, claiming no
    hearts; when it later plays the king of hearts, the flag names the trick and card of
    the claim, the suit not followed, and the proving card (public: it is face up)."""
    m = Match(preset("court-piece"), first_dealer=3, knowledge="played")
    m.apply(I.CallTrump(0, Suit.C))
    play(m, "9H 8S QH JH")  # seat 2 wins and leads
    play(m, "QD JD AD")
    events = m.apply(I.Play(1, card("KH")))
    flags = [(f.seat, f.card, f.trick, f.rule, f.suit, f.proof, f.detail) for f in of_type(events, RevokeFlagged)]
    assert flags == [(1, card("8S"), 1, "follow-suit", Suit.H, card("KH"),
                      "held hearts when it did not play one in trick 1")]
    assert of_type(events, RevokeProof) == []


def test_only_a_full_held_trick_can_be_confirmed() -> None:
    """000's correction window: Confirm closes a trick held open after a flag, once all
    four cards are down; before that there is nothing to confirm."""
    hands = banded_hands()
    m = Match(preset("rang"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    with pytest.raises(WrongPhase):
        m.apply(I.CloseTrick())  # nothing played
    play(m, "9H")
    m.apply(I.Play(1, card("8S")))
    with pytest.raises(WrongPhase):
        m.apply(I.CloseTrick())  # flagged, but two cards still to come


def test_the_proof_of_an_ask_while_able_to_follow_is_the_lowest_of_the_led_suit() -> None:
    """The same revoke on a heart lead: seat 1 holds the 2 and the king of hearts; the
    proof is the 2 of hearts, the lowest card of the suit he could have followed with."""
    hands = complete_deal(["AH 2S 3D 4C 5C", "2H KH QS JS TS", "", ""], voids={})
    m = Match(preset("hidden-rung"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.HideTrump(0, card("2S")))
    deal(m, hands)
    m.apply(I.Play(0, card("AH")))
    events = m.apply(I.AskTrump(1))
    assert [(p.seat, p.card) for p in of_type(events, RevokeProof)] == [(1, card("2H"))]
