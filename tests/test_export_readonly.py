"""``courtpiece export`` only reads: not one byte of the journal or its log changes.

The journal is exported while the referee that writes it is still running (its
write-ahead log full of frames), with a damaged frame in that log (SQLite would drop the
later commits, and a normal connection's closing checkpoint would make that final), and
from a copy on a read-only file system.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from controller.referee.journal import Journal, import_log
from controller.referee.referee import Referee

from .service.tablekit import new_match_args, play_out
from .test_journal_failures import private_mounts, run_in_namespace  # noqa: F401 (fixture)

REPO = Path(__file__).resolve().parents[1]


def fingerprint(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())
            if p.name.startswith("journal.sqlite3") and not p.name.endswith("-shm")}


def export(state: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", "export", "--state-dir", str(state),
                           "-o", str(out)], capture_output=True, text=True, cwd=REPO, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


def live_journal(state: Path) -> tuple[Journal, int]:
    state.mkdir()
    journal = Journal.open(state / "journal.sqlite3")
    referee = Referee(journal)
    referee.command("new-match", new_match_args("court-piece", hands=50), at=1.0)
    play_out(referee, seed=9, revoke_rate=0.05, stop_after=300)
    return journal, len(list(journal.entries()))


def test_export_of_a_live_journal_changes_nothing(tmp_path: Path) -> None:
    state = tmp_path / "state"
    journal, n = live_journal(state)
    try:
        before = fingerprint(state)
        assert "journal.sqlite3-wal" in before
        done = export(state, tmp_path / "log.jsonl")
        assert done.returncode == 0, done.stderr
        assert fingerprint(state) == before
        with open(tmp_path / "log.jsonl", encoding="utf-8") as f:
            assert len(import_log(f).entries) == n
    finally:
        journal.close()


def test_export_of_a_log_with_a_bad_frame_keeps_every_input_and_the_frames(tmp_path: Path) -> None:
    state = tmp_path / "state"
    journal, n = live_journal(state)
    copy = tmp_path / "copy"
    copy.mkdir()
    for suffix in ("-wal", ""):  # what a crash leaves behind
        (copy / f"journal.sqlite3{suffix}").write_bytes((state / f"journal.sqlite3{suffix}").read_bytes())
    journal.close()
    wal = copy / "journal.sqlite3-wal"
    data = bytearray(wal.read_bytes())
    data[32 + 8 * (24 + 4096) + 24 + 64] ^= 0xFF
    wal.write_bytes(bytes(data))
    before = fingerprint(copy)
    done = export(copy, tmp_path / "log.jsonl")
    assert done.returncode == 0, done.stderr
    assert "journal damaged" in done.stderr
    assert fingerprint(copy) == before  # the log and its later frames are still there
    with open(tmp_path / "log.jsonl", encoding="utf-8") as f:
        assert len(import_log(f).entries) == n


EXPORT_READ_ONLY = r"""
import json, subprocess, sys
done = subprocess.run([sys.executable, "-m", "controller.cli", "export", "--state-dir", sys.argv[1],
                       "-o", "/dev/stdout"], capture_output=True, text=True)
print(json.dumps({"rc": done.returncode, "lines": done.stdout.count("\n"), "err": done.stderr}))
"""


def test_export_from_a_read_only_copy(private_mounts: None, tmp_path: Path) -> None:  # noqa: F811
    state = tmp_path / "state"
    journal, n = live_journal(state)
    copy = tmp_path / "copy"
    copy.mkdir()
    for suffix in ("-wal", ""):
        (copy / f"journal.sqlite3{suffix}").write_bytes((state / f"journal.sqlite3{suffix}").read_bytes())
    journal.close()
    before = fingerprint(copy)
    out = run_in_namespace('mount --bind "$1" "$1"\nmount -o remount,bind,ro "$1"', EXPORT_READ_ONLY, copy)
    assert out["rc"] == 0, out["err"]
    assert out["lines"] == n + 1, json.dumps(out)
    assert fingerprint(copy) == before
