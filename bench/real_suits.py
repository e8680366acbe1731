"""Cut the real soft black suits the black-suit head is also trained on, out of the
real-photo set's development part.

    .venv/bin/python bench/real_suits.py SET_DIR [--part dev] [--out vision/data/real_suits.npz]

SET_DIR is ``phone-photos-ccby``. Every boxed corner index of a spade or a club (singles
and scenes of the white phone deck and the webcam; the black-and-gold deck's light ink is
read in the negative and left out) is searched as ``bench/vision_index_reads.py``
searches it; where the surest pair inside the box reads as the box's rank (so the pair
is the index, not a pip or a neighbour's), the suit glyph's grey ink score is kept with
the box's suit, whichever suit it was read as: the soft clubs read as spades are the
point. The file holds one uint8 patch per glyph (keys ``S_0000``, ``C_0001`` …; the
photo each came from in ``photos``) and is read by ``vision.train`` (``--black``).
Only ever cut from the development part: the held-out part stays unseen.
Ends with one summary line:
``real_suits boxes=… glyphs=… spades=… clubs=… webcam=… white=… read_right_pct=…``.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(Path(__file__).resolve().parent))

from photo_split import PARTS  # noqa: E402
from vision_index_reads import boxed_reads  # noqa: E402

from vision import CardDetector  # noqa: E402

DEFAULT_OUT = ROOT / "vision" / "data" / "real_suits.npz"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("root", type=Path, help="the phone-photos-ccby folder")
    ap.add_argument(
        "--part",
        choices=[p for p in PARTS if p not in ("all", "held")],
        default="dev",
        help="the development part to cut from (default: all of it)",
    )
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"default {DEFAULT_OUT}")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    detector = CardDetector()
    patches: dict[str, np.ndarray] = {}
    photos: list[str] = []
    counts: collections.Counter[str] = collections.Counter()
    for read in boxed_reads(detector, args.root, args.part, [False, True]):
        if read.want[-1] not in "SC" or read.series == "black":
            continue
        counts["boxes"] += 1
        if read.card is None or read.pair is None or read.card[:-1] != read.want[:-1]:
            continue
        found = detector.pair_glyphs(read.frame, *read.pair, read.scale)
        if found is None or found.suit_score is None or not found.suit_score.size:
            continue
        patches[f"{read.want[-1]}_{len(patches):04d}"] = found.suit_score.astype(np.uint8)
        photos.append(f"{read.path.parent.name}/{read.path.name}")
        counts[read.want[-1]] += 1
        counts[read.series] += 1
        counts["read_right"] += read.card == read.want
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, photos=np.array(photos), **patches)
    n = len(patches)
    print(f"{n} glyphs written to {args.out}")
    print(
        f"real_suits boxes={counts['boxes']} glyphs={n} spades={counts['S']} "
        f"clubs={counts['C']} webcam={counts['webcam']} white={counts['white']} "
        f"read_right_pct={100 * counts['read_right'] / max(1, n):.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
