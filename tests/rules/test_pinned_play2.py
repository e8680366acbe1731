"""Play-stage verdicts a mutation run found unpinned (second round): a deal the reader saw
only in part, and what the cards played in 'played' mode claim and prove.

Each test is a table situation from the rule sources told the way a player would; each
fails on some small wrong engine that every earlier test let through. See docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import banded_hands, cards, deal, deal_first_batch, deal_inputs, of_type, play_script  # noqa: E402

from controller.rules import Match, NotInHand, Phase, Suit, WrongPhase, card, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    DealFellShort,
    PlayAccepted,
    ProofShown,
    RevokeFlagged,
    RevokeProof,
    TrickWon,
)
from controller.rules.options import TrumpCall  # noqa: E402

# Dealer 0, 5-4-4: seat 1 calls after its first five (AS KS QS JS AH) and leads.
DEAL = [
    cards("TS 9S 8S JH TH 9H 8H JD TD 9D JC TC 9C"),
    cards("AS KS QS JS AH KH QH AD KD QD AC KC QC"),
    cards("7S 6S 5S 7H 6H 5H 8D 7D 6D 5D 8C 7C 6C"),
    cards("4S 3S 2S 4H 3H 2H 4D 3D 2D 5C 4C 3C 2C"),
]
# The last round of the deal, four cards to each seat from seat 1 on.
LAST_ROUND = [c.text for seat in (1, 2, 3, 0) for c in DEAL[seat][9:]]


# ------------------------------------------------------------ a deal the reader saw only in part

def short_deal(m: Match, missing: set[str], call: I.CallTrump | I.ShowTrump | I.HideTrump
               | I.CallTrumpByCard) -> Match:
    """Feed the deal over the deal spot with the reads in ``missing`` lost; seat 1 makes
    ``call`` once the first round is out."""
    called = False
    for move in deal_inputs(DEAL, 0, m.options.deal_batches):
        if move.card.text not in missing:
            m.apply(move)
        if m.hand.deal_index == 20 and not called:
            m.apply(call)
            called = True
    assert not m.hand.deal_complete
    return m


def test_twelve_missed_reads_are_recovered_from_thirteen_are_not() -> None:
    """A first lead after a deal with twelve reads lost goes on in 'played' knowledge; with
    thirteen lost it is more likely a card put down mid-deal, and is refused."""
    m = short_deal(Match(preset("court-piece"), first_dealer=0), set(LAST_ROUND[:12]),
                   I.CallTrump(1, Suit.C))
    assert m.hand.deal_index == 40
    events = m.apply(I.Play(1, card("AS")))
    assert [(e.hand, e.seen) for e in of_type(events, DealFellShort)] == [(1, 40)]
    assert m.phase is Phase.PLAY and m.public_view()["hand_knowledge"] == "played"
    m.apply(I.Play(2, card("7S")))
    m.apply(I.Play(3, card("4S")))
    assert [c["card"] for c in m.public_view()["trick"]["cards"]] == ["AS", "7S", "4S"]  # from the leader
    m = short_deal(Match(preset("court-piece"), first_dealer=0), set(LAST_ROUND[:13]),
                   I.CallTrump(1, Suit.C))
    with pytest.raises(WrongPhase, match="deal is not finished"):
        m.apply(I.Play(1, card("AS")))


@pytest.mark.parametrize("how", ["hidden", "shown"])
def test_after_a_short_deal_the_trump_card_the_caller_laid_down_is_still_his(how: str) -> None:
    """Seat 1 laid the ace of hearts on the trump spot himself (face down in hidden rung,
    face up where the trump is shown), so even with the deal's reads lost that card is
    known to be his: it cannot come from seat 2."""
    if how == "hidden":
        m, call = Match(preset("hidden-rung"), first_dealer=0), I.HideTrump(1, card("AH"))
    else:
        m = Match(preset("court-piece", trump_calls=frozenset({TrumpCall.SHOWN})), first_dealer=0)
        call = I.ShowTrump(1, card("AH"))
    short_deal(m, {"9H"}, call)
    m.apply(I.Play(1, card("AS")))
    with pytest.raises(NotInHand):
        m.apply(I.Play(2, card("AH")))


def test_after_a_short_deal_a_trump_named_by_its_number_is_nobodys_for_sure() -> None:
    """Seat 1 names his 7th card as trump (the queen of hearts). It was never in his hand
    on the table, only counted over the deal spot; once reads are lost the count may have
    given it to the wrong seat, so a later play of it from seat 2 is taken as played."""
    m = Match(preset("court-piece", trump_calls=frozenset({TrumpCall.ANNOUNCED, TrumpCall.CARD_NUMBER})),
              first_dealer=0)
    short_deal(m, {"9H"}, I.CallTrumpByCard(1, 7))
    assert m.hand.trump_card == int(card("QH"))
    m.apply(I.Play(1, card("AS")))
    events = m.apply(I.Play(2, card("QH")))
    assert [(e.seat, e.card) for e in of_type(events, PlayAccepted)] == [(2, card("QH"))]


# ------------------------------------------------------------ a corrected trick

def test_a_trick_corrected_out_of_turn_is_recorded_in_the_order_of_play() -> None:
    """000's correction: seat 1 throws the 8 of spades on a heart lead while holding
    hearts, and takes it back. The seats after him need not wait for each other: seat 3
    puts down the jack of hearts, then seat 2 the queen, then seat 1 the king. The trick
    is seat 1's, and its record lists the cards round the table from the leader, as they
    lie, not in the order they were put down."""
    hands = banded_hands()
    m = Match(preset("rang"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    m.apply(I.Play(0, card("9H")))
    assert m.public_view()["pending_revoke"] is None
    assert of_type(m.apply(I.Play(1, card("8S"))), RevokeFlagged)
    # Only seat 1 is told which heart proves it (his lowest); the table sees the flag.
    assert [m.seat_view(s)["pending_revoke"]["proof"] for s in range(4)] == [None, "4H", None, None]
    assert m.public_view()["pending_revoke"]["proof"] is None
    m.apply(I.TakeBack(1))
    play_script(m, [(3, card("JH")), (2, card("QH"))])
    assert [c["seat"] for c in m.public_view()["trick"]["cards"]] == [0, 2, 3]  # as they lie
    events = m.apply(I.Play(1, card("KH")))
    (won,) = of_type(events, TrickWon)
    assert won.winner == 1 and not of_type(events, RevokeFlagged)
    assert list(won.cards) == [(0, card("9H")), (1, card("KH")), (2, card("QH")), (3, card("JH"))]


# ------------------------------------------------------------ a secret proof when the hand ends

def hidden_rung_court(reveal: bool, hide: I.HideTrump) -> Match:
    """Hidden rung in 'played' mode where a proven revoke costs a court at once (the hand
    ends), and the table either shows the hidden trump and face-down cards at the hand's
    end or keeps them down. Seat 0 hides the trump; seat 1 takes the first trick."""
    m = Match(preset("hidden-rung", revoke_penalty="court", reveal_at_hand_end=reveal),
              first_dealer=3, knowledge="played")
    m.apply(hide)
    play_script(m, [(0, card("5S")), (1, card("AS")), (2, card("3S")), (3, card("4S"))])
    return m


@pytest.mark.parametrize("reveal", [False, True])
def test_a_proof_that_is_the_hidden_trump_stays_down_unless_the_table_shows_it(reveal: bool) -> None:
    """002: seat 0 hid the 2 of hearts, then discarded face down on a heart lead; his own
    trump card proves he could follow. The court ends the hand; the proof is told to the
    table only where the hidden trump is shown at the hand's end."""
    m = hidden_rung_court(reveal, I.HideTrump(0, card("2H")))
    events = play_script(m, [(1, card("AH")), (2, card("KH")), (3, card("QH")), (0, card("2D"))])
    assert [p.card for p in of_type(events, RevokeProof)] == [card("2H")]
    assert m.phase is Phase.SHOW  # the hand is over (seats are asked to show)
    assert [p.card for p in of_type(events, ProofShown)] == ([card("2H")] if reveal else [])


