"""Verdicts of the stage before the first card that mutation testing found unpinned: the
draw for the deal and partners, redeals, trump from a numbered card, and refusals that
must leave the match exactly as it was.

Each test is a table situation from the rule sources (001's draw, 002's online redeal
and 7th/10th-card call) told the way the players would tell it; see docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
    band_rung_auction,
    banded_hands,
    card,
    complete_deal,
    deal,
    deal_first_batch,
    of_type,
    snapshot,
)

from controller.rules import (  # noqa: E402
    CardSeenTwice,
    ImpossibleInput,
    InvalidChoice,
    Match,
    OutOfTurn,
    Phase,
    Suit,
    WrongPhase,
    preset,
)
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    CardDrawn,
    HandStarted,
    PartnershipsDrawn,
    Redeal,
    TrumpCalled,
)


def draw(m: Match, texts: list[str]) -> list:
    """Seats 0-3 draw these cards in turn; the events of the whole draw."""
    events: list = []
    for seat, text in enumerate(texts):
        events += m.apply(I.DrawCard(seat, card(text)))
    return events


# ---------------------------------------------------------------------------- the draw


def test_the_two_lowest_draws_become_partners_by_changing_places() -> None:
    """001: the two lowest drawers play together and sit opposite; the lowest deals.
    Seat 2 draws the 2 (lowest: deals), seat 1 the 3: seat 1 must move across from seat 2,
    into seat 0's place, so seats 1 and 0 change places."""
    m = Match(preset("court-piece", draw="dealer-and-partners"), first_dealer=0)
    events = draw(m, ["9S", "3H", "2D", "KC"])
    assert [(e.seat, e.card) for e in of_type(events, CardDrawn)] == [
        (0, card("9S")), (1, card("3H")), (2, card("2D")), (3, card("KC"))]
    assert [(e.dealer, e.swap) for e in of_type(events, PartnershipsDrawn)] == [(2, (1, 0))]
    assert [(e.hand, e.dealer, e.caller) for e in of_type(events, HandStarted)] == [(1, 2, 3)]
    assert m.first_dealer == 2 and m.hand.number == 1 and m.phase is Phase.DEAL


def test_no_one_changes_places_when_the_two_lowest_already_sit_opposite() -> None:
    m = Match(preset("court-piece", draw="dealer-and-partners"), first_dealer=0)
    events = draw(m, ["4S", "JH", "3D", "KC"])
    assert [(e.dealer, e.swap) for e in of_type(events, PartnershipsDrawn)] == [(2, None)]


def test_drawing_only_for_the_dealer_never_moves_anyone() -> None:
    """With the plain draw the seats stay as they are, whoever draws low."""
    m = Match(preset("court-piece", draw="dealer"), first_dealer=0)
    events = draw(m, ["9S", "3H", "2D", "KC"])
    assert [(e.dealer, e.swap) for e in of_type(events, PartnershipsDrawn)] == [(2, None)]


def test_equal_ranks_drawn_go_by_suit_clubs_lowest() -> None:
    """Two fours drawn: the four of clubs is lower than the four of spades, so its drawer
    deals (rank first, then clubs < diamonds < hearts < spades)."""
    m = Match(preset("court-piece", draw="dealer"), first_dealer=3)
    events = draw(m, ["4S", "4C", "9D", "KH"])
    assert [e.dealer for e in of_type(events, PartnershipsDrawn)] == [1]
    m = Match(preset("court-piece", draw="dealer"), first_dealer=3)
    events = draw(m, ["4H", "4D", "9D", "KH"])
    assert [e.dealer for e in of_type(events, PartnershipsDrawn)] == [1]


def test_the_two_of_hearts_is_drawn_lower_than_the_two_of_spades() -> None:
    """Equal ranks again, at the very bottom: hearts rank below spades."""
    m = Match(preset("court-piece", draw="dealer"), first_dealer=3)
    events = draw(m, ["2S", "2H", "9D", "KH"])
    assert [e.dealer for e in of_type(events, PartnershipsDrawn)] == [1]


def test_a_rank_beats_any_suit_in_the_draw() -> None:
    """A three of spades is lower than a four of clubs: rank decides before suit."""
    m = Match(preset("court-piece", draw="dealer"), first_dealer=3)
    events = draw(m, ["4C", "3S", "9D", "KH"])
    assert [e.dealer for e in of_type(events, PartnershipsDrawn)] == [1]


