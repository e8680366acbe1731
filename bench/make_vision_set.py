"""Make a labelled measurement set: card images composited onto synthetic tables.

    .venv/bin/python bench/make_vision_set.py SRC OUT [--per-card N] [--seed S]

SRC is a folder of single-card images named by card (``10C_00.jpg``, ``AS.jpg``), e.g.
the continental scans under /work/shared/vision. Each becomes N frames of 1280x960
(one card, any angle, slight perspective, 230-450 px tall, shadow, light falloff, glare,
blur, noise, JPEG), named after the card, ready for ``bench/vision_accuracy.py OUT``. Run by hand;
tests never read real photographs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import synth  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("src", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--per-card", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    n = 0
    for path in sorted(args.src.iterdir()):
        if path.suffix.lower() not in (".jpg", ".jpeg", ".png"):
            continue
        face = cv2.imread(str(path))
        if face is None:
            continue
        for i in range(args.per_card):
            scene = synth.table(rng)
            h = rng.uniform(230, 450)
            center = (rng.uniform(h * 0.6, 1280 - h * 0.6), rng.uniform(h * 0.6, 960 - h * 0.6))
            synth.place(scene, face, center, h, rng.uniform(0, 360), rng)
            img = synth.camera(scene, rng)
            cv2.imwrite(str(args.out / f"{path.stem}_s{i}.jpg"), img)
            n += 1
    print(f"make_vision_set images={n} out={args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
