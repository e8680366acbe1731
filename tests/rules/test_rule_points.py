"""One test per rule point of the rule reference (announced-trump presets and the common
ground): set-up, trump calls, trick resolution, collection, hand end, scoring, the deal,
redeals, match end, revokes and impossible inputs.

Hidden trump and band rung live in ``test_rule_points_hidden.py``. Every test checks the
specific effect of its rule, so it fails if the engine drops the rule.
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
    change_flagged_at_once,
    complete_deal,
    deal,
    deal_first_batch,
    deal_inputs,
    of_type,
    play,
    play_script,
    rotate,
    run_hand,
    script_tricks,
    snapshot,
    strong_hands,
)

from controller.rules import (  # noqa: E402
    CardSeenTwice,
    InvalidChoice,
    Match,
    NotInHand,
    OutOfTurn,
    Phase,
    Suit,
    TooManyCards,
    WrongPhase,
    preset,
)
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    CardTakenBack,
    CourtsScored,
    DealPasses,
    HandStarted,
    HandWon,
    MatchOver,
    MoveTimedOut,
    PartnershipsDrawn,
    PilePickedUp,
    PlayAccepted,
    PlayOnOffered,
    PointsScored,
    Redeal,
    RevokeFlagged,
    RevokeProof,
    StreakUpdated,
    SuspicionCleared,
    TimeUpNoted,
    TrickWon,
    TrumpCalled,
    VoidShown,
)
from controller.rules.options import Direction  # noqa: E402


def split_win(team: int) -> list[int | None]:
    """Trick winners for a hand ``team`` wins with seven tricks after losing the first."""
    return [(team + 1) % 4] + [team, team + 2] * 3 + [team] + [None] * 5


def pickups_at(events: list) -> list[tuple[int, int]]:
    """(trick number, tricks taken) for each pile pickup, in order."""
    out = []
    trick = 0
    for e in events:
        if isinstance(e, TrickWon):
            trick = e.trick
        elif isinstance(e, PilePickedUp):
            out.append((trick, e.tricks))
    return out


def ready(name: str, *variants: str, dealer: int = 3, hands=None, trump: Suit = Suit.C,
          knowledge: str = "dealt", **overrides) -> tuple[Match, list]:
    """A match of an announced-trump preset, dealt and called, waiting for the first lead."""
    hands = hands if hands is not None else banded_hands()
    m = Match(preset(name, *variants, **overrides), first_dealer=dealer, knowledge=knowledge)
    if knowledge == "dealt":
        deal_first_batch(m, hands)
    m.apply(I.CallTrump(m.hand.caller, trump))
    if knowledge == "dealt":
        deal(m, hands)
    return m, hands


# ---------------------------------------------------------------------------- set-up


def test_direction_option_differs_but_the_next_seat_always_receives_first() -> None:
    """000 plays to the left, the others to the right; seats are numbered in playing
    order, so in both the first card of the deal goes to the dealer's next seat."""
    assert preset("rang").direction is Direction.CLOCKWISE
    for name in ("court-piece", "trick-streak", "band-rung", "double-sir"):
        assert preset(name).direction is Direction.COUNTER_CLOCKWISE
    for name in ("rang", "court-piece"):
        m = Match(preset(name), first_dealer=2)
        m.apply(I.Deal(card("AS")))
        assert m.seat_view(3)["my_hand"] == ["AS"]


@pytest.mark.parametrize("name", ["rang", "court-piece", "double-sir", "trick-streak", "online-points"])
def test_trump_caller_is_the_seat_after_the_dealer(name: str) -> None:
    """000 dealer's left, 001 dealer's right, 002 first after the dealer, 003 the cutter:
    all the next seat in playing order. Nobody else may call."""
    m = Match(preset(name), first_dealer=2)
    assert of_type(m.events, HandStarted)[0].caller == 3
    deal_first_batch(m, banded_hands())
    with pytest.raises(OutOfTurn):
        m.apply(I.CallTrump(1, Suit.S))
    events = m.apply(I.CallTrump(3, Suit.S))
    assert [(e.seat, e.suit) for e in of_type(events, TrumpCalled)] == [(3, Suit.S)]


@pytest.mark.parametrize(("name", "batches"), [("rang", (5, 8)), ("court-piece", (5, 4, 4)),
                                                ("trick-streak", (5, 4, 4)), ("band-rung", (5, 4, 4))])
def test_deal_batches_and_call_after_the_first_five(name: str, batches: tuple[int, ...]) -> None:
    """000 deals five then the rest; the others 5-4-4. Dealt in those batches, every seat
    ends with its intended hand, and trump can be called only once all have five."""
    hands = banded_hands()
    m = Match(preset(name), first_dealer=1)
    moves = deal_inputs(hands, 1, batches)
    for move in moves[:19]:
        m.apply(move)
    call = I.Bid(2, 9) if name == "band-rung" else I.CallTrump(2, Suit.H)
    with pytest.raises(WrongPhase):
        m.apply(call)
    m.apply(moves[19])
    m.apply(call)
    for move in moves[20:]:
        m.apply(move)
    for seat in range(4):
        assert sorted(m.seat_view(seat)["my_hand"]) == sorted(c.text for c in hands[seat])


def test_first_lead_rang_is_the_caller() -> None:
    """000/001/002: the caller (dealer's next seat) leads the first trick; another seat's
    lead is refused as out of turn."""
    m, hands = ready("rang", dealer=1)
    assert m.turn() == 2
    with pytest.raises(OutOfTurn):
        m.apply(I.Play(1, hands[1][0]))


