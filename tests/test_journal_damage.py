"""A damaged journal at start-up: moved aside untouched, every readable input recovered.

Each case damages a real journal written by a referee the way cards and power cuts do:
a file cut short, random bytes over part of it, a write-ahead-log frame with a wrong
checksum (SQLite itself would silently drop every later commit). Start-up must not
raise (under systemd that was a restart loop), must keep the damaged bytes as they were,
and must come back with every input it could read.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from controller.config import Config
from controller.referee.journal import Entry, Journal
from controller.referee.journal_repair import open_journal, repair
from controller.referee.referee import Referee
from controller.referee.salvage import damage
from controller.referee.service import TableService

from .service.tablekit import new_match_args, play_out


def write_journal(folder: Path, inputs: int = 300) -> list[Entry]:
    """A journal a referee wrote; returns its entries. The connection stays open while the
    files are copied, so the write-ahead log is still full of frames (as after a crash)."""
    live = folder / "live"
    live.mkdir()
    journal = Journal.open(live / "journal.sqlite3")
    referee = Referee(journal)
    referee.command("new-match", new_match_args("court-piece", hands=50), at=1.0)
    play_out(referee, seed=4, revoke_rate=0.05, stop_after=inputs)
    entries = list(journal.entries())
    state = folder / "state"
    state.mkdir()
    for suffix in ("-wal", ""):  # the log first: nothing is checkpointed in between
        shutil.copyfile(live / f"journal.sqlite3{suffix}", state / f"journal.sqlite3{suffix}")
    journal.close()
    return entries


def checkpointed(folder: Path, entries: int = 300) -> tuple[Path, list[Entry]]:
    """The same journal closed cleanly: everything in the main file, no log."""
    written = write_journal(folder, entries)
    path = folder / "live" / "journal.sqlite3"
    assert not Path(str(path) + "-wal").exists()
    return path, written


def assert_recovered_as_written(path: Path, written: list[Entry], *, at_least: int) -> int:
    journal, found = open_journal(path)
    try:
        assert found is not None
        got = list(journal.entries())
    finally:
        journal.close()
    by_seq = {e.seq: e for e in written}
    assert len(got) >= at_least
    assert all(e == by_seq[e.seq] for e in got), "a recovered input differs from the one written"
    assert found.recovered == len(got)
    assert f"journal damaged: {len(got)} inputs recovered" in found.message
    assert str(found.kept_at) in found.message
    return len(got)


def test_a_whole_journal_is_not_damaged(tmp_path: Path) -> None:
    path, written = checkpointed(tmp_path)
    assert damage(path) is None
    journal, found = open_journal(path)
    assert found is None and list(journal.entries()) == written
    journal.close()


def test_truncated_journal(tmp_path: Path) -> None:
    path, written = checkpointed(tmp_path)
    data = path.read_bytes()
    cut = data[: len(data) * 2 // 3]
    path.write_bytes(cut)
    assert "truncated" in (damage(path) or "")
    n = assert_recovered_as_written(path, written, at_least=len(written) // 5)
    assert n < len(written)
    kept = next(tmp_path.glob("live/damaged-*/journal.sqlite3"))
    assert kept.read_bytes() == cut  # moved aside untouched


def test_random_bytes_over_the_journal(tmp_path: Path) -> None:
    path, written = checkpointed(tmp_path)
    data = bytearray(path.read_bytes())
    rng = random.Random(7)
    data[0:4096] = rng.randbytes(4096)  # the header page, and with it the schema
    middle = len(data) // 2
    data[middle:middle + 8192] = rng.randbytes(8192)
    path.write_bytes(bytes(data))
    assert damage(path) is not None
    assert_recovered_as_written(path, written, at_least=len(written) // 3)
    assert next(tmp_path.glob("live/damaged-*/journal.sqlite3")).read_bytes() == bytes(data)


def test_bad_wal_frame_loses_nothing(tmp_path: Path) -> None:
    written = write_journal(tmp_path)
    path = tmp_path / "state" / "journal.sqlite3"
    wal = Path(str(path) + "-wal")
    frames = (wal.stat().st_size - 32) // (24 + 4096)
    assert frames > 20
    data = bytearray(wal.read_bytes())
    data[32 + 5 * (24 + 4096) + 24 + 100] ^= 0xFF  # one bit pattern in the sixth frame's page
    wal.write_bytes(bytes(data))
    assert "breaks at frame 6" in (damage(path) or "")
    n = assert_recovered_as_written(path, written, at_least=len(written))
    assert n == len(written)  # later frames repeat the rows: every input comes back
    assert next(tmp_path.glob("state/damaged-*/journal.sqlite3-wal")).read_bytes() == bytes(data)


def test_the_service_starts_on_a_damaged_journal_and_says_so(tmp_path: Path) -> None:
    write_journal(tmp_path)
    state = tmp_path / "state"
    wal = state / "journal.sqlite3-wal"
    data = bytearray(wal.read_bytes())
    data[32 + 3 * (24 + 4096) + 24 + 10] ^= 0x55
    wal.write_bytes(bytes(data))
    cfg = Config()
    cfg.table.state_dir = str(state)
    service = TableService.open(cfg, None)  # no exception: no restart loop under systemd
    try:
        referee = service.referee
        assert referee.match is not None and referee.halted is None
        assert service.damage is not None
        state_view = referee.public_state()
        assert state_view["journal_damaged"] == service.damage.message
        assert state_view["journal_damaged"].startswith("journal damaged: ")
        assert any(e["event"] == "journal-damaged" for e in referee.public_events())
    finally:
        service.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_unwritable_directory_is_not_mistaken_for_damage(tmp_path: Path) -> None:
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(Exception, match="cannot open journal"):
            open_journal(tmp_path / "journal.sqlite3")
    finally:
        tmp_path.chmod(0o755)


def test_any_scribble_is_survived(tmp_path: Path) -> None:
    # SQLite keeps no checksum per page, so a byte changed inside a row reads back changed
    # (by SQLite as by salvage): what is promised is a start, never a crash or a made-up row.
    path, written = checkpointed(tmp_path, 200)
    pristine = path.read_bytes()
    by_seq = {e.seq: e for e in written}
    rng = random.Random(11)
    for n in range(25):
        data = bytearray(pristine)
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(data))
            size = rng.choice([1, 16, 512, 4096])
            data[at:at + size] = rng.randbytes(len(data[at:at + size]))
        if rng.random() < 0.3:
            data = data[: rng.randrange(len(data))]
        target = tmp_path / f"scribbled-{n}" / "journal.sqlite3"
        target.parent.mkdir()
        target.write_bytes(bytes(data))
        try:
            journal, _ = open_journal(target)
        except Exception as exc:  # pragma: no cover - the failure this test exists for
            raise AssertionError(f"scribble {n}: start-up raised {exc!r}") from exc
        try:
            got = list(journal.entries())
        except sqlite3.DatabaseError:  # damage open_journal's cheap checks do not see
            journal.close()
            journal, _ = repair(target, "found while reading")
            got = list(journal.entries())
        journal.close()
        seqs = [e.seq for e in got]
        assert seqs == sorted(set(seqs)) and set(seqs) <= set(by_seq), f"scribble {n}: an input was made up"
