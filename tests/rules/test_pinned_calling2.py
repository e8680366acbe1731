"""More verdicts of the call and the hidden trump that mutation testing found unpinned:
who leads after band rung's auction, a call at a table without a caller, and what the
hidden trump's reveal says and obliges (sources 002 and 004). See docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
    band_rung_auction,
    band_rung_hand,
    banded_hands,
    card,
    complete_deal,
    deal,
    deal_first_batch,
    of_type,
    play,
    script_tricks,
    strong_hands,
)

from controller.rules import InvalidChoice, Match, OutOfTurn, Phase, Suit, WrongPhase, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    BidPassed,
    DealComplete,
    Event,
    HandStarted,
    HandWon,
    PlayOnChosen,
    Redeal,
    RevokeFlagged,
    TrumpAsked,
    TrumpHidden,
    TrumpRevealed,
    TrumpSetSecretly,
    VoidShown,
)
from controller.rules.options import CallerRotation, TrumpCall  # noqa: E402

NAMES = ("Asif", "Bilal", "Chetan", "Dua")


def test_band_rungs_auction_winner_leads_even_where_the_caller_rotates() -> None:
    """004: whoever wins the auction leads the first trick. At a table that also moves the
    caller on one seat each hand, hand 2 names Chetan, but Asif's bid takes it: Asif leads."""
    m = Match(preset("band-rung", caller_rotation=CallerRotation.ROUND_ROBIN), first_dealer=0)
    band_rung_hand(m, 1, 9, True)
    assert (m.hand.number, m.hand.caller) == (2, 2)
    deal_first_batch(m, strong_hands(0))
    band_rung_auction(m, 0, 9)
    assert (m.hand.caller, m.hand.leader) == (0, 0)


def test_at_a_table_without_a_caller_a_trump_call_is_refused_naming_nobody() -> None:
    """Be-ranga (002) has no caller: the first card off suit sets trump. A table that also
    allows naming trump aloud still has nobody entitled to name it."""
    m = Match(preset("be-ranga", trump_calls=frozenset({TrumpCall.ANNOUNCED, TrumpCall.FIRST_VOID})),
              first_dealer=0, seat_names=NAMES)
    deal_first_batch(m, strong_hands(1))
    with pytest.raises(OutOfTurn, match=r"Bilal is not the trump caller \(nobody is\)"):
        m.apply(I.CallTrump(1, Suit.S))


def hidden_rung(partials: list[str], voids: dict[int, str], hidden: str) -> Match:
    """A hidden-rung hand (002), dealer Asif; Bilal calls, lays ``hidden`` face down and leads."""
    hands = complete_deal(partials, voids)
    m = Match(preset("hidden-rung"), first_dealer=0, seat_names=NAMES)
    deal_first_batch(m, hands)
    m.apply(I.HideTrump(1, card(hidden)))
    deal(m, hands)
    return m


def test_the_asked_for_trump_is_turned_up_card_and_all() -> None:
    m = hidden_rung(["", "2C 5H 8D 9D TD", "3C", "AH 2D"], {3: "C"}, "8D")
    play(m, "2C 3C")
    events = m.apply(I.AskTrump(3))
    (revealed,) = of_type(events, TrumpRevealed)
    assert (revealed.suit, revealed.card) == (Suit.D, card("8D"))


def test_the_caller_who_shows_the_trump_in_a_trick_must_then_trump() -> None:
    """Asif wins the first trick and leads hearts; Bilal, with no heart, turns his trump up
    himself. Having shown it, he must trump: a spade discard while holding diamonds is a
    revoke. A trump already shown cannot be shown again."""
    m = hidden_rung(["AC AH", "2C 5S 8D 9D TD", "3C", "4C"], {1: "H"}, "8D")
    play(m, "2C 3C 4C AC AH")
    assert m.turn() == 1
    events = m.apply(I.RevealTrump(1))
    (revealed,) = of_type(events, TrumpRevealed)
    assert (revealed.suit, revealed.card, revealed.trick) == (Suit.D, card("8D"), 2)
    with pytest.raises(WrongPhase, match="no hidden trump"):
        m.apply(I.RevealTrump(1))
    events = m.apply(I.Play(1, card("5S")))
    (flag,) = of_type(events, RevokeFlagged)
    assert (flag.seat, flag.rule, flag.trick) == (1, "trump-after-ask", 2)


def test_asking_for_the_trump_on_a_spade_lead_claims_no_spades() -> None:
    """Played mode (002): only a player who cannot follow may ask, so asking on a spade lead
    claims he has none -- recorded like a discard, for a later spade to prove wrong."""
    m = Match(preset("hidden-rung"), first_dealer=0, knowledge="played", seat_names=NAMES)
    m.apply(I.HideTrump(1, suit=Suit.C))
    m.apply(I.Play(1, card("AS")))
    events = m.apply(I.AskTrump(2))
    assert [type(e) for e in events] == [TrumpAsked, TrumpRevealed, VoidShown]
    assert events[-1] == VoidShown(2, Suit.S, 1)
    assert m.phase is Phase.PLAY


# ------------------------------------------------------------ hiding the trump, and redeals