def test_first_lead_dealer_next_option_with_a_bid_caller() -> None:
    """003 names the dealer's next seat as leader, not the caller; with a bidding caller
    the option tells the two apart: the auction winner (seat 2) calls, seat 1 leads."""
    hands = banded_hands()
    for first_lead, leader in (("caller", 2), ("dealer-next", 1)):
        m = Match(preset("band-rung", first_lead=first_lead), first_dealer=0)
        deal_first_batch(m, hands)
        apply = [I.Pass(1), I.Bid(2, 9), I.Pass(3), I.Pass(0)]
        for move in apply:
            m.apply(move)
        m.apply(I.HideTrump(2, hands[2][0]))
        deal(m, hands)
        assert m.hand.caller == 2 and m.turn() == leader


# ---------------------------------------------------------------------------- trump calls


def test_announced_trump_is_public() -> None:
    """001: the caller names the suit aloud, so the public view shows it."""
    m, _ = ready("court-piece", trump=Suit.D)
    assert m.public_view()["trump"] == "D" and m.public_view()["trump_how"] == "announced"


def test_trump_card_show_lays_a_first_five_card_face_up_and_it_stays_playable() -> None:
    """001 Trump Card Show: the suit of a card from the caller's first five is trump; the
    card is on the table for all to see, yet still the caller's to play."""
    hands = banded_hands()  # dealer 3 -> caller seat 0, first five 5S 5H 5D 5C 9S
    m = Match(preset("court-piece", "trump-card-show"), first_dealer=3)
    deal_first_batch(m, hands)
    with pytest.raises(InvalidChoice):
        m.apply(I.CallTrump(0, Suit.H))
    with pytest.raises(NotInHand):
        m.apply(I.ShowTrump(0, card("AS")))  # seat 0's, but not among its first five
    events = m.apply(I.ShowTrump(0, card("5H")))
    assert [(e.suit, e.card) for e in of_type(events, TrumpCalled)] == [(Suit.H, card("5H"))]
    assert m.public_view()["trump_card"] == "5H"
    deal(m, hands)
    events = m.apply(I.Play(0, card("5H")))
    assert [e.card for e in of_type(events, PlayAccepted)] == [card("5H")]
    assert not of_type(events, RevokeFlagged)


