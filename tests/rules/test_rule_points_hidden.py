"""Rule points of the hidden-trump presets (002's hidden rung, 004's band rung): the face-down
trump and who may see it, asking and revealing, the caller's face-down discard, the band
rung auction, the ace rules of its double sar, its hand end, bid scoring and dealer
thresholds, and its seven-trump redeal.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
    Card,
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
)

from controller.rules import InvalidChoice, Match, OutOfTurn, Phase, Suit, WrongPhase, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    AuctionWon,
    BidMade,
    CardTakenBack,
    DealPasses,
    FaceDownPlayed,
    FaceDownShown,
    HandStarted,
    HandWon,
    MatchOver,
    PilePickedUp,
    PlayAccepted,
    PointsScored,
    Redeal,
    RevokeFlagged,
    RevokeProof,
    TrickWon,
    TrumpAsked,
    TrumpCalled,
    TrumpHidden,
    TrumpRevealed,
    TrumpSetSecretly,
)


def hidden_rung(partials: list[str], voids: dict[int, str], hidden: str) -> tuple[Match, list[list[Card]]]:
    """A hidden-rung hand, dealer 0, caller seat 1 (who leads) with ``hidden`` face down."""
    hands = complete_deal(partials, voids)
    m = Match(preset("hidden-rung"), first_dealer=0)
    deal_first_batch(m, hands)
    m.apply(I.HideTrump(1, card(hidden)))
    deal(m, hands)
    return m, hands


def band_rung(partials: list[str], voids: dict[int, str], hidden: str, *, bid: int = 9,
              bidder: int = 1) -> tuple[Match, list[list[Card]]]:
    """A band-rung hand, dealer 0; ``bidder`` wins the auction, hides ``hidden`` and leads."""
    hands = complete_deal(partials, voids)
    m = Match(preset("band-rung"), first_dealer=0)
    deal_first_batch(m, hands)
    band_rung_auction(m, bidder, bid)
    m.apply(I.HideTrump(bidder, card(hidden)))
    deal(m, hands)
    return m, hands


def public_text(m: Match) -> str:
    """Everything a public screen could show: the public view and every public event."""
    return json.dumps(m.public_view()) + json.dumps([e.to_dict() for e in m.public_events()])


# ---------------------------------------------------------------------------- hidden trump


def test_face_down_trump_is_secret_until_revealed() -> None:
    """002/004 and the referee's secrecy rule: the hidden trump card and suit reach only the
    caller; the public view and public events say only that a trump lies face down."""
    m, _ = hidden_rung(["", "2C 5H 8D 9D TD", "", ""], {}, "8D")
    hide = [e for e in m.events if isinstance(e, (TrumpHidden, TrumpSetSecretly))]
    assert [type(e) for e in hide] == [TrumpHidden, TrumpSetSecretly]
    assert TrumpSetSecretly.private == "seat" and TrumpHidden.private is None
    assert "suit" not in hide[0].to_dict() and "card" not in hide[0].to_dict()
    view = m.public_view()
    assert view["trump"] is None and view["trump_card"] is None and view["trump_hidden"] is True
    assert "8D" not in public_text(m)
    assert m.seat_view(1)["my_trump_card"] == "8D"
    assert "my_trump" not in m.seat_view(0) and "my_trump" not in m.seat_view(3)


def test_ask_reveals_and_the_asker_must_trump() -> None:
    """002: a player who cannot follow may ask; trump is shown and he must trump if able.
    Discarding another suit while holding trump is flagged with the trump he held."""
    m, hands = hidden_rung(["", "2C 5H 8D 9D TD", "3C", "AH 2D"], {3: "C"}, "8D")
    play(m, "2C 3C")
    events = m.apply(I.AskTrump(3))
    assert [type(e) for e in events] == [TrumpAsked, TrumpRevealed]
    assert m.public_view()["trump"] == "D"
    held = [c for c in hands[3] if c.suit == Suit.D]
    assert sorted(m.legal_plays(3)) == sorted(held)
    events = m.apply(I.Play(3, card("AH")))
    (flag,) = of_type(events, RevokeFlagged)
    (proof,) = of_type(events, RevokeProof)  # the proving card is for the offender's seat only
    assert (flag.rule, flag.proof, proof.card) == ("trump-after-ask", None, min(held))


def test_caller_discards_face_down_and_it_is_shown_only_at_hand_end() -> None:
    """002/004: a caller who cannot follow may lay a card face down so the trump suit is not
    given away; nobody else sees it until the hand is over."""
    partials = ["4C 3S", "2C 5H 8D 9D 9H", "AC AS", "3C 2S KS"]
    m, _ = hidden_rung(partials, {1: "S"}, "8D")
    play(m, "2C AC 3C 4C")  # seat 2 wins and leads
    events = play(m, "AS 2S 3S 9H")
    (down,) = [e for e in of_type(events, PlayAccepted) if e.seat == 1]
    assert down.card is None and down.face_down is True
    (private,) = of_type(events, FaceDownPlayed)
    assert private.card == card("9H") and FaceDownPlayed.private == "seat"
    assert (1, None) in of_type(events, TrickWon)[0].cards
    assert "9H" not in public_text(m)
    assert m.seat_view(1)["my_face_down"] == ["9H"]
    # a revoke ruled to stand ends the hand: the face-down card and the trump are shown
    m.apply(I.Play(2, card("AH") if card("AH") in m.hand.holdings[2] else m.legal_plays(2)[0]))
    seat3 = m.hand.holdings[3]
    led = m.hand.led_suit()
    off = next((Card(c) for c in sorted(seat3) if c // 13 != led), None)
    assert off is not None and any(c // 13 == led for c in seat3)
    m.apply(I.Play(3, off))
    events = m.apply(I.ApplyPenalty())
    assert [(e.seat, e.card, e.trick) for e in of_type(events, FaceDownShown)] == [(1, card("9H"), 2)]
    assert [e.reason for e in of_type(events, TrumpRevealed)] == ["the hand is over"]
    assert of_type(events, HandWon)


def test_reveal_on_lead_obliges_a_trump_lead() -> None:
    """002: the caller may turn the trump up as he leads; he must then lead a trump."""
    m, hands = hidden_rung(["", "2C 5H 8D 9D TD", "", ""], {}, "8D")
    events = m.apply(I.RevealTrump(1))
    assert [e.suit for e in of_type(events, TrumpRevealed)] == [Suit.D]
    events = m.apply(I.Play(1, card("2C")))
    (flag,) = of_type(events, RevokeFlagged)
    assert flag.rule == "lead-trump-after-reveal"
    assert [p.card for p in of_type(events, RevokeProof)] == [min(c for c in hands[1] if c.suit == Suit.D)]


def test_timing_rule_trump_suit_card_before_reveal_is_no_trump() -> None:
    """002: a card of the hidden trump suit discarded before the reveal counts as a plain
    discard, so the led suit's card still wins (no one asked)."""
    m, _ = hidden_rung(["", "2C 5H 8D 9D TD", "AD", "KC"], {2: "C"}, "8D")
    events = play(m, "2C AD KC")
    events += m.apply(I.Play(0, min(c for c in m.legal_plays(0))))
    (trick,) = of_type(events, TrickWon)
    assert trick.winner == 3


