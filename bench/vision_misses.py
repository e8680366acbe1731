"""What the reader misses in the real-photo set, by kind and by shooting series.

    .venv/bin/python bench/vision_misses.py SET_DIR [--part dev-late] [--scenes] [--list]
                                            [--unstretch] [--handed]

SET_DIR is ``phone-photos-ccby`` (its ``singles/``, ``scenes/labels.json`` and
``index_boxes.json``). Each labelled card is put in one class, by where its printed
corner indices lie (the boxes of ``index_boxes.json``, in the set's 640×640 pixels):

- ``right``: the card is read;
- ``no_outline``: no detection covers any of its indices;
- ``unread``: an outline that reads as nothing covers one;
- ``other_card``: only an outline read as another card covers one (a pile read as its
  top card, or a neighbour's guessed outline).

Cards read that are not in view are counted apart (``read_not_there``). Series: the white
phone deck, the black-and-gold phone deck, the webcam (``bench/photo_split.py``).

``--handed`` tells finding from reading: each missed card's boxed indices are read as
``bench/vision_index_reads.py`` reads a box, handed over (the search's pairs inside the
box), and the miss is put in one more class by the surest read of its boxes:
``handed_right`` (its card, at the tracker's 0.5 or more: lost to finding, hiding or
dedup, not to reading), ``handed_weak`` (its card, below), ``handed_other`` (another
card) or ``handed_none`` (no pair in its boxes reads as any card: lost to reading the
index itself); the summary line gains those four counts.
Meant for the development part: the held-out part is measured by its summary only.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parent))

from photo_split import PARTS, in_part  # noqa: E402
from vision_accuracy import label_of, load_frame  # noqa: E402

from vision import CardDetector  # noqa: E402
from vision.capture import COUNTED, card_code  # noqa: E402
from vision.detector import Detection  # noqa: E402

#: The set's images (and its boxes) are 640×640.
BOX_SPACE = 640


def series(name: str) -> str:
    """The shooting series a photo belongs to, from its file name."""
    if "WIN_" in name:
        return "webcam"
    return "white" if "IMG_2022" in name else "black"


def kind_of_miss(
    card: str, boxes: list[dict], dets: list[Detection], shape: tuple[int, ...] = (1280, 1280)
) -> str:
    """Why ``card`` was not read: what covers its indices' centres (see the module), in a
    frame of ``shape`` (the photo as read)."""
    sx, sy = shape[1] / BOX_SPACE, shape[0] / BOX_SPACE
    kinds = set()
    for b in boxes:
        if card_code(b["card"]) != card:
            continue
        x0, y0, x1, y1 = (v * k for v, k in zip(b["box"], (sx, sy, sx, sy), strict=True))
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        for d in dets:
            poly = d.quad.astype(np.float32).reshape(-1, 1, 2)
            if cv2.pointPolygonTest(poly, centre, False) >= 0:
                kinds.add("other_card" if d.card else "unread")
    if "unread" in kinds:
        return "unread"
    return "other_card" if kinds else "no_outline"


HANDED = ("handed_right", "handed_weak", "handed_other", "handed_none")


def handed_kind(reads: list[tuple[str | None, float]], card: str) -> str:
    """The class of a missed ``card`` by what its boxed indices read as handed over
    (``reads``: (card or None, confidence) per box; see the module)."""
    mine = max((c for r, c in reads if r == card), default=None)
    if mine is not None:
        return "handed_right" if mine >= COUNTED else "handed_weak"
    return "handed_other" if any(r is not None for r, _ in reads) else "handed_none"


def photos(root: Path, part: str, scenes: bool) -> list[tuple[Path, list[str]]]:
    """(photo, cards in view) of one part of the set."""
    if scenes:
        labels = json.loads((root / "scenes" / "labels.json").read_text())
        return [
            (root / "scenes" / n, [card_code(c) for c in labels[n]])
            for n in sorted(labels)
            if in_part(n, part)
        ]
    return [
        (p, [label_of(p)])
        for p in sorted((root / "singles").iterdir())
        if label_of(p) and in_part(p.name, part)
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("root", type=Path, help="the phone-photos-ccby folder")
    ap.add_argument("--part", choices=PARTS, default="dev-late")
    ap.add_argument("--scenes", action="store_true", help="the scenes, not the singles")
    ap.add_argument("--list", action="store_true", help="print every missed card")
    ap.add_argument(
        "--unstretch", action="store_true", help="photos at the shape they were taken at"
    )
    ap.add_argument(
        "--handed",
        action="store_true",
        help="also read each missed card's indices handed over: finding or reading?",
    )
    args = ap.parse_args(argv)
    # (imported here: vision_index_reads takes this module's helpers)
    from vision_index_reads import read_box, search_blobs

    cv2.setNumThreads(1)
    all_boxes = json.loads((args.root / "index_boxes.json").read_text())
    detector = CardDetector()
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    for path, truth in photos(args.root, args.part, args.scenes):
        img = load_frame(path, args.unstretch)
        if img is None:
            continue
        dets = detector.detect(img)
        read = {d.card for d in dets if d.card}
        boxes = all_boxes.get(f"{path.parent.name}/{path.name}") or all_boxes.get(path.name, [])
        counts[(series(path.name), "read_not_there")] += len(read - set(truth))
        found = None
        for card in truth:
            kind = "right" if card in read else kind_of_miss(card, boxes, dets, img.shape)
            counts[(series(path.name), kind)] += 1
            handed = ""
            if args.handed and kind != "right":
                found = found or search_blobs(img, series(path.name))
                mine = [b["box"] for b in boxes if card_code(b["card"]) == card]
                reads = [read_box(detector, img, found, box)[:2] for box in mine]
                handed = handed_kind(reads, card)
                counts[(series(path.name), handed)] += 1
            if args.list and kind != "right":
                print(f"{path.name} {card} {kind} {handed}".rstrip())
    kinds = ("right", "no_outline", "unread", "other_card", "read_not_there")
    kinds += HANDED if args.handed else ()
    for s in ("white", "black", "webcam"):
        if any(counts[(s, k)] for k in kinds):
            print(f"vision_misses series={s} " + " ".join(f"{k}={counts[(s, k)]}" for k in kinds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
