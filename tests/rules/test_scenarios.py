"""The worked examples of the rule sources, replayed through the engine.

Each test sets up an exact deal, plays the example's cards, and checks what the engine
says happened against the example's stated outcome. Source numbers: 000 Rang, 001 Court
Piece and Double Sir, 002 Rung / Double Sir / hidden trump, 003 trick streak, 004 Band Rung.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
    band_rung_hand,
    banded_hands,
    card,
    complete_deal,
    deal,
    deal_first_batch,
    of_type,
    play,
    play_script,
    run_hand,
    script_tricks,
    strong_hands,
)

from controller.rules import Card, Match, Phase, Suit, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    CourtsScored,
    DealPasses,
    HandWon,
    PilePickedUp,
    PlayOnOffered,
    PointsScored,
    RevokeFlagged,
    StreakUpdated,
    TrickWon,
    TrumpRevealed,
)

# ---------------------------------------------------------------------------- 004 §6


def test_band_rung_score_table_of_source_004() -> None:
    """004's four-hand example: a made bid scores its size, a lost bid gives the opponents
    double, and the table shows one net figure on the leading side (A is team 0)."""
    m = Match(preset("band-rung"), first_dealer=0)
    table = [
        # (bidding team, bid, made, points to (team, n), shown total)
        (0, 11, True, (0, 11), [11, 0]),
        (0, 11, False, (1, 22), [0, 11]),
        (1, 12, True, (1, 12), [0, 23]),
        (1, 12, False, (0, 24), [1, 0]),
    ]
    for bidding_team, bid, made, (team, points), shown in table:
        events = band_rung_hand(m, bidding_team, bid, made)
        won = of_type(events, HandWon)
        assert len(won) == 1 and won[0].team == (bidding_team if made else 1 - bidding_team)
        scored = [(e.team, e.points) for e in of_type(events, PointsScored)]
        assert scored == [(team, points)]
        assert m.public_view()["score"] == shown
    assert m.phase is not Phase.OVER


# ---------------------------------------------------------------------------- 002 timing


def test_lower_trump_after_reveal_beats_higher_card_played_before_it() -> None:
    """002 example: hearts led; the caller's partner, void, throws the 6 of the (still
    hidden) trump suit; the last player asks, trump is shown to be diamonds, and his 3 of
    diamonds takes the trick because the 6 was no trump when it landed."""
    # dealer 0; caller seat 1 ("player 2") hides the 8 of diamonds.
    hands = complete_deal(
        ["AC AH", "2C 5H 8D", "3C 6D", "4C 3D"],
        voids={2: "H", 3: "H"},
    )
    m = Match(preset("hidden-rung"), first_dealer=0)
    deal_first_batch(m, hands)
    m.apply(I.HideTrump(1, card("8D")))
    deal(m, hands)
    play(m, "2C 3C 4C AC")  # seat 0 ("player 1") takes the first trick
    events = play(m, "AH 5H 6D")
    events += m.apply(I.AskTrump(3))
    events += m.apply(I.Play(3, card("3D")))
    revealed = of_type(events, TrumpRevealed)
    assert [(e.suit, e.trick) for e in revealed] == [(Suit.D, 2)]
    assert not of_type(events, RevokeFlagged)
    (trick,) = of_type(events, TrickWon)
    assert trick.trick == 2 and trick.winner == 3


def test_when_trump_is_the_led_suit_the_highest_card_of_it_wins() -> None:
    """002 example: spades led by the ace; the next player, void, asks; trump turns out to
    be spades; later players follow with the 5 and the caller's 7. The ace still wins."""
    # dealer 0; caller seat 1 ("player 4") hides the 7 of spades; seat 2 is "player 1".
    hands = complete_deal(
        ["4C 5S", "2C 7S", "AC AS", "3C 3H"],
        voids={3: "S"},
    )
    m = Match(preset("hidden-rung"), first_dealer=0)
    deal_first_batch(m, hands)
    m.apply(I.HideTrump(1, card("7S")))
    deal(m, hands)
    play(m, "2C AC 3C 4C")  # seat 2 takes the first trick and leads the second
    events = play(m, "AS")
    events += m.apply(I.AskTrump(3))
    events += play(m, "3H 5S 7S")
    assert [e.suit for e in of_type(events, TrumpRevealed)] == [Suit.S]
    assert not of_type(events, RevokeFlagged)
    (trick,) = of_type(events, TrickWon)
    assert trick.winner == 2


