"""Play-stage verdicts a mutation run found unpinned (second round): a deal the reader saw
only in part, and what the cards played in 'played' mode claim and prove.

Each test is a table situation from the rule sources told the way a player would; each
fails on some small wrong engine that every earlier test let through. See docs/mutation.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
    banded_hands,
    cards,
    complete_deal,
    deal,
    deal_first_batch,
    deal_inputs,
    of_type,
    play_script,
)

from controller.rules import (  # noqa: E402
    InvalidChoice,
    Match,
    NotInHand,
    OutOfTurn,
    Phase,
    Suit,
    WrongPhase,
    card,
    preset,
)
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    CardNotCounted,
    CardTakenBack,
    DealFellShort,
    FaceDownPlayed,
    FaceDownShown,
    HandWon,
    PilePickedUp,
    PlayAccepted,
    ProofShown,
    RevokeFlagged,
    RevokeProof,
    ShowAsked,
    TrickWon,
    TrumpCalled,
    VoidShown,
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
    with pytest.raises(NotInHand) as refused:
        m.apply(I.Play(2, card("AH")))
    assert refused.value.card == int(card("AH"))  # named to the admin, "a card" to the table


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
    (flag,) = of_type(m.apply(I.Play(1, card("8S"))), RevokeFlagged)
    assert (flag.card, flag.suit, flag.detail) == (card("8S"), Suit.H, "did not follow hearts")
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
    # the hand is over, and nobody is asked to show: the revoke was proven at once
    assert of_type(events, HandWon) and not of_type(events, ShowAsked)
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
    assert (flag.seat, flag.card, flag.trick, flag.suit, flag.proof) == (0, None, 2, Suit.H, None)
    assert not of_type(events, TrickWon)  # the court ended the hand with the card
    assert m.phase is Phase.SHOW
    assert m.hand.show_outcome.revoke_trick == 2  # type: ignore[union-attr]  # the hand is over (seats are asked to show)
    assert [p.card for p in of_type(events, ProofShown)] == ([card("3H")] if reveal else [])


@pytest.mark.parametrize("reveal", [False, True])
def test_a_hidden_trump_kept_down_stays_out_of_the_hands_record(reveal: bool) -> None:
    """The table keeps the hidden trump down after the hand (reveal-at-hand-end off): the
    hand's result and the match's history name no trump suit, for the suit is the very
    secret kept; shown at the hand's end, they name it."""
    m = hidden_rung_court(reveal, I.HideTrump(0, card("2H")))  # hearts hidden
    events = play_script(m, [(1, card("AH")), (2, card("KH")), (3, card("QH")), (0, card("2D"))])
    (won,) = of_type(events, HandWon)  # the court for the revoke ended the hand
    assert won.trump == (Suit.H if reveal else None)
    assert m.history[-1]["trump"] == ("H" if reveal else None)
    assert ('"trump": "H"' in json.dumps(m.history)) is reveal


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
    assert [(e.seat, e.suit, e.trick) for e in of_type(events, VoidShown)] == [(1, Suit.S, 1), (3, Suit.S, 1)]


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
    face_down = of_type(events, FaceDownShown if show else FaceDownPlayed)
    assert [(e.seat, e.card, e.trick) for e in face_down] == [(0, card("2D"), 2)]


# ------------------------------------------------------------ refusals and rulings

def test_a_card_from_no_seat_and_a_penalty_with_nothing_flagged_are_refused() -> None:
    m = played_table("court-piece", Suit.C)
    with pytest.raises(OutOfTurn, match="no seat 4"):
        m.apply(I.Play(4, card("AS")))
    m.apply(I.Play(0, card("AS")))
    with pytest.raises(WrongPhase, match="no flagged play"):
        m.apply(I.ApplyPenalty())


def test_a_card_before_band_rungs_auction_is_over_waits_for_the_auction() -> None:
    m = Match(preset("band-rung"), first_dealer=0, knowledge="played")
    with pytest.raises(WrongPhase, match="waits for the auction"):
        m.apply(I.Play(1, card("AS")))


def test_time_called_after_be_rangas_first_card_lets_the_hand_finish() -> None:
    """Be-ranga has no call: the first card is the first thing of the hand. Once it is
    down the hand is under way, so time called then does not end the match at once."""
    m = Match(preset("be-ranga"), first_dealer=3, knowledge="played")
    m.apply(I.Play(0, card("2S")))
    m.apply(I.TimeUp())
    assert m.phase is Phase.PLAY


# ------------------------------------------------------------ trump from a played card

