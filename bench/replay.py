"""Time to replay a 100-hand journal (what a restart costs), beside the time to only read
its rows from SQLite in the same run.

    python bench/replay.py [--hands 100]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from controller.readers.sightings import CardSeen
from controller.referee.actions import COMMAND, table_input
from controller.referee.journal import Journal
from controller.referee.referee import Referee
from controller.rules import Phase
from controller.sim.bots import BotTable


def build(path: Path, hands: int) -> int:
    with Journal.open(path) as j:
        r = Referee(j)
        r.command("new-match", {"preset": "court-piece", "options": {"match-end": "hands", "match-target": hands}},
                  at=0.0)
        bots = BotTable(r.match, random.Random(3), revoke_rate=0.02)
        at = 0.0
        while r.match.phase is not Phase.OVER:
            bots.match = r.match
            kind, payload = table_input(bots.next_input())
            at += 1.0
            if kind == COMMAND:
                name = payload.pop("name")
                r.command(name, payload, at=at)
            else:
                r.sighting(CardSeen(payload["zone"], payload["card"], at, "bench"))
        return r.match.tally.hands_played


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=100)
    args = ap.parse_args()
    path = Path(tempfile.mkdtemp(prefix="replay-")) / "journal.sqlite3"
    hands = build(path, args.hands)
    best_replay = best_read = float("inf")
    n = 0
    for _ in range(5):
        with Journal.open(path) as j:
            t0 = time.perf_counter()
            n = sum(1 for _ in j.entries())
            best_read = min(best_read, time.perf_counter() - t0)
        with Journal.open(path) as j:
            t0 = time.perf_counter()
            r = Referee(j)
            r.restore()
            best_replay = min(best_replay, time.perf_counter() - t0)
    assert r.match is not None and r.match.tally.hands_played == hands
    print(f"replay hands={hands} inputs={n} seconds={best_replay:.3f} read_only_seconds={best_read:.3f} "
          f"ratio={best_replay / best_read:.1f}")


if __name__ == "__main__":
    main()
