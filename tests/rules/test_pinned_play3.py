"""Play-stage verdicts a mutation run found unpinned (third round): the suit a flag without a
proving card names, an asker who follows suit after all, the claim of a caller who showed
the trump on his lead, a card put down once the match is over, a card taken back counted
once, and the first round of a be-ranga deal the reader saw only in part.

Each test is a table situation from the rule sources told the way a player would; each
fails on some small wrong engine that every earlier test let through. See docs/mutation.md.
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
    deal,
    deal_first_batch,
    deal_inputs,
    of_type,
    play,
    play_script,
)
from test_rule_points_hidden import band_rung, hidden_rung  # noqa: E402

from controller.rules import Match, Phase, Suit, WrongPhase, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    CardNotCounted,
    DealFellShort,
    MatchOver,
    PlayAccepted,
    RevokeFlagged,
    RevokeProof,
    ShowAsked,
    VoidShown,
)
from controller.rules.options import TrumpCall  # noqa: E402

# ------------------------------------------------------------ the suit a flag names


def test_an_asker_who_discards_instead_of_trumping_is_flagged_for_the_trump_suit() -> None:
    """002: seat 3, out of hearts, asks; clubs are turned up and he must trump. He throws
    the ace of diamonds while holding the 2 of clubs: the flag says he did not play a
    club (the suit he held), not a heart (the suit led, which he had none of)."""
    m, _ = hidden_rung(["", "2H 9C 5S 8D TD", "3H", "2C AD"], {3: "H"}, "9C")
    play(m, "2H 3H")
    m.apply(I.AskTrump(3))
    events = m.apply(I.Play(3, card("AD")))
    (flag,) = of_type(events, RevokeFlagged)
    assert (flag.seat, flag.rule, flag.suit) == (3, "trump-after-ask", Suit.C)
    assert [p.card for p in of_type(events, RevokeProof)] == [card("2C")]


def test_an_opponent_who_does_not_ask_on_a_spade_lead_is_flagged_for_spades() -> None:
    """004 7.3: an opponent who cannot follow must ask for the trump first. Seat 0, out of
    spades, throws the ace of hearts without asking: the flag names spades, the suit led
    (spades are the first suit, so a wrong engine that takes it for 'no suit' shows here)."""
    m, _ = band_rung(["AH", "5S 5H 8D 9D TD", "3S", "KS"], {0: "S"}, "8D")
    play(m, "5S 3S KS")
    (flag,) = of_type(m.apply(I.Play(0, card("AH"))), RevokeFlagged)
    assert (flag.seat, flag.rule, flag.suit, flag.proof) == (0, "must-ask", Suit.S, None)


def test_a_seat_that_asked_while_holding_the_led_suit_and_then_follows_is_not_flagged_again() -> None:
    """002: only a player who cannot follow may ask. Seat 3 asks on a spade lead while
    holding the ace of spades, and is flagged for it; he then follows with that ace. He
    holds a trump (the 2 of clubs) but owed none: following suit is what he had to do."""
    m, _ = hidden_rung(["", "2S 9C 5H 8D TD", "3S", "AS 2C"], {}, "9C")
    play(m, "2S 3S")
    events = m.apply(I.AskTrump(3))
    assert [(f.seat, f.rule, f.suit) for f in of_type(events, RevokeFlagged)] == [(3, "follow-suit", Suit.S)]
    events = m.apply(I.Play(3, card("AS")))
    assert of_type(events, PlayAccepted) and not of_type(events, RevokeFlagged)


# ------------------------------------------------------------ what a played card claims


def test_a_caller_who_shows_the_trump_on_his_lead_and_leads_another_suit_claims_no_trump() -> None:
    """002, 'played': seat 1 hid spades (the suit only, no card seen), turns them up as he
    leads and leads the 2 of hearts. Nothing proves a revoke yet, but the table is told he
    now claims to hold no spade, as of this first trick."""
    m = Match(preset("hidden-rung"), first_dealer=0, knowledge="played")
    m.apply(I.HideTrump(1, suit=Suit.S))
    m.apply(I.RevealTrump(1))
    events = m.apply(I.Play(1, card("2H")))
    assert not of_type(events, RevokeFlagged)
    assert [(e.seat, e.suit, e.trick) for e in of_type(events, VoidShown)] == [(1, Suit.S, 1)]


# ------------------------------------------------------------ the match's last card


def test_a_card_that_closes_the_matchs_last_trick_is_recorded_not_played() -> None:
    """000's rang, a match of one hand: seat 1's revoke stands when the trick's winner
    (seat 2) puts down his next lead. The revoke ends the hand and with it the match; that
    card is recorded as not counted, and nothing is played after the match is over."""
    hands = banded_hands()
    m = Match(preset("rang", match_end="hands", match_target=1), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    play_script(m, [(0, card("9H")), (1, card("8S")), (2, card("QH")), (3, card("JH"))])
    events = m.apply(I.Play(2, card("7S")))
    assert of_type(events, MatchOver) and m.phase is Phase.OVER
    assert [(e.seat, e.card) for e in of_type(events, CardNotCounted)] == [(2, card("7S"))]
    assert not of_type(events, PlayAccepted) and int(card("7S")) not in m.hand.played


# ------------------------------------------------------------ a card taken back


def test_a_card_taken_back_is_counted_once_when_the_seat_shows_its_cards() -> None:
    """A table where the caller shows a card to set trump (it stays in his hand, face up):
    'played' mode, seat 1 shows the ace of hearts. On a heart lead he throws a diamond and
    is flagged (the table saw his ace); he takes the diamond back and plays the ace. Later
    he trumps a club lead, claiming no club. His side takes seven of nine tricks and he is
    asked to show his cards: four are left, for he played nine, the one taken back not
    among them."""
    m = Match(preset("court-piece", trump_calls=frozenset({TrumpCall.SHOWN})), first_dealer=0,
              knowledge="played")
    m.apply(I.ShowTrump(1, card("AH")))
    play_script(m, zip((1, 2, 3, 0), cards("2S AS 3S 4S"), strict=True))
    events = play_script(m, zip((2, 3, 0, 1), cards("2H 3H 4H 3D"), strict=True))
    assert [(f.seat, f.rule) for f in of_type(events, RevokeFlagged)] == [(1, "follow-suit")]
    m.apply(I.TakeBack(1))
    m.apply(I.Play(1, card("AH")))  # hearts are trump: seat 1 wins and leads
    for leader, trick in [(1, "KS 5S 6S 7S"), (1, "QS 8S 9S TS"), (1, "2C 3C 4C 5C")]:
        play_script(m, zip([(leader + i) % 4 for i in range(4)], cards(trick), strict=True))
    events = play_script(m, zip((0, 1, 2, 3), cards("6C 5H 7C 8C"), strict=True))
    assert [(e.seat, e.suit) for e in of_type(events, VoidShown)] == [(1, Suit.C)]
    for trick in ["KH 6H 7H 8H", "QH 9H TH JH", "AD 4D 5D 6D"]:
        events = play_script(m, zip((1, 2, 3, 0), cards(trick), strict=True))
    assert of_type(events, ShowAsked) and m.phase is Phase.SHOW
    (asked,) = m.public_view()["showing"]
    assert (asked["seat"], asked["suits"], asked["left"]) == (1, ["C"], 4)


# ------------------------------------------------------------ a be-ranga deal seen in part

# Dealer 0: seat 1 receives first. Be-ranga has no caller, so the only thing that tells a
# missed read from a card put down mid-deal is how far the deal has gone.
BE_RANGA_DEAL = [
    cards("TS 9S 8S JH TH 9H 8H JD TD 9D JC TC 9C"),
    cards("AS KS QS JS AH KH QH AD KD QD AC KC QC"),
    cards("7S 6S 5S 7H 6H 5H 8D 7D 6D 5D 8C 7C 6C"),
    cards("4S 3S 2S 4H 3H 2H 4D 3D 2D 5C 4C 3C 2C"),
]


def be_ranga_seen(batches: tuple[int, ...], seen: int) -> Match:
    """Be-ranga dealt in ``batches`` with only the first ``seen`` reads of the deal spot."""
    m = Match(preset("be-ranga", deal_batches=batches), first_dealer=0)
    for move in deal_inputs(BE_RANGA_DEAL, 0, batches)[:seen]:
        m.apply(move)
    return m


def test_be_ranga_dealt_ten_then_three_goes_on_after_the_first_round_with_reads_lost() -> None:
    """A house deal of ten cards each, then three: the reader saw the first round (40 cards)
    and none of the last. Seat 1's first lead ends the deal and the hand goes on from the
    played cards, the first round counting as seen."""
    m = be_ranga_seen((10, 3), 40)
    events = m.apply(I.Play(1, card("AS")))
    assert [(e.hand, e.seen) for e in of_type(events, DealFellShort)] == [(1, 40)]
    assert m.phase is Phase.PLAY and m.public_view()["hand_knowledge"] == "played"


@pytest.mark.parametrize("seen", [40, 45, 51])
def test_be_ranga_dealt_in_one_round_refuses_a_card_before_that_round_is_seen(seen: int) -> None:
    """002's be-ranga with the dealer giving all thirteen cards to a seat at once: the whole
    deal is one round, so a card on a seat's spot before the reader has seen it through is
    taken for a card put down mid-deal and refused, however few reads are missing."""
    m = be_ranga_seen((13,), seen)
    with pytest.raises(WrongPhase, match="deal is not finished"):
        m.apply(I.Play(1, card("AS")))
    assert m.hand.deal_index == seen and m.phase is not Phase.PLAY

