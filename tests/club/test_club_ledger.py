"""The scoreboard's reading of a table's stream, without a broker: duplicates and gaps
by sequence, undo, and what the events say about matches and players."""

from __future__ import annotations

import json

from clubkit import Asked

from controller.club.ledger import CourtKind, TableLedger, court_kind
from controller.club.outbox import batches_of
from controller.club.scoreboard import Scoreboard
from controller.club.simclub import SimMatch, SimTable
from controller.club.store import ClubStore
from controller.club.topics import Batch, StateMessage, StatusMessage


def ev(seq, kind, **data):
    return {"seq": seq, "at": 1000.0 + seq, "event": kind, **data}


SETUP = ev(1, "match-setup", preset="court-piece", seats=["A", "B", "C", "D"])


def test_court_reasons():
    assert court_kind("first seven tricks") is CourtKind.SEVEN
    assert court_kind("all thirteen tricks") is CourtKind.THIRTEEN
    assert court_kind("goon court: dealer's team took all 13") is CourtKind.GOON
    assert court_kind("7 hands in a row") is CourtKind.STREAK
    assert court_kind("revoke by seat 2") is CourtKind.REVOKE


def test_an_undone_input_counts_for_nothing():
    batches = [Batch("t", 1, 0, [SETUP]),
               Batch("t", 5, 1, [ev(5, "courts-scored", team=1, courts=1, reason="first seven tricks")]),
               Batch("t", 6, 5, [ev(6, "undone", undone_seq=5, message="undid input 5")]),
               Batch("t", 7, 6, [ev(7, "courts-scored", team=0, courts=2, reason="all thirteen tricks")])]
    m = TableLedger("t").fold(batches).matches[0]
    assert m.courts == [2, 0]
    assert m.players["t:0:A"].courts["thirteen"] == 2 and m.players["t:1:B"].courts["seven"] == 0


def test_players_follow_a_partnership_swap_and_their_calls():
    events = [SETUP, ev(2, "partnerships-drawn", dealer=0, swap=[1, 2]),
              ev(3, "hand-started", hand=1, dealer=0, caller=1), ev(4, "trump-called", seat=1, suit="H"),
              ev(9, "hand-won", hand=1, team=1, tricks=[6, 7], reason="seven tricks", trump="H"),
              ev(10, "hand-started", hand=2, dealer=1, caller=2), ev(11, "auction-won", seat=2, tricks=9,
                                                                     open_suit=None, forced=False),
              ev(12, "revoke-flagged", seat=3, card="2S", trick=1, rule="follow", detail=""),
              ev(13, "hand-won", hand=2, team=1, tricks=[3, 10], reason="", trump="S"),
              ev(14, "match-over", winner=1, score=[0, 2], reason="hands")]
    m = TableLedger("t").fold([Batch("t", e["seq"], 0, [e]) for e in events]).matches[0]
    assert m.seats == ["A", "C", "B", "D"]  # seats 1 and 2 changed places: teams A&B, C&D
    assert m.team(1) == ("C", "D") and m.winner == 1 and m.hands_won == [0, 2]
    assert m.ids == ["t:0:A", "t:2:C", "t:1:B", "t:3:D"]  # each id moved with its player
    p = {s.name: s for s in m.players.values()}
    assert (p["C"].trump_calls, p["C"].trump_calls_won) == (1, 1)
    assert (p["B"].bids_made, p["B"].bids_broken) == (0, 1)
    assert p["D"].revokes == 1
    assert (p["D"].matches_won, p["A"].matches_won) == (1, 0)


def test_duplicates_dropped_and_gaps_filled_in_order(tmp_path):
    table = SimTable("t1", tmp_path / "t1", None, seed=4)
    table.new_match(SimMatch(["A", "B", "C", "D"], options={"match-end": "hands", "match-target": 1}))
    table.play()
    batches = batches_of(table.referee, "t1")
    board = Scoreboard(ClubStore(tmp_path / "club.sqlite3"))
    board.client = Asked()
    ev_topic = "courtpiece/tables/t1/events"
    board.handle("courtpiece/tables/t1/status", StatusMessage("online", 5.0).to_bytes())
    order = batches[:3] + batches[5:8] + batches[3:5] + batches[:8] + batches[8:]
    for b in order:
        board.handle(ev_topic, b.to_bytes())
    t = board.tables["t1"]
    assert t.have == batches[-1].seq and not t.waiting
    assert t.duplicates == 8
    assert board.client.topics[0] == ("courtpiece/tables/t1/resend", b'{"after":' + str(batches[2].seq).encode() + b"}")
    assert [b.seq for b, _ in board.store.batches("t1")] == [b.seq for b in batches]
    # a lost tail shows in the state message and is asked for
    board.client.topics.clear()
    state = StateMessage("t1", batches[-1].seq + 3, batches[-1].seq + 2, 9.0, table.referee.public_state())
    board.handle("courtpiece/tables/t1/state", state.to_bytes())
    assert t.behind and board.client.topics == [("courtpiece/tables/t1/resend",
                                                 b'{"after":' + str(batches[-1].seq).encode() + b"}")]
    # a restarted scoreboard rebuilds the same matches from SQLite
    again = Scoreboard(board.store)
    assert [m.to_dict() for m in again.matches()] == [m.to_dict() for m in board.matches()]
    table.close()


