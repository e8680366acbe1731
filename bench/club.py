"""A club night through one real Mosquitto: N simulated tables against one table.

Each table is a referee with four bots and the real publisher (paho, QoS 1, the outbox);
the scoreboard is the real one (SQLite, duplicate and gap handling). Tables run in
worker processes, paced at ``--rate`` inputs a second each (a human table makes about
one; 20 is ``simulate --speed 20``), so N tables put N times the load on the broker.
Two phases of the same length: one table alone, then N tables. Figures per phase:

- event-to-scoreboard latency: from the moment the input was taken at the table (the
  events' ``at``) to the scoreboard holding it, p50 and p99;
- broker CPU: the mosquitto process's user+system time over the phase (/proc);
- the scoreboard's own time handling messages (SQLite, folding the events);
- the table side's share of the latency: input to handing the message to paho.

The last line is what ``docs/club.md`` quotes:

    club tables=50 p99_ms=... ratio_p99=... broker_cpu_ratio=...

    python bench/club.py [--tables 50] [--seconds 20] [--solo-seconds 60] [--rate 20] [--workers 2]
"""

from __future__ import annotations

import argparse


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=50, help="tables in the second phase (default 50)")
    p.add_argument("--seconds", type=float, default=20.0, help="length of the N-table phase")
    p.add_argument("--solo-seconds", type=float, default=60.0,
                   help="length of the one-table phase (longer: one table makes few events for a p99)")
    p.add_argument("--rate", type=float, default=20.0, help="inputs per second per table (0: as fast as possible)")
    p.add_argument("--workers", type=int, default=2, help="processes running the tables")
    return p.parse_args()


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, from /proc/PID/stat."""
    import os

    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_tables(names: list[str], port: int, passwords: dict[str, str], rate: float, seconds: float,
               folder: str, seed: int) -> None:
    """A worker process: play ``names`` paced at ``rate`` for ``seconds``, then say goodbye."""
    import time
    from pathlib import Path

    from controller.club.link import BrokerLink
    from controller.club.simclub import SimMatch, SimTable

    tables = [SimTable(n, Path(folder) / n, BrokerLink(port=port, username=n, password=passwords[n]),
                       seed=seed + i, revoke_rate=0.02, journaled=False).start() for i, n in enumerate(names)]
    match = SimMatch(["Asha", "Bilal", "Chand", "Dua"], "court-piece", {"match-end": "hands", "match-target": 4})
    gap = 1.0 / rate if rate > 0 else 0.0
    start = time.monotonic()
    due = [start + gap * i / len(tables) for i in range(len(tables))]
    end = start + seconds
    while True:
        now = time.monotonic()
        if now >= end:
            break
        i = min(range(len(tables)), key=due.__getitem__)
        if due[i] > now:
            time.sleep(min(due[i], end) - now)
            continue
        t = tables[i]
        if t.over:
            t.new_match(match)
        else:
            t.step()
        due[i] += gap
    # let the publishers hand over what they still owe, then leave
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(
            t.publisher is not None and t.publisher.outbox.in_flight for t in tables):
        time.sleep(0.05)
    for t in tables:
        t.close()
    cpu = time.process_time()
    print(f"  worker: {len(tables)} tables, {cpu:.1f} s CPU in {time.monotonic() - start:.0f} s "
          "(rules, bots, publishers)", flush=True)


def phase(label: str, names: list[str], broker: object, board: object, passwords: dict[str, str],
          args: argparse.Namespace, folder: str, seed: int, seconds: float) -> dict[str, float]:
    import multiprocessing as mp
    import statistics
    import time

    latencies: list[float] = board.latencies  # type: ignore[attr-defined]
    latencies.clear()
    board.table_side.clear()  # type: ignore[attr-defined]
    workers = max(1, min(args.workers, len(names)))
    chunks = [names[i::workers] for i in range(workers)]
    cpu0 = cpu_seconds(broker.pid)  # type: ignore[attr-defined]
    busy0 = board.busy[0]  # type: ignore[attr-defined]
    procs = [mp.get_context("spawn").Process(target=run_tables, args=(chunk, broker.port, passwords,  # type: ignore[attr-defined]
                                                                      args.rate, seconds, folder, seed + 1000 * k))
             for k, chunk in enumerate(chunks)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(seconds + 120)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(board.tables.get(n) is None or board.tables[n].behind  # type: ignore[attr-defined]
                                              for n in names):
        time.sleep(0.1)
    cpu = cpu_seconds(broker.pid) - cpu0  # type: ignore[attr-defined]
    busy = board.busy[0] - busy0  # type: ignore[attr-defined]
    lat = sorted(latencies)
    if not lat:
        raise SystemExit(f"{label}: no event reached the scoreboard")
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    side = sorted(board.table_side)  # type: ignore[attr-defined]
    side99 = side[min(len(side) - 1, int(len(side) * 0.99))] * 1000 if side else float("nan")
    behind = [n for n in names if board.tables.get(n) is None or board.tables[n].behind]  # type: ignore[attr-defined]
    dup = sum(board.tables[n].duplicates for n in names if n in board.tables)  # type: ignore[attr-defined]
    print(f"{label}: tables={len(names)} batches={len(lat)} ({len(lat) / args.seconds:.0f}/s) "
          f"p50_ms={p50:.1f} p99_ms={p99:.1f} (table side p99_ms={side99:.1f}) broker_cpu_s={cpu:.2f} "
          f"scoreboard_s={busy:.2f} "
          f"duplicates_dropped={dup} "
          f"behind={len(behind)}", flush=True)
    return {"p99": p99, "cpu": cpu, "batches": len(lat)}


def main() -> None:
    args = parse()
    import tempfile
    import time
    from pathlib import Path

    from controller.club.link import BrokerLink
    from controller.club.mosquitto import Mosquitto
    from controller.club.scoreboard import Scoreboard
    from controller.club.store import ClubStore
    from controller.club.topics import SCOREBOARD_USER

    folder = tempfile.mkdtemp(prefix="courtpiece-club-bench-")
    one = ["solo"]
    many = [f"t{i:03d}" for i in range(1, args.tables + 1)]
    passwords = {n: f"pw-{n}-bench" for n in one + many}
    broker = Mosquitto(Path(folder) / "broker", prefix="courtpiece", tables=passwords, scoreboard_password="pw-board")
    broker.start()
    try:
        latencies: list[float] = []

        table_side: list[float] = []

        def on_batch(_table: str, batch: object, now: float) -> None:
            ats = [e["at"] for e in batch.events if isinstance(e.get("at"), int | float)]  # type: ignore[attr-defined]
            if ats:
                latencies.append(now - max(ats))
                if batch.sent is not None:  # type: ignore[attr-defined]
                    table_side.append(batch.sent - max(ats))  # type: ignore[attr-defined]

        board = Scoreboard(ClubStore(Path(folder) / "club.sqlite3"),
                           BrokerLink(port=broker.port, username=SCOREBOARD_USER, password="pw-board"),
                           on_batch=on_batch).start()
        board.latencies = latencies  # type: ignore[attr-defined]
        board.table_side = table_side  # type: ignore[attr-defined]
        board.busy = [0.0]  # type: ignore[attr-defined]
        handle = board.handle

        def timed(topic: str, payload: bytes) -> None:  # the scoreboard's own work per message
            t0 = time.perf_counter()
            handle(topic, payload)
            board.busy[0] += time.perf_counter() - t0  # type: ignore[attr-defined]

        board.handle = timed  # type: ignore[method-assign]
        deadline = time.monotonic() + 10
        while not board.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        print(f"mosquitto pid {broker.pid} on 127.0.0.1:{broker.port}; {args.rate:g} inputs/s per table; "
              f"phases of {args.solo_seconds:g} s (one table) and {args.seconds:g} s; {args.workers} worker processes",
              flush=True)
        single = phase("one table", one, broker, board, passwords, args, folder, 1, args.solo_seconds)
        club = phase(f"{args.tables} tables", many, broker, board, passwords, args, folder, 100, args.seconds)
        board.stop()
    finally:
        broker.stop()
    ratio = club["p99"] / single["p99"] if single["p99"] else float("inf")
    cpu_ratio = club["cpu"] / single["cpu"] if single["cpu"] else float("inf")
    print(f"club tables={args.tables} p99_ms={club['p99']:.1f} ratio_p99={ratio:.2f} "
          f"broker_cpu_ratio={cpu_ratio:.1f}", flush=True)


if __name__ == "__main__":
    main()