def test_be_rangas_first_card_off_suit_sets_trump_and_wins() -> None:
    """002's be-ranga: seat 1, with no spade, plays the 3 of hearts; hearts are trump from
    that card on, and it takes the trick over the ace of spades."""
    m = Match(preset("be-ranga"), first_dealer=3, knowledge="played")
    events = play_script(m, [(0, card("2S")), (1, card("3H")), (2, card("AS")), (3, card("KS"))])
    assert [(e.seat, e.suit, e.card) for e in of_type(events, TrumpCalled)] == [(1, Suit.H, card("3H"))]
    assert [e.winner for e in of_type(events, TrickWon)] == [1]


def test_the_hidden_trump_card_played_as_a_cut_takes_the_trick() -> None:
    """002: seat 0 hid the 2 of hearts; void in diamonds, he plays that very card on a
    diamond lead. It turns the trump up and counts as a trump at once."""
    m = Match(preset("hidden-rung"), first_dealer=3, knowledge="played")
    m.apply(I.HideTrump(0, card("2H")))
    play_script(m, [(0, card("5S")), (1, card("AS")), (2, card("3S")), (3, card("4S"))])
    events = play_script(m, [(1, card("AD")), (2, card("KD")), (3, card("QD")), (0, card("2H"))])
    assert [e.winner for e in of_type(events, TrickWon)] == [0]


# ------------------------------------------------------------ what a played card claims

def asked_table() -> Match:
    """Hidden rung in 'played' mode where whoever asks for the trump must trump: seat 0
    hides clubs and leads the ace of spades; seat 1 asks (the trump is turned up)."""
    m = Match(preset("hidden-rung", must_trump_after_ask=True), first_dealer=3, knowledge="played")
    m.apply(I.HideTrump(0, suit=Suit.C))
    m.apply(I.Play(0, card("AS")))
    m.apply(I.AskTrump(1))
    return m


def test_an_asker_who_does_not_trump_claims_no_trump_and_a_later_trump_proves_it() -> None:
    """Seat 1 asked (claiming no spade), then threw the 2 of diamonds: now he claims no
    club either. In the next trick his 2 of clubs shows he held a trump when he had to
    play one."""
    m = asked_table()
    events = m.apply(I.Play(1, card("2D")))
    assert [(e.seat, e.suit, e.trick) for e in of_type(events, VoidShown)] == [(1, Suit.C, 1)]
    play_script(m, [(2, card("3S")), (3, card("4S"))])
    m.apply(I.Play(0, card("KS")))
    events = m.apply(I.Play(1, card("2C")))
    flags = [(f.seat, f.card, f.trick, f.rule, f.suit, f.proof, f.detail) for f in of_type(events, RevokeFlagged)]
    assert flags == [(1, card("2D"), 1, "trump-after-ask", Suit.C, card("2C"),
                      "held clubs when it did not play one in trick 1")]


def test_an_asker_who_follows_suit_claims_nothing() -> None:
    m = asked_table()
    assert not of_type(m.apply(I.Play(1, card("2S"))), VoidShown)


# ------------------------------------------------------------ a proof played later

