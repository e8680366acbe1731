"""Milliseconds per 1280x960 frame with four cards in view, one thread: the camera
reader's budget on a Pi (goal ≤ 15 ms on the development machine's core).

    .venv/bin/python bench/vision_speed.py [--frames 40]

Frames are rendered tables (four cards on play spots, random angles, tables and light),
so the figure does not depend on any photo set. Each frame is timed as the best of three
runs (the CPU is shared), and the template-matching baseline of ``bench/vision_accuracy.py`` is
timed on the same frames in the same run. The camera reader does not read a frame that
shows what the last read one showed (``vision.still``): ``still_ms`` is that check on the
same table a frame later (fresh sensor noise and JPEG loss), and ``still_pct`` how many of
those it let pass unread. During play most frames show one card more than the last
read one: ``next_ms`` is such a frame (three cards lying, a fourth put down, the same
light, fresh sensor noise) read with the reads the camera kept from the frame before
(``vision.known``), ``next_cold_ms`` the same frames read afresh, ``ratio_next_to_cold``
the median of their ratios, and ``next_read_pct`` and ``next_cold_read_pct`` how many of
those frames were read with all four cards right with kept reads and afresh. Ends with
one summary line:
``vision_speed frames=… four_cards_read_pct=… median_ms=… baseline_median_ms=… still_ms=…
still_pct=… next_ms=… next_cold_ms=… ratio_next_to_cold=… next_read_pct=…
next_cold_read_pct=…``.
"""

from __future__ import annotations

import argparse
import copy
import runpy
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import CardDetector  # noqa: E402
from vision.known import KnownReads  # noqa: E402
from vision.still import StillFrames  # noqa: E402
from vision.synth import CardSpec, a_card_later, a_moment_later, scene  # noqa: E402

SPOTS = ((640, 760), (250, 480), (640, 200), (1030, 480))


def best_ms(fn, frame: np.ndarray, runs: int = 3) -> float:  # noqa: ANN001
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn(frame)
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def drawn_cards(rng: np.random.Generator) -> tuple[list[CardSpec], list[str]]:
    """Four cards on the play spots: random ranks, sizes and turns."""
    ranks, suits = "AKQJT98765432", "SHDC"
    cards = [ranks[int(rng.integers(13))] + suits[k] for k in range(4)]
    specs = [
        CardSpec(c, SPOTS[k], float(rng.uniform(240, 320)), float(rng.uniform(0, 360)))
        for k, c in enumerate(cards)
    ]
    return specs, cards


def four_card_tables(count: int) -> Iterator[tuple[np.ndarray, list[str]]]:
    """The bench's frames and the cards on each (``bench/vision_same.py`` reads the same
    frames): four cards on the play spots, random ranks, sizes, turns and tables."""
    rng = np.random.default_rng(0)
    for i in range(count):
        specs, cards = drawn_cards(rng)
        frame, _ = scene(specs, seed=100 + i)
        yield frame, cards


def a_card_played(count: int) -> Iterator[tuple[np.ndarray, np.ndarray, list[str]]]:
    """Tables of three cards and the same a moment later with a fourth put down (its
    cards drawn as :func:`four_card_tables` draws them, from a seed of their own)."""
    rng = np.random.default_rng(1)
    for i in range(count):
        specs, cards = drawn_cards(rng)
        before, after, _ = a_card_later(specs, seed=500 + i)
        yield before, after, cards


def next_frame_ms(
    detector: CardDetector, known: KnownReads, frame: np.ndarray, runs: int = 3
) -> tuple[float, set[str]]:
    """The best of ``runs`` reads of ``frame`` with the reads ``known`` holds (a fresh
    copy of them each run), and the cards read."""
    best, cards = float("inf"), set()
    for _ in range(runs):
        kept = copy.deepcopy(known)
        t0 = time.perf_counter()
        dets = detector.detect(frame, known=kept)
        best = min(best, time.perf_counter() - t0)
        cards = {d.card for d in dets if d.card}
    return best * 1000, cards


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--frames",
        type=int,
        default=40,
        help="rendered tables to time (default 40); the still frames and the frames of "
        "play are as many",
    )
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    detector = CardDetector()
    baseline = runpy.run_path(str(ROOT / "bench" / "vision_accuracy.py"), run_name="bench")[
        "TemplateBaseline"
    ]()
    times, base_times, read_all = [], [], 0
    still_times, passed = [], 0
    for i, (frame, cards) in enumerate(four_card_tables(args.frames)):
        read = {d.card for d in detector.detect(frame) if d.card}
        read_all += read == set(cards)
        times.append(best_ms(detector.detect, frame))
        base_times.append(best_ms(baseline.read_all, frame))
        later = a_moment_later(frame, np.random.default_rng(1000 + i))  # not the scene draws
        still = StillFrames()
        still.unchanged(frame)
        t0 = time.perf_counter()
        passed += still.unchanged(later)
        still_times.append((time.perf_counter() - t0) * 1000)
    next_times, next_cold, next_right, cold_right = [], [], 0, 0
    for before, after, cards in a_card_played(args.frames):
        known: KnownReads = KnownReads()
        detector.detect(before, known=known)
        ms, read = next_frame_ms(detector, known, after)
        next_times.append(ms)
        next_right += read == set(cards)
        next_cold.append(best_ms(detector.detect, after))
        cold_right += {d.card for d in detector.detect(after) if d.card} == set(cards)
    med, base = statistics.median(times), statistics.median(base_times)
    still_med = statistics.median(still_times)
    next_med, cold_med = statistics.median(next_times), statistics.median(next_cold)
    ratio = statistics.median(a / b for a, b in zip(next_times, next_cold, strict=True))
    print(
        f"four cards per 1280x960 frame: median {med:.2f} ms, baseline {base:.2f} ms; "
        f"a still frame {still_med:.2f} ms; a card played beside three known "
        f"{next_med:.2f} ms (afresh {cold_med:.2f} ms)"
    )
    print(
        f"vision_speed frames={len(times)} four_cards_read_pct={100 * read_all / len(times):.1f} "
        f"median_ms={med:.2f} baseline_median_ms={base:.2f} still_ms={still_med:.2f} "
        f"still_pct={100 * passed / len(times):.1f} next_ms={next_med:.2f} "
        f"next_cold_ms={cold_med:.2f} ratio_next_to_cold={ratio:.3f} "
        f"next_read_pct={100 * next_right / len(next_times):.1f} "
        f"next_cold_read_pct={100 * cold_right / len(next_times):.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
