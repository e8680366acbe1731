"""A referee killed mid-stream loses nothing it acknowledged.

A child process appends to a real journal file and prints each sequence number once
``append`` has returned (that print is the acknowledgement: the referee acts only after
it). The test ``SIGKILL``s the child while it is writing, reopens the journal in a new
child that goes on appending, kills that one too, and finally checks that every
acknowledged entry is there, in order, with its payload intact.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from controller.referee.journal import Journal

REPO = Path(__file__).resolve().parents[1]

CHILD = r"""
import sys
from controller.referee.journal import Journal

path, round_no = sys.argv[1], int(sys.argv[2])
journal = Journal.open(path, {"preset": "rung", "table": "kill-test"})
for i in range(1_000_000):
    payload = {"round": round_no, "i": i, "card": "AKQJT98765432"[i % 13] + "SHDC"[i % 4],
               "pad": "x" * (i % 97)}
    seq = journal.append("card_seen", payload, 1000.0 * round_no + i, "hub")
    print(seq, round_no, i, flush=True)
"""

#: Kill points differ per round so the kill lands at different moments of an append.
KILL_AFTER = (150, 163, 171, 188)


def expected_payload(round_no: int, i: int) -> dict:
    return {
        "round": round_no,
        "i": i,
        "card": "AKQJT98765432"[i % 13] + "SHDC"[i % 4],
        "pad": "x" * (i % 97),
    }


def parse_ack(line: str) -> tuple[int, int, int]:
    seq, round_no, i = (int(x) for x in line.split())
    return seq, round_no, i


def run_and_kill(path: Path, round_no: int, kill_after: int) -> list[tuple[int, int, int]]:
    """Start a writer, SIGKILL it after some acknowledgements, return every one it printed."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    errors = path.with_name(f"writer{round_no}.err")
    with errors.open("w") as err:
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path), str(round_no)],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=env,
        )
    assert child.stdout is not None
    acks: list[tuple[int, int, int]] = []
    try:
        for line in child.stdout:
            acks.append(parse_ack(line))
            if len(acks) == kill_after:
                child.send_signal(signal.SIGKILL)
                break
        # Lines already in the pipe when the kill landed were acknowledged too. Read them
        # through the same file object: it may hold some of them in its buffer already.
        # A last line cut short by the kill was never a whole acknowledgement: drop it.
        *complete, _partial = child.stdout.read().split("\n")
        acks.extend(parse_ack(line) for line in complete)
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL, f"writer died otherwise: {errors.read_text()}"
    return acks


def test_sigkilled_writer_loses_no_acknowledged_entry(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    acknowledged: list[tuple[int, int, int]] = []
    for round_no, kill_after in enumerate(KILL_AFTER):
        acks = run_and_kill(path, round_no, kill_after)
        assert len(acks) >= kill_after
        acknowledged.extend(acks)

    with Journal.open(path) as journal:
        entries = list(journal.entries())
        assert journal.header == {"preset": "rung", "table": "kill-test"}

    by_seq = {e.seq: e for e in entries}
    # The file holds a gap-free run of sequence numbers in order ...
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    # ... and every acknowledged one is there with exactly what was written.
    for seq, round_no, i in acknowledged:
        entry = by_seq[seq]
        assert entry.payload == expected_payload(round_no, i)
        assert entry.at == 1000.0 * round_no + i
        assert (entry.kind, entry.source) == ("card_seen", "hub")
    # Acknowledgements were handed out in journal order, across restarts.
    acked_seqs = [seq for seq, _, _ in acknowledged]
    assert acked_seqs == sorted(acked_seqs)
    # An entry committed in the instant before the kill (not yet acknowledged) is whole too.
    for entry in entries:
        assert entry.payload == expected_payload(entry.payload["round"], entry.payload["i"])
