"""Played mode's own corrections and later proofs, pinned where a mutation run (bench/
mutation.py at 2bafc57) found verdicts no test held: the suit a correction is judged by,
what its flag says, what a court penalty records of the card, a correction with a card
known to be another seat's, a revoke proven at once not asked about again at showing, the
trick a ruling dates a later-proven revoke to, and the trick a hidden trump is revealed in
when a revoke ends the hand mid-trick."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
    card,
    cards,
    change_flagged_at_once,
    complete_deal,
    deal,
    deal_first_batch,
    of_type,
    play,
)

from controller.rules import Match, NotInHand, Suit, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    CardNotCounted,
    CardTakenBack,
    CourtsScored,
    HandResultChanged,
    HandWon,
    PlayAccepted,
    RevokeFlagged,
    ShowAsked,
    SuspicionCleared,
    TrickWon,
    TrumpRevealed,
)


def played(name: str, trump: Suit = Suit.C, **overrides: object) -> Match:
    """Cards seen only when played; dealer 0, so seat 1 calls and leads."""
    m = Match(preset(name, **overrides), first_dealer=0, knowledge="played")
    m.apply(I.CallTrump(m.hand.caller, trump))
    return m


def test_a_correction_with_the_lowest_card_of_the_led_suit_is_one_and_withdraws_the_claim() -> None:
    """The two of hearts is a heart like any other: the correction is flagged as a
    follow-suit revoke of this trick, his claim to lack hearts is gone, and a heart he
    plays later proves nothing."""
    m = played("rang")
    play(m, "KH 3C 6H")
    events = m.apply(I.Play(2, card("2H")))
    (flag,) = of_type(events, RevokeFlagged)
    assert (flag.seat, flag.card, flag.proof, flag.suit) == (2, card("3C"), card("2H"), Suit.H)
    assert (flag.rule, flag.trick) == ("follow-suit", 1)
    assert [e.card for e in of_type(events, CardTakenBack)] == [card("3C")]
    assert Suit.H not in m.hand.voids[2]
    m.apply(I.Play(0, card("AH")))
    events = m.apply(I.CloseTrick())
    (trick,) = of_type(events, TrickWon)
    assert dict(trick.cards)[2] == card("2H") and not of_type(m.events, HandWon)


def test_a_correction_under_a_court_penalty_records_the_card_as_not_counted() -> None:
    """003: the correction's flag ends the hand; the card he put down belongs to no
    trick, and the record says whose it was and why it did not count."""
    m = played("trick-streak")
    leader = m.hand.turn()
    seats = [(leader + k) & 3 for k in range(4)]
    m.apply(I.Play(seats[0], card("KH")))
    m.apply(I.Play(seats[1], card("3C")))
    events = m.apply(I.Play(seats[1], card("7H")))
    assert of_type(events, HandWon)
    assert [(e.seat, e.card, e.reason) for e in of_type(events, CardNotCounted)] == [
        (seats[1], card("7H"), "the hand ended with the revoke")
    ]


def test_a_correction_with_a_card_known_to_be_another_seats_is_refused_and_leaves_nothing() -> None:
    """A card taken back is known to be its seat's; another seat correcting with it is
    refused, and neither the flag nor the withdrawn claim of that attempt remains."""
    m = played("rang")
    play(m, "KH 3C 6H")
    m.apply(I.Play(2, card("4H")))  # seat 2 corrects; seat 3 played after him
    m.apply(I.TakeBack(3))  # the six of hearts is back in seat 3's hand, known
    m.apply(I.Play(3, card("5H")))
    m.apply(I.Play(0, card("AH")))  # seat 0 wins and leads
    play(m, "9H 2S")  # seat 1 plays off hearts
    flags = len(of_type(m.events, RevokeFlagged))
    with pytest.raises(NotInHand):
        m.apply(I.Play(1, card("6H")))
    assert Suit.H in m.hand.voids[1]
    assert len(of_type(m.events, RevokeFlagged)) == flags


def test_a_hidden_trump_is_revealed_as_of_the_trick_a_revoke_ended_the_hand_in() -> None:
    """A hand ended in the middle of a trick by a revoke under a court penalty: the
    hidden trump is told as revealed in that trick, not the one before."""
    hands = complete_deal(["", "AS 8D", "2S 3H", ""], {})
    m = Match(preset("hidden-rung", revoke_penalty="court"), first_dealer=0)
    deal_first_batch(m, hands)
    m.apply(I.HideTrump(1, card("8D")))
    deal(m, hands)
    m.apply(I.Play(1, card("AS")))
    events = m.apply(I.Play(2, card("3H")))  # off spades, holding the two
    assert of_type(events, HandWon)
    (shown,) = of_type(events, TrumpRevealed)
    assert (shown.trick, shown.reason) == (1, "the hand is over")


def test_a_ruling_on_a_revoke_proven_later_dates_it_to_the_trick_it_was_made_in() -> None:
    """Under a flag-only penalty the table rules (apply-penalty) on a revoke of trick 1
    proven in trick 3. Showing at the hand's end then proves the other side revoked in
    trick 2: the earlier revoke decides the hand, so the result stands."""
    m = played("court-piece")  # flag only; seat 1 leads
    seats = [(m.hand.turn() + k) & 3 for k in range(4)]
    for seat, c in zip(seats, cards("KH 3D 6H AH"), strict=True):  # seats[1] plays off hearts
        m.apply(I.Play(seat, c))
    for seat, c in zip(seats[3:] + seats[:3], cards("9S 2D 8S 7S"), strict=True):  # seats[0] off spades
        m.apply(I.Play(seat, c))
    for seat, c in zip(seats[3:] + seats[:2], cards("QH JH 5H"), strict=True):  # a heart from seats[1]
        m.apply(I.Play(seat, c))
    m.apply(I.ApplyPenalty())
    events = m.apply(I.ShowCard(seats[0], card("3S")))
    assert [(f.seat, f.trick) for f in of_type(events, RevokeFlagged)] == [(seats[0], 2)]
    assert not of_type(events, HandResultChanged)
    (won,) = of_type(events, HandWon)
    assert won.team == seats[0] % 2 and won.reason == f"revoke by seat {seats[1]}"
    assert not [c for c in of_type(events, CourtsScored) if "revoke" in c.reason]  # a flag-only penalty


def test_a_revoke_flagged_when_played_is_not_asked_about_again_at_the_hands_end() -> None:
    """A seat flagged at once (it played off hearts holding a heart it had taken back)
    is not asked to show hearts when the hand ends: that revoke is on the record, and the
    table ruled on it (or let it go) then, as in dealt mode. Here the table rules at once,
    nobody else has a claim open, and the hand is scored without a showing."""
    m = played("court-piece")
    seats, events = change_flagged_at_once(m)
    assert [f.seat for f in of_type(events, RevokeFlagged)] == [seats[2]]
    events = m.apply(I.ApplyPenalty())
    assert not of_type(events, ShowAsked)
    assert not of_type(events, SuspicionCleared)  # proven, not cleared
    (won,) = of_type(events, HandWon)
    assert won.team != seats[2] % 2 and won.reason == f"revoke by seat {seats[2]}"


def test_a_caller_correcting_his_face_down_card_keeps_it_secret() -> None:
    """Hidden rung, played mode: the caller's card off the led suit goes face down; a card
    of the led suit after it is his correction. The flag is for a face-down card that
    did not follow, and neither it nor the taking back names that card."""
    m = Match(preset("hidden-rung"), first_dealer=0, knowledge="played")
    m.apply(I.HideTrump(1, suit=Suit.C))
    for seat, c in zip((1, 2, 3, 0), cards("2S 3S 4S AS"), strict=True):  # seat 0 wins, leads
        m.apply(I.Play(seat, c))
    m.apply(I.Play(0, card("KH")))
    events = m.apply(I.Play(1, card("3D")))
    assert [e.face_down for e in of_type(events, PlayAccepted)] == [True]
    events = m.apply(I.Play(1, card("4H")))
    (flag,) = of_type(events, RevokeFlagged)
    assert (flag.seat, flag.card, flag.rule, flag.proof) == (1, None, "face-down-not-void", card("4H"))
    assert [e.card for e in of_type(events, CardTakenBack)] == [None]
    assert "3D" not in str(m.public_view())
