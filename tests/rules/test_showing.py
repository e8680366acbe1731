"""Played mode: a revoke the hand's end would hide is proven when the suspected seat shows
its remaining cards (issue 16), with the preset's penalty landing on the score."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import cards, of_type  # noqa: E402

from controller.rules import (  # noqa: E402
    CardSeenTwice,
    InvalidChoice,
    Match,
    NotInHand,
    Phase,
    Suit,
    WrongPhase,
    preset,
)
from controller.rules import inputs as I  # noqa: E402
from controller.rules.cards import Card  # noqa: E402
from controller.rules.events import (  # noqa: E402
    CardShown,
    CourtsScored,
    DealPasses,
    HandResultChanged,
    HandWon,
    PointsScored,
    RevokeFlagged,
    ShowAsked,
    ShowingSkipped,
    SuspicionCleared,
)

# Seat 1 (the caller, after dealer 0) holds the top of every suit; Dua (seat 3), his
# partner, holds three low spades and will not play one when spades are led.
SWEEP = [
    cards("TS 9S 8S JH TH 9H 8H JD TD 9D JC TC 9C"),
    cards("AS KS QS JS AH KH QH AD KD QD AC KC QC"),
    cards("7S 6S 5S 7H 6H 5H 8D 7D 6D 5D 8C 7C 6C"),
    cards("4S 3S 2S 4H 3H 2H 4D 3D 2D 5C 4C 3C 2C"),
]
REVOKER, HIDDEN_SUIT = 3, Suit.S


def start(name: str, **overrides: object) -> Match:
    """Played mode, dealer 0: seat 1 calls (clubs) or wins the auction at 9 and hides clubs."""
    m = Match(preset(name, **overrides), first_dealer=0, knowledge="played")
    if name == "band-rung":
        for move in (I.Bid(1, 9), I.Pass(2), I.Pass(3), I.Pass(0)):
            m.apply(move)
    if name in ("band-rung", "hidden-rung"):
        m.apply(I.HideTrump(1, suit=Suit.C))
    elif name != "be-ranga":
        m.apply(I.CallTrump(1, Suit.C))
    return m


def pick(m: Match, seat: int, revoker: int = REVOKER) -> Card:
    """A card for ``seat``: seat 1 plays high, the others low; Dua keeps his spades hidden
    (he plays off suit to the first spade lead and never shows one again)."""
    h = m.hand
    mine = [c for c in SWEEP[seat] if int(c) not in h.played]
    if seat == revoker:
        mine = [c for c in mine if c.suit != HIDDEN_SUIT] or mine
    led = h.led_suit()
    follow = [c for c in mine if led is not None and led >= 0 and c.suit == led]
    pool = follow or mine
    if seat == 1 and not h.trick:
        pool = [c for c in mine if c.suit != Suit.S or int(c) == int(Card.parse("AS"))] or mine
        if m.options.ace_rules and h.winning_cards and h.winning_cards[-1][0] % 13 == 12:
            pool = [c for c in pool if c.rank != 12] or pool  # 004 6.3: no ace after an ace
    return max(pool, key=lambda c: c.rank) if seat == 1 else min(pool, key=lambda c: (c.rank, c.suit))


def play_until_hand_ends(m: Match, revoker: int = REVOKER) -> list:
    h = m.hand
    events: list = []
    for _ in range(60):
        if m.hand is not h or m.phase in (Phase.SHOW, Phase.OVER):
            break
        if m.phase is Phase.PLAY_ON:
            events += m.apply(I.PlayOn(False))
            continue
        seat = m.turn() if m.phase is Phase.PLAY else h.leader  # a short deal ends at the first lead
        assert seat is not None
        if seat == 1 and not h.trick and h.trick_no == 2 and h.trump is not None and not h.trump_public \
                and m.options.reveal_on_lead:
            events += m.apply(I.RevealTrump(1))  # hidden rung: show it on the lead, lead trump
            events += m.apply(I.Play(1, Card.parse("AC")))
            continue
        events += m.apply(I.Play(seat, pick(m, seat, revoker)))
    return events


def show_all(m: Match, seat: int) -> list:
    """The seat lays its remaining cards face up, lowest first."""
    h = m.hand
    events: list = []
    for c in sorted((c for c in SWEEP[seat] if int(c) not in h.played), key=lambda c: (c.rank, c.suit)):
        if seat not in h.show_asked:
            break
        events += m.apply(I.ShowCard(seat, c))
    return events


PENALTY = {  # what the revoke costs Dua's side, proven only at the hand's end
    "rang": ("courts", (0, 1)),  # 000: forfeit and a court
    "trick-streak": ("courts", (0, 1)),  # 003: a court to the opponents
    "court-piece": ("courts", None),  # flag presets: the revoking side loses the hand
    "double-sir": ("courts", None),
    "hidden-rung": ("courts", None),
    "be-ranga": ("courts", None),
    "online-points": ("points", (0, 2)),  # the opponents of the caller win the round
    "band-rung": ("points", (0, 18)),  # 004: a lost bid, twice the bid to the other side
}


@pytest.mark.parametrize("name", sorted(PENALTY))
def test_a_revoke_hidden_by_the_hands_end_is_proven_by_showing(name: str) -> None:
    m = start(name)
    h = m.hand
    events = play_until_hand_ends(m)
    assert not of_type(events, RevokeFlagged), "the revoke must not be provable in play"
    assert m.phase is Phase.SHOW and not of_type(events, HandWon)
    asked = of_type(events, ShowAsked)
    assert REVOKER in [a.seat for a in asked]
    (mine,) = [a for a in asked if a.seat == REVOKER]
    assert mine.suits[0] is HIDDEN_SUIT and mine.tricks[0] == 1
    events = []
    for seat in sorted(h.show_asked):
        events += show_all(m, seat)
    (flag,) = [f for f in of_type(events, RevokeFlagged) if f.seat == REVOKER]
    assert flag.trick == 1 and flag.suit is HIDDEN_SUIT and flag.proof is not None
    assert flag.proof.suit is HIDDEN_SUIT
    shown = [e.card for e in of_type(events, CardShown) if e.seat == REVOKER]
    assert shown[-1] == flag.proof  # he was asked no further after the proof
    (changed,) = of_type(events, HandResultChanged)
    assert (changed.team_before, changed.team) == (1, 0)
    assert "proven when the hand ended" in changed.reason
    (won,) = of_type(events, HandWon)
    assert won.team == 0 and "revoke by" in won.reason
    kind, award = PENALTY[name]
    if kind == "courts":
        courts = [(c.team, c.courts) for c in of_type(events, CourtsScored) if "revoke" in c.reason]
        assert courts == ([award] if award else [])
    else:
        assert [(p.team, p.points) for p in of_type(events, PointsScored)] == [award]


def test_rang_revoke_proven_at_the_end_passes_the_deal_as_in_play() -> None:
    """000: the dealer's opponents revoked, so the deal passes on to the next seat."""
    m = start("rang")
    play_until_hand_ends(m)
    events = show_all(m, REVOKER)
    for seat in sorted(m.hand.show_asked):
        events += show_all(m, seat)
    (passes,) = of_type(events, DealPasses)
    assert passes.dealer == 1