# ---------------------------------------------------------------------------- band rung play


def test_band_rung_no_reveal_on_lead() -> None:
    """004: the trump comes out only when an opponent asks; the caller may not show it on
    his lead (002's option is off)."""
    m, _ = band_rung(["", "2C 5H 8D 9D TD", "", ""], {}, "8D")
    with pytest.raises(InvalidChoice):
        m.apply(I.RevealTrump(1))


def test_band_rung_partner_plays_freely_and_may_not_ask() -> None:
    """004 7.2: the caller's partner, unable to follow, plays any card without asking."""
    m, _ = band_rung(["AD", "2C 5H 8D 9D TD", "3C", "KH"], {3: "C", 0: "C"}, "8D")
    play(m, "2C 3C")
    with pytest.raises(InvalidChoice):
        m.apply(I.AskTrump(3))
    events = m.apply(I.Play(3, card("KH")))
    assert not of_type(events, RevokeFlagged)
    events = m.apply(I.AskTrump(0))  # 7.3: an opponent asks; 9.1: then cuts
    assert of_type(events, TrumpRevealed)
    events = m.apply(I.Play(0, card("AD")))
    assert not of_type(events, RevokeFlagged)
    assert of_type(events, TrickWon)[0].winner == 0


def test_band_rung_opponent_must_ask() -> None:
    """004 7.3: an opponent who cannot follow must ask for the trump; playing off suit
    without asking is flagged."""
    m, _ = band_rung(["AH", "2C 5H 8D 9D TD", "3C", "KH"], {3: "C", 0: "C"}, "8D")
    play(m, "2C 3C KH")
    events = m.apply(I.Play(0, card("AH")))
    (flag,) = of_type(events, RevokeFlagged)
    assert (flag.seat, flag.rule) == (0, "must-ask")


