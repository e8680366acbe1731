"""A table's journal has a name of its own, carried by every message: the scoreboard tells
a new journal under a table's name (a replaced SD card, a spare Pi) from the one it holds,
and a message forged with the table's password from what its journal says. Starting a
table afresh never counts a match twice."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from clubkit import Asked  # noqa: E402

from controller.club.outbox import batches_of  # noqa: E402
from controller.club.scoreboard import Scoreboard  # noqa: E402
from controller.club.simclub import SimMatch, SimTable  # noqa: E402
from controller.club.store import ClubStore  # noqa: E402
from controller.club.topics import Batch, StateHead, StateMessage  # noqa: E402
from controller.referee.journal import Journal  # noqa: E402

EVENTS, STATE = "courtpiece/tables/t1/events", "courtpiece/tables/t1/state"


def played(folder: Path, seats: str, seed: int, matches: int = 1) -> SimTable:
    table = SimTable("t1", folder, None, seed=seed)
    for _ in range(matches):
        table.new_match(SimMatch([f"{seats}{s}" for s in "abcd"], options={"match-end": "hands", "match-target": 1}))
        table.play()
    return table


def state_of(table: SimTable) -> bytes:
    r = table.referee
    return StateMessage("t1", r.last_seq, batches_of(r, "t1")[-1].seq, 9.0, r.public_state(), r.journal_id).to_bytes()


def board_at(tmp_path: Path) -> Scoreboard:
    board = Scoreboard(ClubStore(tmp_path / "club.sqlite3"))
    board.client = Asked()
    return board


def hand_in(board: Scoreboard, batches: list[Batch]) -> None:
    for b in batches:
        board.handle(EVENTS, b.to_bytes())


def test_a_journal_keeps_its_id_and_a_new_file_draws_another(tmp_path):
    first = Journal.open(tmp_path / "a.sqlite3")
    name = first.journal_id
    first.close()
    again = Journal.open(tmp_path / "a.sqlite3")
    other = Journal.open(tmp_path / "b.sqlite3")
    assert len(name) == 16 and again.journal_id == name and other.journal_id != name
    again.close()
    other.close()


def test_messages_name_their_journal_and_the_state_head_reads_it(tmp_path):
    table = played(tmp_path / "t1", "P", 3)
    batches = batches_of(table.referee, "t1")
    assert {Batch.from_bytes(b.to_bytes()).journal for b in batches} == {table.referee.journal_id}
    head = StateHead.from_bytes(state_of(table))
    assert head.journal == table.referee.journal_id and head.seq == table.referee.last_seq
    table.close()


def test_a_spare_pi_under_the_same_name_is_counted_once_and_only_after_the_director(tmp_path):
    board = board_at(tmp_path)
    old = played(tmp_path / "first-card", "P", 11)
    hand_in(board, batches_of(old.referee, "t1"))
    board.handle(STATE, state_of(old))
    assert not board.tables["t1"].restarted and len(board.matches()) == 1
    spare = played(tmp_path / "spare", "Q", 12, matches=2)  # more inputs than the old card held
    spare_batches = batches_of(spare.referee, "t1")
    hand_in(board, spare_batches)
    board.handle(STATE, state_of(spare))
    t = board.tables["t1"]
    assert t.restarted and t.other == spare.referee.journal_id
    assert len(board.matches()) == 1, "a new journal's matches counted before the director said so"
    assert board.start_afresh("t1") == {"archived_as": "t1~2"}
    assert board.seatable() == ["t1"]  # the archive is kept, but no match is seated at it
    hand_in(board, spare_batches)  # what the resend request brings
    assert sorted(m.table for m in board.matches()) == ["t1", "t1", "t1~2"]
    # the old Pi, still running, is kept already: none of its batches counts again
    hand_in(board, batches_of(old.referee, "t1"))
    board.handle(STATE, state_of(old))
    assert len(board.matches()) == 3 and not board.tables["t1"].restarted
    with pytest.raises(ValueError, match="twice"):
        board.start_afresh("t1")
    again = Scoreboard(board.store)  # the same after the scoreboard restarts
    hand_in(again, batches_of(old.referee, "t1"))
    assert len(again.matches()) == 3 and again.tables["t1"].journal == spare.referee.journal_id
    old.close()
    spare.close()


def test_a_forged_jump_is_taken_back_to_what_the_journal_says(tmp_path):
    """A message sent with the table's own password cannot be told from the table's;
    once the table's state shows its journal never got that far, the director takes the
    table back to its journal's word: the forged result is gone, nothing counts twice."""
    board = board_at(tmp_path)
    table = played(tmp_path / "t1", "P", 21)
    real = batches_of(table.referee, "t1")
    hand_in(board, real)
    have = board.tables["t1"].have
    forged = Batch("t1", have + 1000, have, [{"event": "match-over", "winner": 0, "seq": have + 1000}],
                   journal=table.referee.journal_id)
    board.handle(EVENTS, forged.to_bytes())
    assert board.tables["t1"].have == have + 1000
    table.new_match(SimMatch([f"R{s}" for s in "abcd"], options={"match-end": "hands", "match-target": 1}))
    table.play()
    later = batches_of(table.referee, "t1")[len(real):]
    hand_in(board, later)
    board.handle(STATE, state_of(table))
    assert board.tables["t1"].restarted
    assert board.start_afresh("t1") == {"taken_back_to": have}
    assert board.client.topics[-1] == ("courtpiece/tables/t1/resend", b'{"after":' + str(have).encode() + b"}")
    hand_in(board, later)
    t = board.tables["t1"]
    assert t.have == later[-1].seq and not t.restarted
    want = Scoreboard(ClubStore(tmp_path / "truth.sqlite3"))
    want.client = Asked()
    hand_in(want, batches_of(table.referee, "t1"))
    assert [m.to_dict() for m in board.matches()] == [m.to_dict() for m in want.matches()]
    assert board.store.batch_count("t1") == want.store.batch_count("t1"), "the forged batch is still held"
    table.close()


@pytest.mark.parametrize("forged", [
    [{"event": "courts-scored", "team": 7, "courts": 1}],
    [{"event": "hand-won", "team": 9}],
    [{"event": "points-scored", "team": -3, "points": 5}],
    [{"event": "partnerships-drawn", "swap": [0, 8]}],
    [{"event": "courts-scored", "team": 0, "courts": "many"}],
])
def test_an_event_no_table_writes_is_not_counted_and_the_scoreboard_still_starts(tmp_path, forged):
    """Sent with a table's password: a team of 7 counted was an IndexError that stopped the
    scoreboard at every start after (rebuilding its tables from the stored batches), with
    no way back but editing its database by hand."""
    table = played(tmp_path / "t1", "P", 5)
    batches = batches_of(table.referee, "t1")
    board = board_at(tmp_path)
    hand_in(board, batches[:3])  # a match under way: its setup is in
    last = batches[2]
    board.handle(EVENTS, Batch("t1", last.seq + 1, last.seq, forged, journal=last.journal).to_bytes())
    assert board.tables["t1"].have == last.seq + 1  # taken in its turn, not counted
    board.store.flush()
    counted = [m.to_dict() for m in board.ledgers["t1"].matches]
    board.store.close()
    again = Scoreboard(ClubStore(tmp_path / "club.sqlite3"))  # raised IndexError here
    assert [m.to_dict() for m in again.ledgers["t1"].matches] == counted
    again.store.close()
    table.close()