def test_trump_deferred_turns_the_callers_first_card_of_the_next_batch() -> None:
    """001 Trump Deferred: the caller passes on his five; the first card he gets in the
    next batch is turned up and its suit is trump; the card stays his."""
    hands = banded_hands()
    m = Match(preset("court-piece", "trump-deferred"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrumpByCard(0, 6))
    assert m.hand.trump is None
    events = deal(m, hands, 21)  # seat 0 gets the first card of the second batch
    sixth = hands[0][5]
    assert [(e.suit, e.card, e.how) for e in of_type(events, TrumpCalled)] == [(sixth.suit, sixth, "deferred")]
    deal(m, hands)
    assert sixth.text in m.seat_view(0)["my_hand"]


@pytest.mark.parametrize("number", [7, 10])
def test_trump_from_the_callers_seventh_or_tenth_card(number: int) -> None:
    """002: the caller may name a later card (7th or 10th); it is turned up when dealt."""
    hands = banded_hands()
    m = Match(preset("double-sir", "trump-card-number"), first_dealer=3)
    deal_first_batch(m, hands)
    with pytest.raises(InvalidChoice):
        m.apply(I.CallTrumpByCard(0, 8))
    m.apply(I.CallTrumpByCard(0, number))
    events = deal(m, hands)
    named = hands[0][number - 1]
    assert [(e.suit, e.card) for e in of_type(events, TrumpCalled)] == [(named.suit, named)]


def test_card_number_call_needs_the_variant() -> None:
    """Without the 7th/10th-card variant the call is refused."""
    m = Match(preset("double-sir"), first_dealer=3)
    deal_first_batch(m, banded_hands())
    with pytest.raises(InvalidChoice):
        m.apply(I.CallTrumpByCard(0, 7))


def test_be_ranga_first_card_off_suit_sets_trump_and_wins() -> None:
    """002 Be-ranga: all thirteen are dealt with no call; the first card played by a seat
    that cannot follow makes its suit trump, and it takes the trick."""
    hands = complete_deal(["AS", "2H", "KS", "QS"], voids={1: "S"})
    m = Match(preset("be-ranga"), first_dealer=3)
    assert of_type(m.events, HandStarted)[0].caller is None
    deal(m, hands, 20)
    assert m.phase is Phase.DEAL  # no pause for a call after the first batch
    with pytest.raises(InvalidChoice):
        m.apply(I.CallTrump(0, Suit.S))
    deal(m, hands)
    assert m.phase is Phase.PLAY and m.turn() == 0
    events = play(m, "AS 2H KS QS")
    assert [(e.seat, e.suit, e.how) for e in of_type(events, TrumpCalled)] == [(1, Suit.H, "first card off suit")]
    (trick,) = of_type(events, TrickWon)
    assert trick.winner == 1


# ---------------------------------------------------------------------------- tricks


def test_cut_and_overcut() -> None:
    """Common ground and 004: a trump beats the led suit, and a higher trump played after
    it beats that one."""
    hands = complete_deal(["2S", "AS", "5H", "9H"], voids={2: "S", 3: "S"})
    m, _ = ready("court-piece", dealer=0, hands=hands, trump=Suit.H)
    events = play(m, "AS 5H 9H 2S")
    (trick,) = of_type(events, TrickWon)
    assert trick.winner == 3


def test_follow_suit_highest_of_led_suit_wins() -> None:
    """Common ground: with no trump in the trick the highest card of the led suit wins,
    a higher card of another suit does not."""
    hands = complete_deal(["2S", "9S", "AH", "TS"], voids={2: "S"})
    m, _ = ready("court-piece", dealer=0, hands=hands, trump=Suit.C)
    (trick,) = of_type(play(m, "9S AH TS 2S"), TrickWon)
    assert trick.winner == 3


# ---------------------------------------------------------------------------- collection


def test_each_trick_goes_to_its_winner() -> None:
    """000/001/003: every trick is credited at once, nothing waits in the centre."""
    m, hands = ready("court-piece")
    events = play_script(m, script_tricks(hands, 0, [1, 2, 3], trump=Suit.C))
    assert [t.to_pile for t in of_type(events, TrickWon)] == [False] * 3
    assert not of_type(events, PilePickedUp)
    assert m.public_view()["tricks"] == [1, 2] and m.public_view()["pile"] == 0


def test_double_sir_single_wins_stay_in_the_centre() -> None:
    """002: a trick won once waits in the centre; two running by one player take it."""
    m, hands = ready("double-sir")
    events = play_script(m, script_tricks(hands, 0, [1, 2, 2], trump=Suit.C))
    assert [p.tricks for p in of_type(events, PilePickedUp)] == [3]
    assert [t.trick for t in of_type(events, TrickWon)] == [1, 2, 3]
    assert m.public_view()["tricks"] == [3, 0]


@pytest.mark.parametrize(("variants", "picked"), [((), [(2, 2)]), (("no-pickup-first-two",), [(3, 3)])])
def test_no_pickup_on_tricks_one_and_two(variants: tuple[str, ...], picked: list) -> None:
    """002 option: winning the first two tricks takes nothing, but the same player winning
    the third takes all three."""
    m, hands = ready("double-sir", *variants)
    events = play_script(m, script_tricks(hands, 0, [0, 0, 0], trump=Suit.C))
    assert pickups_at(events) == picked


def test_no_pickup_on_tricks_eleven_and_twelve() -> None:
    """002 option: a player winning tricks 11 and 12 cannot take the centre; the winner
    of the last trick takes everything."""
    winners: list[int | None] = [0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 0, 0, 3]
    plain, hands = ready("double-sir")
    events = play_script(plain, script_tricks(hands, 0, winners, trump=Suit.C)[:48])
    assert pickups_at(events) == [(12, 12)]
    m, hands = ready("double-sir", "no-pickup-eleven-twelve")
    events = play_script(m, script_tricks(hands, 0, winners, trump=Suit.C))
    assert pickups_at(events) == [(13, 13)]
    assert of_type(events, PilePickedUp)[0].seat == 3


@pytest.mark.parametrize(("variants", "pickups"), [((), 1), (("no-pickup-two-aces",), 0)])
def test_no_pickup_with_two_aces(variants: tuple[str, ...], pickups: int) -> None:
    """002 option: two running wins with aces do not take the centre."""
    m, _ = ready("double-sir", *variants)  # seat 0 holds every ace and leads
    events = play(m, "AS 4S 3S 2S AH 4H 3H 2H")
    assert [t.winner for t in of_type(events, TrickWon)] == [0, 0]
    assert len(of_type(events, PilePickedUp)) == pickups


def test_be_ranga_no_pickup_before_the_trick_after_trump_is_set() -> None:
    """002 Be-ranga: with no trump yet, two running wins take nothing; the player who wins
    the trump-setting trick and the next collects every trick so far."""
    hands = complete_deal(["AC KC AS", "2C 3C 2H AH", "4C 5C 2S 3H", "6C 7C 3S 4H"], voids={1: "S"})
    m = Match(preset("be-ranga"), first_dealer=3)
    deal(m, hands)
    events = play(m, "AC 2C 4C 6C KC 3C 5C 7C")
    assert not of_type(events, PilePickedUp) and m.public_view()["pile"] == 2
    events = play(m, "AS 2H 2S 3S")
    assert of_type(events, TrumpCalled) and not of_type(events, PilePickedUp)
    events = play(m, "AH 3H 4H")
    events += m.apply(I.Play(0, next(c for c in hands[0] if c.suit == Suit.H)))
    assert [(p.seat, p.tricks) for p in of_type(events, PilePickedUp)] == [(1, 4)]


@pytest.mark.parametrize(("variants", "picked_at"), [((), [2]), (("bigger-piles",), [3])])
def test_bigger_piles(variants: tuple[str, ...], picked_at: list[int]) -> None:
    """002 online option: a bigger pile is needed before two running wins take it."""
    m, hands = ready("online-points", *variants)
    events = play_script(m, script_tricks(hands, 0, [0, 0, 0], trump=Suit.C))
    assert [trick for trick, _ in pickups_at(events)] == picked_at


# ---------------------------------------------------------------------------- hand end


@pytest.mark.parametrize(("name", "last_trick"), [("rang", 13), ("court-piece", 8)])
def test_hand_end_with_split_first_seven(name: str, last_trick: int) -> None:
    """000 plays all thirteen when the first seven were split; 001 stops as soon as a team
    has seven."""
    m = Match(preset(name), first_dealer=3)
    events = run_hand(m, banded_hands(), split_win(0), trump=Suit.C)
    (won,) = of_type(events, HandWon)
    tricks = of_type(events, TrickWon)
    assert won.team == 0
    assert len(tricks) == last_trick
    assert not of_type(events, PlayOnOffered)


@pytest.mark.parametrize("name", ["rang", "court-piece"])
def test_seven_nil_start_offers_play_on_and_stopping_scores_a_court(name: str) -> None:
    """000/001: after a 7-0 start the winners choose; stopping ends the hand with one court."""
    m = Match(preset(name), first_dealer=0)
    events = run_hand(m, strong_hands(1), [1] * 7, trump=Suit.S, play_on=False)
    assert len(of_type(events, TrickWon)) == 7
    assert [e.team for e in of_type(events, PlayOnOffered)] == [1]
    assert [(c.team, c.courts) for c in of_type(events, CourtsScored)] == [(1, 1)]


@pytest.mark.parametrize("name", ["rang", "court-piece", "trick-streak"])
def test_all_thirteen_scores_fifty_two(name: str) -> None:
    """000/001/003: playing on and taking all thirteen scores 52 courts in all."""
    m = Match(preset(name), first_dealer=0)
    events = run_hand(m, strong_hands(1), [1] * 13, trump=Suit.S, play_on=True)
    assert len(of_type(events, TrickWon)) == 13
    assert sum(c.courts for c in of_type(events, CourtsScored) if c.team == 1) == 52
    assert m.public_view()["score"] == [0, 52]


def test_playing_on_and_failing_costs_nothing() -> None:
    """000: a side that plays on after 7-0 and then loses a trick keeps its one court and
    the hand ends there."""
    m = Match(preset("rang"), first_dealer=0)
    winners: list[int | None] = [1] * 7 + [0] + [None] * 5
    events = run_hand(m, strong_hands(1), winners, trump=Suit.H, play_on=True)
    assert len(of_type(events, TrickWon)) == 8
    (won,) = of_type(events, HandWon)
    assert won.team == 1 and won.tricks == (1, 7)
    assert [(c.team, c.courts) for c in of_type(events, CourtsScored)] == [(1, 1)]


# ---------------------------------------------------------------------------- scoring


@pytest.mark.parametrize(("variants", "dealer", "courts"), [((), 0, 3), (("goon-ten",), 0, 10), ((), 3, 1)])
def test_all_thirteen_in_double_sir_goon_court(variants: tuple[str, ...], dealer: int, courts: int) -> None:
    """002: taking all thirteen is a court; when the dealer's team does it, a goon court
    of three (variant: ten). It also resets the count of hands won in a row."""
    m = Match(preset("double-sir", *variants), first_dealer=dealer)
    strong = 2  # team 0: the dealer's team when seat 0 deals, not when seat 3 does
    events = run_hand(m, strong_hands(strong), [strong] * 13, trump=Suit.S, play_on=True)
    assert [(c.team, c.courts) for c in of_type(events, CourtsScored)] == [(0, courts)]
    assert [(s.team, s.count) for s in of_type(events, StreakUpdated)] == [(0, 0)]


def test_seven_tricks_in_a_row_across_hands() -> None:
    """003: the count of tricks won in a row by one team runs on into the next hand; the
    seventh scores a court and the count starts again."""
    m = Match(preset("trick-streak"), first_dealer=3)
    first: list[int | None] = [1, 0, 3, 0, 1, 2, 3, 2, 1, 0, 2, 0, 2]
    events = run_hand(m, banded_hands(), first, trump=Suit.C)
    assert of_type(events, HandWon)[0].team == 0 and not of_type(events, CourtsScored)
    assert m.public_view()["trick_streak"]["team"] == 0
    assert m.public_view()["trick_streak"]["count"] == 4
    leader = m.hand.caller
    assert leader is not None
    hands = banded_hands()
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(leader, Suit.C))
    deal(m, hands)
    events = play_script(m, script_tricks(hands, leader, [0, 2, 0], trump=Suit.C))
    assert [(c.team, c.courts) for c in of_type(events, CourtsScored)] == [(0, 1)]
    assert m.public_view()["trick_streak"]["count"] == 0