# ---------------------------------------------------------------------------- auction


def _auction_match() -> Match:
    m = Match(preset("band-rung"), first_dealer=0)
    deal_first_batch(m, banded_hands())
    return m


def test_bids_run_from_nine_to_thirteen() -> None:
    m = _auction_match()
    for bad in (8, 14):
        with pytest.raises(InvalidChoice):
            m.apply(I.Bid(1, bad))
    assert [(e.seat, e.tricks) for e in of_type(m.apply(I.Bid(1, 9)), BidMade)] == [(1, 9)]
    with pytest.raises(InvalidChoice):
        m.apply(I.Bid(2, 9))  # not higher
    with pytest.raises(OutOfTurn):
        m.apply(I.Bid(3, 10))


def test_overcall_takes_the_call_and_passes_are_skipped() -> None:
    """004 5.3-5.4: a seat may pass; a higher bid makes its bidder the caller."""
    m = _auction_match()
    events = []
    for move in (I.Bid(1, 9), I.Bid(2, 10), I.Pass(3), I.Pass(0), I.Pass(1)):
        events += m.apply(move)
    (won,) = of_type(events, AuctionWon)
    assert (won.seat, won.tricks, won.forced) == (2, 10, False)
    assert m.hand.caller == 2 and m.public_view()["bid"] == 10


def test_dealer_forced_to_call_at_nine() -> None:
    """004 5.5: when nobody wants the call, the dealer becomes caller at the lowest bid --
    as soon as the other three have passed (he has nothing left to say)."""
    m = _auction_match()
    events = []
    for move in (I.Pass(1), I.Pass(2), I.Pass(3)):
        events += m.apply(move)
    (won,) = of_type(events, AuctionWon)
    assert (won.seat, won.tricks, won.forced) == (0, 9, True)
    assert m.hand.caller == 0
    with pytest.raises(WrongPhase):
        m.apply(I.Pass(0))


def test_open_challenge_over_thirteen() -> None:
    """004 5.7: over a (hidden) bid of 13 the next seat may challenge by naming trump
    openly; the challenger becomes caller and the trump is public at once."""
    m = _auction_match()
    m.apply(I.Bid(1, 12))
    with pytest.raises(InvalidChoice):
        m.apply(I.OpenChallenge(2, Suit.H))
    m.apply(I.Bid(2, 13))
    events = m.apply(I.OpenChallenge(3, Suit.H))
    (won,) = of_type(events, AuctionWon)
    assert (won.seat, won.tricks, won.open_suit) == (3, 13, Suit.H)
    assert [(e.seat, e.suit) for e in of_type(events, TrumpCalled)] == [(3, Suit.H)]
    assert m.public_view()["trump"] == "H"
    with pytest.raises(WrongPhase):
        m.apply(I.HideTrump(3, banded_hands()[3][0]))


def test_thirteen_bidder_may_reveal_after_seeing_all_cards() -> None:
    """004 5.8: a caller who bid 13 may, having seen all his cards, turn the trump up and
    play an open game."""
    hands = banded_hands()
    m = Match(preset("band-rung"), first_dealer=0)
    deal_first_batch(m, hands)
    band_rung_auction(m, 1, 13)
    m.apply(I.HideTrump(1, hands[1][0]))
    with pytest.raises(WrongPhase):
        m.apply(I.RevealTrump(1))  # not before he has all thirteen
    deal(m, hands)
    events = m.apply(I.RevealTrump(1))
    assert of_type(events, TrumpRevealed) and m.public_view()["trump"] == hands[1][0].suit.name


# ---------------------------------------------------------------------------- ace rules (004 §8.6)


def test_ace_after_a_plain_ace_win_must_be_withdrawn() -> None:
    """6.3: a seat that won with an ace (not a trump cut) and leads another ace must take it
    back and lead a card that is not an ace; then its two wins take the pile."""
    m, _ = band_rung(["4S 4H", "AS AH KH 8D 2C", "2S 2H", "3S 3H"], {}, "8D")
    play(m, "AS 2S 3S 4S")
    events = m.apply(I.Play(1, card("AH")))
    (flag,) = of_type(events, RevokeFlagged)
    assert flag.rule == "ace-withdraw"
    events = m.apply(I.Play(1, card("KH")))
    assert [e.card for e in of_type(events, CardTakenBack)] == [card("AH")]
    events += play(m, "2H 3H 4H")  # nobody played between the ace and its withdrawal:
    assert [(p.seat, p.tricks) for p in of_type(events, PilePickedUp)] == [(1, 2)]  # no Confirm needed


