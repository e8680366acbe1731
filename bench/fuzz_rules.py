"""Long random-match fuzz of the rules engine (the CI property tests run a bounded version).

Usage: python bench/fuzz_rules.py SEEDS_PER_PRESET_AND_MODE
"""
import sys

sys.path.insert(0, str(__import__('pathlib').Path(__file__).resolve().parents[1] / 'tests' / 'rules'))
import test_properties as tp

from controller.rules import PRESETS, Match

n = int(sys.argv[1])
for name in sorted(PRESETS):
    for mode in ("dealt", "played"):
        for seed in range(n):
            rr = (0.0, 0.03, 0.12)[seed % 3]
            try:
                m, _ = tp.run_match(name, mode, seed, rr, mode == "dealt")
                tp.check_invariants(m)
                again = Match.replay(m.options, m.inputs, first_dealer=m.first_dealer, knowledge=m.knowledge)
                assert again.events == m.events
            except Exception as e:
                print(name, mode, seed, rr, type(e).__name__, str(e)[:300])
                break
    print(name, "done")