def test_other_team_taking_a_trick_restarts_the_trick_count() -> None:
    """003: the running count belongs to one team; the other team's trick restarts it at one."""
    m, hands = ready("trick-streak")
    play_script(m, script_tricks(hands, 0, [0, 2, 1], trump=Suit.C))
    assert m.public_view()["trick_streak"] == {"team": 1, "count": 1, "target": 7}


def _online_hand(m: Match, winning_team: int, court: bool) -> list:
    """A hand of online rung: with a court, one strong seat of the winners takes every pair
    (the losers hold nothing); without, the losers take the first pair, then the winners'
    two seats take pairs until they hold eight."""
    caller = m.hand.caller
    assert caller is not None
    if court:
        strong = caller if caller % 2 == winning_team else (caller + 1) % 4
        return run_hand(m, strong_hands(strong), [strong] * 8, trump=Suit.S)
    w, o = winning_team, 1 - winning_team
    winners: list[int | None] = [o, o, w, w, w + 2, w + 2, w, w, w + 2, w + 2]
    return run_hand(m, rotate(banded_hands(), winning_team), winners, trump=Suit.C)


@pytest.mark.parametrize(("caller_wins", "court", "points"), [(True, False, 1), (True, True, 3),
                                                               (False, False, 2), (False, True, 4)])
def test_online_simple_scoring(caller_wins: bool, court: bool, points: int) -> None:
    """002 online simple: the caller's team scores 1 for a round, the opponents 2, and a
    court adds 2."""
    m = Match(preset("online-points"), first_dealer=0)  # caller seat 1, team 1
    team = 1 if caller_wins else 0
    events = _online_hand(m, team, court)
    assert [(p.team, p.points) for p in of_type(events, PointsScored)] == [(team, points)]


@pytest.mark.parametrize(("caller_wins", "court", "points"), [(True, False, None), (True, True, 1),
                                                               (False, False, None), (False, True, 3)])
def test_online_courts_scoring(caller_wins: bool, court: bool, points: int | None) -> None:
    """002 online courts: only courts score, 1 for the caller's team, 3 for the opponents."""
    m = Match(preset("online-points", "courts-scoring"), first_dealer=0)
    team = 1 if caller_wins else 0
    events = _online_hand(m, team, court)
    expected = [] if points is None else [(team, points)]
    assert [(p.team, p.points) for p in of_type(events, PointsScored)] == expected


def test_online_first_to_ten_ends_the_match() -> None:
    """002 online: the first team to 10 points wins the match."""
    m = Match(preset("online-points"), first_dealer=0)
    total = 0
    while total < 10:
        assert m.phase is not Phase.OVER
        events = _online_hand(m, 0, court=True)
        total += sum(p.points for p in of_type(events, PointsScored))
    (over,) = of_type(events, MatchOver)
    assert over.winner == 0 and over.score[0] >= 10