def test_an_ace_withdrawn_after_the_others_played_is_not_replaced_by_an_ace() -> None:
    """6.3: the card led instead must not be an ace, also when the others have played to
    the trick before the withdrawal (then it is no first card of the trick, and another
    ace was accepted without a word)."""
    m, _ = band_rung(["4S 4H", "AS AH AC KH 8D 2C", "2S 2H", "3S 3H"], {}, "8D")
    play(m, "AS 2S 3S 4S")
    events = m.apply(I.Play(1, card("AH")))
    assert [f.rule for f in of_type(events, RevokeFlagged)] == ["ace-withdraw"]
    for seat, c in ((2, "2H"), (3, "3H"), (0, "4H")):
        m.apply(I.Play(seat, card(c)))
    events = m.apply(I.Play(1, card("AC")))
    assert [e.card for e in of_type(events, CardTakenBack)] == [card("AH")]
    assert [f.rule for f in of_type(events, RevokeFlagged)] == ["ace-withdraw"]


def test_two_plain_ace_wins_take_nothing() -> None:
    """6.3: if the second ace stands anyway, the two ace wins do not take the pile."""
    m, _ = band_rung(["4S 4H", "AS AH KH 8D 2C", "2S 2H", "3S 3H"], {}, "8D")
    play(m, "AS 2S 3S 4S AH 2H 3H 4H")
    events = m.apply(I.CloseTrick())
    assert of_type(events, TrickWon)[0].winner == 1
    assert not of_type(m.events, PilePickedUp) and m.public_view()["pile"] == 2


def test_plain_win_then_ace_takes_the_pile() -> None:
    """6.1: a win with any card followed by a win with an ace takes everything so far."""
    m, _ = band_rung(["4S 4H", "KS AS AH 8D 2C", "2S 2H", "3S 3H"], {}, "8D")
    events = play(m, "KS 2S 3S 4S AH 2H 3H 4H")
    assert not of_type(events, RevokeFlagged)
    assert [(p.seat, p.tricks) for p in of_type(events, PilePickedUp)] == [(1, 2)]


def test_trump_ace_cut_then_ace_takes_the_pile() -> None:
    """6.2: a win by cutting with the ace of trump followed by an ace win takes the pile."""
    m, _ = band_rung(["4C 3H", "2C 5H 8D 9D TD", "AD AH", "3C 2H"], {2: "C"}, "8D")
    play(m, "2C")
    m.apply(I.AskTrump(2))
    events = play(m, "AD 3C 4C")
    assert of_type(events, TrickWon)[0].winner == 2
    events = play(m, "AH 2H 3H 5H")
    assert not of_type(events, RevokeFlagged)
    assert [(p.seat, p.tricks) for p in of_type(events, PilePickedUp)] == [(2, 2)]


# ---------------------------------------------------------------------------- band rung hand end and score


def _followers_deal() -> list[list[Card]]:
    """Caller seat 1 (with partner 3) against seats 0 and 2, who hold 4-3-3-3 in S H D C so
    that they can follow any lead pattern of four spade and three of each other tricks."""
    shape = {0: (4, 3, 3, 3), 2: (4, 3, 3, 3), 1: (3, 3, 4, 3), 3: (2, 4, 3, 4)}
    hands: list[list[Card]] = [[], [], [], []]
    for suit in Suit:
        pool = [Card.of(suit, r) for r in range(12, -1, -1)]
        for seat in (0, 2, 1, 3):
            need = shape[seat][suit]
            hands[seat] += pool[:need]
            pool = pool[need:]
    return hands


def test_band_rung_trump_never_revealed_callers_win() -> None:
    """004 8.5: if the trump is never revealed in thirteen tricks, the callers win, even
    though the opponents took enough tricks to break the bid."""
    hands = _followers_deal()
    m = Match(preset("band-rung"), first_dealer=0, knowledge="played")
    band_rung_auction(m, 1, 12)
    m.apply(I.HideTrump(1, suit=Suit.C))
    plays = script_tricks(hands, 1, [0, 0] + [None] * 11, always_follow=(0, 2), ace_rules=True)
    events = []
    for seat, c in plays:
        events += m.apply(I.Play(seat, c))
    assert not of_type(events, RevokeFlagged)
    assert [e.reason for e in of_type(events, TrumpRevealed)] == ["the hand is over"]
    (won,) = of_type(events, HandWon)
    assert won.team == 1 and won.tricks[0] >= 2 and won.reason == "trump never revealed"
    assert [(p.team, p.points) for p in of_type(events, PointsScored)] == [(1, 12)]