@pytest.mark.parametrize("reveal", [False, True])
def test_a_proof_played_face_down_stays_down_unless_the_table_shows_discards(reveal: bool) -> None:
    """002: seat 0 (trump hidden) discarded face down on a heart lead, claiming no hearts;
    a trick later he discards the 3 of hearts face down on a spade lead. That proves the
    revoke, but the proving card lies face down: the table learns it only where the
    face-down cards are shown when the hand ends."""
    m = hidden_rung_court(reveal, I.HideTrump(0, suit=Suit.C))
    play_script(m, [(1, card("AH")), (2, card("KH")), (3, card("QH")), (0, card("2D"))])
    events = play_script(m, [(1, card("KS")), (2, card("6S")), (3, card("7S")), (0, card("3H"))])
    (flag,) = of_type(events, RevokeFlagged)
    assert (flag.seat, flag.trick, flag.proof) == (0, 2, None)
    assert m.phase is Phase.SHOW  # the hand is over (seats are asked to show)
    assert [p.card for p in of_type(events, ProofShown)] == ([card("3H")] if reveal else [])


# ------------------------------------------------------------ who takes a trick

def played_table(name: str, trump: Suit | None, **overrides: object) -> Match:
    """'played' mode, dealer 3: seat 0 calls ``trump`` aloud, or hides clubs (hidden rung)."""
    m = Match(preset(name, **overrides), first_dealer=3, knowledge="played")
    m.apply(I.CallTrump(0, trump) if trump is not None else I.HideTrump(0, suit=Suit.C))
    return m


def test_the_three_beats_the_two_led_past_a_card_of_another_suit() -> None:
    """Following suit, the higher card wins even when both are the lowest of the suit, and
    a card of a third suit (no trump) in between changes nothing."""
    m = played_table("court-piece", Suit.C)
    events = play_script(m, [(0, card("2S")), (1, card("AH")), (2, card("3S")), (3, card("AD"))])
    assert [e.winner for e in of_type(events, TrickWon)] == [2]


def test_the_higher_of_two_trumps_takes_the_trick() -> None:
    """Two players who cannot follow both trump: the five of hearts over-trumps the two."""
    m = played_table("court-piece", Suit.H)
    events = play_script(m, [(0, card("AS")), (1, card("2H")), (2, card("5H")), (3, card("KS"))])
    assert [e.winner for e in of_type(events, TrickWon)] == [2]


@pytest.mark.parametrize("show", [False, True])
def test_a_face_down_discard_before_the_winning_card_takes_nothing(show: bool) -> None:
    """002's hidden rung: seat 0 (trump hidden) discards face down second in the trick; the
    heart played after it still wins. The trick's record shows the face-down card only
    at a table that turns such discards up."""
    m = played_table("hidden-rung", None, show_caller_discards=show)
    play_script(m, [(0, card("5S")), (1, card("3S")), (2, card("4S")), (3, card("AS"))])
    events = play_script(m, [(3, card("2H")), (0, card("2D")), (1, card("3H")), (2, card("4H"))])
    (won,) = of_type(events, TrickWon)
    assert won.winner == 2
    assert list(won.cards) == [(3, card("2H")), (0, card("2D") if show else None), (1, card("3H")), (2, card("4H"))]
