"""When the journal cannot write, it says so loudly and takes nothing more.

Every case here makes the operating system (or SQLite itself) really refuse the write:
an unprivileged process facing a directory it cannot write, SQLite's own size cap
(SQLITE_FULL, the same code as a full disk), and — where this machine lets a test make
private mounts — a genuinely full tmpfs and a read-only bind mount.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.referee.journal import Journal, JournalError

REPO = Path(__file__).resolve().parents[1]
NOBODY = 65534


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A directory an unprivileged child can reach (pytest's own tmp dirs are 0700)."""
    path = Path(tempfile.mkdtemp(prefix="journal-ro-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def as_unprivileged(attempt: Callable[[], Any]) -> Any:
    """Run ``attempt`` without root's power to write anywhere.

    As root, file modes do not stop writes, so the attempt runs in a forked child that
    drops to ``nobody`` (no exec needed, so the interpreter's location does not matter).
    As an ordinary user the modes already apply and it runs here.
    """
    if os.geteuid() != 0:
        return attempt()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.close(read_fd)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            result = {"ok": attempt()}
        except BaseException as exc:  # report anything, never fall back into pytest
            result = {"error": f"{type(exc).__name__}: {exc}"}
        os.write(write_fd, json.dumps(result).encode())
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    result = json.loads(data)
    if "error" in result:
        raise AssertionError(f"unprivileged attempt crashed: {result['error']}")
    return result["ok"]


def open_journal_message(path: Path) -> str:
    """Try to open the journal; return 'opened' or the JournalError message."""
    try:
        Journal.open(path).close()
    except JournalError as exc:
        return f"JournalError: {exc}"
    return "opened"


def test_unwritable_directory_refuses_to_open(open_dir: Path) -> None:
    if os.geteuid() != 0:
        open_dir.chmod(0o555)
    target = open_dir / "journal.sqlite3"
    outcome = as_unprivileged(lambda: open_journal_message(target))
    assert outcome.startswith("JournalError: cannot open journal")
    assert str(target) in outcome
    assert not target.exists()


def test_write_protected_journal_is_refused_at_open_not_at_first_play(open_dir: Path) -> None:
    # SQLite would quietly open this file read-only; the journal must notice at once.
    target = open_dir / "journal.sqlite3"
    with Journal.open(target, {"preset": "rung"}) as journal:
        journal.append("card_seen", {"card": "AS"}, 1.0, "hub")
    target.chmod(0o444)
    open_dir.chmod(0o777)  # the directory itself is writable: only the file is protected
    outcome = as_unprivileged(lambda: open_journal_message(target))
    assert outcome.startswith("JournalError: cannot open journal")
    assert "readonly" in outcome
    target.chmod(0o644)
    with Journal.open(target) as journal:
        assert [e.payload for e in journal.entries()] == [{"card": "AS"}]


def test_full_journal_raises_then_refuses_and_keeps_every_acknowledged_entry(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path, {"preset": "rung"}, max_bytes=64 * 1024)
    acknowledged: list[int] = []
    with pytest.raises(JournalError, match="database or disk is full") as caught:
        for i in range(10_000):
            acknowledged.append(journal.append("card_seen", {"i": i, "pad": "x" * 500}, i, "hub"))
    assert str(path) in str(caught.value)
    assert len(acknowledged) > 10
    assert journal.failed is not None and "full" in journal.failed
    # A tiny input that would fit is refused too: the referee must stop, not carry on.
    with pytest.raises(JournalError, match="refuses appends"):
        journal.append("command", {}, 0.0, "button")
    journal.close()

    with Journal.open(path) as reopened:  # no cap this time: as if space was freed
        entries = list(reopened.entries())
        assert [e.seq for e in entries] == acknowledged
        assert [e.payload["i"] for e in entries] == list(range(len(acknowledged)))
        assert reopened.append("command", {"name": "undo"}, 1.0, "button") == acknowledged[-1] + 1


# -- real file systems in a private mount namespace ----------------------------------------


@pytest.fixture(scope="module")
def private_mounts() -> None:
    """Skip unless this process may make mounts in a private namespace (root, unshare)."""
    if shutil.which("unshare") is None:
        pytest.skip("util-linux unshare is not installed")
    with tempfile.TemporaryDirectory() as probe:
        done = subprocess.run(
            [
                "unshare",
                "--mount",
                "--propagation",
                "private",
                "mount",
                "-t",
                "tmpfs",
                "-o",
                "size=64k",
                "tmpfs",
                probe,
            ],
            capture_output=True,
            text=True,
        )
    if done.returncode != 0:
        pytest.skip(f"cannot mount in a private namespace here: {done.stderr.strip()}")


def run_in_namespace(setup: str, code: str, directory: Path) -> dict[str, Any]:
    """Run ``setup`` (shell, $1 = directory) then Python ``code`` in a private mount namespace.

    The mounts vanish with the namespace, so nothing is left behind on the machine.
    """
    script = f'set -e\n{setup}\nexec "{sys.executable}" -c "$CHILD_CODE" "$1"'
    done = subprocess.run(
        [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            script,
            "sh",
            str(directory),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO), "CHILD_CODE": code},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


FILL_TMPFS = r"""
import json, sqlite3, sys
from pathlib import Path
from controller.referee.journal import Journal, JournalError

d = Path(sys.argv[1])
filler = d / "filler"
filler.write_bytes(b"\0" * 64 * 1024)  # freed later, to show the journal recovers
path = d / "journal.sqlite3"
journal = Journal.open(path, {"preset": "rung"})
acked, error = [], None
for i in range(100_000):
    try:
        acked.append(journal.append("card_seen", {"i": i, "pad": "x" * 900}, float(i), "hub"))
    except JournalError as exc:
        error = str(exc)
        break
try:
    journal.append("command", {}, 0.0, "button")
    refused = None
except JournalError as exc:
    refused = str(exc)
journal.close()
ro = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
stored = [[seq, json.loads(p)["i"]] for seq, p in ro.execute("SELECT seq, payload FROM inputs ORDER BY seq")]
ro.close()
filler.unlink()
journal = Journal.open(path)
after = journal.append("command", {"name": "undo"}, 1.0, "button")
journal.close()
print(json.dumps({"acked": acked, "error": error, "refused": refused, "stored": stored, "after": after}))
"""


def test_really_full_file_system(private_mounts: None, tmp_path: Path) -> None:
    out = run_in_namespace('mount -t tmpfs -o size=256k tmpfs "$1"', FILL_TMPFS, tmp_path)
    assert out["error"] is not None and "database or disk is full" in out["error"]
    assert out["refused"] is not None and "refuses appends" in out["refused"]
    assert len(out["acked"]) > 5
    assert out["stored"] == [[seq, i] for i, seq in enumerate(out["acked"])]
    assert out["after"] == out["acked"][-1] + 1


READ_ONLY_OPEN = r"""
import json, sys
from pathlib import Path
from controller.referee.journal import Journal, JournalError

try:
    Journal.open(Path(sys.argv[1]) / "journal.sqlite3")
    outcome = "opened"
except JournalError as exc:
    outcome = str(exc)
print(json.dumps({"outcome": outcome}))
"""


def test_read_only_file_system(private_mounts: None, tmp_path: Path) -> None:
    # What an SD card does after the kernel remounts it read-only on an error.
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        journal.append("card_seen", {"card": "AS"}, 1.0, "hub")
    setup = 'mount --bind "$1" "$1"\nmount -o remount,bind,ro "$1"'
    out = run_in_namespace(setup, READ_ONLY_OPEN, tmp_path)
    assert out["outcome"].startswith("cannot open journal")
    with Journal.open(tmp_path / "journal.sqlite3") as journal:  # outside: still writable
        assert [e.payload for e in journal.entries()] == [{"card": "AS"}]
