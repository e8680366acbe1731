"""A club night through one real Mosquitto: N simulated tables against one table.

Each table is a referee with four bots and the real publisher (paho, QoS 1, the outbox);
the scoreboard is the real one (SQLite, duplicate and gap handling). Tables run in
worker processes, paced at ``--rate`` inputs a second each (a human table makes about
one; 20 is ``simulate --speed 20``), so N tables put N times the load on the broker.
Two kinds of phase in the same run: one table alone (the baseline), then N tables,
alternated over ``--rounds`` rounds (fresh tables each time), so a machine whose other
load comes and goes weighs on the baseline and the club alike.

What is measured is the club's side, the part that grows with the tables: from the
moment a table hands a batch to its broker client (``sent``) to the moment the
scoreboard's in-memory picture holds it (what its pages show). On a club night every
table is its own Raspberry Pi; here fifty share this machine with the broker and the
scoreboard, so the workers run at a lower priority (``--sim-nice``; ``--club-cpus``
can also give the two sides CPUs of their own, though the tables' sending is part of
what is measured and then queues on fewer CPUs), and the time a table takes to make
its input (rules, bots, its own queue) is reported apart, not counted. Figures per
phase:

- publish-to-scoreboard latency, p50 and p99 (the goal: p99 at N tables within 2x of
  one table);
- input-to-scoreboard (the events' ``at``), and the table side's share (input to
  ``sent``), for the record;
- broker CPU: the mosquitto process's user+system time over the phase (/proc);
- the scoreboard's own time handling messages (decoding, folding, staging for SQLite).

Each round's two phases are a pair measured a minute apart, so besides the p99 over all
rounds (``pooled_ratio_p99``) the summary gives the median of the rounds' own ratios
(``ratio_p99``): a burst of other work on a shared machine spoils one round, not the
figure. The last line is what ``docs/club.md`` quotes:

    club tables=50 p99_ms=... ratio_p99=... pooled_ratio_p99=... broker_cpu_ratio=...

    python bench/club.py [--tables 50] [--seconds 60] [--solo-seconds 120] [--rate 20] [--rounds 3]
                         [--club-cpus all]
"""

from __future__ import annotations

import argparse
from typing import Any


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=50, help="tables in the second phase (default 50)")
    p.add_argument("--seconds", type=float, default=60.0, help="time at N tables, over all rounds")
    p.add_argument("--solo-seconds", type=float, default=120.0,
                   help="time at one table, over all rounds (longer: one table makes few events, and a p99 "
                        "of a few hundred is the few slowest of them; default 120)")
    p.add_argument("--rounds", type=int, default=3,
                   help="one-table and N-table phases, alternated (default 3: 20 s each, a few hands a table)")
    p.add_argument("--rate", type=float, default=20.0, help="inputs per second per table (0: as fast as possible)")
    p.add_argument("--workers", type=int, default=10,
                   help="processes running the tables (more: less waiting on one another's interpreter lock)")
    p.add_argument("--sim-nice", type=int, default=10,
                   help="niceness of the table processes: they stand in for the tables' own Pis (default 10)")
    p.add_argument("--club-cpus", default="all",
                   help="CPUs for the broker and the scoreboard, e.g. '0'; the table processes get the others "
                        "(default 'all': every CPU shared; ignored on a machine of one CPU)")
    return p.parse_args()


def split_cpus(spec: str) -> tuple[set[int], set[int]]:
    """(the club's CPUs, the tables' CPUs) out of the ones this process may use: on the
    night the scoreboard and broker have a machine of their own, and the tables are
    separate Pis, so fifty simulated tables must not queue in front of the club's side."""
    import os

    mine = os.sched_getaffinity(0)
    if spec == "all" or len(mine) < 2:
        return set(mine), set(mine)
    club = {int(c) for c in spec.split(",") if c.strip()} & mine
    tables = mine - club
    if not club or not tables:
        raise SystemExit(f"--club-cpus {spec!r} leaves no CPU for one side (this process may use {sorted(mine)})")
    return club, tables


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, from /proc/PID/stat."""
    import os

    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_tables(names: list[str], port: int, passwords: dict[str, str], rate: float, seconds: float,
               folder: str, seed: int, niceness: int, cpus: set[int], ready: Any, go: Any) -> None:
    """A worker process: start ``names`` and connect them, say ``ready``, wait for ``go``
    (so no table plays while another process is still starting), then play them paced
    at ``rate`` for ``seconds`` and say goodbye."""
    import os
    import sys
    import time

    os.sched_setaffinity(0, cpus)  # before any thread starts: they inherit it
    os.nice(niceness)
    # On the night each table is its own Pi with its own interpreter: here five share one,
    # and a client thread with bytes to send must not wait 5 ms turns behind the bots.
    sys.setswitchinterval(0.0005)
    from pathlib import Path

    from controller.club.link import BrokerLink
    from controller.club.simclub import SimMatch, SimTable

    tables = [SimTable(n, Path(folder) / n, BrokerLink(port=port, username=n, password=passwords[n]),
                       seed=seed + i, revoke_rate=0.02, journaled=False).start() for i, n in enumerate(names)]
    match = SimMatch(["Asha", "Bilal", "Chand", "Dua"], "court-piece", {"match-end": "hands", "match-target": 4})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(t.publisher is not None and t.publisher.connected for t in tables):
        time.sleep(0.02)
    ready.put(len(tables))
    go.wait(120)
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


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of sorted seconds, in milliseconds (nan when empty)."""
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(len(values) * q))] * 1000