def test_only_suspected_seats_are_asked_and_a_clean_hand_clears_them() -> None:
    m = start("court-piece")
    events = play_until_hand_ends(m)
    asked = {a.seat for a in of_type(events, ShowAsked)}
    assert asked == {s for s in range(4) if m.hand.voids[s]}
    assert 1 not in asked  # the caller never played off suit
    with pytest.raises(InvalidChoice):
        m.apply(I.ShowCard(1, Card.parse("KS")))
    others = sorted(asked - {REVOKER})
    for seat in others:
        evs = show_all(m, seat)
        assert {(c.seat, c.suit) for c in of_type(evs, SuspicionCleared)} == \
            {(seat, Suit(s)) for s in [a.suits for a in of_type(events, ShowAsked) if a.seat == seat][0]}


def test_impossible_cards_while_showing_are_refused_with_a_reason() -> None:
    m = start("court-piece")
    play_until_hand_ends(m)
    with pytest.raises(CardSeenTwice, match="played earlier"):
        m.apply(I.ShowCard(REVOKER, Card.parse("2D")))  # his trick-1 discard
    first = min((c for c in SWEEP[REVOKER] if int(c) not in m.hand.played and c.suit != Suit.S),
                key=lambda c: c.rank, default=None)
    if first is not None:
        m.apply(I.ShowCard(REVOKER, first))
        with pytest.raises(CardSeenTwice, match="already shown"):
            m.apply(I.ShowCard(REVOKER, first))
    other = next((s for s in sorted(m.hand.show_asked) if s != REVOKER), None)
    if other is not None:
        theirs = next(c for c in SWEEP[other] if int(c) not in m.hand.played)
        m.apply(I.ShowCard(other, theirs))
        with pytest.raises(NotInHand):
            m.apply(I.ShowCard(REVOKER, theirs))


def test_the_table_may_skip_showing_and_the_events_say_so() -> None:
    m = start("rang")
    play_until_hand_ends(m)
    asked = tuple(sorted(m.hand.show_asked))
    events = m.apply(I.SkipShowing())
    assert [e.seats for e in of_type(events, ShowingSkipped)] == [asked]
    assert REVOKER in [c.seat for c in of_type(events, SuspicionCleared)]
    (won,) = of_type(events, HandWon)
    assert won.team == 1 and not of_type(events, HandResultChanged)
    with pytest.raises(WrongPhase):
        m.apply(I.SkipShowing())


def test_tables_that_do_not_show_keep_the_old_way() -> None:
    m = start("rang", show_at_hand_end=False)
    events = play_until_hand_ends(m)
    assert not of_type(events, ShowAsked) and of_type(events, HandWon)
    assert REVOKER in [c.seat for c in of_type(events, SuspicionCleared)]