def test_band_rung_stops_when_the_bid_is_broken() -> None:
    """004: once trump is out and the opponents hold 14 - bid tricks, the hand is over."""
    m = Match(preset("band-rung"), first_dealer=0)
    events = band_rung_hand(m, 1, 12, made=False)  # the opponents pick up 2 at trick 2
    assert len(of_type(events, TrickWon)) == 2
    (won,) = of_type(events, HandWon)
    assert won.team == 0 and won.reason == "bid broken"


def test_band_rung_stops_when_the_bid_is_made() -> None:
    m = Match(preset("band-rung"), first_dealer=0)
    events = band_rung_hand(m, 1, 10, made=True)  # the caller picks up in pairs: 10 at trick 10
    assert len(of_type(events, TrickWon)) == 10
    (won,) = of_type(events, HandWon)
    assert won.team == 1 and won.reason == "bid made"


def test_thirteen_bid_made_scores_fifty_two_and_104_ends_the_game() -> None:
    """004 §6.4 and 6.3: a made 13 scores 52; a net score of 104 ends the game."""
    m = Match(preset("band-rung"), first_dealer=0)
    events = band_rung_hand(m, 0, 13, made=True)
    assert [(p.team, p.points) for p in of_type(events, PointsScored)] == [(0, 52)]
    assert m.public_view()["score"] == [52, 0] and m.phase is not Phase.OVER
    events = band_rung_hand(m, 0, 13, made=True)
    (over,) = of_type(events, MatchOver)
    assert over.winner == 0 and over.score == (104, 0)


def test_thirteen_bid_lost_gives_the_opponents_fifty_two() -> None:
    m = Match(preset("band-rung"), first_dealer=0)
    events = band_rung_hand(m, 1, 13, made=False)
    assert [(p.team, p.points) for p in of_type(events, PointsScored)] == [(0, 52)]


def test_lost_bid_multiplier_is_an_option() -> None:
    """004 §6.1 doubles a lost bid; the multiplier can be set on its own."""
    m = Match(preset("band-rung", lost_bid_multiplier=3), first_dealer=0)
    events = band_rung_hand(m, 0, 10, made=False)
    assert [(p.team, p.points) for p in of_type(events, PointsScored)] == [(1, 30)]


def test_band_rung_dealer_thresholds() -> None:
    """004 §4.3/6.2: the dealing side keeps the deal while behind; when the score passes
    52 the dealer's partner takes over; when the dealing side goes ahead, the deal moves to
    the next seat."""
    m = Match(preset("band-rung"), first_dealer=0)
    dealers = []
    for team, bid in ((1, 9), (1, 13), (0, 13), (0, 13)):
        events = band_rung_hand(m, team, bid, made=True)
        dealers.append(of_type(events, DealPasses)[0].dealer)
    # net for team 1: 9, 61 (past 52), 9, then team 0 ahead by 43
    assert dealers == [0, 2, 2, 3]


def test_seven_trumps_in_the_callers_hand_forces_a_redeal() -> None:
    """004 §8.8: a caller holding seven or more trumps: the hand cannot be played; redeal."""
    hands = complete_deal(["", "2H 3H 4H 5H 6H 7H 8H", "", ""])
    m = Match(preset("band-rung"), first_dealer=0)
    deal_first_batch(m, hands)
    band_rung_auction(m, 1, 9)
    m.apply(I.HideTrump(1, card("2H")))
    events = deal(m, hands)
    assert [e.reason for e in of_type(events, Redeal)] == ["the caller holds seven or more trumps"]
    assert [(e.hand, e.dealer) for e in of_type(events, HandStarted)] == [(1, 0)]
    assert m.phase is Phase.DEAL and m.hand.deal_index == 0


def test_six_trumps_is_no_redeal() -> None:
    hands = complete_deal(["8H 9H TH JH QH KH AH", "2H 3H 4H 5H 6H 7H", "", ""])
    m = Match(preset("band-rung"), first_dealer=0)
    deal_first_batch(m, hands)
    band_rung_auction(m, 1, 9)
    m.apply(I.HideTrump(1, card("2H")))
    events = deal(m, hands)
    assert not of_type(events, Redeal) and m.phase is Phase.PLAY


