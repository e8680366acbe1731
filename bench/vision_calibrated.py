"""The camera reader on calibrated tables: rendered four-card frames, each with the same
table empty (what `courtpiece calibrate` captures, the reader's reference: captured a
moment before, with its own sensor noise and JPEG loss), three in four of them on light
tables (beige wood, a white cloth, a pale laminate).

    .venv/bin/python bench/vision_calibrated.py [--tables 60] [--seed 7]

Each frame is read with its empty table and, as the baseline in the same run, without
it. Counts the cards read as the tracker counts them (0.5 or more) and the wrong reads
it would count. Then each table empty, a moment after the capture (fresh sensor noise
and JPEG loss: a frame the camera reads when a hand has moved over the table), read
with and without the capture: the median milliseconds and the cards read there at any
confidence (none should count). Ends with one summary line:
``vision_calibrated tables=… cards=… right_pct=… wrong_counted=… median_ms=…
uncalibrated_right_pct=… uncalibrated_wrong_counted=… uncalibrated_median_ms=…
ratio_ms_to_uncalibrated=… empty_median_ms=… empty_uncalibrated_median_ms=…
ratio_empty_ms_to_uncalibrated=… empty_reads=… empty_uncalibrated_reads=…`` (median
milliseconds with the empty table over those without; ``ratio_ms_to_uncalibrated``
scatters by about 0.05 from run to run here).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import CardDetector  # noqa: E402
from vision.synth import LIGHT_TABLES, CardSpec, a_moment_later, scene_and_empty  # noqa: E402

RANKS = "AKQJT98765432"


def tables(n: int, seed: int) -> list[tuple[np.ndarray, np.ndarray, list[str]]]:
    """(frame, empty table, cards) for ``n`` tables of four cards round the middle."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        cards = [RANKS[int(rng.integers(13))] + s for s in "SHDC"]
        turn = np.linspace(0, 2 * np.pi, 5)[:4] + rng.uniform(0, 1)
        specs = [
            CardSpec(
                c,
                (640 + 330 * np.cos(a), 480 + 250 * np.sin(a)),
                float(rng.uniform(240, 300)),
                float(rng.uniform(0, 360)),
            )
            for c, a in zip(cards, turn, strict=True)
        ]
        colour = LIGHT_TABLES[i % 3] if i % 4 else None  # every fourth a darker cloth
        frame, empty, _ = scene_and_empty(specs, seed=200 + i, table_colour=colour)
        out.append((frame, a_moment_later(empty, rng), cards))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--tables", type=int, default=60, help="rendered tables (default 60)")
    ap.add_argument("--seed", type=int, default=7, help="their random draw (default 7)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    detector = CardDetector()
    made = tables(args.tables, args.seed)
    detector.detect(made[0][0])  # first call loads and caches; not timed
    figures: dict[str, tuple] = {}
    for name, calibrated in (("calibrated", True), ("uncalibrated", False)):
        right = wrong = 0
        times = []
        for frame, empty, cards in made:
            detector.empty = empty if calibrated else None
            t0 = time.perf_counter()
            dets = detector.detect(frame)
            times.append((time.perf_counter() - t0) * 1000)
            counted = {d.card for d in dets if d.card and d.confidence >= 0.5}
            right += len(counted & set(cards))
            wrong += len(counted - set(cards))
        total = 4 * len(made)
        figures[name] = (100 * right / total, wrong, statistics.median(times))
        print(
            f"{name}: right {right} of {total}, wrong counted {wrong}, median ms {figures[name][2]:.1f}"
        )
    rng = np.random.default_rng(args.seed + 1)
    bare = [(a_moment_later(empty, rng), empty) for _, empty, _ in made]
    for name, calibrated in (("empty calibrated", True), ("empty uncalibrated", False)):
        reads = 0
        times = []
        for frame, empty in bare:
            detector.empty = empty if calibrated else None
            t0 = time.perf_counter()
            dets = detector.detect(frame)
            times.append((time.perf_counter() - t0) * 1000)
            reads += sum(1 for d in dets if d.card)
        figures[name] = (reads, statistics.median(times))
        print(f"{name}: cards read {reads}, median ms {figures[name][1]:.1f}")
    (rp, w, ms), (urp, uw, ums) = figures["calibrated"], figures["uncalibrated"]
    (er, ems), (uer, uems) = figures["empty calibrated"], figures["empty uncalibrated"]
    print(
        f"vision_calibrated tables={len(made)} cards={4 * len(made)} right_pct={rp:.1f} "
        f"wrong_counted={w} median_ms={ms:.1f} uncalibrated_right_pct={urp:.1f} "
        f"uncalibrated_wrong_counted={uw} uncalibrated_median_ms={ums:.1f} "
        f"ratio_ms_to_uncalibrated={ms / ums:.3f} empty_median_ms={ems:.1f} "
        f"empty_uncalibrated_median_ms={uems:.1f} ratio_empty_ms_to_uncalibrated={ems / uems:.3f} "
        f"empty_reads={er} empty_uncalibrated_reads={uer}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