# ---------------------------------------------------------------------------- 002 double sir


def _double_sir_match(winners: list[int | None], trump: Suit = Suit.C) -> tuple[Match, list]:
    m = Match(preset("double-sir"), first_dealer=3)  # caller and first leader: seat 0
    hands = banded_hands()
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, trump))
    deal(m, hands)
    plays = script_tricks(hands, 0, winners, trump=trump)
    return m, play_script(m, plays)


def test_partners_do_not_chain_the_pile() -> None:
    """002: four tricks lie in the centre; one partner wins a trick and the other partner
    the next: nothing is taken. When that partner also wins the one after, the side
    collects all seven."""
    m, events = _double_sir_match([1, 2, 1, 2, 0, 2, 2])
    pickups = of_type(events, PilePickedUp)
    assert [(p.seat, p.team, p.tricks) for p in pickups] == [(2, 0, 7)]
    won = of_type(events, TrickWon)
    assert all(t.to_pile for t in won)
    assert m.public_view()["tricks"] == [7, 0]


def test_trick_after_a_pickup_starts_a_new_pile() -> None:
    """002: the trick won right after a pickup is not taken with it, even by the same player;
    he needs the following trick as well."""
    m, events = _double_sir_match([0, 0, 0, 0, 1])
    pickups = of_type(events, PilePickedUp)
    assert [p.tricks for p in pickups] == [2, 2]
    picked_at = [e.trick for e in of_type(events, TrickWon) if e.winner == 0][1::2]
    assert picked_at == [2, 4]
    assert m.public_view()["pile"] == 1 and m.public_view()["tricks"] == [4, 0]


def test_last_trick_takes_what_is_left_in_the_centre() -> None:
    """002: whoever wins the thirteenth trick takes it and every trick still in the centre,
    even without having won the twelfth."""
    winners: list[int | None] = [0, 0, 1, 1, 2, 3, 0, 1, 2, 3, 0, 1, 3]
    m, events = _double_sir_match(winners)
    last = of_type(events, PilePickedUp)[-1]
    assert (last.seat, last.team, last.tricks) == (3, 1, 9)
    (won,) = of_type(events, HandWon)
    assert won.team == 1 and won.tricks == (2, 11)


# ---------------------------------------------------------------------------- 000 passing the deal


def _split_win(team: int) -> list[int | None]:
    """Trick winners for a hand ``team`` wins 7-or-more after losing the first trick."""
    return [(team + 1) % 4] + [team, team + 2] * 3 + [team] + [None] * 5


def _rang_hand(m: Match, winners: list[int | None], *, strong: int | None = None,
               play_on: bool = False) -> list:
    hands = banded_hands() if strong is None else strong_hands(strong)
    return run_hand(m, hands, winners, trump=Suit.S, play_on=play_on)


def _next_dealer(events: list) -> int:
    (passes,) = of_type(events, DealPasses)
    return passes.dealer


def test_rang_dealers_team_wins_deal_passes_to_next_seat() -> None:
    """000: when the dealer's side wins, the seat after the dealer deals next."""
    m = Match(preset("rang"), first_dealer=0)
    events = _rang_hand(m, _split_win(0))
    (won,) = of_type(events, HandWon)
    assert won.team == 0 and not of_type(events, CourtsScored)
    assert _next_dealer(events) == 1 and m.hand.dealer == 1