def test_a_table_whose_journal_began_again_is_started_afresh(tmp_path):
    board = Scoreboard(ClubStore(tmp_path / "club.sqlite3"))
    board.client = Asked()
    runs = []
    for run, folder in enumerate(("first-card", "second-card")):
        table = SimTable("t1", tmp_path / folder, None, seed=40 + run)
        table.new_match(SimMatch([f"P{run}{s}" for s in "abcd"], options={"match-end": "hands", "match-target": 1}))
        table.play()
        runs.append((table, batches_of(table.referee, "t1")))
    first, second = runs
    for b in first[1]:
        board.handle("courtpiece/tables/t1/events", b.to_bytes())
    # the second card's journal starts at 1 again: its batches look like duplicates
    for b in second[1][:5]:
        board.handle("courtpiece/tables/t1/events", b.to_bytes())
    state = StateMessage("t1", second[1][4].seq, second[1][4].seq, 9.0, second[0].referee.public_state())
    board.handle("courtpiece/tables/t1/state", state.to_bytes())
    assert board.tables["t1"].restarted and board.snapshot()[0]["restarted"]
    assert board.start_afresh("t1") == {"archived_as": "t1~2"}
    assert board.client.topics[-1] == ("courtpiece/tables/t1/resend", b'{"after":0}')
    for b in second[1]:
        board.handle("courtpiece/tables/t1/events", b.to_bytes())
    assert board.tables["t1"].have == second[1][-1].seq and not board.tables["t1"].restarted
    tables = sorted(m.table for m in board.matches())
    assert tables == ["t1", "t1~2"] and all(m.over for m in board.matches())
    again = Scoreboard(board.store)  # and so after a restart of the scoreboard
    assert sorted(m.table for m in again.matches()) == tables
    for t, _ in runs:
        t.close()


def test_a_burst_is_written_in_one_transaction_and_a_crash_before_it_is_asked_again(tmp_path):
    table = SimTable("t1", tmp_path / "t1", None, seed=5)
    table.new_match(SimMatch(["A", "B", "C", "D"], options={"match-end": "hands", "match-target": 1}))
    table.play()
    batches = batches_of(table.referee, "t1")
    path = tmp_path / "club.sqlite3"
    board = Scoreboard(ClubStore(path))
    board.client = Asked()
    half = len(batches) // 2
    for b in batches[:half]:
        board.handle("courtpiece/tables/t1/events", b.to_bytes())
    assert board.tables["t1"].journal == table.referee.journal_id  # its row made, naming its journal
    written = board.store._conn.total_changes
    assert board.store.flush() == half
    # one INSERT a batch and the table's ``have`` moved once
    assert board.store._conn.total_changes - written == half + 1
    for b in batches[half:]:  # handed in, shown, but not yet on disk when the power goes
        board.handle("courtpiece/tables/t1/events", b.to_bytes())
    assert board.tables["t1"].have == batches[-1].seq
    crashed = ClubStore(path)  # a second connection sees only what was flushed
    again = Scoreboard(crashed)
    again.client = Asked()
    assert again.tables["t1"].have == batches[half - 1].seq
    state = StateMessage("t1", batches[-1].seq, batches[-1].seq, 9.0, table.referee.public_state())
    again.handle("courtpiece/tables/t1/state", state.to_bytes())
    assert again.client.topics == [("courtpiece/tables/t1/resend",
                                    b'{"after":' + str(batches[half - 1].seq).encode() + b"}")]
    for b in batches[half - 1:]:  # the table sends again from there: nothing lost, nothing twice
        again.handle("courtpiece/tables/t1/events", b.to_bytes())
    assert [b.seq for b, _ in crashed.batches("t1")] == [b.seq for b in batches]
    assert [m.to_dict() for m in again.matches()] == [m.to_dict() for m in board.matches()]
    table.close()


def test_a_state_message_is_read_to_its_head_and_its_state_when_asked(tmp_path):
    from controller.club.topics import StateHead

    table = SimTable("t1", tmp_path / "t1", None, seed=6)
    # a seat name that looks like the message's own tail must not cut the state short
    table.new_match(SimMatch(['A,"table":"x', "B", "C", "D"], options={"match-end": "hands", "match-target": 1}))
    table.play(steps=80)
    state = table.referee.public_state()
    msg = StateMessage("t1", 80, 77, 12.5, state)
    head = StateHead.from_bytes(msg.to_bytes())
    assert (head.table, head.seq, head.last, head.at) == ("t1", 80, 77, 12.5)
    assert json.loads(head.state_json) == json.loads(json.dumps(state))
    other = json.dumps({"v": 1, "state": state, "table": "t1", "seq": 80, "last": 77, "at": 12.5}).encode()
    assert StateHead.from_bytes(other) == StateHead("t1", 80, 77, 12.5, StateHead.from_bytes(msg.to_bytes()).state_json)
    board = Scoreboard(ClubStore(tmp_path / "club.sqlite3"))
    board.handle("courtpiece/tables/t1/state", msg.to_bytes())
    t = board.tables["t1"]
    assert t.state == json.loads(json.dumps(state)) and t.state is t.state  # decoded once
    board.store.flush()
    again = Scoreboard(board.store)  # kept as its text, read back the same
    assert again.tables["t1"].state == t.state and again.snapshot()[0]["seats"][0] == 'A,"table":"x'
    table.close()


def test_a_match_left_for_a_new_one_is_abandoned_not_playing_for_ever():
    ledger = TableLedger("t1")
    ledger.apply(1, {"event": "match-setup", "seats": ["A", "B", "C", "D"], "preset": "court-piece"})
    ledger.apply(5, {"event": "match-setup", "seats": ["A", "B", "C", "D"], "preset": "court-piece"})
    first, second = ledger.matches
    assert first.abandoned and not first.over and first.to_dict()["abandoned"]
    assert not second.abandoned
