"""How the reader reads the real-photo set's indices where it is shown them: reading apart
from finding.

    .venv/bin/python bench/vision_index_reads.py SET_DIR [--part dev] [--scenes | --singles]
                                                 [--only TEXT] [--unstretch] [--confusions]

SET_DIR is ``phone-photos-ccby`` (its ``singles/``, ``scenes/`` and ``index_boxes.json``,
which boxes every printed corner index with its card). For each box, the ink blobs the
index search finds inside it (a little round it) are paired as the search pairs them, the
likeliest few pairs read each way up as the search reads a pair
(``CardDetector.read_index``), and the surest read is the box's (where none reads, again
with the blobs found at half the search's size, as the detector looks for a close-up's
big index). Each box is then
``right_counted`` (its card, at the tracker's 0.5 or more), ``right_weak`` (its card,
below), ``wrong_counted``, ``wrong_weak`` or ``none``. A box whose right card is not read
here is lost to reading, not to finding: the index was handed over. The black-and-gold
deck's light ink is looked for in the frame's negative, as the detector does.

Also: of the black-suit boxes read at their right rank, how often the suit is right
(``black_suit_right_pct``: a webcam's soft club taken for a spade is the commonest
wrong read), and with ``--confusions`` the commonest wrong ranks and suits. Ends with one
summary line per series and one for all:
``vision_index_reads series=… boxes=… right_counted_pct=… right_pct=… wrong_counted=…
wrong=… none_pct=… black_suits=… black_suit_right_pct=…``.
Meant for the development part: the held-out part is measured by its summary only.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parent))

from photo_split import PARTS  # noqa: E402
from vision_accuracy import load_frame  # noqa: E402
from vision_misses import BOX_SPACE, photos, series  # noqa: E402

from vision import CardDetector  # noqa: E402
from vision.capture import COUNTED, card_code  # noqa: E402
from vision.index_pairs import INK_MIN, SEARCH_SIZE, InkBlob, index_pairs, ink_blobs  # noqa: E402

#: A box is searched this share of its size beyond each side (an index box is drawn
#: tight round the print; a blob's centre may lie on its edge).
PAD = 0.15
#: The likeliest pairs in a box that are read (each both ways up).
PAIRS = 6
KINDS = ("right_counted", "right_weak", "wrong_counted", "wrong_weak", "none")


def box_read(
    detector: CardDetector,
    frame: np.ndarray,
    blobs: list[InkBlob],
    scale: float,
    box: list[float],
    sx: float,
    sy: float,
) -> tuple[str | None, float, tuple[InkBlob, InkBlob] | None]:
    """The surest (card, confidence, (rank, suit) pair read) the pairs in ``box`` (the
    set's pixels, ``sx`` and ``sy`` frame pixels to one) read as, or (None, 0.0, None)."""
    x0, y0, x1, y1 = box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy
    pad = PAD * max(x1 - x0, y1 - y0)
    inside = [
        b
        for b in blobs
        if x0 - pad <= b.cx / scale <= x1 + pad and y0 - pad <= b.cy / scale <= y1 + pad
    ]
    best: tuple[str | None, float, tuple[InkBlob, InkBlob] | None] = (None, 0.0, None)
    for a, b in index_pairs(inside)[:PAIRS]:
        for rank, suit in ((a, b), (b, a)):
            res = detector.read_index(frame, rank, suit, scale)
            if res.card is not None and res.confidence > best[1]:
                best = (res.card, res.confidence, (rank, suit))
    return best


@dataclass
class BoxRead:
    """One boxed index and what the search's pairs inside it read as."""

    path: Path
    series: str
    frame: np.ndarray
    want: str  # the box's card
    card: str | None  # the surest read, or None
    confidence: float
    pair: tuple[InkBlob, InkBlob] | None  # the (rank, suit) blobs of that read
    scale: float  # the blobs' working scale


def boxed_reads(
    detector: CardDetector,
    root: Path,
    part: str,
    kinds: list[bool],
    only: str = "",
    unstretch: bool = False,
) -> Iterator[BoxRead]:
    """Each boxed index of the set's photos (``kinds``: False singles, True scenes) in
    ``part``, read as :func:`box_read` reads it: at the search's size, then (where
    nothing read) at half of it, as the detector looks again for a close-up's index,
    too big for the first. The black-and-gold deck's light ink is looked for in the
    frame's negative, as the detector does."""
    all_boxes = json.loads((root / "index_boxes.json").read_text())
    for scenes in kinds:
        for path, _ in photos(root, part, scenes):
            if only not in path.name:
                continue
            boxes = all_boxes.get(f"{path.parent.name}/{path.name}") or all_boxes.get(path.name)
            frame = load_frame(path, unstretch)
            if not boxes or frame is None:
                continue
            kind = series(path.name)
            found = search_blobs(frame, kind)
            for box in boxes:
                card, conf, pair, scale = read_box(detector, frame, found, box["box"])
                yield BoxRead(path, kind, frame, card_code(box["card"]), card, conf, pair, scale)


def search_blobs(frame: np.ndarray, kind: str) -> list[tuple[list[InkBlob], float]]:
    """The ink blobs (and their scale) the index search finds in ``frame`` at its size
    and at half of it; a photo of the ``black`` series is searched in its negative."""
    seek = cv2.bitwise_not(frame) if kind == "black" else frame
    return [
        ink_blobs(seek, on_stock=False, size=size, least=INK_MIN)
        for size in (SEARCH_SIZE, SEARCH_SIZE // 2)
    ]


def read_box(
    detector: CardDetector,
    frame: np.ndarray,
    found: list[tuple[list[InkBlob], float]],
    box: list[float],
) -> tuple[str | None, float, tuple[InkBlob, InkBlob] | None, float]:
    """(card, confidence, pair, scale) of an index ``box`` (the set's pixels) read with
    the blobs of :func:`search_blobs`: at the search's size, then, where nothing read,
    at half of it."""
    sx, sy = frame.shape[1] / BOX_SPACE, frame.shape[0] / BOX_SPACE
    card, conf, pair, scale = None, 0.0, None, 1.0
    for blobs, scale in found:
        card, conf, pair = box_read(detector, frame, blobs, scale, box, sx, sy)
        if card is not None:
            break
    return card, conf, pair, scale


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("root", type=Path, help="the phone-photos-ccby folder")
    ap.add_argument("--part", choices=PARTS, default="dev")
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--scenes", action="store_true", help="the scenes only")
    which.add_argument("--singles", action="store_true", help="the single-card photos only")
    ap.add_argument("--only", default="", metavar="TEXT", help="only files whose name holds TEXT")
    ap.add_argument(
        "--unstretch", action="store_true", help="photos at the shape they were taken at"
    )
    ap.add_argument("--confusions", action="store_true", help="print the commonest wrong reads")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    kinds = [False, True] if not (args.scenes or args.singles) else [args.scenes]
    detector = CardDetector()
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    ranks: collections.Counter[tuple[str, str]] = collections.Counter()
    suits: collections.Counter[tuple[str, str]] = collections.Counter()
    for read in boxed_reads(detector, args.root, args.part, kinds, args.only, args.unstretch):
        kind, want, card, conf = read.series, read.want, read.card, read.confidence
        sure = "counted" if conf >= COUNTED else "weak"
        got = "none" if card is None else f"{'right' if card == want else 'wrong'}_{sure}"
        counts[(kind, got)] += 1
        if card is not None and card != want:
            if card[:-1] != want[:-1]:
                ranks[(want[:-1], card[:-1])] += 1
            elif card[-1] != want[-1]:
                suits[(want[-1], card[-1])] += 1
        if want[-1] in "SC" and card is not None and card[:-1] == want[:-1]:
            counts[(kind, "black_suits")] += 1
            counts[(kind, "black_suit_right")] += card == want
    if args.confusions:
        print("ranks read wrong (wanted, read):", ranks.most_common(12))
        print("suits read wrong at the right rank (wanted, read):", suits.most_common(6))
    lines = [s for s in ("white", "black", "webcam") if any(counts[(s, k)] for k in KINDS)]
    for s in [*lines, "all"]:
        take = lines if s == "all" else [s]
        c = {
            k: sum(counts[(t, k)] for t in take)
            for k in (*KINDS, "black_suits", "black_suit_right")
        }
        n = max(1, sum(c[k] for k in KINDS))
        print(
            f"vision_index_reads series={s} boxes={sum(c[k] for k in KINDS)} "
            f"right_counted_pct={100 * c['right_counted'] / n:.1f} "
            f"right_pct={100 * (c['right_counted'] + c['right_weak']) / n:.1f} "
            f"wrong_counted={c['wrong_counted']} wrong={c['wrong_counted'] + c['wrong_weak']} "
            f"none_pct={100 * c['none'] / n:.1f} black_suits={c['black_suits']} "
            f"black_suit_right_pct={100 * c['black_suit_right'] / max(1, c['black_suits']):.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
