"""Hand-end verdicts that mutation testing found unpinned: the table's own ruling on a
flagged play, band rung's dealer passing below the threshold, and what the end of a
hand reveals. See docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
    band_rung_hand,
    banded_hands,
    card,
    deal,
    deal_first_batch,
    of_type,
    play,
    run_hand,
    strong_hands,
)

from controller.rules import Match, Phase, Suit, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    CourtsScored,
    DealPasses,
    HandWon,
    PointsScored,
    ProofShown,
    RevokeFlagged,
    TrumpRevealed,
)


def revoke_by_seat_1(name: str) -> Match:
    """Court Piece deal, clubs trump: seat 0 leads the 9 of hearts and seat 1, holding
    hearts, throws a spade. The trick is held open for a ruling."""
    hands = banded_hands()
    m = Match(preset(name), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    play(m, "9H")
    assert of_type(m.apply(I.Play(1, card("8S"))), RevokeFlagged)
    return m


def test_the_tables_ruling_under_flag_forfeits_the_hand_without_a_court() -> None:
    """001 says nothing of revokes, so the referee only flags; when the table rules the
    revoke stands (apply-penalty), seat 1's side loses the hand and nobody scores a
    court for it."""
    m = revoke_by_seat_1("court-piece")
    events = m.apply(I.ApplyPenalty())
    assert [(w.team, w.reason) for w in of_type(events, HandWon)] == [(0, "revoke by seat 1")]
    assert of_type(events, CourtsScored) == []


def test_the_tables_ruling_under_rang_also_scores_the_court() -> None:
    """000: a revoke found and ruled on forfeits the hand and the other side scores a court."""
    m = revoke_by_seat_1("rang")
    events = m.apply(I.ApplyPenalty())
    assert [w.team for w in of_type(events, HandWon)] == [0]
    assert [(c.team, c.courts) for c in of_type(events, CourtsScored)] == [(0, 1)]


def test_band_rung_dealer_keeps_the_deal_while_his_side_is_behind_by_less_than_52() -> None:
    """004: the dealing side keeps the deal while behind; only past 52 does the dealer's
    partner take over. Seat 0 deals and the other side makes three bids of 9: 27 behind,
    so seat 0 deals all three times again."""
    m = Match(preset("band-rung"), first_dealer=0)
    dealers = []
    for _ in range(3):
        events = band_rung_hand(m, 1, 9, made=True)
        dealers.append(of_type(events, DealPasses)[0].dealer)
    assert dealers == [0, 0, 0]
    assert m.public_view()["score"] == [0, 27]


def test_band_rung_dealer_on_the_odd_side_keeps_the_deal_too() -> None:
    """The same reading from the other side: seat 1 deals, seats 0 and 2 make bids of 9."""
    m = Match(preset("band-rung"), first_dealer=1)
    dealers = [of_type(band_rung_hand(m, 0, 9, made=True), DealPasses)[0].dealer for _ in range(3)]
    assert dealers == [1, 1, 1]


def test_a_trump_revealed_in_play_is_not_revealed_again_at_the_hands_end() -> None:
    """The hand-end reveal is for a trump still hidden; one already turned up in play is
    announced once."""
    m = Match(preset("band-rung"), first_dealer=0)
    events = band_rung_hand(m, 1, 10, made=False)  # the caller leads his face-down trump
    assert len(of_type(events, TrumpRevealed)) == 1
    assert of_type(events, HandWon) and m.phase is not Phase.PLAY


def test_band_rung_scores_add_up_and_an_even_score_keeps_the_deal() -> None:
    """004 §6: a made bid scores the bid, a lost one twice the bid to the other side; the
    net score is what counts. Seat 0 deals: the odd side makes 9 (9 behind), the even side
    makes 9 (level: the dealer keeps the deal), then the odd side loses a bid of 10
    (the even side 20 ahead: the deal crosses to seat 1)."""
    m = Match(preset("band-rung"), first_dealer=0)
    seen = []
    for team, bid, made in ((1, 9, True), (0, 9, True), (1, 10, False)):
        events = band_rung_hand(m, team, bid, made=made)
        seen.append(([(p.team, p.points, p.reason) for p in of_type(events, PointsScored)],
                     [(d.dealer, d.reason) for d in of_type(events, DealPasses)],
                     m.public_view()["score"]))
    assert seen == [
        ([(1, 9, "bid of 9 made")], [(0, "the same dealer deals again")], [0, 9]),
        ([(0, 9, "bid of 9 made")], [(0, "the same dealer deals again")], [0, 0]),
        ([(0, 20, "bid of 10 lost")], [(1, "the dealing side went ahead: the deal crosses over")], [20, 0]),
    ]


def test_a_seven_nil_start_without_playing_on_ends_with_the_court_and_its_record() -> None:
    """000 with the play-on choice off: the team that takes the first seven stops there,
    scores its court, and the hand's record says all of it; the court moves the deal to
    the dealer's partner."""
    m = Match(preset("rang", play_on=False), first_dealer=3)
    events = run_hand(m, strong_hands(0), [0] * 7, trump=Suit.S)
    assert [(e.team, e.tricks, e.reason) for e in of_type(events, HandWon)] == [(0, (7, 0), "first seven tricks")]
    assert [(e.team, e.courts) for e in of_type(events, CourtsScored)] == [(0, 1)]
    assert [(e.dealer, e.caller, e.reason) for e in of_type(events, DealPasses)] == [
        (1, 2, "a court was scored: the dealer's partner deals")]
    assert m.history == [{
        "hand": 1, "dealer": 3, "caller": 0, "bid": None, "trump": "S", "tricks": [7, 0],
        "winner": 0, "reason": "first seven tricks",
        "scored": [{"event": "courts-scored", "team": 0, "courts": 1, "reason": "first seven tricks"}],
        "score": [1, 0]}]


def test_round_robin_moves_the_caller_and_seats_the_dealer_before_him() -> None:
    """002 online round robin: the next hand's caller is the next seat, its dealer the
    seat before that caller."""
    m = Match(preset("online-points", caller_rotation="round-robin"), first_dealer=0)
    events = run_hand(m, strong_hands(1), [1] * 8, trump=Suit.S)
    assert [(e.dealer, e.caller, e.reason) for e in of_type(events, DealPasses)] == [
        (1, 2, "the caller moves on one seat")]
    assert (m.hand.dealer, m.hand.caller) == (1, 2)


def test_a_revoke_proof_is_made_public_when_the_hand_ends() -> None:
    """The proving card stays the revoker's secret while the hand is on; once the table
    ruled the hand forfeit it is shown to all, with the trick it belongs to."""
    m = revoke_by_seat_1("court-piece")
    events = m.apply(I.ApplyPenalty())
    assert [(e.seat, e.card, e.trick, e.reason) for e in of_type(events, ProofShown)] == [
        (1, card("4H"), 1, "the hand is over")]
