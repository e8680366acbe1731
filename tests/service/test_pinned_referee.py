"""The referee's mapping and audiences, pinned: tests written from mutation runs
(``bench/mutation.py --part referee``).

Each is a table situation told through the real Referee: cards as the readers report
them, commands as the admin page sends them. The strongest is the round trip: whatever
four players do in a whole match (every preset, dealt or played, with revokes and
corrections), the table's form of it (``table_input``: a card on a spot, a button)
brought to the referee is the very engine input the players meant, seat and card.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from controller.readers.sightings import CardSeen
from controller.referee.actions import COMMAND, CommandError, table_input, to_engine_input
from controller.referee.notices import (
    ADMIN,
    PUBLIC,
    InputRefused,
    JournalResumed,
    OtherDeckTag,
    ReaderTrouble,
    Undone,
    parse_audience,
    sees,
)
from controller.referee.referee import Referee
from controller.referee.table_events import TableEvent, events_for, for_audience
from controller.rules import Phase
from controller.rules import inputs as I
from controller.rules.cards import Card, Suit
from controller.sim.bots import BotTable

from .tablekit import STORY_HANDS, deal_sightings, feed, new_match_args, see

#: every preset, and each of its variants alone, as a table would choose it
TABLES: list[tuple[str, tuple[str, ...], dict[str, Any]]] = [
    ("rang", (), {}),
    ("court-piece", (), {}),
    ("court-piece", ("trump-card-show",), {}),
    ("court-piece", ("trump-deferred",), {}),
    ("court-piece", ("double-sir",), {}),
    ("double-sir", (), {}),
    ("double-sir", ("trump-card-number",), {}),
    ("hidden-rung", (), {}),
    ("be-ranga", (), {}),
    ("online-points", (), {}),
    ("online-points", ("redeal",), {}),
    ("trick-streak", (), {}),
    ("band-rung", (), {}),
    ("court-piece", (), {"draw": "dealer-and-partners"}),
]


def _start(preset: str, variants: tuple[str, ...], options: dict[str, Any], knowledge: str) -> Referee:
    referee = Referee()
    args = new_match_args(preset, knowledge, options=options)
    args["variants"] = list(variants)
    out = referee.command("new-match", args, at=1.0)
    assert referee.match is not None, [e.to_dict() for e in out]
    return referee


def _as_admin_page(kind: str, payload: dict[str, Any], move: Any, *, seats: str) -> dict[str, Any]:
    """The command as the admin page may send it: the seat as text, or left out (the
    moment names it: the caller, the bidder, whose turn it is), Confirm for "stop now"."""
    if kind != COMMAND:
        return payload
    if seats == "implied":
        if move == I.PlayOn(False):
            return {"name": "confirm"}
        if move == I.PlayOn(True):  # the button says "play on"
            return {"name": "play-on"}
        return {k: v for k, v in payload.items() if k != "seat"}
    return {k: (str(v) if k == "seat" else v) for k, v in payload.items()}


def _round_trip(referee: Referee, seed: int, *, seats: str, revoke_rate: float,
                skip_show_rate: float = 0.0, limit: int = 4000) -> set[type]:
    """Bots play the match through the referee; each move, in its table form, must reach
    the engine as itself. Returns the kinds of input the match had."""
    assert referee.match is not None
    bots = BotTable(referee.match, random.Random(seed), revoke_rate=revoke_rate, skip_show_rate=skip_show_rate)
    kinds: set[type] = set()
    at = 1000.0
    for _ in range(limit):
        match = referee.match
        if match.phase is Phase.OVER:
            break
        bots.match = match
        move = bots.next_input()
        kind, payload = table_input(move)
        payload = _as_admin_page(kind, payload, move, seats=seats)
        before = len(match.inputs)
        at += 1.5
        out = feed(referee, kind, payload, at)
        assert match.inputs[before:] == [move], (move, payload, [e.to_dict() for e in out])
        assert all(e["at"] == at and e["seq"] == referee.last_seq for e in out)
        kinds.add(type(move))
    assert referee.match.phase is Phase.OVER
    return kinds


@pytest.mark.parametrize("knowledge", ["dealt", "played"])
@pytest.mark.parametrize("seats", ["given", "implied"])
def test_every_move_of_a_whole_match_reaches_the_engine_as_itself(knowledge, seats):
    kinds: set[type] = set()
    for n, (preset, variants, options) in enumerate(TABLES):
        referee = _start(preset, variants, options, knowledge)
        kinds |= _round_trip(referee, 7 + n, seats=seats, revoke_rate=0.15, skip_show_rate=0.3)
    expected = {I.Play, I.Bid, I.Pass, I.CallTrump, I.ShowTrump, I.CallTrumpByCard, I.HideTrump,
                I.ApplyPenalty, I.DrawCard, I.OpenChallenge, I.PlayOn}
    if knowledge == "dealt":  # the deal is seen; tricks wait for Confirm; a trump may stay hidden
        expected |= {I.Deal, I.CloseTrick, I.AskTrump, I.RevealTrump}
    else:  # suspected seats show their hands; the caller's numbered card is turned on the spot
        expected |= {I.ShowCard, I.SkipShowing, I.TrumpCardTurned}
    assert expected <= kinds, expected - kinds


# ---------------------------------------------------------------- the story deal

def _story(preset: str = "hidden-rung", knowledge: str = "dealt", **options: Any) -> Referee:
    """Dealer 0; seat 1 calls with its first five cards on the table (STORY_HANDS)."""
    referee = Referee()
    referee.command("new-match", new_match_args(preset, knowledge, options=options), at=1.0)
    for card in deal_sightings(STORY_HANDS)[:20]:
        see(referee, "deal", card)
    return referee


def _deal_rest(referee: Referee) -> None:
    for card in deal_sightings(STORY_HANDS)[20:]:
        see(referee, "deal", card)


def _last(referee: Referee) -> Any:
    assert referee.match is not None
    return referee.match.inputs[-1]


def test_the_face_down_trump_laid_on_the_trump_spot_is_the_callers():
    referee = _story("hidden-rung")
    see(referee, "trump", "8D")
    assert _last(referee) == I.HideTrump(1, Card.parse("8D"))


def test_a_trump_shown_on_the_trump_spot_is_the_callers():
    referee = Referee()
    args = new_match_args("court-piece")
    args["variants"] = ["trump-card-show"]
    referee.command("new-match", args, at=1.0)
    for card in deal_sightings(STORY_HANDS)[:20]:
        see(referee, "deal", card)
    see(referee, "trump", "5S")
    assert _last(referee) == I.ShowTrump(1, Card.parse("5S"))


def test_a_trump_spot_card_before_anyone_may_call_means_nothing():
    referee = Referee()
    referee.command("new-match", new_match_args("hidden-rung"), at=1.0)
    out = see(referee, "trump", "8D")
    assert out[0].kind == "impossible" and out[0]["zone"] == "trump"
    assert referee.match is not None and referee.match.inputs == []


def test_a_trump_spot_card_during_the_auction_means_nothing_there_is_no_caller_yet():
    referee = _story("band-rung")
    assert referee.match is not None and referee.match.hand.auction is not None
    out = see(referee, "trump", "8D", 20.0)
    assert [(e.kind, e["error"], e["zone"]) for e in out] == [("impossible", "UnexpectedZone", "trump")]
    assert len(referee.match.inputs) == 20


def test_hiding_the_trump_by_suit_from_the_admin_page_is_the_callers():
    referee = _story("hidden-rung")
    kind, payload = table_input(I.HideTrump(1, None, Suit.parse("D")))
    assert kind == COMMAND and payload == {"name": "hide-trump", "seat": 1, "suit": "D"}
    feed(referee, COMMAND, {"name": "hide-trump", "suit": "D"}, 20.0)
    assert _last(referee) == I.HideTrump(1, None, Suit.parse("D"))


def test_hiding_the_trump_without_card_or_suit_is_refused():
    referee = _story("hidden-rung")
    out = referee.command("hide-trump", {}, at=20.0)
    assert [e.kind for e in out] == ["command-refused"]
    assert referee.match is not None and referee.match.inputs[-1] == I.Deal(Card.parse(deal_sightings(STORY_HANDS)[19]))


def test_seats_are_0_to_3_and_said_as_numbers():
    referee = _story("court-piece")
    for bad in (4, -1, "four", None, [1]):
        out = referee.command("call-trump", {"seat": bad, "suit": "S"}, at=20.0)
        assert [e.kind for e in out] == ["command-refused"], bad
    referee.command("call-trump", {"seat": "1", "suit": "S"}, at=21.0)
    assert _last(referee) == I.CallTrump(1, Suit.parse("S"))


def test_a_seat_the_moment_cannot_name_must_be_given():
    referee = _story("court-piece")
    said = {"bid": "bid", "pass": "pass", "ask-trump": "ask for trump", "move-timeout": "move timer",
            "correction-made": "correction"}
    for name, what in said.items():  # no auction, no trick, no revoke to correct
        out = referee.command(name, {}, at=20.0)
        assert [(e.kind, e["command"], e["message"]) for e in out] == [
            ("command-refused", name, f"{what}: which seat?")]


def test_a_seat_given_is_the_seat_that_acts():
    referee = _story("band-rung")
    assert referee.match is not None and referee.match.hand.auction.turn == 1
    (out,) = referee.command("bid", {"seat": 3, "tricks": 9}, at=20.0)  # Dua speaks out of turn
    assert (out.kind, out["error"]) == ("impossible", "OutOfTurn")
    referee.command("bid", {"seat": 1, "tricks": 9}, at=21.0)
    assert _last(referee) == I.Bid(1, 9)


def test_a_trump_spot_card_means_nothing_where_trumps_are_named_aloud():
    referee = _story("court-piece")  # the caller names the trump: nothing is laid on the spot
    (out,) = see(referee, "trump", "5S", 20.0)
    assert (out.kind, out["error"], out["zone"]) == ("impossible", "UnexpectedZone", "trump")
    assert referee.match is not None and len(referee.match.inputs) == 20


def test_the_player_to_move_is_timed_out_when_the_timer_names_no_seat():
    referee = _story("court-piece")
    referee.command("call-trump", {"suit": "S"}, at=20.0)
    _deal_rest(referee)
    assert referee.match is not None and referee.match.phase is Phase.PLAY
    turn = referee.match.hand.turn()
    for name, expected in (("move-timeout", I.MoveTimeout(turn)),):
        kind, payload = table_input(expected)
        assert kind == COMMAND and payload == {"name": name, "seat": turn}
        before = len(referee.match.inputs)
        referee.command(name, {}, at=30.0)
        assert referee.match.inputs[before:] == [expected]


def test_a_correction_is_the_revoking_seats():
    referee = _story("court-piece")
    referee.command("call-trump", {"suit": "S"}, at=20.0)
    _deal_rest(referee)
    see(referee, "seat1", "2H", 30.0)  # seat 1 leads a heart
    see(referee, "seat2", "AS", 31.0)  # seat 2 holds hearts: a revoke
    assert referee.match is not None and referee.match.hand.pending is not None
    kind, payload = table_input(I.TakeBack(2))
    assert (kind, payload) == (COMMAND, {"name": "correction-made", "seat": 2})
    referee.command("correction-made", {}, at=32.0)
    assert _last(referee) == I.TakeBack(2)


def test_confirm_closes_a_full_trick_and_means_nothing_mid_trick():
    referee = _story("court-piece")
    referee.command("call-trump", {"suit": "S"}, at=20.0)
    _deal_rest(referee)
    see(referee, "seat1", "2H", 30.0)
    out = referee.command("confirm", {}, at=31.0)
    assert [e.kind for e in out] == ["ignored"] and out[0]["command"] == "confirm"
    assert _last(referee) == I.Play(1, Card.parse("2H"))


def test_the_other_commands_reach_the_engine_as_the_buttons_say():
    referee = _story("online-points")
    assert referee.match is not None
    for move in (I.TimeUp(), I.EndMatch()):
        kind, payload = table_input(move)
        assert kind == COMMAND
        twin = referee.match.copy()
        twin.apply(move)
        args = {k: v for k, v in payload.items() if k != "name"}
        assert to_engine_input(referee.match, payload["name"], args) == move
    referee.command("end-match", {}, at=40.0)
    assert _last(referee) == I.EndMatch()


def test_a_redeal_asked_by_the_caller():
    referee = Referee()
    args = new_match_args("online-points")
    args["variants"] = ["redeal"]
    referee.command("new-match", args, at=1.0)
    for card in deal_sightings(STORY_HANDS)[:20]:
        see(referee, "deal", card)
    kind, payload = table_input(I.RequestRedeal(1))
    assert (kind, payload) == (COMMAND, {"name": "redeal", "seat": 1})
    referee.command("redeal", {}, at=20.0)
    assert _last(referee) == I.RequestRedeal(1)


def test_skipping_the_showing_means_nothing_outside_it():
    referee = _story("court-piece")
    out = referee.command("skip-showing", {}, at=20.0)
    assert [e.kind for e in out] == ["ignored"]
    with pytest.raises(CommandError):
        to_engine_input(referee.match, "shuffle", {})  # type: ignore[arg-type]


# ---------------------------------------------------------------- audiences

def test_a_reader_fault_reaches_everyone_once_as_a_notice_not_an_input():
    referee = Referee()
    referee.command("new-match", new_match_args("court-piece"), at=1.0)
    got: list[TableEvent] = []
    referee.subscribe(got.append)
    out = referee.notice(ReaderTrouble("hub-2", "seat1", "reader unplugged"))
    assert got == out and len(out) == 1
    e = out[0]
    assert e.notice and e["notice"] is True and e.audience == PUBLIC and not e.redacted
    assert e.to_dict() == {"seq": 1, "at": e["at"], "event": "reader-fault", "source": "hub-2",
                           "zone": "seat1", "message": "reader unplugged", "notice": True}
    assert all(sees(a, e) for a in (PUBLIC, ADMIN, 0, 3))
    # an input's events are not notices
    played = see(referee, "deal", "AS", 5.0)
    assert all(not ev.notice and "notice" not in ev for ev in played)


def test_a_card_of_another_deck_is_named_to_the_admin_only():
    referee = Referee()
    referee.command("new-match", new_match_args("court-piece"), at=1.0)
    out = referee.sighting(CardSeen("seat2", "", 5.0, "test"), tag="04:aa", note="the blue deck", other_card="QH")
    public, admin = out
    assert public.audience == PUBLIC and public.redacted and admin.audience == ADMIN and not admin.redacted
    assert admin["message"] == "a card from the blue deck (QH) at Chetan's spot"
    assert admin["card"] == "QH" and admin["tag"] == "04:aa" and admin["deck"] == "the blue deck"
    assert public["message"] == "a card from the blue deck at Chetan's spot"
    assert "card" not in public and "tag" not in public
    assert for_audience(out, ADMIN) == [admin] and for_audience(out, 2) == [public]
    assert for_audience(out, PUBLIC) == [public]
    assert public.to_dict()["redacted"] is True and admin.to_dict()["private_to"] == ADMIN
    unnamed = OtherDeckTag("seat2", "Chetan's spot", "04:aa", "the blue deck")  # which card is not known
    assert unnamed.message() == unnamed.public_message() == "a card from the blue deck at Chetan's spot"
    assert unnamed.public_dict() is not None and "tag" not in unnamed.public_dict()


def test_a_seat_sees_its_own_private_events_and_no_one_elses():
    referee = _story("hidden-rung")
    out = see(referee, "trump", "8D", 20.0)  # the caller, seat 1, lays its trump face down
    private = [e for e in out if e.audience != PUBLIC]
    assert [e.audience for e in private] == [1], "the trump's suit is the caller's own"
    for e in private:
        seat = e.audience
        assert isinstance(seat, int) and e["private_to"] == seat
        assert sees(seat, e) and sees(ADMIN, e) and not sees(PUBLIC, e)
        assert not any(sees(other, e) for other in range(4) if other != seat)


def test_audiences_are_named_public_admin_or_a_seat_0_to_3():
    assert parse_audience(" Public ") == PUBLIC and parse_audience("ADMIN") == ADMIN
    assert [parse_audience(f"seat:{n}") for n in range(4)] == [0, 1, 2, 3]
    for bad in ("seat:4", "seat:-1", "seat:", "seat:x", "seat 1", "everyone", "seat:10"):
        with pytest.raises(ValueError):
            parse_audience(bad)


def test_the_time_and_notice_flag_of_an_event_are_kept():
    body = ReaderTrouble("hub", None, "bad lines")
    (e,) = events_for(3, 12.5, body, notice=True)
    assert (e.seq, e.at, e["at"], e.notice, e["notice"]) == (3, 12.5, 12.5, True, True)
    (plain,) = events_for(3, 12.5, body)
    assert not plain.notice and "notice" not in plain
    assert plain.to_dict() == {k: v for k, v in e.to_dict().items() if k != "notice"}
    secret = Undone(4, where="the deal spot", card="AS")
    public, admin = events_for(5, 7.0, secret, notice=True)
    assert public.notice and admin.notice and public["at"] == admin["at"] == 7.0


def test_notices_say_their_counts():
    refused = InputRefused(3, "the journal file is gone")
    assert refused.to_dict() == {"event": "input-refused", "refused": 3, "message": "the journal file is gone"}
    assert refused.public_dict() is None
    resumed = JournalResumed(5, 2)
    assert resumed.to_dict() == {"event": "journal-resumed", "recorded": 5, "refused": 2,
                                 "message": resumed.message()}
    assert "5 input(s)" in resumed.message() and "2 input(s) were refused" in resumed.message()
    assert "refused" not in JournalResumed(5, 0).message()
    fault = ReaderTrouble("hub-1", None, "dead reader")
    assert fault.to_dict() == {"event": "reader-fault", "source": "hub-1", "zone": None, "message": "dead reader"}


def test_an_unknown_tag_is_told_to_everyone_its_number_to_the_admin_only():
    referee = Referee()
    referee.command("new-match", new_match_args("court-piece"), at=1.0)
    public, admin = referee.sighting(CardSeen("seat3", "", 5.0, "test"), tag="e2:80:11")
    assert (public.kind, public.redacted, admin.audience) == ("unknown-tag", True, ADMIN)
    assert "tag" not in public and admin["tag"] == "e2:80:11"
    assert public["message"] == admin["message"] == "unknown tag at Dua's spot"
    assert referee.counters["unknown_tags"] == 1


def test_an_undone_deal_card_is_named_to_the_admin_only():
    referee = Referee()
    referee.command("new-match", new_match_args("court-piece"), at=1.0)
    see(referee, "deal", "QS", 5.0)
    public, admin = referee.command("undo", {}, at=6.0)
    assert public["message"] == "undid input 2 (a card at the deal spot)"
    assert admin["message"] == "undid input 2 (QS at the deal spot)"
    assert public.to_dict() == {"seq": 3, "at": 6.0, "event": "undone", "undone_seq": 2,
                                "message": "undid input 2 (a card at the deal spot)", "redacted": True}
    assert admin.to_dict() == {"seq": 3, "at": 6.0, "event": "undone", "undone_seq": 2,
                               "message": "undid input 2 (QS at the deal spot)", "private_to": ADMIN}
    referee.command("call-trump", {"seat": 1, "suit": "S"}, at=7.0)
    (one,) = referee.command("undo", {}, at=8.0)  # a command hides nothing: one copy for all
    assert one.audience == PUBLIC and one["message"] == "undid input 4 (call-trump)"
    assert Undone(9, where="the deal spot").message() == "undid input 9 (a tag at the deal spot)"
    assert Undone(9, where="the deal spot").public_dict() is None


def test_a_refused_play_names_its_card_to_the_admin_only():
    referee = _story("court-piece")
    referee.command("call-trump", {"suit": "S"}, at=20.0)
    _deal_rest(referee)
    (early,) = see(referee, "seat2", "AS", 30.0)  # seat 1 leads, not seat 2: nothing hidden
    assert (early.kind, early["error"], early.audience) == ("impossible", "OutOfTurn", PUBLIC)
    assert "card" not in early and "command" not in early
    public, admin = see(referee, "seat1", "AS", 31.0)  # Chetan's ace, read at Bilal's spot
    assert public.kind == admin.kind == "impossible" and public["zone"] == admin["zone"] == "seat1"
    assert public["error"] == admin["error"] == "NotInHand" and admin.audience == ADMIN
    assert "card" not in public and admin["card"] == "AS"
    assert public["message"] == "a card was dealt to Chetan, it cannot come from Bilal"
    assert admin["message"] == "AS was dealt to Chetan, it cannot come from Bilal"
    assert referee.counters["impossible"] == 2


def test_an_event_reads_like_its_json():
    (e,) = events_for(2, 3.0, ReaderTrouble("hub", "deal", "bad lines"))
    data = e.to_dict()
    assert len(e) == len(data) and list(e) == list(data) and dict(e) == data
    assert e.get("source") == "hub" and e.get("nope", 5) == 5 and e.get("nope") is None
    data["source"] = "changed"
    assert e["source"] == "hub"


def test_any_event_made_as_a_notice_says_so_to_its_audience():
    referee = _story("hidden-rung")
    see(referee, "trump", "8D", 20.0)
    assert referee.match is not None
    started = referee.match.events[0]
    secret = next(e for e in referee.match.events if getattr(e, "private", None) is not None)
    (public,) = events_for(7, 2.0, started, notice=True)
    (private,) = events_for(7, 2.0, secret, notice=True)
    assert public.notice and public["notice"] is True and public.audience == PUBLIC
    assert private.notice and private["notice"] is True and private.audience == 1
    assert not any(e.notice for e in events_for(7, 2.0, secret))
