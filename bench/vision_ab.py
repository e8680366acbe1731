"""Which of two checkouts' camera readers is faster, on the frames of
``bench/vision_speed.py``, measured in one process so the machine's drift cancels.

    .venv/bin/python bench/vision_ab.py BEFORE_ROOT AFTER_ROOT [--frames 40] [--rounds 3]
                                        [--photos DIR [--every N]]

Each ROOT is a checkout holding a ``vision`` package (say a ``git worktree`` of the
commit before). Both detectors are loaded side by side; every frame is run by each in
turn (which goes first alternates), each frame's time is the best of ``--rounds``, and
the figure that counts is the median over frames of after/before: on a shared, noisy
machine two separate ``vision_speed`` runs scatter by a fifth, this ratio by a hundredth.
``--photos`` times the development part of the real-photo set instead
(``phone-photos-ccby``: its singles and scenes, each scaled to 1280 px long side, as
``bench/vision_same.py`` reads them; every Nth with ``--every``; the held-out part is
never read): real tables take paths the rendered ones do not (light tables, piles).
Ends with one summary line:
``vision_ab frames=… before_median_ms=… after_median_ms=… ratio_after_to_before=…``.
"""

from __future__ import annotations

import argparse
import importlib
import runpy
import statistics
import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]


def detector_of(root: Path):  # noqa: ANN201
    """A ``CardDetector`` of the ``vision`` package under ``root`` (its own modules)."""
    for name in [n for n in sys.modules if n == "vision" or n.startswith("vision.")]:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        module = importlib.import_module("vision.detector")
        if not Path(module.__file__).resolve().is_relative_to(root.resolve()):
            raise SystemExit(f"vision_ab: vision came from {module.__file__}, not {root}")
        return module.CardDetector()
    finally:
        sys.path.pop(0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--photos", type=Path, help="the phone-photos-ccby folder")
    ap.add_argument("--every", type=int, default=1, help="with --photos: every Nth photo")
    args = ap.parse_args(argv)
    for root in (args.before, args.after):
        if not (root / "vision" / "detector.py").is_file():
            print(f"vision_ab: no vision package under {root}")
            return 2
    cv2.setNumThreads(1)
    detectors = [detector_of(args.before), detector_of(args.after)]
    if args.photos is not None:
        sys.path.append(str(ROOT / "bench"))
        from photo_split import development_photos

        frames = [img for _, img in development_photos(args.photos)][:: max(1, args.every)]
        if not frames:
            print(f"vision_ab: no development photos under {args.photos}")
            return 2
    else:
        speed = runpy.run_path(str(ROOT / "bench" / "vision_speed.py"), run_name="vision_speed")
        frames = [frame for frame, _ in speed["four_card_tables"](args.frames)]
    for d in detectors:  # first calls load and cache; not timed
        for frame in frames[:3]:
            d.detect(frame)
    best = [[float("inf")] * len(frames) for _ in detectors]
    for r in range(args.rounds):
        for i, frame in enumerate(frames):
            for k in (0, 1) if (r + i) % 2 == 0 else (1, 0):
                t0 = time.perf_counter()
                detectors[k].detect(frame)
                best[k][i] = min(best[k][i], time.perf_counter() - t0)
    before, after = (statistics.median(b) * 1000 for b in best)
    ratio = statistics.median(a / b for b, a in zip(best[0], best[1], strict=True))
    print(f"median ms per frame: before {before:.2f}, after {after:.2f}")
    print(
        f"vision_ab frames={len(frames)} before_median_ms={before:.2f} "
        f"after_median_ms={after:.2f} ratio_after_to_before={ratio:.3f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
