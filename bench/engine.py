"""Rules engine throughput: full hands per second for every preset, on one core.

Bots record random legal matches first; the timed part replays those inputs through a
fresh engine, so the figure is the referee's own cost (deal reads, calls, plays,
scoring, events), not the bots'. Every preset is timed in 'dealt' mode, where each of
the 52 cards of a deal is an input of its own; court-piece is also timed in 'played'
mode, where only the plays are inputs (closer to an engine that deals in memory). A bare trick-taking loop over the same deals (no
options, no events) is timed in the same run as the baseline (CPU time of this process, so other load on the
machine counts less), and the summary line
gives the engine's speed as a ratio of it, because this machine is noisy.

    python bench/engine.py [--hands N]
"""

from __future__ import annotations

import argparse
import random
import time

from controller.rules import PRESETS, Match, Phase, preset
from controller.rules.events import HandWon
from controller.rules.options import MatchEnd
from controller.sim.bots import BotTable


def record(name: str, hands: int, seed: int, knowledge: str = "dealt") -> tuple[object, list, int]:
    opts = preset(name).with_changes(match_end=MatchEnd.HANDS, match_target=hands)
    m = Match(opts, first_dealer=0, knowledge=knowledge)
    table = BotTable(m, random.Random(seed))
    while m.phase is not Phase.OVER:
        m.apply(table.next_input())
    n = sum(1 for e in m.events if isinstance(e, HandWon))
    return opts, list(m.inputs), n


def time_replay(opts: object, moves: list, repeats: int = 3, knowledge: str = "dealt") -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        m = Match(opts, first_dealer=0, knowledge=knowledge)  # type: ignore[arg-type]
        apply = m.apply
        for mv in moves:
            apply(mv)
        best = min(best, time.process_time() - t0)
    return best


def bare_loop(deals: list[list[int]], plays: list[list[int]]) -> float:
    """Baseline: deal 52 cards into hands and resolve 13 tricks by follow-suit only."""
    t0 = time.process_time()
    for deal, order in zip(deals, plays, strict=True):
        hands: list[set[int]] = [set(), set(), set(), set()]
        for i, c in enumerate(deal):
            hands[i % 4].add(c)
        leader = 0
        for t in range(13):
            trick = order[t * 4:(t + 1) * 4]
            led = trick[0] // 13
            best, who = -1, 0
            for k, c in enumerate(trick):
                hands[(leader + k) & 3].discard(c)
                if c // 13 == led and c % 13 > best:
                    best, who = c % 13, k
            leader = (leader + who) & 3
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=300, help="hands per preset")
    args = ap.parse_args()
    rates: dict[str, float] = {}
    for name in PRESETS:
        opts, moves, n = record(name, args.hands, seed=7)
        secs = time_replay(opts, moves)
        rates[name] = n / secs
        per_input = secs / len(moves) * 1e6
        print(f"{name:14s} {n:5d} hands  {rates[name]:9.0f} hands/s  {per_input:6.2f} us/input")
    rng = random.Random(1)
    deals = [rng.sample(range(52), 52) for _ in range(args.hands)]
    plays = [d[:] for d in deals]
    base_secs = min(bare_loop(deals, plays) for _ in range(3))
    base = args.hands / base_secs
    opts, moves, n = record("court-piece", args.hands, seed=7, knowledge="played")
    played = n / time_replay(opts, moves, knowledge="played")
    print(f"court-piece, 'played' mode (no deal reads): {played:9.0f} hands/s")
    cp = rates["court-piece"]
    print(f"baseline bare loop {base:9.0f} hands/s")
    print("engine " + " ".join(f"{k.replace('-', '_')}_hands_per_s={v:.0f}" for k, v in rates.items())
          + f" court_piece_played_mode_hands_per_s={played:.0f}"
          + f" baseline_hands_per_s={base:.0f} court_piece_ratio={cp / base:.3f}")


if __name__ == "__main__":
    main()