def test_impossible_draws_are_refused_and_change_nothing() -> None:
    m = Match(preset("court-piece", draw="dealer"), first_dealer=0)
    m.apply(I.DrawCard(0, card("9S")))
    before = snapshot(m)
    with pytest.raises(OutOfTurn):
        m.apply(I.DrawCard(0, card("3H")))  # seat 0 draws a second card
    with pytest.raises(CardSeenTwice):
        m.apply(I.DrawCard(1, card("9S")))  # the same card twice
    assert snapshot(m) == before
    for seat, text in ((1, "3H"), (2, "2D"), (3, "KC")):
        m.apply(I.DrawCard(seat, card(text)))
    with pytest.raises(WrongPhase):
        m.apply(I.DrawCard(0, card("5S")))


# ---------------------------------------------------------------------------- redeals


def test_a_redeal_keeps_the_same_hand_number_dealer_and_caller() -> None:
    """002 online redeal: the caller's five are all below a jack, so the same dealer deals
    the same hand again and the same player calls."""
    low = complete_deal(["", "2S 3H 4D 5C TS", "", ""])
    m = Match(preset("online-points", "redeal"), first_dealer=0)
    deal_first_batch(m, low)
    events = m.apply(I.RequestRedeal(1))
    assert [e.hand for e in of_type(events, Redeal)] == [1]
    assert [(e.hand, e.dealer, e.caller) for e in of_type(events, HandStarted)] == [(1, 0, 1)]
    assert m.phase is Phase.DEAL and m.hand.caller == 1


def test_a_band_rung_redeal_opens_a_new_auction_with_no_caller() -> None:
    """004 §8.8: the bidder holds seven trumps, so the hand is dealt again; the call was
    his only for that deal, so the new deal starts a fresh auction from the dealer's next
    seat, with nobody the caller yet."""
    hands = complete_deal(["", "", "2H 3H 4H 5H 6H 7H 8H", ""])
    m = Match(preset("band-rung"), first_dealer=0)
    deal_first_batch(m, hands)
    band_rung_auction(m, 2, 9)
    m.apply(I.HideTrump(2, card("2H")))
    events = deal(m, hands)
    assert [(e.hand, e.dealer, e.caller) for e in of_type(events, HandStarted)] == [(1, 0, None)]
    assert m.hand.caller is None and m.public_view()["auction"]["turn"] == 1


def test_a_redeal_needs_all_five_below_a_jack() -> None:
    """A jack among the five (even as the fifth card) makes the hand playable."""
    for five in ("2S 3H 4D 5C JS", "JS 2S 3H 4D 5C", "2S 3S 4D 5C JH", "2S 3H 4D 5S JC"):
        m = Match(preset("online-points", "redeal"), first_dealer=0)
        deal_first_batch(m, complete_deal(["", five, "", ""]))
        with pytest.raises(InvalidChoice):
            m.apply(I.RequestRedeal(1))
    m = Match(preset("online-points", "redeal"), first_dealer=0)
    deal_first_batch(m, complete_deal(["", "TS 3H 4D 5C 9S", "", ""]))
    assert of_type(m.apply(I.RequestRedeal(1)), Redeal)


def test_a_redeal_is_only_asked_before_the_first_card_is_played() -> None:
    low = complete_deal(["", "2S 3H 4D 5C TS", "", ""])
    m = Match(preset("online-points", "redeal"), first_dealer=0)
    deal_first_batch(m, low)
    m.apply(I.CallTrump(1, Suit.S))
    deal(m, low)
    assert m.phase is Phase.PLAY
    with pytest.raises(WrongPhase):
        m.apply(I.RequestRedeal(1))


def test_played_mode_redeal_is_taken_on_the_callers_word() -> None:
    """With only played cards seen the engine cannot check the five: the caller's request
    is enough where the table plays with redeals, and refused where it does not."""
    m = Match(preset("online-points", "redeal"), first_dealer=0, knowledge="played")
    with pytest.raises(OutOfTurn):
        m.apply(I.RequestRedeal(2))
    events = m.apply(I.RequestRedeal(1))
    assert [e.hand for e in of_type(events, Redeal)] == [1]
    assert [(e.dealer, e.caller) for e in of_type(events, HandStarted)] == [(0, 1)]
    m = Match(preset("online-points", redeal_seven_trumps=True), first_dealer=0, knowledge="played")
    assert of_type(m.apply(I.RequestRedeal(1)), Redeal)
    m = Match(preset("online-points"), first_dealer=0, knowledge="played")
    with pytest.raises(InvalidChoice):
        m.apply(I.RequestRedeal(1))


# ---------------------------------------------------------------------------- numbered card


