"""What the engine hands to the rest of the referee, pinned where mutation testing found no
rules test looking: who may see an event, the views, option data, suit text, and a
refused input that had already moved something.

These are the places where a wrong engine leaks a card or mis-seats a play without any
verdict of the hand changing; see docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
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
    snapshot,
    strong_hands,
)

from controller.rules import CardSeenTwice, Match, OutOfTurn, Phase, Suit, WrongPhase, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    MatchOver,
    MoveTimedOut,
    RevokeFlagged,
    RevokeProof,
)
from controller.rules.options import Options, option_help, to_plain  # noqa: E402

# ---------------------------------------------------------------------------- audiences


def test_a_revoke_proof_reaches_the_offender_and_the_admin_not_the_table() -> None:
    """A dealt-mode revoke names its proving card only to the revoker (and, through the
    referee, the admin): the public flag and the public view never hold it."""
    hands = banded_hands()  # seat 1 holds hearts K 8 4
    m = Match(preset("court-piece"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    play(m, "9H")
    events = m.apply(I.Play(1, card("8S")))  # seat 1 could follow hearts
    (flag,) = of_type(events, RevokeFlagged)
    (proof,) = of_type(events, RevokeProof)
    assert flag.proof is None and proof.seat == 1 and proof.card.suit is Suit.H
    assert flag.private is None and proof.private == "seat"
    assert m.public_view()["revokes"][0]["proof"] is None
    assert m.seat_view(0)["revokes"][0]["proof"] is None
    assert m.seat_view(1)["revokes"][0]["proof"] == proof.card.text
    assert m.admin_view()["revokes"][0]["proof"] == proof.card.text
    assert m.admin_view()["trump"] == "C" and "my_hand" not in m.admin_view()


# ---------------------------------------------------------------------------- views


def test_tricks_by_seat_counts_each_of_the_four_seats() -> None:
    """The view's per-seat trick count has one entry per seat and follows the winners."""
    hands = banded_hands()
    m = Match(preset("court-piece"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    play_script(m, script_tricks(hands, 0, [2, 2, 1], trump=Suit.C))
    assert m.public_view()["tricks_by_seat"] == [0, 1, 2, 0]


def test_legal_plays_follow_the_led_suit_by_its_own_suit() -> None:
    """What the admin page and the bots offer: the cards of the led suit when the seat
    holds any (hearts K T 8 4 of seat 1 after a heart lead; spades after a spade lead),
    else the whole hand (announced trump: a void seat need not trump)."""
    hands = banded_hands()
    m = Match(preset("court-piece"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    assert len(m.legal_plays(0)) == 13
    play(m, "9H")
    assert [c.text for c in m.legal_plays(1)] == ["4H", "8H", "TH", "KH"]
    play(m, "8H QH JH")  # seat 2 wins; every seat still holds all other suits
    play(m, "QD")
    assert [c.text for c in m.legal_plays(3)] == ["2D", "6D", "JD"]
    play(m, "JD AD KD")  # seat 0 wins and leads spades
    play(m, "AS")
    assert [c.text for c in m.legal_plays(1)] == ["4S", "8S", "KS"]


def test_legal_plays_of_a_void_seat_are_its_whole_hand_with_the_trump_public() -> None:
    hands = complete_deal(["AS", "", "", ""], voids={1: "S"})
    m = Match(preset("court-piece"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.H))
    deal(m, hands)
    play(m, "AS")
    assert len(m.legal_plays(1)) == 13


# ---------------------------------------------------------------------------- refusals


def test_a_card_refused_after_a_play_on_choice_leaves_the_seven_nil_decision_open() -> None:
    """A card played during the 7-0 choice counts as playing on; if that card is then
    refused (wrong seat), the choice must not stick: the match is as it was."""
    hands = strong_hands(0)
    m = Match(preset("court-piece"), first_dealer=3, seat_names=["Ali", "Ben", "Cyd", "Dev"])
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.S))
    deal(m, hands)
    play_script(m, script_tricks(hands, 0, [0] * 7, trump=Suit.S))
    assert m.phase is Phase.PLAY_ON
    before = snapshot(m)
    with pytest.raises(OutOfTurn):
        m.apply(I.Play(2, card(m.seat_view(2)["my_hand"][0])))  # seat 0 leads the 8th trick
    assert snapshot(m) == before and m.phase is Phase.PLAY_ON
    assert m.seat_names == ("Ali", "Ben", "Cyd", "Dev") and m.knowledge == "dealt"
    assert m.first_dealer == 3


def test_a_played_mode_deal_card_refused_after_the_choice_changes_nothing() -> None:
    """In 'played' mode no deal is read; a stray deal sighting during the 7-0 choice is
    refused and the match (played mode, same dealer) stays as it was."""
    hands = strong_hands(0)
    m = Match(preset("court-piece"), first_dealer=3, knowledge="played")
    m.apply(I.CallTrump(0, Suit.S))
    play_script(m, script_tricks(hands, 0, [0] * 7, trump=Suit.S))
    assert m.phase is Phase.PLAY_ON
    before = snapshot(m)
    with pytest.raises(WrongPhase):
        m.apply(I.Deal(card("2C")))
    assert snapshot(m) == before and m.knowledge == "played" and not m.dealt_mode


def test_a_move_timer_running_out_names_the_slow_seat() -> None:
    m = Match(preset("online-points", move_timer=15), first_dealer=0, knowledge="played")
    m.apply(I.CallTrump(1, Suit.S))
    assert [e.seat for e in of_type(m.apply(I.MoveTimeout(1)), MoveTimedOut)] == [1]


def test_the_table_ends_the_match_and_nothing_more_is_taken() -> None:
    m = Match(preset("court-piece"), first_dealer=0)
    (over,) = of_type(m.apply(I.EndMatch()), MatchOver)
    assert over.reason == "ended by the table" and m.phase is Phase.OVER
    with pytest.raises(WrongPhase):
        m.apply(I.Deal(card("2C")))


# ---------------------------------------------------------------------------- data


def test_options_as_data_name_every_option_and_only_the_changed_ones() -> None:
    """Logs, the CLI and the dashboard read options as plain data in kebab-case names."""
    o = preset("band-rung")
    assert Options().changed_from_default() == {}
    changed = o.changed_from_default()
    assert changed["caller"] == "bidding" and changed["trump-calls"] == ["hidden"]
    assert "direction" not in changed and "hand-streak" not in changed
    full = o.to_dict()
    assert len(full) == len(option_help())
    assert full["deal-batches"] == [5, 4, 4] and full["bid-min"] == 9 and full["caller"] == "bidding"
    assert to_plain(frozenset({Suit.H, Suit.S})) == [Suit.S, Suit.H]
    names = [name for name, _, _ in option_help()]
    assert names[0] == "direction" and "move-timer" in names and all("_" not in n for n in names)
    (row,) = [r for r in option_help() if r[0] == "deal-batches"]
    assert row[2] == [5, 4, 4] and row[1]


@pytest.mark.parametrize(("text", "suit"), [("S", Suit.S), (" h", Suit.H), ("diamonds", Suit.D), ("c ", Suit.C)])
def test_a_suit_is_read_from_its_first_letter(text: str, suit: Suit) -> None:
    assert Suit.parse(text) is suit


def test_a_suit_that_is_not_one_is_refused() -> None:
    for text in ("x", "", "Z"):
        with pytest.raises(ValueError):
            Suit.parse(text)


# ---------------------------------------------------------------------------- seat view, copy


def test_a_seat_sees_its_hand_by_suit_high_to_low_and_the_caller_his_trump() -> None:
    """A seat's own screen: spades, hearts, diamonds, clubs, each from the ace down; the
    caller alone is told the trump he hid."""
    hands = complete_deal(["AS KS QS 2H 3D", "", "", ""], voids={})
    m = Match(preset("hidden-rung"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.HideTrump(0, card("2H")))
    deal(m, hands)
    for seat in range(4):
        view = m.seat_view(seat)
        assert view["seat"] == seat
        mine = [card(t) for t in view["my_hand"]]
        assert mine == sorted(hands[seat], key=lambda c: (int(c.suit), -c.rank))
    assert m.seat_view(0)["my_trump"] == "H" and m.seat_view(0)["my_trump_card"] == "2H"
    assert all("my_trump" not in m.seat_view(s) for s in (1, 2, 3))
    assert m.public_view()["trump"] is None and m.seat_view(0)["trump"] is None


def test_a_copy_goes_on_apart_from_the_match_it_was_taken_from() -> None:
    """python-chess's Board.copy: the copy and the original take different inputs from
    here on without touching each other; the copy keeps the inputs that led here."""
    hands = banded_hands()
    m = Match(preset("court-piece"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    twin = m.copy()
    assert twin.inputs == m.inputs and twin.events == m.events and twin.options is m.options
    play(twin, "9H 8H")
    assert m.public_view()["trick"]["cards"] == [] and len(m.inputs) == 53
    assert [c["card"] for c in twin.public_view()["trick"]["cards"]] == ["9H", "8H"]
    play(m, "5S")
    assert twin.seat_view(0)["my_hand"] != m.seat_view(0)["my_hand"]
    assert Match.replay(m.options, twin.inputs, first_dealer=3).public_view() == twin.public_view()


def test_a_copy_without_its_stack_starts_at_this_position() -> None:
    """``stack=False``: no inputs behind it, the events from the previous hand's start on,
    and a way back to where it was taken (undo to a hand start)."""
    m = Match(preset("court-piece"), first_dealer=0)
    hands = strong_hands(1)
    run_hand(m, hands, [1] * 7, trump=Suit.S)  # seat 1 takes the first seven; they stop
    assert m.hand.number == 2
    twin = m.copy(stack=False)
    assert twin.inputs == []
    starts = [i for i, e in enumerate(m.events) if type(e).__name__ == "HandStarted"]
    assert twin.events == m.events[starts[-2]:]
    assert twin.public_view() == m.public_view()
    play_on = twin.copy(stack=False)
    assert play_on.events == twin.events[[i for i, e in enumerate(twin.events)
                                          if type(e).__name__ == "HandStarted"][-2]:]
    fresh = Match(preset("court-piece"), first_dealer=0).copy(stack=False)
    assert [type(e).__name__ for e in fresh.events] == ["MatchStarted", "HandStarted"]


def test_a_copy_from_a_position_rebuilds_from_there_after_a_refusal() -> None:
    """Undo and restart keep a copy taken at a hand start; a card refused after the 7-0
    choice had already moved it must leave that copy as it was, rebuilt from its own
    starting position and the inputs since (it has no first deal to replay from)."""
    hands = strong_hands(0)
    m = Match(preset("court-piece"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.S))
    deal(m, hands)
    twin = m.copy(stack=False)
    play_script(twin, script_tricks(hands, 0, [0] * 7, trump=Suit.S))
    assert twin.phase is Phase.PLAY_ON and len(twin.inputs) == 28
    before = snapshot(twin)
    with pytest.raises(OutOfTurn):
        twin.apply(I.Play(2, card(twin.seat_view(2)["my_hand"][0])))
    assert snapshot(twin) == before and twin.phase is Phase.PLAY_ON
    assert len(twin.seat_view(0)["my_hand"]) == 6
    assert m.phase is Phase.PLAY and len(m.inputs) == 53  # the original never moved
    again = twin.copy(stack=True)
    assert again.inputs == twin.inputs and len(again.events) == len(twin.events)


def test_replay_rebuilds_a_match_and_refuses_an_impossible_input_unless_told_to_skip() -> None:
    """A table log replays through the engine (python-chess's game replay): by default
    from dealer 0, and an input that cannot have happened stops it, unless the replay is
    told to skip such inputs (how a refused card is rebuilt around)."""
    hands = banded_hands()
    m = Match(preset("court-piece"))
    deal_first_batch(m, hands)
    replayed = Match.replay(preset("court-piece"), list(m.inputs))
    assert replayed.public_view() == m.public_view() and replayed.hand.dealer == 0
    bad = [*m.inputs, I.Deal(card(m.seat_view(1)["my_hand"][0]))]  # a card dealt twice
    with pytest.raises(CardSeenTwice):
        Match.replay(preset("court-piece"), bad)
    assert Match.replay(preset("court-piece"), bad, skip_impossible=True).public_view() == m.public_view()