def test_shown_cards_are_public_only_once_shown() -> None:
    m = start("court-piece")
    play_until_hand_ends(m)
    view = m.public_view()
    assert view["phase"] == "show"
    mine = next(s for s in view["showing"] if s["seat"] == REVOKER)
    assert mine["shown"] == [] and mine["suits"] == ["S"]
    unplayed = {c.text for c in SWEEP[REVOKER] if int(c) not in m.hand.played}
    assert not unplayed & set(str(view).replace("'", " ").split())
    c = sorted((c for c in SWEEP[REVOKER] if int(c) not in m.hand.played and c.suit != Suit.S),
               key=lambda c: c.rank)[0]
    m.apply(I.ShowCard(REVOKER, c))
    mine = next(s for s in m.public_view()["showing"] if s["seat"] == REVOKER)
    assert mine["shown"] == [c.text]


@pytest.mark.parametrize(("name", "courts"), [("rang", [(1, 1), (1, 1)]), ("court-piece", [(1, 1)])])
def test_a_revoke_by_the_side_that_lost_anyway(name: str, courts: list) -> None:
    """Chetan (seat 2) revokes, but Bilal's side sweeps the first seven regardless. The
    result stands; where the penalty is a court (000) it comes on top of the sweep's."""
    m = start(name)
    play_until_hand_ends(m, revoker=2)
    assert 2 in m.hand.show_asked
    events = show_all(m, 2)
    for seat in sorted(m.hand.show_asked):
        events += show_all(m, seat)
    assert [f.seat for f in of_type(events, RevokeFlagged)] == [2]
    (won,) = of_type(events, HandWon)
    assert won.team == 1
    assert [(c.team, c.courts) for c in of_type(events, CourtsScored)] == courts
    # the same side wins: no "result changed" (the voice said so, and the screen showed
    # it, though only a court was added)
    assert not of_type(events, HandResultChanged)


def test_the_card_that_proves_a_revoke_may_itself_be_one_and_is_asked_about() -> None:
    """Chetan discards in spades, then plays a spade to a heart lead while holding hearts:
    the spade proves the first revoke and ends the rang hand, and the second is still
    asked about when it ends -- the score stays, but every revoke goes on the record."""
    m = start("rang")
    for seat, text in ((1, "AS"), (2, "8D"), (3, "4S"), (0, "TS"), (1, "AH")):
        m.apply(I.Play(seat, Card.parse(text)))
    events = m.apply(I.Play(2, Card.parse("7S")))
    assert [(f.seat, f.trick) for f in of_type(events, RevokeFlagged)] == [(2, 1)]
    assert [(a.seat, a.suits, a.tricks) for a in of_type(events, ShowAsked)] == [(2, (Suit.H,), (2,))]
    events = m.apply(I.ShowCard(2, Card.parse("7H")))
    assert [(f.seat, f.trick) for f in of_type(events, RevokeFlagged)] == [(2, 2)]
    assert not of_type(events, HandResultChanged)  # his side had lost already, with a court
    (won,) = of_type(events, HandWon)
    assert won.team == 1


# ------------------------------------------------------------ a deal the reader saw only in part

def dealt_but_short(name: str, missing: set[str]) -> Match:
    """'dealt' mode, dealer 0: the sweep deal goes over the deal spot, but the reader
    misses ``missing``; seat 1 calls clubs after the first batch."""
    from tablehelp import deal_inputs

    m = Match(preset(name), first_dealer=0)
    for move in deal_inputs(SWEEP, 0, m.options.deal_batches):
        if move.card.text not in missing:
            m.apply(move)
        if m.hand.deal_index == 20 and m.hand.trump is None:
            m.apply(I.CallTrump(1, Suit.C))
    return m


def test_a_deal_the_reader_missed_a_card_of_falls_back_to_played_knowledge() -> None:
    """One missed read shifts every later card to the wrong seat, so no hand is known for
    sure: the first play ends the deal and the hand is refereed from the played cards."""
    m = dealt_but_short("court-piece", {"9H"})
    assert m.phase is not Phase.PLAY
    events = m.apply(I.Play(1, Card.parse("AS")))
    assert [(e.hand, e.seen) for e in events if e.kind == "deal-fell-short"] == [(1, 51)]
    assert m.phase is Phase.PLAY and m.public_view()["hand_knowledge"] == "played"


def test_a_revoke_in_a_short_dealt_hand_is_proven_by_showing() -> None:
    m = dealt_but_short("rang", {"JD", "5D"})
    events = play_until_hand_ends(m)
    assert any(e.kind == "deal-fell-short" for e in events)
    assert not of_type(events, RevokeFlagged) and m.phase is Phase.SHOW
    events = show_all(m, REVOKER)
    for seat in sorted(m.hand.show_asked):
        events += show_all(m, seat)
    assert [f.seat for f in of_type(events, RevokeFlagged)] == [REVOKER]
    (won,) = of_type(events, HandWon)
    assert won.team == 0
    assert m.hand.dealt_mode  # the next hand is read over the deal spot again


def test_a_card_on_a_spot_early_in_the_deal_is_still_refused() -> None:
    late = [c.text for hand in SWEEP for c in hand[5:9]]  # 16 cards of the second batch
    m = dealt_but_short("court-piece", set(late))
    assert m.hand.deal_index == 36
    with pytest.raises(WrongPhase, match="deal is not finished"):
        m.apply(I.Play(1, Card.parse("AS")))