def test_a_secret_proof_is_told_to_the_table_when_its_card_is_played() -> None:
    """Seat 1 threw a spade on a heart lead holding three hearts; only he is told the proof
    (his 4 of hearts). His king of hearts later shows nothing; when the 4 itself is
    played face up the whole table sees which card it was."""
    hands = banded_hands()
    m = Match(preset("court-piece"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    events = play_script(m, [(0, card("9H")), (1, card("8S")), (2, card("QH")), (3, card("JH"))])
    assert [(p.seat, p.card, p.trick, p.rule) for p in of_type(events, RevokeProof)] == [(1, card("4H"), 1, "follow-suit")]
    m.apply(I.CloseTrick())
    events = play_script(m, [(2, card("7H")), (3, card("6H")), (0, card("5H")), (1, card("KH"))])
    assert not of_type(events, ProofShown)
    events = m.apply(I.Play(1, card("4H")))
    assert [(e.seat, e.card, e.trick, e.reason) for e in of_type(events, ProofShown)] == [(1, card("4H"), 1, "played")]


# ------------------------------------------------------------ a face-down card taken back

def test_a_face_down_discard_taken_back_leaves_no_trace() -> None:
    """002: seat 0 (his hidden trump the 2 of hearts) discards face down on a heart lead
    and is flagged; he takes the card back (the table still does not see it) and plays
    the 2 of hearts. The discard claims nothing any more and lies nowhere face down."""
    m = Match(preset("hidden-rung"), first_dealer=3, knowledge="played")
    m.apply(I.HideTrump(0, card("2H")))
    play_script(m, [(0, card("5S")), (1, card("AS")), (2, card("3S")), (3, card("4S"))])
    events = play_script(m, [(1, card("AH")), (2, card("KH")), (3, card("QH")), (0, card("2D"))])
    assert [f.rule for f in of_type(events, RevokeFlagged)] == ["face-down-not-void"]
    events = m.apply(I.TakeBack(0))
    assert [(e.seat, e.card, e.trick) for e in of_type(events, CardTakenBack)] == [(0, None, 2)]
    assert m.seat_view(0)["my_face_down"] == []
    events = m.apply(I.Play(0, card("2H")))
    assert not of_type(events, RevokeFlagged)


# ------------------------------------------------------------ turns, pickups

def test_after_the_lead_neither_the_leader_nor_the_seat_before_him_may_play() -> None:
    hands = banded_hands()
    m = Match(preset("court-piece"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    m.apply(I.Play(0, card("9H")))
    with pytest.raises(InvalidChoice, match="no card in this trick"):
        m.apply(I.TakeBack(2))
    with pytest.raises(OutOfTurn):
        m.apply(I.Play(3, card("JH")))
    with pytest.raises(OutOfTurn, match="already played to this trick"):
        m.apply(I.Play(0, card("5H")))
    play_script(m, [(1, card("KH")), (2, card("QH")), (3, card("JH"))])
    m.apply(I.Play(1, card("8H")))  # seat 1 won and leads; nothing is flagged to take back
    with pytest.raises(InvalidChoice):
        m.apply(I.TakeBack(1))


def test_double_sir_pickups_say_why() -> None:
    """Double Sir (001): seat 0 wins two running and takes the pile."""
    m = played_table("double-sir", Suit.C)
    events = play_script(m, [(0, card("AS")), (1, card("2S")), (2, card("3S")), (3, card("4S")),
                             (0, card("KS")), (1, card("5S")), (2, card("6S")), (3, card("7S")),
                             (0, card("QS")), (1, card("8S")), (2, card("9S")), (3, card("TS"))])
    picked = of_type(events, PilePickedUp)
    assert picked and all((e.seat, e.reason) == (0, "two tricks running") for e in picked)


def test_a_secret_proof_played_face_down_stays_secret() -> None:
    """002, dealt: seat 0 (the 2 of hearts hidden) discards the 5 of clubs face down on a
    diamond lead while holding the 4 of diamonds, which only he is told proves it. On the
    next lead, hearts, he discards that very 4 face down: still nobody else sees it."""
    hands = complete_deal(["2S 2H 4D 5C 3H", "AS KD KH", "", ""], voids={0: "", 1: "", 2: "", 3: ""})
    m = Match(preset("hidden-rung"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.HideTrump(0, card("2H")))
    deal(m, hands)
    m.apply(I.Play(0, card("2S")))
    m.apply(I.Play(1, card("AS")))
    play_script(m, [(2, min(c for c in hands[2] if c.suit is Suit.S)), (3, min(c for c in hands[3] if c.suit is Suit.S))])
    m.apply(I.Play(1, card("KD")))
    play_script(m, [(2, min(c for c in hands[2] if c.suit is Suit.D)), (3, min(c for c in hands[3] if c.suit is Suit.D))])
    events = m.apply(I.Play(0, card("5C")))
    assert [(p.seat, p.card) for p in of_type(events, RevokeProof)] == [(0, card("4D"))]
    m.apply(I.CloseTrick())
    m.apply(I.Play(1, card("KH")))
    play_script(m, [(2, min(c for c in hands[2] if c.suit is Suit.H)), (3, min(c for c in hands[3] if c.suit is Suit.H))])
    events = m.apply(I.Play(0, card("4D")))
    assert of_type(events, FaceDownPlayed) and not of_type(events, ProofShown)


def test_two_aces_running_take_no_pile_where_the_table_says_so() -> None:
    """A Double Sir table rule: two tricks won running with aces (hearts, then diamonds)
    do not take the pile; the next trick the same seat wins does."""
    m = played_table("double-sir", Suit.C, pickup_not_two_aces=True)
    events = play_script(m, [(0, card("AH")), (1, card("2H")), (2, card("3H")), (3, card("4H")),
                             (0, card("AD")), (1, card("2D")), (2, card("3D")), (3, card("4D"))])
    assert [e.winner for e in of_type(events, TrickWon)] == [0, 0] and not of_type(events, PilePickedUp)
    events = play_script(m, [(0, card("KS")), (1, card("2S")), (2, card("3S")), (3, card("4S"))])
    assert [(e.seat, e.tricks) for e in of_type(events, PilePickedUp)] == [(0, 3)]


def test_a_void_claim_made_face_up_is_named_when_proven_even_beside_face_down_cards() -> None:
    """002's hidden rung, 'played': on a heart lead seat 2 throws the 2 of diamonds face up
    and seat 0 (trump hidden) a diamond face down. Seat 2's 2 of hearts a trick later
    proves his revoke; the flag names the 2 of diamonds, which the table saw."""
    m = played_table("hidden-rung", None)
    play_script(m, [(0, card("5S")), (1, card("AS")), (2, card("3S")), (3, card("4S"))])
    play_script(m, [(1, card("AH")), (2, card("2D")), (3, card("QH")), (0, card("3D"))])
    m.apply(I.Play(1, card("KS")))
    (flag,) = of_type(m.apply(I.Play(2, card("2H"))), RevokeFlagged)
    assert (flag.seat, flag.card, flag.trick, flag.suit, flag.proof) == (2, card("2D"), 2, Suit.H, card("2H"))


def test_a_proof_that_is_the_shown_trump_card_is_told_when_the_hand_ends() -> None:
    """A table where the caller shows a card to set trump (it stays in his hand, face up
    for all to see): seat 1 shows the ace of hearts, his only heart, then does not follow
    a heart lead. The court ends the hand, and the proof -- that shown ace -- is told."""
    hands = complete_deal(["", "2S 3S 4S 5S AH", "AS 2H", ""], voids={1: "H"})
    m = Match(preset("court-piece", trump_calls=frozenset({TrumpCall.SHOWN}), revoke_penalty="court"),
              first_dealer=0)
    deal_first_batch(m, hands)
    m.apply(I.ShowTrump(1, card("AH")))
    deal(m, hands)
    m.apply(I.Play(1, card("2S")))
    m.apply(I.Play(2, card("AS")))
    play_script(m, [(3, min(c for c in hands[3] if c.suit is Suit.S)), (0, min(c for c in hands[0] if c.suit is Suit.S))])
    m.apply(I.Play(2, card("2H")))
    play_script(m, [(3, min(c for c in hands[3] if c.suit is Suit.H)), (0, min(c for c in hands[0] if c.suit is Suit.H))])
    events = m.apply(I.Play(1, card("3S")))
    assert [p.card for p in of_type(events, RevokeProof)] == [card("AH")]
    assert [p.card for p in of_type(events, ProofShown)] == [card("AH")]


def test_a_card_taken_back_leaves_the_seat_all_thirteen_to_play() -> None:
    """000: seat 1 takes back a revoke in the first trick and replaces it; he still has
    every one of his thirteen cards to play, to the last trick."""
    hands = banded_hands()
    m = Match(preset("rang", hand_end="all", play_on=True), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    m.apply(I.Play(0, card("9H")))
    m.apply(I.Play(1, card("8S")))
    m.apply(I.TakeBack(1))
    h = m.hand
    while m.hand is h and m.phase in (Phase.PLAY, Phase.PLAY_ON):
        if m.phase is Phase.PLAY_ON:
            m.apply(I.PlayOn(True))
            continue
        seat = m.turn()
        assert seat is not None
        m.apply(I.Play(seat, m.legal_plays(seat)[0]))
    assert len(of_type(m.events, TrickWon)) == 13


def test_in_double_sir_only_the_last_trick_does_not_wait_in_the_centre() -> None:
    """Double Sir (001): every trick goes to the centre pile but the thirteenth, which its
    winner takes with whatever is left."""
    hands = banded_hands()
    m = Match(preset("double-sir", hand_end="all"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    h = m.hand
    while m.hand is h and m.phase in (Phase.PLAY, Phase.PLAY_ON):
        if m.phase is Phase.PLAY_ON:
            m.apply(I.PlayOn(True))
            continue
        seat = m.turn()
        assert seat is not None
        m.apply(I.Play(seat, m.legal_plays(seat)[0]))
    assert [e.to_pile for e in of_type(m.events, TrickWon)] == [True] * 12 + [False]


def test_a_card_that_closes_a_trick_ending_the_hand_is_recorded_not_counted() -> None:
    """000's rang: seat 1's revoke stands when the trick's winner (seat 2, queen of hearts)
    puts down his next lead; the revoke ends the hand, so that card counts for nothing,
    and the record says whose card it was."""
    hands = banded_hands()
    m = Match(preset("rang"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    play_script(m, [(0, card("9H")), (1, card("8S")), (2, card("QH")), (3, card("JH"))])
    events = m.apply(I.Play(2, card("7S")))
    assert [(e.seat, e.card) for e in of_type(events, CardNotCounted)] == [(2, card("7S"))]
    assert m.hand.number == 2
