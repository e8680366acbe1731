"""Long random-match fuzz of the rules engine; CI's property tests run a bounded version.

Every preset in both knowledge modes plays SEEDS random matches with bots that revoke
now and then, and each must keep the invariants of tests/rules/test_properties.py (a
card once per hand, trick counts, scores equal to their events, no hidden card in a
public view or event) and replay to the same events.

    .venv/bin/python bench/fuzz_rules.py [--seeds N] [--first S]

The last line reads ``fuzz_rules matches=… failures=… matches_per_s=…``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=50, help="matches per preset and mode (default 50)")
    ap.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "rules"))
    import test_properties as tp

    from controller.rules import PRESETS, Match

    matches = failures = 0
    t0 = time.perf_counter()
    for name in sorted(PRESETS):
        for mode in ("dealt", "played"):
            for seed in range(args.first, args.first + args.seeds):
                rate = (0.0, 0.03, 0.12)[seed % 3]
                matches += 1
                try:
                    m, _ = tp.run_match(name, mode, seed, rate, mode == "dealt")
                    tp.check_invariants(m)
                    again = Match.replay(m.options, m.inputs, first_dealer=m.first_dealer, knowledge=m.knowledge)
                    assert again.events == m.events, "replay differs"
                except Exception as e:  # report every failing seed, keep going
                    failures += 1
                    print(f"FAIL {name} {mode} seed={seed} revoke_rate={rate}: {type(e).__name__}: {str(e)[:300]}",
                          flush=True)
            print(f"{name} {mode} done", flush=True)
    secs = time.perf_counter() - t0
    print(f"fuzz_rules matches={matches} failures={failures} matches_per_s={matches / secs:.1f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
