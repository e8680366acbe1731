"""What a restart and an undo cost as the table's history grows.

Bots play evenings of court-piece through a referee with a real journal -- each match
ends when someone presses "time up" after ``--match-hands`` hands (0: one endless match,
the worst case) -- until the table has played 10, 100 and 1,000 hands since "install",
all in one journal. At each size a copy of the journal is timed: a restart (open the journal the way the
service does, damage checks included, and rebuild the referee from it) and an undo (the admin's button on the restored table).
Both should cost what the current match costs, not everything played before it, so the
figures are printed as ratios to the 10-hand figure (goal: at most 1.5 at 1,000 hands).

    python bench/history.py [--hands 10,100,1000] [--repeat 20] [--match-hands 0]

The journal lives on /dev/shm when there is one, so building it is not a test of the
disk's fsync; the timings are CPU and SQLite, which is what grows with history. A
restart happens in a fresh process, which holds none of this bench's own table (its
referee keeps every event since the bench began): so the bench's objects are frozen out
of the garbage collector while timing, or its sweeps over them would be charged to the
restart. Each figure is the best of ``--repeat`` in wall time and in CPU time; the CPU
ratios (``*_cpu_ratio``) are the steadier on a busy machine.
"""

from __future__ import annotations

import argparse


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", default="10,100,1000", help="history sizes, comma separated")
    ap.add_argument("--repeat", type=int, default=20, help="timings per size (the best is kept: the machine is shared)")
    ap.add_argument("--match-hands", type=int, default=25, help="hands per match (0: a single endless match)")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    sizes = sorted(int(n) for n in args.hands.split(","))
    run(sizes, args.repeat, args.seed, args.match_hands)


def run(sizes: list[int], repeat: int, seed: int, match_hands: int) -> None:
    # Imported here so that --help answers at once.
    import gc
    import random
    import shutil
    import statistics
    import tempfile
    import time
    from pathlib import Path

    from controller.readers.sightings import CardSeen
    from controller.referee.actions import COMMAND, table_input
    from controller.referee.journal import Journal
    from controller.referee.referee import Referee
    from controller.rules import Phase
    from controller.sim.bots import BotTable

    try:  # what the service opens at start-up: with its damage checks
        from controller.referee.journal_repair import open_journal as open_checked

        def open_journal(path: Path) -> Journal:
            return open_checked(path)[0]
    except ImportError:  # before there were any
        open_journal = Journal.open

    shm = Path("/dev/shm")
    work = Path(tempfile.mkdtemp(prefix="history-", dir=shm if shm.is_dir() else None))
    path = work / "journal.sqlite3"
    referee = Referee(Journal.open(path))
    rng = random.Random(seed)
    bots: BotTable | None = None
    finished_hands, at, matches = 0, 0.0, 0

    def hands() -> int:
        return finished_hands + (referee.match.tally.hands_played if referee.match else 0)

    def mid_hand() -> bool:
        m = referee.match
        return m is not None and m.phase is Phase.PLAY and m.hand.trick_no == 4 and not m.hand.trick

    def step() -> None:
        nonlocal bots, finished_hands, at, matches
        at += 1.0
        m = referee.match
        if m is None or m.phase is Phase.OVER:
            if m is not None:
                finished_hands += m.tally.hands_played
            referee.command("new-match", {"preset": "court-piece"}, at=at, source="bench")
            bots, matches = BotTable(referee.match, rng, revoke_rate=0.02), matches + 1
            return
        assert bots is not None
        if match_hands and m.tally.hands_played >= match_hands and not m.time_up:
            referee.command("time-up", at=at, source="bench")  # the evening ends after this hand
            return
        bots.match = m
        kind, payload = table_input(bots.next_input())
        if kind == COMMAND:
            name = payload.pop("name")
            referee.command(name, payload, at=at, source="bench")
        else:
            referee.sighting(CardSeen(payload["zone"], payload["card"], at, "bench"))

    results: dict[int, tuple[float, float, float, float, int]] = {}
    for size in sizes:
        while hands() < size:
            step()
        while not mid_hand():
            step()  # every size is timed at the same moment: three tricks into a hand
        assert referee.journal is not None
        referee.journal.close()
        # One copy per timing, all made first: copying megabytes just before a restart
        # would time the caches the copy flushed, not the restart.
        copies = [work / f"copy-{size}-{k}.sqlite3" for k in range(repeat)]
        for copy in copies:
            shutil.copyfile(path, copy)
        restarts, undos, restarts_cpu, undos_cpu = [], [], [], []
        gc.collect()
        gc.freeze()  # the bench's own table is not the restarted service's (see above)
        for copy in copies:
            t0, c0 = time.perf_counter(), time.process_time()
            journal = open_journal(copy)
            restored = Referee(journal)
            inputs = restored.restore()
            restarts.append(time.perf_counter() - t0)
            restarts_cpu.append(time.process_time() - c0)
            t0, c0 = time.perf_counter(), time.process_time()
            restored.command("undo", at=at + 1, source="bench")
            undos.append(time.perf_counter() - t0)
            undos_cpu.append(time.process_time() - c0)
            journal.close()
            del restored, journal
            for part in ("", "-wal", "-shm"):
                Path(f"{copy}{part}").unlink(missing_ok=True)
            gc.collect()  # this restart's garbage is not the next one's to sweep
        gc.unfreeze()
        referee.journal = Journal.open(path)
        results[size] = (min(restarts), min(undos), min(restarts_cpu), min(undos_cpu), inputs)
        print(f"hands={hands()} matches={matches} inputs={referee.last_seq} inputs_replayed={inputs} "
              f"restart_ms={min(restarts) * 1000:.1f} undo_ms={min(undos) * 1000:.1f} "
              f"restart_cpu_ms={min(restarts_cpu) * 1000:.2f} undo_cpu_ms={min(undos_cpu) * 1000:.2f} "
              f"undo_median_ms={statistics.median(undos) * 1000:.1f}", flush=True)
    referee.journal.close()
    shutil.rmtree(work, ignore_errors=True)
    base = results[sizes[0]]
    top = sizes[-1]
    now = results[top]
    ratios = [now[i] / base[i] for i in range(4)]
    print(f"history hands={top} restart_ratio={ratios[0]:.2f} undo_ratio={ratios[1]:.2f} "
          f"restart_cpu_ratio={ratios[2]:.2f} undo_cpu_ratio={ratios[3]:.2f} "
          f"restart_ms_{sizes[0]}={base[0] * 1000:.1f} undo_ms_{sizes[0]}={base[1] * 1000:.1f} "
          f"match_hands={match_hands}")


if __name__ == "__main__":
    main()