def test_naming_the_seventh_card_after_it_has_arrived_turns_it_at_once() -> None:
    """002's 7th-card call made late: the caller already holds his 7th card when he names
    it, so that card is turned up there and then."""
    hands = banded_hands()  # dealer 3: the caller is seat 0
    m = Match(preset("double-sir", "trump-card-number"), first_dealer=3)
    deal(m, hands, 22)  # the first batch (20) and seat 0's 6th and 7th cards
    assert len(m.hand.dealt[0]) == 7
    events = m.apply(I.CallTrumpByCard(0, 7))
    seventh = hands[0][6]
    assert [(e.seat, e.suit, e.card, e.how) for e in of_type(events, TrumpCalled)] == [
        (0, seventh.suit, seventh, "card-number")]
    assert m.public_view()["trump_how"] == "card-number"


def test_naming_the_tenth_card_early_waits_for_it() -> None:
    hands = banded_hands()
    m = Match(preset("double-sir", "trump-card-number"), first_dealer=3)
    deal(m, hands, 22)
    assert not of_type(m.apply(I.CallTrumpByCard(0, 10)), TrumpCalled)
    assert m.public_view()["trump"] is None
    tenth = hands[0][9]
    events = deal(m, hands)
    assert [(e.suit, e.card) for e in of_type(events, TrumpCalled)] == [(tenth.suit, tenth)]
    assert m.phase is Phase.PLAY


def test_a_deferred_call_is_only_the_sixth_card() -> None:
    """001 Trump Deferred turns the first card of the next batch (the 6th); asking for the
    7th is a card-number call, which this table does not play."""
    m = Match(preset("court-piece", "trump-deferred"), first_dealer=3)
    deal_first_batch(m, banded_hands())
    with pytest.raises(InvalidChoice):
        m.apply(I.CallTrumpByCard(0, 7))


def test_played_mode_numbered_card_is_the_callers_and_starts_play() -> None:
    """With only played cards seen, the turned card is read from the trump spot: it must
    not already be someone else's, and once read, play starts with the caller's lead."""
    m = Match(preset("double-sir", "trump-card-number"), first_dealer=3, knowledge="played")
    m.apply(I.CallTrumpByCard(0, 7))
    assert m.phase is Phase.CALL
    events = m.apply(I.TrumpCardTurned(card("QD")))
    assert [(e.seat, e.suit, e.card, e.how) for e in of_type(events, TrumpCalled)] == [
        (0, Suit.D, card("QD"), "card-number")]
    assert m.phase is Phase.PLAY and m.turn() == 0
    with pytest.raises(WrongPhase):
        m.apply(I.TrumpCardTurned(card("KD")))  # trump is already set


def test_shown_trump_card_names_its_suit_and_shower() -> None:
    """001 Trump Card Show: the shown card's own suit is trump, shown by the caller, and
    play starts once all cards are out."""
    hands = banded_hands()  # seat 0's first five: 5S 5H 5D 5C 9S
    m = Match(preset("court-piece", "trump-card-show"), first_dealer=3)
    deal_first_batch(m, hands)
    events = m.apply(I.ShowTrump(0, card("5D")))
    assert [(e.seat, e.suit, e.how) for e in of_type(events, TrumpCalled)] == [(0, Suit.D, "shown")]
    assert m.public_view()["trump_how"] == "shown"
    deal(m, hands)
    assert m.phase is Phase.PLAY


def test_a_low_club_or_diamond_shown_or_turned_names_its_own_suit() -> None:
    """The suit of a trump card is its own, for the lowest cards of a suit too: the 2 of
    clubs shown makes clubs trump; a 2 of diamonds turned as the 6th card, diamonds."""
    hands = complete_deal(["2C 3H 4S 5S 6S", "", "", ""])
    m = Match(preset("court-piece", "trump-card-show"), first_dealer=3)
    deal_first_batch(m, hands)
    events = m.apply(I.ShowTrump(0, card("2C")))
    assert [(e.suit, e.card) for e in of_type(events, TrumpCalled)] == [(Suit.C, card("2C"))]
    assert m.public_view()["trump"] == "C"
    hands = complete_deal(["3H 4S 5S 6S 7S 2D", "", "", ""])
    m = Match(preset("court-piece", "trump-deferred"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrumpByCard(0, 6))
    events = deal(m, hands)
    assert [(e.suit, e.card) for e in of_type(events, TrumpCalled)] == [(Suit.D, card("2D"))]


def test_played_mode_shown_trump_card_is_the_callers_own() -> None:
    """With only played cards seen, the card the caller showed is known to be his: the
    same card played from another seat cannot be real."""
    m = Match(preset("court-piece", "trump-card-show"), first_dealer=3, knowledge="played")
    m.apply(I.ShowTrump(0, card("KD")))
    assert m.phase is Phase.PLAY
    m.apply(I.Play(0, card("2S")))
    with pytest.raises(ImpossibleInput):
        m.apply(I.Play(1, card("KD")))