def phase(label: str, names: list[str], broker: object, board: object, passwords: dict[str, str],
          args: argparse.Namespace, folder: str, seed: int, seconds: float, cpus: set[int]) -> dict[str, Any]:
    import multiprocessing as mp
    import os
    import time

    latencies: list[float] = board.latencies  # type: ignore[attr-defined]
    latencies.clear()
    board.from_input.clear()  # type: ignore[attr-defined]
    board.table_side.clear()  # type: ignore[attr-defined]
    workers = max(1, min(args.workers, len(names)))
    chunks = [names[i::workers] for i in range(workers)]
    ctx = mp.get_context("spawn")
    ready, go = ctx.Queue(), ctx.Event()
    procs = [ctx.Process(target=run_tables, args=(chunk, broker.port, passwords,  # type: ignore[attr-defined]
                                                  args.rate, seconds, folder, seed + 1000 * k, args.sim_nice,
                                                  cpus, ready, go))
             for k, chunk in enumerate(chunks)]
    for p in procs:
        p.start()
    for _ in procs:  # every table started and connected: the measured phase begins together
        ready.get(timeout=180)
    latencies.clear()
    board.from_input.clear()  # type: ignore[attr-defined]
    board.table_side.clear()  # type: ignore[attr-defined]
    cpu0 = cpu_seconds(broker.pid)  # type: ignore[attr-defined]
    busy0 = board.busy[0]  # type: ignore[attr-defined]
    go.set()
    for p in procs:
        p.join(seconds + 120)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(board.tables.get(n) is None or board.tables[n].behind  # type: ignore[attr-defined]
                                              for n in names):
        time.sleep(0.1)
    cpu = cpu_seconds(broker.pid) - cpu0  # type: ignore[attr-defined]
    busy = board.busy[0] - busy0  # type: ignore[attr-defined]
    p99 = pct(sorted(latencies), 0.99)
    print(f"  {label}: {len(latencies)} batches ({len(latencies) / seconds:.0f}/s) "
          f"p99_ms={p99:.1f} load={os.getloadavg()[0]:.1f}", flush=True)
    return {"p99": p99, "lat": list(latencies), "from_input": list(board.from_input),  # type: ignore[attr-defined]
            "table_side": list(board.table_side), "cpu": cpu, "busy": busy,  # type: ignore[attr-defined]
            "behind": len([n for n in names if board.tables.get(n) is None or board.tables[n].behind]),  # type: ignore[attr-defined]
            "dup": sum(board.tables[n].duplicates for n in names if n in board.tables)}  # type: ignore[attr-defined]


def summary(label: str, tables: int, rounds: list[dict[str, Any]], seconds: float) -> dict[str, float]:
    """One line for a kind of phase, over all its rounds."""
    import statistics

    lat = sorted(x for r in rounds for x in r["lat"])
    if not lat:
        raise SystemExit(f"{label}: no event reached the scoreboard")
    p99 = pct(lat, 0.99)
    cpu = sum(r["cpu"] for r in rounds)
    print(f"{label}: tables={tables} batches={len(lat)} ({len(lat) / seconds:.0f}/s) "
          f"p50_ms={statistics.median(lat) * 1000:.1f} p99_ms={p99:.1f} "
          f"(from input p99_ms={pct(sorted(x for r in rounds for x in r['from_input']), 0.99):.1f}, "
          f"table side p99_ms={pct(sorted(x for r in rounds for x in r['table_side']), 0.99):.1f}) "
          f"broker_cpu_s={cpu:.2f} scoreboard_s={sum(r['busy'] for r in rounds):.2f} "
          f"duplicates_dropped={sum(r['dup'] for r in rounds)} behind={sum(r['behind'] for r in rounds)}", flush=True)
    return {"p99": p99, "cpu": cpu}


