"""How the camera path reads close-ups: a phone or a camera held so near one card that
its edges run off the frame and only one index corner is in view.

    .venv/bin/python bench/vision_closeup.py DIR [--part PART] [--every N] [--share F]
                                            [--show-misses]

DIR holds single-card photos named by their card first, as ``bench/vision_accuracy.py``
reads them (``--part dev`` for the development part of the real-photo set; its held-out
part is not read here). Each photo is read as the camera gets it (1280 px long side);
where its surest read is its card, that read's outline gives the card's place, and the
photo is cut to a square ``--share`` of the card's long side (0.75 by default), lying so
that one of the card's two index corners (chosen per photo, from its name) is in it with
a margin, the rest of the square anywhere the photo allows; the square is scaled back to
1280 px and read again, in colour and in grey. Real close-ups are like this: the
card's outline is lost, its index and the pips beside it are all there is to read.

Prints, in colour and in grey, the share of close-ups read right (the surest read is
the card), those read as nothing, and the wrong reads the tracker would count (0.5 or
more) and those at 0.9 or more (which should never happen). Ends with one summary line:
``vision_closeup photos=… plain_right_pct=… right_pct=… grey_right_pct=…
ratio_grey_to_colour=… unread=… wrong_counted=… wrong_sure=…`` (``photos``: the close-ups
made, one per photo read right whole; ``plain_right_pct``: the share of photos read right
whole; the last three summed over colour and grey).
"""

from __future__ import annotations

import argparse
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parent))

from vision_degraded import (  # noqa: E402
    Tally,
    chosen_photos,
    decoded,
    folder_arguments,
    print_tallies,
)

from vision import CardDetector  # noqa: E402
from vision.detector import CARD_SIZE  # noqa: E402
from vision.locate import card_map  # noqa: E402

#: The index corners of a rectified 200×300 card, (x0, y0, x1, y1): the top-left index
#: and the bottom-right one, each with the corner's margin.
INDEX_BOXES = ((0, 0, 50, 80), (150, 220, 200, 300))
#: How far inside the close-up the index box lies at least (share of its side).
MARGIN = 0.04


def window(
    quad: np.ndarray, shape: tuple[int, ...], share: float, rng: np.random.Generator
) -> tuple[int, int, int] | None:
    """The close-up's square in the photo (left, top, side): ``share`` of the card's long
    side, holding one of its index corners (``quad``: the card's outline as read, its
    first corner the top-left index's) with a margin; None where the photo holds none."""
    q = quad.astype(np.float32)
    long = float(max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[0] - q[1])))
    side = share * long
    x0, y0, x1, y1 = INDEX_BOXES[int(rng.integers(2))]
    box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32).reshape(-1, 1, 2)
    inv = np.linalg.inv(card_map(q, CARD_SIZE))
    pts = cv2.perspectiveTransform(box, inv).reshape(-1, 2)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    h, w = shape[:2]
    margin = MARGIN * side
    xs = (max(0.0, hi[0] + margin - side), min(w - side, lo[0] - margin))
    ys = (max(0.0, hi[1] + margin - side), min(h - side, lo[1] - margin))
    if side < 64 or xs[0] > xs[1] or ys[0] > ys[1]:
        return None
    return int(rng.uniform(*xs)), int(rng.uniform(*ys)), int(side)


def close_up(
    img: np.ndarray, quad: np.ndarray, share: float, rng: np.random.Generator
) -> np.ndarray | None:
    """``img`` cut to its :func:`window`, scaled to 1280 px square (None where it has none)."""
    at = window(quad, img.shape, share, rng)
    if at is None:
        return None
    left, top, side = at
    crop = img[top : top + side, left : left + side]
    return cv2.resize(crop, (1280, 1280), interpolation=cv2.INTER_LINEAR)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    folder_arguments(ap)
    ap.add_argument(
        "--share",
        type=float,
        default=0.75,
        help="the close-up's side, share of the card's long side",
    )
    ap.add_argument("--show-misses", action="store_true")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if not args.dir.is_dir():
        print(f"vision_closeup: {args.dir} is not a folder")
        return 2
    if not 0.3 <= args.share < 1.0:
        print(
            "vision_closeup: --share should be from 0.3 to under 1 (a card running off the frame)"
        )
        return 2
    paths = chosen_photos(args)
    if not paths:
        print(f"vision_closeup: no photo in {args.dir} is named by its card (AS_1.jpg, 10h.png)")
        return 2
    tallies = {"colour": Tally(), "grey": Tally()}
    plain_right = plain = 0
    for p, img, truth in decoded(paths):
        plain += 1
        read = [d for d in CardDetector().detect(img) if d.card]
        top = max(read, key=lambda d: d.confidence) if read else None
        if top is None or top.card != truth:
            continue
        plain_right += 1
        near = close_up(
            img, top.quad, args.share, np.random.default_rng(zlib.crc32(p.name.encode()))
        )
        if near is None:
            continue
        # a fresh detector for each: nothing kept from the whole photo's read
        tallies["colour"].add(p.name, truth, CardDetector(), near)
        grey = cv2.cvtColor(cv2.cvtColor(near, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        tallies["grey"].add(p.name, truth, CardDetector(), grey)
    colour, grey_t = tallies["colour"], tallies["grey"]
    if not colour.photos:
        print(f"vision_closeup: no close-up could be made from the photos in {args.dir}")
        return 2
    print_tallies(tallies, args.show_misses, width=6, unread=True)
    both = tallies.values()
    print(
        f"vision_closeup photos={colour.photos} "
        f"plain_right_pct={100.0 * plain_right / max(plain, 1):.1f} "
        f"right_pct={colour.pct:.1f} grey_right_pct={grey_t.pct:.1f} "
        f"ratio_grey_to_colour={grey_t.pct / max(colour.pct, 1e-9):.3f} "
        f"unread={sum(t.unread for t in both)} "
        f"wrong_counted={sum(t.wrong_counted for t in both)} "
        f"wrong_sure={sum(t.wrong_sure for t in both)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