def test_rounds_limit_ends_the_match() -> None:
    """002 online option (and 003's agreed number of rounds): the match ends after N hands."""
    m = Match(preset("online-points", match_end="hands", match_target=2), first_dealer=0)
    first = _online_hand(m, 0, court=False)
    assert not of_type(first, MatchOver)
    events = _online_hand(m, 1, court=False)
    (over,) = of_type(events, MatchOver)
    assert over.reason == "2 hands played" and m.phase is Phase.OVER


# ---------------------------------------------------------------------------- the deal moves


@pytest.mark.parametrize(("winners", "court", "next_dealer"), [
    (split_win(1), False, 2),  # dealer 1's team wins: the next seat deals
    (split_win(0), False, 1),  # the caller's team wins without a court: same dealer
])
def test_court_piece_deal_passing(winners: list, court: bool, next_dealer: int) -> None:
    """001: the dealer's team winning moves the deal on; the callers winning without a court
    leave it with the same dealer."""
    m = Match(preset("court-piece"), first_dealer=1)
    events = run_hand(m, banded_hands(), winners, trump=Suit.C)
    assert bool(of_type(events, CourtsScored)) is court
    assert [p.dealer for p in of_type(events, DealPasses)] == [next_dealer]


def test_court_piece_callers_court_gives_the_deal_to_the_dealers_partner() -> None:
    """001: when the callers score a court, the previous dealer's partner deals."""
    m = Match(preset("court-piece"), first_dealer=1)
    events = run_hand(m, strong_hands(2), [2] * 7, trump=Suit.S, play_on=False)
    assert [(c.team, c.courts) for c in of_type(events, CourtsScored)] == [(0, 1)]
    assert [p.dealer for p in of_type(events, DealPasses)] == [3]


def test_round_robin_caller_moves_every_hand() -> None:
    """002 online option: the caller's seat moves round one seat each hand, whoever won."""
    m = Match(preset("online-points", "round-robin"), first_dealer=0)
    callers = [m.hand.caller]
    for team in (1, 1, 0):
        _online_hand(m, team, court=False)
        callers.append(m.hand.caller)
    assert callers == [1, 2, 3, 0]


# ---------------------------------------------------------------------------- redeals


def test_redeal_when_the_callers_five_are_below_a_jack() -> None:
    """002 online option: a caller whose first cards are all below a jack may ask for a new
    deal; with a jack or better he may not."""
    low = complete_deal(["", "2S 3H 4D 5C TS", "", ""])
    m = Match(preset("online-points", "redeal"), first_dealer=0)
    deal_first_batch(m, low)
    with pytest.raises(OutOfTurn):
        m.apply(I.RequestRedeal(2))
    events = m.apply(I.RequestRedeal(1))
    assert of_type(events, Redeal)
    assert [(e.hand, e.dealer) for e in of_type(events, HandStarted)] == [(1, 0)]
    assert m.hand.deal_index == 0
    high = complete_deal(["", "2S 3H 4D 5C JS", "", ""])
    deal_first_batch(m, high)
    before = snapshot(m)
    with pytest.raises(InvalidChoice):
        m.apply(I.RequestRedeal(1))
    assert snapshot(m) == before


def test_no_redeal_without_the_option() -> None:
    m = Match(preset("online-points"), first_dealer=0)
    deal_first_batch(m, complete_deal(["", "2S 3H 4D 5C TS", "", ""]))
    with pytest.raises(InvalidChoice):
        m.apply(I.RequestRedeal(1))


# ---------------------------------------------------------------------------- match end


def test_time_up_finishes_the_hand_in_progress() -> None:
    """000/001/003: when the agreed time passes, the current hand is played out, then the
    match ends with the side that has more courts winning."""
    m = Match(preset("court-piece"), first_dealer=0)
    hands = strong_hands(1)
    deal_first_batch(m, hands)
    events = m.apply(I.TimeUp())
    assert of_type(events, TimeUpNoted) and not of_type(events, MatchOver)
    m.apply(I.CallTrump(1, Suit.S))
    deal(m, hands)
    events = play_script(m, script_tricks(hands, 1, [1] * 7, trump=Suit.S))
    events += m.apply(I.PlayOn(False))
    (over,) = of_type(events, MatchOver)
    assert over.winner == 1 and over.reason == "time is up"
    assert not of_type(events, HandStarted)


def test_time_up_between_hands_ends_at_once() -> None:
    m = Match(preset("rang"), first_dealer=0)
    events = m.apply(I.TimeUp())
    (over,) = of_type(events, MatchOver)
    assert over.winner is None and m.phase is Phase.OVER


def test_draw_for_the_first_dealer() -> None:
    """001: the lowest card drawn deals first."""
    m = Match(preset("court-piece", draw="dealer"))
    for seat, text in enumerate(["9S", "4H", "KD", "7C"]):
        events = m.apply(I.DrawCard(seat, card(text)))
    assert [e.dealer for e in of_type(events, PartnershipsDrawn)] == [1]
    assert m.hand.dealer == 1 and m.hand.caller == 2


def test_move_timer_is_reported_not_played() -> None:
    """002 online option: the timer running out is a table event; the engine plays nothing."""
    m, _ = ready("online-points", move_timer=15)
    before = m.public_view()["trick"]
    assert of_type(m.apply(I.MoveTimeout(0)), MoveTimedOut)
    assert m.public_view()["trick"] == before and m.turn() == 0


# ---------------------------------------------------------------------------- revokes