def test_rang_dealers_team_loses_without_court_same_dealer() -> None:
    """000: the dealer's side lost but conceded no court: the same player deals again."""
    m = Match(preset("rang"), first_dealer=0)
    events = _rang_hand(m, _split_win(1))
    (won,) = of_type(events, HandWon)
    assert won.team == 1 and not of_type(events, CourtsScored)
    assert _next_dealer(events) == 0


def test_rang_court_against_dealer_passes_deal_to_partner() -> None:
    """000: when a court is scored (here the first seven tricks) the dealer's partner deals."""
    m = Match(preset("rang"), first_dealer=0)
    events = _rang_hand(m, [1] * 7, strong=1, play_on=False)
    assert of_type(events, PlayOnOffered)
    assert [(c.team, c.courts) for c in of_type(events, CourtsScored)] == [(1, 1)]
    assert _next_dealer(events) == 2


@pytest.mark.parametrize(("revoker", "next_dealer"), [(2, 2), (3, 1)])
def test_rang_revoke_passes_deal_by_side(revoker: int, next_dealer: int) -> None:
    """000: an uncorrected revoke forfeits the hand with a court to the other side. If the
    dealer's side revoked, the dealer's partner deals; if the opponents did, the seat after
    the dealer deals."""
    m = Match(preset("rang"), first_dealer=0)
    hands = banded_hands()
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(1, Suit.S))
    deal(m, hands)
    # seat 1 leads a heart; the revoker throws a club although it holds hearts.
    h = m.hand
    lead = card("KH")
    m.apply(I.Play(1, lead))
    events: list = []
    for seat in (2, 3, 0):
        mine = [Card(c) for c in sorted(h.holdings[seat])]
        pick = next(c for c in mine if c.suit == (Suit.C if seat == revoker else Suit.H))
        events += m.apply(I.Play(seat, pick))
    flags = of_type(events, RevokeFlagged)
    assert [f.seat for f in flags] == [revoker]
    events += m.apply(I.CloseTrick())
    (won,) = of_type(events, HandWon)
    assert won.team == 1 - revoker % 2
    assert [(c.team, c.courts) for c in of_type(events, CourtsScored)] == [(1 - revoker % 2, 1)]
    assert _next_dealer(events) == next_dealer


# ---------------------------------------------------------------------------- 000 streaks


def _team_wins(m: Match, team: int) -> list:
    """A hand the given team wins without a court (the other side takes the first trick)."""
    return _rang_hand(m, _split_win(team))


def test_seven_hands_in_a_row_score_a_court_and_reset_the_count() -> None:
    """000: the count of hands won in a row climbs 1..7; the seventh scores a court and
    sets the count back to zero; when the other side then wins, it starts again at one."""
    m = Match(preset("rang"), first_dealer=0)
    counts = []
    for hand in range(7):
        events = _team_wins(m, 0)
        (streak,) = of_type(events, StreakUpdated)
        counts.append((streak.team, streak.count))
        courts = of_type(events, CourtsScored)
        if hand < 6:
            assert not courts
        else:
            assert [(c.team, c.courts) for c in courts] == [(0, 1)]
    assert counts == [(0, n) for n in (1, 2, 3, 4, 5, 6, 0)]
    assert m.public_view()["score"] == [1, 0]
    events = _team_wins(m, 1)
    assert [(s.team, s.count) for s in of_type(events, StreakUpdated)] == [(1, 1)]


def test_other_team_winning_restarts_the_count_at_one() -> None:
    """000: a streak of three is broken by the opponents, whose own count starts at one."""
    m = Match(preset("rang"), first_dealer=0)
    for _ in range(3):
        _team_wins(m, 0)
    assert m.public_view()["streak"] == {"team": 0, "count": 3, "target": 7}
    events = _team_wins(m, 1)
    assert [(s.team, s.count) for s in of_type(events, StreakUpdated)] == [(1, 1)]
    events = _team_wins(m, 0)
    assert [(s.team, s.count) for s in of_type(events, StreakUpdated)] == [(0, 1)]