def test_a_trump_hidden_after_the_whole_deal_starts_play_and_stays_secret() -> None:
    """Bilal waits until every card is dealt before laying his trump face down: play starts
    at once. The table learns only that a trump lies face down; Bilal alone its card."""
    hands = complete_deal(["", "2C 5H 8D 9D TD", "", ""], {})
    m = Match(preset("hidden-rung"), first_dealer=0, seat_names=NAMES)
    deal(m, hands)
    assert m.phase is Phase.CALL
    events = m.apply(I.HideTrump(1, card("8D")))
    assert events == [TrumpHidden(1), TrumpSetSecretly(1, Suit.D, card("8D"))]
    assert m.phase is Phase.PLAY and m.turn() == 1
    view = m.public_view()
    assert (view["trump"], view["trump_hidden"], view["trump_how"]) == (None, True, "hidden")


def test_seven_trumps_hidden_after_the_whole_deal_force_a_redeal() -> None:
    """004: a caller holding seven trumps has the cards dealt again -- also when he hides
    his trump only after the last card is dealt."""
    hands = complete_deal(["", "8D 9D TD JD QD KD AD", "", ""], {})
    m = Match(preset("band-rung"), first_dealer=0, seat_names=NAMES)
    deal(m, hands)
    band_rung_auction(m, 1, 9)
    events = m.apply(I.HideTrump(1, card("8D")))
    (redeal,) = of_type(events, Redeal)
    assert redeal.hand == 1 and "seven" in redeal.reason
    assert of_type(events, HandStarted) == [HandStarted(1, 0, None)]
    assert m.phase is Phase.DEAL and m.hand.deal_index == 0


def test_a_trump_hidden_by_suit_alone_tells_the_caller_only_the_suit() -> None:
    m = Match(preset("hidden-rung"), first_dealer=0, knowledge="played", seat_names=NAMES)
    events = m.apply(I.HideTrump(1, suit=Suit.C))
    assert events == [TrumpHidden(1), TrumpSetSecretly(1, Suit.C, None)]


def test_when_all_four_pass_and_the_dealer_is_not_forced_the_hand_is_dealt_again() -> None:
    """004 5.5 forces the dealer to take the call at nine; a table without that rule deals
    the same hand again when nobody bids: same number, same dealer, a new auction."""
    m = Match(preset("band-rung", dealer_forced_bid=False), first_dealer=0, seat_names=NAMES)
    deal_first_batch(m, strong_hands(2))
    events: list[Event] = []
    for seat in (1, 2, 3, 0):
        events += m.apply(I.Pass(seat))
    assert events[-3:] == [BidPassed(0), Redeal(1, "everyone passed"), HandStarted(1, 0, None)]
    assert m.hand.auction is not None and not m.hand.auction.passed and m.hand.deal_index == 0


def test_dealing_the_next_hand_over_a_play_on_offer_declines_it() -> None:
    """001: after a 7-0 start the winners may play on. If the dealer simply starts dealing
    the next hand, they did not: the hand ends and the card counts for the next one."""
    hands = strong_hands(0)
    m = Match(preset("court-piece"), first_dealer=3, seat_names=NAMES)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.S))
    deal(m, hands)
    for seat, c in script_tricks(hands, 0, [0] * 7, trump=Suit.S):
        m.apply(I.Play(seat, c))
    assert m.phase is Phase.PLAY_ON
    events = m.apply(I.Deal(card("2C")))
    assert of_type(events, PlayOnChosen) == [PlayOnChosen(0, False)]
    assert of_type(events, HandWon)[0].tricks == (7, 0)
    assert (m.hand.number, m.hand.deal_index) == (2, 1)


def test_once_a_card_number_is_named_the_trump_cannot_also_be_called() -> None:
    """Double Sir's 7th-card call (002): Bilal names his seventh card; until it is turned
    up the trump is unknown, but it is called -- he cannot name a suit as well."""
    m = Match(preset("double-sir", "trump-card-number"), first_dealer=0, knowledge="played", seat_names=NAMES)
    m.apply(I.CallTrumpByCard(1, 7))
    assert m.hand.trump is None and m.phase is Phase.CALL
    with pytest.raises(WrongPhase, match="already been called"):
        m.apply(I.CallTrump(1, Suit.S))


def test_a_call_this_table_does_not_use_is_refused_naming_the_ways_it_does() -> None:
    m = Match(preset("hidden-rung"), first_dealer=0, knowledge="played", seat_names=NAMES)
    with pytest.raises(InvalidChoice, match=r"^this table calls trump by: hidden \(not announced\)$"):
        m.apply(I.CallTrump(1, Suit.S))


def test_the_deal_stage_lasts_until_the_first_batch_and_the_last_card_is_announced() -> None:
    """Court Piece (001) deals five each, then the caller calls: before the twentieth card
    the table is still dealing; the 52nd card completes hand 1's deal."""
    hands = banded_hands()
    m = Match(preset("court-piece"), first_dealer=3, seat_names=NAMES)
    for upto in (1, 19):
        deal(m, hands, upto)
        assert m.phase is Phase.DEAL and m.public_view()["phase"] == "deal"
    deal(m, hands, 20)
    assert m.phase is Phase.CALL
    m.apply(I.CallTrump(0, Suit.S))
    events = deal(m, hands)
    assert of_type(events, DealComplete) == [DealComplete(1)]