def test_dealt_revoke_is_flagged_at_once_with_proof() -> None:
    """Referee: with the hands known, failing to follow is flagged as the card lands,
    naming the lowest card of the led suit the seat still holds."""
    m, _ = ready("court-piece")  # seat 0 leads; banded deal
    play(m, "AS")
    events = m.apply(I.Play(1, card("KH")))
    (flag,) = of_type(events, RevokeFlagged)
    assert (flag.seat, flag.card, flag.rule, flag.suit) == (1, card("KH"), "follow-suit", Suit.S)
    (proof,) = of_type(events, RevokeProof)  # the card still in hand: for seat 1 only
    assert (proof.seat, proof.card, RevokeProof.private) == (1, card("4S"), "seat")
    assert m.public_view()["pending_revoke"]["seat"] == 1


def test_flag_only_penalty_lets_the_hand_go_on() -> None:
    """Sources 001/002 name no penalty: the flag is recorded and the hand continues."""
    m, _ = ready("court-piece")
    events = play(m, "AS KH 3S 2S")
    assert of_type(events, RevokeFlagged) and not of_type(events, TrickWon)
    events = m.apply(I.CloseTrick())
    assert of_type(events, TrickWon) and not of_type(events, HandWon)


def test_rang_correction_revoker_replaces_and_later_players_may_change() -> None:
    """000: a revoker who notices before the trick is over plays a proper card instead, and
    those who played after may change theirs; the trick then stands as corrected."""
    m, _ = ready("rang", dealer=0, trump=Suit.C)  # seat 1 leads
    events = play(m, "KH 3C 6H AH")
    assert [f.seat for f in of_type(events, RevokeFlagged)] == [2]
    assert not of_type(events, TrickWon)
    events = m.apply(I.Play(2, card("7H")))
    assert [e.card for e in of_type(events, CardTakenBack)] == [card("3C")]
    # Seat 0 played after the revoker and may change; she is winning the trick, so a card
    # on her spot would be her next lead: the table takes her card back first.
    events = m.apply(I.TakeBack(0))
    assert [e.card for e in of_type(events, CardTakenBack)] == [card("AH")]
    m.apply(I.Play(0, card("5H")))
    events = m.apply(I.CloseTrick())
    (trick,) = of_type(events, TrickWon)
    assert trick.winner == 1 and dict(trick.cards)[0] == card("5H")
    assert not of_type(events, HandWon)


def test_rang_uncorrected_revoke_forfeits_when_the_trick_is_closed() -> None:
    """000: a revoke still standing when the trick is confirmed forfeits the hand: the
    opponents win it and score a court."""
    m, _ = ready("rang", dealer=0, trump=Suit.D)
    play(m, "KH 3C 6H AH")
    events = m.apply(I.CloseTrick())
    (won,) = of_type(events, HandWon)
    assert won.team == 1 and "revoke" in won.reason
    assert [(c.team, c.courts) for c in of_type(events, CourtsScored)] == [(1, 1)]


def test_rang_uncorrected_revoke_forfeits_when_play_moves_on() -> None:
    """000 and the engine's own convention: the correction window closes at the first input
    that is not a replacement; the next lead is such an input, so the hand is forfeit."""
    m, _ = ready("rang", dealer=0, trump=Suit.D)
    play(m, "KH 3C 6H AH")
    events = m.apply(I.Play(0, card("AS")))  # the next lead: the flagged trick is over
    assert [e.kind for e in events][-1] == "card-not-counted"
    (won,) = of_type(m.events, HandWon)
    assert won.team == 1 and "revoke" in won.reason
    assert [(c.team, c.courts) for c in of_type(m.events, CourtsScored)] == [(1, 1)]


def test_played_mode_revoke_proven_by_a_later_card() -> None:
    """Referee, cards seen only when played: not following records a void; the seat later
    showing that suit proves the revoke, naming both cards. Under rang it forfeits."""
    m, _ = ready("rang", dealer=0, trump=Suit.D, knowledge="played")
    events = play(m, "KH 3C 6H AH")
    assert [(v.seat, v.suit) for v in of_type(events, VoidShown)] == [(2, Suit.H)]
    assert not of_type(events, RevokeFlagged)
    events = play(m, "AS 4S QS JS")  # seat 0 won and leads
    assert not of_type(events, RevokeFlagged)
    events = play(m, "9H 8H 7H")
    (flag,) = of_type(events, RevokeFlagged)
    assert (flag.seat, flag.card, flag.proof, flag.trick) == (2, card("3C"), card("7H"), 1)
    (won,) = of_type(events, HandWon)
    assert won.team == 1
    assert [(c.team, c.courts) for c in of_type(events, CourtsScored)] == [(1, 1)]


def test_played_mode_revoker_corrects_his_own_card_before_the_trick_is_over() -> None:
    """000 in played mode: the referee cannot know a revoke when it is played, but the
    revoker who puts a card of the led suit on his spot while the trick is open shows he
    held it and corrects it himself: flagged, the proper card replaces his, those who
    played after him may change, and no penalty follows (his void claim is withdrawn).
    (The referee closes a trick at its fourth card: the window is until then.)"""
    m, _ = ready("rang", dealer=0, trump=Suit.C, knowledge="played")  # seat 1 leads
    play(m, "KH 3C 6H")
    events = m.apply(I.Play(2, card("7H")))
    (flag,) = of_type(events, RevokeFlagged)
    assert (flag.seat, flag.card, flag.proof, flag.suit) == (2, card("3C"), card("7H"), Suit.H)
    assert [e.card for e in of_type(events, CardTakenBack)] == [card("3C")]
    assert [(e.seat, e.card) for e in of_type(events, PlayAccepted)] == [(2, card("7H"))]
    with pytest.raises(OutOfTurn):  # one correction: he has played to this trick again
        m.apply(I.Play(2, card("8H")))
    m.apply(I.TakeBack(3))  # he played after him: he may change too
    m.apply(I.Play(3, card("5H")))
    events = m.apply(I.Play(0, card("AH")))  # nobody may still change: the trick closes
    (trick,) = of_type(events, TrickWon)
    assert trick.winner == 0 and dict(trick.cards)[2] == card("7H")
    assert dict(trick.cards)[3] == card("5H")
    assert not of_type(m.events, HandWon)
    events = play(m, "QH 9H 8H")  # seat 2 follows hearts later: nothing to prove any more
    assert not of_type(events, RevokeFlagged) and not of_type(m.events, HandWon)


