"""The state directory taken away under a running referee: it halts, it does not "journal".

Real files, real directories: the directory is deleted (``rm -rf``) or swapped for a new
one (a restore from backup, a second SD card mounted over it) while the journal is open.
SQLite would carry on writing into the deleted inode and every later input would be lost
on restart; the journal checks the file's identity around every append instead.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from controller.readers.sightings import CardSeen
from controller.referee.journal import Journal, JournalError, JournalMoved
from controller.referee.referee import Referee

from .service.tablekit import new_match_args


def started(state: Path) -> tuple[Journal, Referee]:
    state.mkdir(exist_ok=True)
    journal = Journal.open(state / "journal.sqlite3")
    referee = Referee(journal)
    referee.command("new-match", new_match_args("court-piece"), at=1.0)
    referee.sighting(CardSeen("deal", "AS", 2.0, "hub"))
    return journal, referee


def test_deleted_state_directory_halts_the_referee(tmp_path: Path) -> None:
    state = tmp_path / "state"
    journal, referee = started(state)
    shutil.rmtree(state)
    out = referee.sighting(CardSeen("deal", "KS", 3.0, "hub"))
    assert out[0]["event"] == "journal-failed"
    assert "was deleted" in out[0]["message"]
    assert referee.halted and "was deleted" in referee.halted
    assert referee.match.hand.deal_index == 1  # the card was not refereed
    # Later inputs are refused, never held: no retry brings a deleted file back.
    assert referee.sighting(CardSeen("deal", "QS", 4.0, "hub"))[0]["event"] == "input-refused"
    assert referee.retry_journal() is False
    with pytest.raises(JournalError):
        journal.append("command", {"name": "confirm"}, 5.0, "button")
    journal.close()


def test_replaced_state_directory_halts_and_the_old_file_keeps_every_input(tmp_path: Path) -> None:
    state = tmp_path / "state"
    journal, referee = started(state)
    moved = tmp_path / "state.old"
    state.rename(moved)
    state.mkdir()
    shutil.copyfile(moved / "journal.sqlite3", state / "journal.sqlite3")  # same name, another file
    with pytest.raises(JournalMoved, match="replaced"):
        journal.append("sighting", {"zone": "deal", "card": "KS"}, 3.0, "hub")
    out = referee.sighting(CardSeen("deal", "KS", 3.0, "hub"))
    assert out[0]["event"] in ("journal-failed", "input-refused")
    assert referee.halted and "replaced" in referee.halted
    journal.close()
    with Journal.open(moved / "journal.sqlite3") as old:
        assert [e.kind for e in old.entries()] == ["command", "sighting"]


def test_journal_file_deleted_alone_is_noticed_too(tmp_path: Path) -> None:
    state = tmp_path / "state"
    journal, referee = started(state)
    for suffix in ("", "-wal", "-shm"):
        (state / f"journal.sqlite3{suffix}").unlink(missing_ok=True)
    out = referee.command("confirm", at=3.0)
    assert out[0]["event"] == "journal-failed" and referee.halted
    journal.close()
