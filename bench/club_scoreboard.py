"""The club scoreboard's own cost per message, without a broker or a network.

Ten simulated tables play (court-piece, bots, no journal); every events message and a
state message every fifth input are recorded as the tables would publish them. The real
scoreboard (SQLite, duplicate and gap handling, the ledger) then takes them all, and its
CPU time per message is compared with the least any reader of these messages must spend:
decoding each one's JSON once (the baseline, measured in the same run).

    python bench/club_scoreboard.py [--tables 10] [--inputs 400] [--repeat 3]

One summary line:

    club_scoreboard messages=... us_per_message=... baseline_us=... ratio=...
"""

from __future__ import annotations

import argparse


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=10, help="simulated tables (default 10)")
    p.add_argument("--inputs", type=int, default=400, help="inputs each table plays (default 400)")
    p.add_argument("--repeat", type=int, default=3, help="runs; the best is reported (default 3)")
    return p.parse_args()


def record(tables: int, inputs: int, folder: object) -> list[tuple[str, bytes]]:
    import time
    from dataclasses import replace
    from pathlib import Path

    from controller.club.outbox import Outbox
    from controller.club.simclub import SimMatch, SimTable
    from controller.club.topics import EVENTS, STATE, StateMessage, topic

    msgs: list[tuple[str, bytes]] = []
    match = SimMatch(["Asha", "Bilal", "Chand", "Dua"], "court-piece", {"match-end": "hands", "match-target": 4})
    for k in range(tables):
        name = f"t{k:03d}"
        table = SimTable(name, Path(str(folder)) / name, None, seed=k, journaled=False)
        box = Outbox(name, table.referee)
        for n in range(1, inputs + 1):
            if table.over:
                table.new_match(match)
            table.step()
            box.refresh()
            for b in box.pending(100):
                msgs.append((topic("courtpiece", name, EVENTS), replace(b, sent=time.time()).to_bytes()))
                box.handed(b)
            if n % 5 == 0:  # the publisher sends a state at most every 0.25 s: every 5th input at 20/s
                st = table.referee.public_state()
                msgs.append((topic("courtpiece", name, STATE),
                             StateMessage(name, int(st["seq"]), box.last, time.time(), st).to_bytes()))
        table.close()
    return msgs


def main() -> None:
    args = parse()
    import json
    import tempfile
    import time
    from pathlib import Path

    from controller.club.scoreboard import Scoreboard
    from controller.club.store import ClubStore

    folder = Path(tempfile.mkdtemp(prefix="courtpiece-club-scoreboard-"))
    msgs = record(args.tables, args.inputs, folder)
    board_us, base_us = [], []
    for run in range(args.repeat):
        t0 = time.process_time()
        for _topic, payload in msgs:
            json.loads(payload)
        base_us.append((time.process_time() - t0) / len(msgs) * 1e6)
        board = Scoreboard(ClubStore(folder / f"club-{run}.sqlite3"))
        t0 = time.process_time()
        for name, payload in msgs:
            board.handle(name, payload)
        getattr(board.store, "flush", lambda: 0)()  # the writer thread after a burst (none before it had one)
        board_us.append((time.process_time() - t0) / len(msgs) * 1e6)
        board.store.close()
    events = sum(1 for name, _ in msgs if name.endswith("/events"))
    print(f"  {len(msgs)} messages ({events} events, {len(msgs) - events} states), "
          f"{sum(len(p) for _, p in msgs) / len(msgs):.0f} bytes on average", flush=True)
    best, base = min(board_us), min(base_us)
    print(f"club_scoreboard messages={len(msgs)} us_per_message={best:.1f} baseline_us={base:.1f} "
          f"ratio={best / base:.2f}", flush=True)


if __name__ == "__main__":
    main()