def test_played_mode_a_second_card_off_the_led_suit_is_no_correction() -> None:
    """Only a card of the led suit corrects a revoke; another card from a seat that has
    played to the trick is refused, and its void claim stands."""
    m, _ = ready("rang", dealer=0, trump=Suit.C, knowledge="played")
    play(m, "KH 3C")
    with pytest.raises(OutOfTurn):
        m.apply(I.Play(2, card("4C")))
    assert Suit.H in m.hand.voids[2]


def test_played_mode_a_card_of_a_suit_claimed_in_an_earlier_trick_is_no_correction() -> None:
    """The void claimed in trick 1 was made by a card of that trick: a seat playing off
    hearts again in trick 2 and then a heart has not corrected this trick's card, which
    made no claim; its second card is refused and the claim of trick 1 stands."""
    m, _ = ready("rang", dealer=0, trump=Suit.C, knowledge="played")
    play(m, "KH 3C 6H AH")  # seat 2 trumps it and leads
    play(m, "7S 6S AS KS")  # seat 0 wins and leads
    play(m, "9H 8H 7C")  # seat 2 off hearts again (no new claim: it stands from trick 1)
    with pytest.raises(OutOfTurn):
        m.apply(I.Play(2, card("7H")))
    assert m.hand.voids[2][Suit.H][:2] == (1, card("3C"))


def test_played_mode_a_revoke_proven_at_once_is_not_flagged_again() -> None:
    """A seat changing his card after a correction takes it back into his hand, where the
    referee knows it: playing off the led suit then is flagged at once. The void claim the
    same card made was proven again when he played that suit later: one revoke, two flags."""
    m, _ = ready("court-piece", dealer=0, trump=Suit.C, knowledge="played")  # flag only
    seats, events = change_flagged_at_once(m)
    assert [f.seat for f in of_type(events, RevokeFlagged)] == [seats[2]]
    assert [p.card for p in of_type(events, RevokeProof)] == [card("6H")]  # his own, hidden
    m.apply(I.Play(seats[3], card("AH")))
    m.apply(I.CloseTrick())  # seats[3] won and leads: seats[2] plays last
    while m.turn() != seats[2]:
        m.apply(I.Play(m.turn(), next(c for c in cards("9S 8S 7S 5S") if c not in m.hand.played)))
    events = m.apply(I.Play(seats[2], card("6H")))  # an ordinary play: the trick's fourth
    assert [f.seat for f in of_type(m.events, RevokeFlagged)].count(seats[2]) == 1
    assert [t.trick for t in of_type(events, TrickWon)] == [2]


def test_played_mode_a_later_revoker_changing_to_the_led_suit_is_flagged_too() -> None:
    """After the first revoker's correction, a seat that played after him may change his
    card; if he had played off the led suit too, his card of that suit shows it was a
    revoke as well. Dealt mode flags it when played; played mode records it now. Changed
    in time, it costs nothing."""
    m, _ = ready("rang", dealer=0, trump=Suit.C, knowledge="played")  # seat 1 leads
    play(m, "KH 3C 5S")
    m.apply(I.Play(2, card("4H")))  # seat 2 corrects
    events = m.apply(I.Play(3, card("6H")))  # seat 3 changes: he had hearts as well
    assert [(f.seat, f.card, f.proof) for f in of_type(events, RevokeFlagged)] == [(3, card("5S"), card("6H"))]
    assert [e.card for e in of_type(events, CardTakenBack)] == [card("5S")]
    events = m.apply(I.Play(0, card("AH")))
    assert of_type(events, TrickWon) and not of_type(m.events, HandWon)


def test_played_mode_own_correction_under_a_court_penalty_ends_the_hand() -> None:
    """003: a caught revoke ends the hand at once with a court; a correction comes too
    late there, as in dealt mode, where the flag ends the hand before any correction."""
    m, _ = ready("trick-streak", dealer=0, trump=Suit.C, knowledge="played")
    leader = m.hand.turn()
    seats = [(leader + k) & 3 for k in range(4)]
    m.apply(I.Play(seats[0], card("KH")))
    m.apply(I.Play(seats[1], card("3C")))
    events = m.apply(I.Play(seats[1], card("7H")))
    (flag,) = of_type(events, RevokeFlagged)
    assert (flag.seat, flag.card, flag.proof) == (seats[1], card("3C"), card("7H"))
    (won,) = of_type(events, HandWon)
    assert "revoke" in won.reason and won.team != seats[1] % 2
    assert of_type(events, CourtsScored)


def test_played_mode_the_table_may_rule_on_a_revoke_proven_later_under_a_flag_penalty() -> None:
    """Sources 001/002 name no penalty: a flag is recorded and the table may still rule
    with apply-penalty while the flagged trick is open. In played mode a revoke proven by
    a later card is flagged in that card's trick: the table may rule until it is over."""
    m, _ = ready("court-piece", dealer=0, trump=Suit.C, knowledge="played")  # flag only
    seats = [(m.hand.turn() + k) & 3 for k in range(4)]
    for seat, text in zip(seats, ("KH", "3D", "6H", "AH"), strict=True):  # seats[1] shows no hearts
        m.apply(I.Play(seat, card(text)))
    winner = m.hand.turn()
    m.apply(I.Play(winner, card("QH")))
    while m.turn() != seats[1]:
        m.apply(I.Play(m.turn(), next(c for c in cards("9H 8H 7H") if c not in m.hand.played)))
    events = m.apply(I.Play(seats[1], card("5H")))  # a heart: the revoke of trick 1 proven
    assert [(f.seat, f.trick) for f in of_type(events, RevokeFlagged)] == [(seats[1], 1)]
    assert not of_type(events, HandWon)
    events = m.apply(I.ApplyPenalty())
    (won,) = of_type(events, HandWon)
    assert won.team != seats[1] % 2 and "revoke" in won.reason


