"""How many cards of a fan are read: cards lying each on the last, their index corners
in a row, as a trick's four cards are pushed together or a hand is spread face up on the
table at the end of a deal.

    .venv/bin/python bench/vision_fans.py [--fans 60] [--seed 1] [--show-misses]

Each frame holds a fan of three to five cards of one deck at the documented card size
(250-340 px tall in a 1280×960 frame), on a random table (a third of them light: cream,
white, pale grey). Each card lies a third of its width or so along from the one below it,
turned a few degrees more, so every card shows its top-left index; only the top card is
whole. Counted: the cards read as the tracker counts them (0.5 or more), the top card so
read, any other card counted (a wrong read), and wrong reads at confidence ≥ 0.9. The
baseline, in the same run, is the same cards laid apart on the same table, none
touching: what the reader does with every card whole. Rendered frames, not photographs:
the figure says how the search for a fan's cards does, not what a real camera adds.

Ends with one summary line:
``vision_fans fans=… cards=… right_pct=… top_right_pct=… wrong_counted=… wrong_sure=…
apart_right_pct=… ratio_fan_to_apart=… median_ms=… apart_median_ms=…``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import CardDetector  # noqa: E402
from vision.detector import CORNER_MIN  # noqa: E402
from vision.synth import LIGHT_TABLES, CardSpec, scene  # noqa: E402

RANKS, SUITS = "AKQJT98765432", "SHDC"
#: Where cards laid apart go (the four seats' spots and a fifth in the middle).
APART = [(640, 760), (250, 480), (640, 200), (1030, 480), (640, 480)]


def a_fan(rng: np.random.Generator) -> list[CardSpec]:
    """Three to five distinct cards, bottom first, each a third of its width or so along
    from the last and turned a little more."""
    n = int(rng.integers(3, 6))
    codes = rng.choice(52, n, replace=False)
    height = float(rng.uniform(250, 340))
    step = float(rng.uniform(0.3, 0.45)) * height / 1.4
    heading = float(rng.uniform(0, 360))
    turn = float(rng.uniform(3, 8))
    a = np.radians(heading)
    span = (n - 1) * step
    x0 = 640 - span / 2 * np.cos(a) + float(rng.uniform(-80, 80))
    y0 = 480 - span / 2 * np.sin(a) + float(rng.uniform(-60, 60))
    return [
        CardSpec(
            RANKS[c % 13] + SUITS[c // 13],
            (float(x0 + k * step * np.cos(a)), float(y0 + k * step * np.sin(a))),
            height,
            heading + 90 + k * turn,
        )
        for k, c in enumerate(codes)
    ]


def counted(detector: CardDetector, frame: np.ndarray) -> tuple[dict[str, float], float]:
    """The cards counted in ``frame`` (each with its surest read) and the milliseconds."""
    t0 = time.perf_counter()
    dets = [d for d in detector.detect(frame) if d.card and d.confidence >= CORNER_MIN]
    ms = (time.perf_counter() - t0) * 1000
    out: dict[str, float] = {}
    for d in dets:
        out[d.card] = max(out.get(d.card, 0.0), d.confidence)
    return out, ms


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--fans", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show-misses", action="store_true", help="print each fan not read whole")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    detector = CardDetector()
    rng = np.random.default_rng(args.seed)
    cards = right = top_right = wrong = wrong_sure = apart_right = 0
    fan_ms: list[float] = []
    apart_ms: list[float] = []
    for i in range(args.fans):
        fan = a_fan(rng)
        colour = LIGHT_TABLES[i % 9 // 3] if i % 3 == 0 else None
        seed = 1000 * args.seed + i
        frame, _ = scene(fan, seed=seed, table_colour=colour)
        read, ms = counted(detector, frame)
        fan_ms.append(ms)
        codes = {s.card for s in fan}
        cards += len(fan)
        right += len(read.keys() & codes)
        top_right += fan[-1].card in read
        others = read.keys() - codes
        wrong += len(others)
        wrong_sure += sum(read[c] >= 0.9 for c in others)
        if args.show_misses and read.keys() != codes:
            print(
                f"fan {i} (scene seed {seed}): {[s.card for s in fan]} (last on top), "
                f"missed {sorted(codes - read.keys())}, wrong {sorted(others)}"
            )
        apart = [
            CardSpec(s.card, APART[k], s.height_px, s.angle_deg) for k, s in enumerate(fan)
        ]
        frame, _ = scene(apart, seed=seed, table_colour=colour)
        read_apart, ms = counted(detector, frame)
        apart_ms.append(ms)
        apart_right += len(read_apart.keys() & codes)
    pct, apart_pct = 100 * right / cards, 100 * apart_right / cards
    print(
        f"{args.fans} fans, {cards} cards: read {right} ({pct:.1f} %), the top card "
        f"{top_right}, wrong reads counted {wrong} ({wrong_sure} at >= 0.9); laid apart, "
        f"read {apart_right}"
    )
    print(
        f"vision_fans fans={args.fans} cards={cards} right_pct={pct:.1f} "
        f"top_right_pct={100 * top_right / args.fans:.1f} wrong_counted={wrong} "
        f"wrong_sure={wrong_sure} apart_right_pct={apart_pct:.1f} "
        f"ratio_fan_to_apart={pct / max(apart_pct, 1e-9):.3f} "
        f"median_ms={statistics.median(fan_ms):.1f} "
        f"apart_median_ms={statistics.median(apart_ms):.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
