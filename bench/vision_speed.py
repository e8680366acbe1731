"""Milliseconds per 1280x960 frame with four cards in view, one thread: the camera
reader's budget on a Pi (goal ≤ 15 ms on the development machine's core).

    .venv/bin/python bench/vision_speed.py [--frames 40]

Frames are rendered tables (four cards on play spots, random angles, tables and light),
so the figure does not depend on any photo set. Each frame is timed as the best of three
runs (the CPU is shared), and the template-matching baseline of ``bench/vision_accuracy.py`` is
timed on the same frames in the same run. Ends with one summary line:
``vision_speed frames=… four_cards_read_pct=… median_ms=… baseline_median_ms=…``.
"""

from __future__ import annotations

import argparse
import runpy
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import CardDetector  # noqa: E402
from vision.synth import CardSpec, scene  # noqa: E402

SPOTS = ((640, 760), (250, 480), (640, 200), (1030, 480))


def best_ms(fn, frame: np.ndarray, runs: int = 3) -> float:  # noqa: ANN001
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn(frame)
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--frames", type=int, default=40)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    detector = CardDetector()
    baseline = runpy.run_path(str(ROOT / "bench" / "vision_accuracy.py"), run_name="bench")[
        "TemplateBaseline"
    ]()
    rng = np.random.default_rng(0)
    ranks, suits = "AKQJT98765432", "SHDC"
    times, base_times, read_all = [], [], 0
    for i in range(args.frames):
        cards = [ranks[int(rng.integers(13))] + suits[k] for k in range(4)]
        specs = [
            CardSpec(c, SPOTS[k], float(rng.uniform(240, 320)), float(rng.uniform(0, 360)))
            for k, c in enumerate(cards)
        ]
        frame, _ = scene(specs, seed=100 + i)
        read = {d.card for d in detector.detect(frame) if d.card}
        read_all += read == set(cards)
        times.append(best_ms(detector.detect, frame))
        base_times.append(best_ms(baseline.read_all, frame))
    med, base = statistics.median(times), statistics.median(base_times)
    print(f"four cards per 1280x960 frame: median {med:.2f} ms, baseline {base:.2f} ms")
    print(
        f"vision_speed frames={len(times)} four_cards_read_pct={100 * read_all / len(times):.1f} "
        f"median_ms={med:.2f} baseline_median_ms={base:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