def test_played_mode_the_ruling_on_a_revoke_proven_later_ends_with_its_trick() -> None:
    m, _ = ready("court-piece", dealer=0, trump=Suit.C, knowledge="played")
    seats = [(m.hand.turn() + k) & 3 for k in range(4)]
    for seat, text in zip(seats, ("KH", "3D", "6H", "AH"), strict=True):
        m.apply(I.Play(seat, card(text)))
    m.apply(I.Play(m.hand.turn(), card("QH")))
    while m.turn() != seats[1]:
        m.apply(I.Play(m.turn(), next(c for c in cards("9H 8H 7H") if c not in m.hand.played)))
    m.apply(I.Play(seats[1], card("5H")))
    while len(m.hand.trick) and m.turn() is not None:  # the trick is played out
        m.apply(I.Play(m.turn(), next(c for c in cards("9H 8H 7H 4H") if c not in m.hand.played)))
    with pytest.raises(WrongPhase):
        m.apply(I.ApplyPenalty())


def test_played_mode_suspicions_cleared_at_hand_end() -> None:
    """Referee: a void never contradicted is cleared when the hand ends, once the seat
    has shown its remaining cards and none is of that suit."""
    hands = complete_deal(["", "", "", ""], voids={2: "S"})
    m = Match(preset("court-piece"), first_dealer=0, knowledge="played")
    m.apply(I.CallTrump(1, Suit.H))
    lead_spade = min(c for c in hands[1] if c.suit == Suit.S)
    plays = script_tricks(hands, 1, [None] * 13, trump=Suit.H, first_card=lead_spade)
    events = []
    h = m.hand
    for seat, c in plays:
        if m.phase is Phase.PLAY_ON:
            events += m.apply(I.PlayOn(False))
        if m.hand is not h or m.phase is Phase.SHOW:
            break
        events += m.apply(I.Play(seat, c))
    assert (2, Suit.S) in [(v.seat, v.suit) for v in of_type(events, VoidShown)]
    while m.phase is Phase.SHOW:
        seat = min(h.show_asked)
        events += m.apply(I.ShowCard(seat, next(c for c in hands[seat] if c not in h.played | h.shown[seat])))
    cleared = [(s.seat, s.suit) for s in of_type(events, SuspicionCleared)]
    assert (2, Suit.S) in cleared
    assert not of_type(events, RevokeFlagged)


def test_trick_streak_caught_misplay_ends_the_hand_with_a_court() -> None:
    """003: a player caught misplaying ends the hand at once; the other team scores a court."""
    m, _ = ready("trick-streak")
    events = play(m, "AS KH")
    (won,) = of_type(events, HandWon)
    assert won.team == 0
    assert [(c.team, c.courts) for c in of_type(events, CourtsScored)] == [(0, 1)]
    assert m.hand.number == 2


# ---------------------------------------------------------------------------- impossible inputs


def test_same_card_dealt_twice_is_refused_and_changes_nothing() -> None:
    m = Match(preset("court-piece"), first_dealer=0)
    m.apply(I.Deal(card("AS")))
    before = snapshot(m)
    with pytest.raises(CardSeenTwice):
        m.apply(I.Deal(card("AS")))
    assert snapshot(m) == before


def test_fifty_third_card_is_refused() -> None:
    m, _ = ready("court-piece")
    before = snapshot(m)
    with pytest.raises(TooManyCards):
        m.apply(I.Deal(card("2S")))
    assert snapshot(m) == before


def test_out_of_turn_play_is_refused() -> None:
    m, _ = ready("court-piece")
    before = snapshot(m)
    with pytest.raises(OutOfTurn):
        m.apply(I.Play(2, card("QS")))
    assert snapshot(m) == before


def test_card_dealt_to_another_seat_is_refused() -> None:
    m, _ = ready("court-piece")
    before = snapshot(m)
    with pytest.raises(NotInHand):
        m.apply(I.Play(0, card("KS")))  # the king of spades was dealt to seat 1
    assert snapshot(m) == before


def test_card_played_twice_is_refused() -> None:
    m, _ = ready("court-piece", knowledge="played")
    play(m, "AS KS QS JS")
    before = snapshot(m)
    with pytest.raises(CardSeenTwice):
        m.apply(I.Play(0, card("AS")))
    assert snapshot(m) == before


def test_play_before_the_deal_is_finished_is_refused() -> None:
    m = Match(preset("court-piece"), first_dealer=3)
    deal_first_batch(m, banded_hands())
    m.apply(I.CallTrump(0, Suit.S))
    before = snapshot(m)
    with pytest.raises(WrongPhase):
        m.apply(I.Play(0, cards("5S")[0]))
    assert snapshot(m) == before


def test_played_mode_deferred_trump_read_from_the_turned_card() -> None:
    """001 Trump Deferred with only played cards seen: the turned card is read on the
    trump spot, sets trump, and counts as the caller's card."""
    m = Match(preset("court-piece", "trump-deferred"), first_dealer=3, knowledge="played")
    with pytest.raises(WrongPhase):
        m.apply(I.TrumpCardTurned(card("7H")))
    m.apply(I.CallTrumpByCard(0, 6))
    events = m.apply(I.TrumpCardTurned(card("7H")))
    assert [(e.suit, e.card, e.how) for e in of_type(events, TrumpCalled)] == [(Suit.H, card("7H"), "deferred")]
    assert m.phase is Phase.PLAY
    m.apply(I.Play(0, card("2C")))
    with pytest.raises(NotInHand):
        m.apply(I.Play(1, card("7H")))  # the turned card belongs to seat 0