@pytest.mark.parametrize(("name", "pickups"), [("double-sir", 1), ("hidden-rung", 0)])
def test_hidden_rung_takes_no_pile_while_trump_is_hidden(name: str, pickups: int) -> None:
    """002 online hidden rung: tricks cannot be claimed before the trump is revealed, so two
    running wins by one player leave the pile in the centre (plain Double Sir takes it)."""
    hands = banded_hands()
    m = Match(preset(name), first_dealer=3)  # caller and leader: seat 0
    deal_first_batch(m, hands)
    if name == "hidden-rung":
        m.apply(I.HideTrump(0, hands[0][3]))  # a club, face down
    else:
        m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    events = play(m, "AS 4S 3S 2S AH 4H 3H 2H")
    assert [t.winner for t in of_type(events, TrickWon)] == [0, 0]
    assert len(of_type(events, PilePickedUp)) == pickups


def test_band_rung_caller_lays_his_trump_card_face_down_and_the_trump_stays_hidden() -> None:
    """004 7.1: void in the suit led, the caller may play any card face down, so the
    trump is not guessed -- the very card on the trump spot too. It goes face down and
    reveals nothing (before, taking it off the spot turned the trump up and the hand
    ended on a broken bid); with no one revealing the trump after that, 8.5's callers win."""
    hands = _followers_deal()
    plays = script_tricks(hands, 1, [0, 0] + [None] * 11, always_follow=(0, 2), ace_rules=True)
    # the trump card: the first card the caller lays off a suit he lacks
    tricks = [plays[i:i + 4] for i in range(0, 52, 4)]
    spot = next(c for t in tricks for seat, c in t[1:] if seat == 1 and c.suit != t[0][1].suit)
    m = Match(preset("band-rung"), first_dealer=0, knowledge="played")
    band_rung_auction(m, 1, 12)
    m.apply(I.HideTrump(1, spot))
    events: list = []
    for seat, c in plays:
        got = m.apply(I.Play(seat, c))
        if c == spot:
            assert [e.card for e in of_type(got, FaceDownPlayed)] == [spot]
            assert not of_type(got, TrumpRevealed)
        events += got
    assert not of_type(events, RevokeFlagged)
    assert [(e.reason, e.trick) for e in of_type(events, TrumpRevealed)] == [("the hand is over", 13)]
    (won,) = of_type(events, HandWon)
    assert won.reason == "trump never revealed" and won.team == 1


def test_hidden_rung_caller_playing_his_trump_card_off_suit_still_reveals_it() -> None:
    """002: to play a trump the caller reveals first; his trump card played on a suit he
    lacks turns the trump up and counts as a cut (face_down_trump off)."""
    m = Match(preset("hidden-rung"), first_dealer=3, knowledge="played")
    m.apply(I.HideTrump(0, card("2H")))
    for seat, c in [(0, "5S"), (1, "AS"), (2, "3S"), (3, "4S")]:
        m.apply(I.Play(seat, card(c)))
    events: list = []
    for seat, c in [(1, "AD"), (2, "KD"), (3, "QD"), (0, "2H")]:
        events += m.apply(I.Play(seat, card(c)))
    assert [e.reason for e in of_type(events, TrumpRevealed)] == ["the face-down trump card was played"]
    assert not of_type(events, FaceDownPlayed)
    assert [e.winner for e in of_type(events, TrickWon)] == [0]


def test_a_trump_card_laid_face_down_stays_down_when_the_trump_is_asked_for() -> None:
    """Band rung: the caller laid his trump card (8S) face down on a diamond lead; later an
    opponent asks. The table learns the suit, spades; the card itself lies face down in
    trick 2 and is named to no one but its owner until the hand's end."""
    m = Match(preset("band-rung"), first_dealer=0, knowledge="played")
    band_rung_auction(m, 1, 9)
    m.apply(I.HideTrump(1, card("8S")))
    for seat, c in [(1, "5H"), (2, "AH"), (3, "6H"), (0, "7H"),  # seat 2 wins
                    (2, "KD"), (3, "2D"), (0, "3D"), (1, "8S"),  # the caller lacks diamonds
                    (2, "AC"), (3, "2C")]:
        m.apply(I.Play(seat, card(c)))
    events = m.apply(I.AskTrump(0))  # seat 0 has no club
    (revealed,) = of_type(events, TrumpRevealed)
    assert revealed.suit is Suit.S and revealed.card is None
    view = m.public_view()
    assert view["trump"] == "S" and view["trump_card"] is None
    assert "8S" not in json.dumps([e.to_dict() for e in events if e.private is None]) + json.dumps(view)