def main() -> None:
    args = parse()
    import os
    import statistics
    import tempfile
    import time
    from pathlib import Path

    from controller.club.link import BrokerLink
    from controller.club.mosquitto import Mosquitto
    from controller.club.scoreboard import Scoreboard, quick_handoffs
    from controller.club.store import ClubStore
    from controller.club.topics import SCOREBOARD_USER

    quick_handoffs()  # as `courtpiece club` runs the scoreboard
    club_cpus, table_cpus = split_cpus(args.club_cpus)
    # the scoreboard's threads and the broker (started below) inherit this thread's CPUs
    os.sched_setaffinity(0, club_cpus)
    folder = tempfile.mkdtemp(prefix="courtpiece-club-bench-")
    rounds = max(1, args.rounds)
    # fresh tables every round: a table started again at input 1 would be a journal begun again
    ones = [[f"solo-{r}"] for r in range(rounds)]
    manys = [[f"r{r}t{i:03d}" for i in range(1, args.tables + 1)] for r in range(rounds)]
    passwords = {n: f"pw-{n}-bench" for names in ones + manys for n in names}
    broker = Mosquitto(Path(folder) / "broker", prefix="courtpiece", tables=passwords, scoreboard_password="pw-board")
    broker.start()
    try:
        latencies: list[float] = []  # sent -> the scoreboard holds it
        from_input: list[float] = []  # the input at the table -> the scoreboard holds it
        table_side: list[float] = []  # the input at the table -> sent

        def on_batch(_table: str, batch: object, _received: float) -> None:
            held = time.time()  # called once the batch is folded into what the pages show
            ats = [e["at"] for e in batch.events if isinstance(e.get("at"), int | float)]  # type: ignore[attr-defined]
            sent = batch.sent  # type: ignore[attr-defined]
            if sent is not None:
                latencies.append(held - sent)
            if ats:
                from_input.append(held - max(ats))
                if sent is not None:
                    table_side.append(sent - max(ats))

        board = Scoreboard(ClubStore(Path(folder) / "club.sqlite3"),
                           BrokerLink(port=broker.port, username=SCOREBOARD_USER, password="pw-board"),
                           on_batch=on_batch).start()
        board.latencies = latencies  # type: ignore[attr-defined]
        board.from_input = from_input  # type: ignore[attr-defined]
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
              f"{rounds} rounds of {args.solo_seconds / rounds:g} s at one table and {args.seconds / rounds:g} s at "
              f"{args.tables}; {args.workers} worker processes at nice {args.sim_nice}; club on CPUs "
              f"{sorted(club_cpus)}, tables on {sorted(table_cpus)}",
              flush=True)
        solo_runs, club_runs = [], []
        for r in range(rounds):
            solo_runs.append(phase(f"round {r + 1}, one table", ones[r], broker, board, passwords, args, folder,
                                   1 + r, args.solo_seconds / rounds, table_cpus))
            club_runs.append(phase(f"round {r + 1}, {args.tables} tables", manys[r], broker, board, passwords, args,
                                   folder, 100 + 1000 * r, args.seconds / rounds, table_cpus))
        single = summary("one table", 1, solo_runs, args.solo_seconds)
        club = summary(f"{args.tables} tables", args.tables, club_runs, args.seconds)
        board.stop()
    finally:
        broker.stop()
    pooled = club["p99"] / single["p99"] if single["p99"] else float("inf")
    paired = [c["p99"] / s["p99"] if s["p99"] else float("inf") for s, c in zip(solo_runs, club_runs, strict=True)]
    print("rounds' own ratios: " + " ".join(f"{x:.2f}" for x in paired), flush=True)
    cpu_ratio = club["cpu"] / single["cpu"] if single["cpu"] else float("inf")
    print(f"club tables={args.tables} p99_ms={club['p99']:.1f} ratio_p99={statistics.median(paired):.2f} "
          f"pooled_ratio_p99={pooled:.2f} broker_cpu_ratio={cpu_ratio:.1f}", flush=True)


if __name__ == "__main__":
    main()
