"""Accuracy and speed of the camera recognition path on a folder of labelled images.

    .venv/bin/python bench/vision_accuracy.py DIR [--part PART] [--deck-glyphs FILE] [--limit N]
                                         [--every N] [--only TEXT] [--show-misses] [--unstretch]
                                         [--index-boxes FILE] [--as-saved]

DIR holds single-card photos, each file name starting with its card (``AS.jpg``,
``TD_01.jpg``, ``10C_00.jpg``), or scenes: photos of several cards with a
``labels.json`` (file name → list of card codes in view). Every photo is scaled so its
long side is 1280 px before timing (``--unstretch``: the real-photo set's photos at the
shape they were taken at, which the set stretched square; ``--as-saved``: each picture at
the size it was saved, as the referee reads a camera's frame and ``courtpiece camera
check`` a capture: the figure for a table's own captures). ``--part`` (all, dev, held, dev-early, dev-late,
dev-moved) picks a part of the real-photo set (``bench/photo_split.py``). Prints cards found, rank right,
suit right, both right, the median milliseconds per frame on one thread, and the
resident memory with vision loaded. A baseline runs in the same process on the same
frames for comparison: the same outlines read by plain template matching against the
rendered index glyphs (the classic contour-and-template approach).
Ends with one summary line: ``vision found=… both_right_pct=… wrong_sure=… wrong_counted=…
median_ms=…`` for singles, ``vision_scenes scenes=… cards=… right_pct=… wrong=… wrong_sure=… counted_pct=…
wrong_counted=… [open_… covered_…] median_ms=…`` for scenes (``wrong_sure``: wrong reads at confidence ≥ 0.9, which
should never happen; ``right_doubted``: right reads below 0.5, which the tracker would not
yet count; ``counted_pct`` and ``wrong_counted``: the right and the wrong reads at 0.5 or
more, those the tracker counts: a wrong one there is a card the referee would see played;
``also_counted``, singles only: photos in which another card is read at 0.5 or more
beside the surest read, a second play the referee would see).
Where the scenes come with boxes round each card's printed corner indices (the real-photo
set's ``index_boxes.json``, in DIR or the folder above; ``--index-boxes FILE``), the scene
line also splits the labelled cards by those in view: ``open_*`` for cards with both
corner indices boxed (a card lying apart, or the top card of a pile or a fan: the card the
referee needs) and ``covered_*`` for the rest (one corner in view: partly under another;
a card with no box counts here too, and the scenes the boxes file leaves out are named).
With boxes, ``placed_pct`` (and ``open_placed_pct``, ``covered_placed_pct``) counts a
card read right only where the outline it was read in holds one of its boxed indices:
the referee needs a card at its place, not merely somewhere in the photo.
A boxes file in DIR is taken before one in the folder above. ``--show-misses`` lists
each scene's wrong and missed cards, and which of the missed had both corners in view.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import resource
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parent))  # photo_split, after the package

from photo_split import PARTS, in_part  # noqa: E402

from vision import CardDetector, glyphs, render  # noqa: E402
from vision.capture import CaptureError, card_code, counted_beside  # noqa: E402
from vision.detector import Detection  # noqa: E402
from vision.imageio import image_size, read_image  # noqa: E402
from vision.index import corners, find_index  # noqa: E402
from vision.locate import find_quads, rectify  # noqa: E402
from vision.model import RANKS, SUITS  # noqa: E402
from vision.reader import SURE  # noqa: E402
from vision.tracker import TrackerConfig  # noqa: E402

#: The confidence from which the tracker counts a read (a card seen on a spot).
COUNTED = TrackerConfig().min_confidence

LABEL = re.compile(r"^(10|[AKQJT98765432])([SHDC])", re.IGNORECASE)


#: The photo files a folder of single cards is read for (OpenCV decodes them all).
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff")


def label_of(path: Path) -> str | None:
    m = LABEL.match(path.name)
    if not m:
        return None
    rank = m.group(1).upper()
    return ("T" if rank == "10" else rank) + m.group(2).upper()


def rss_mb() -> float:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class TemplateBaseline:
    """Classic reader: correlate each glyph with one rendered template per class."""

    def __init__(self) -> None:
        def templates(draw_all: dict[str, list[np.ndarray]]) -> tuple[list[str], np.ndarray]:
            names, vecs = [], []
            for name, masks in draw_all.items():
                for m in masks:
                    v = glyphs.normalise(m).ravel()
                    v = v - v.mean()
                    names.append(name)
                    vecs.append(v / (np.linalg.norm(v) + 1e-6))
            return names, np.stack(vecs)

        fonts = render.truetype_fonts()[:6]
        ranks = {r: [render.text_mask_hershey(r, render.HERSHEY[2], 5)] for r in RANKS[:-1]}
        for f in fonts:
            for r in ranks:
                ranks[r].append(render.text_mask_truetype(r, f))
        suits = {s: [render.suit_mask_shape(s)] for s in SUITS[:-1]}
        self.rank_names, self.rank_t = templates(ranks)
        self.suit_names, self.suit_t = templates(suits)

    def _match(self, mask: np.ndarray, names: list[str], t: np.ndarray) -> str:
        v = glyphs.normalise(mask).ravel()
        v = v - v.mean()
        v /= np.linalg.norm(v) + 1e-6
        return names[int(np.argmax(t @ v))]

    def read_all(self, frame: np.ndarray) -> list[str]:
        """Every outline's reading (the first corner that yields glyphs)."""
        out = []
        for q in find_quads(frame):
            card = self._read_quad(frame, q)
            if card:
                out.append(card)
        return out

    def read(self, frame: np.ndarray) -> str | None:
        for q in find_quads(frame):
            card = self._read_quad(frame, q)
            if card:
                return card
        return None

    def _read_quad(self, frame: np.ndarray, q: np.ndarray) -> str | None:
        for c in corners(rectify(frame, q)):
            g = find_index(c)
            if g is None:
                continue
            r = self._match(g.rank, self.rank_names, self.rank_t)
            s = self._match(g.suit, self.suit_names, self.suit_t)
            return ("T" if r == "10" else r) + s
        return None


#: The shape (width, height) each series of the real-photo set was taken at, before the
#: set stretched every photo to 640×640: the phones' photos are portrait 3:4, the webcam's
#: landscape 16:9. (Outlines read surely at 0.7 or more, long side over short, median:
#: the black-and-gold poker deck 1.05 as stretched, 1.39 at 3:4 portrait, 1.28 at 4:3
#: landscape; the webcam's 1.40 at 16:9, 1.4-1.6 at 4:3.) No camera stretches its frames
#: so; ``--unstretch`` undoes it, for the figure a camera with square pixels would give.
ORIGINAL_SHAPE = {"WIN_": (16, 9), "IMG_": (3, 4)}


def load_frame(path: Path, unstretch: bool = False, as_saved: bool = False) -> np.ndarray | None:
    """The photo scaled so its long side is 1280 px, as the camera reader would get it;
    ``unstretch``: a square photo at its series' original shape (:data:`ORIGINAL_SHAPE`)
    where known (a phone's own photo, not stretched square, keeps its shape).
    ``as_saved``: the picture at the size it was saved, as the referee reads a frame from
    a camera or a folder (``courtpiece camera check`` reads a capture so): a capture
    from a camera at another size than 1280 px reads otherwise scaled."""
    if as_saved:
        return read_image(path)
    img = read_image(path, 1280)  # decoded at the size needed, as the camera reader does
    if img is None:
        return None
    shape = next((v for k, v in ORIGINAL_SHAPE.items() if k in path.name), None)
    if unstretch and shape is not None and img.shape[0] == img.shape[1]:  # stretched square
        w, h = shape
        size = (1280, round(1280 * h / w)) if w >= h else (round(1280 * w / h), 1280)
        way = (
            cv2.INTER_AREA if size[0] * size[1] < img.shape[0] * img.shape[1] else cv2.INTER_LINEAR
        )
        return cv2.resize(img, size, interpolation=way)
    s = 1280 / max(img.shape[:2])
    return cv2.resize(
        img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    )


def scene_labels(raw: object, folder: Path) -> dict[str, list[str]]:
    """labels.json's scenes: file name → the card codes in view, each given as a code
    (``AS``, ``10h``) or as an object with a ``card`` (and a ``box``, or anything else,
    which is not needed here). Raises ValueError (or CaptureError for a card that is
    none) naming the file; a file named but not in ``folder`` is left out, and said so."""
    if not isinstance(raw, dict):
        raise ValueError("should map each photo's file name to the cards in view")
    out = {}
    for name, cards in raw.items():
        if not isinstance(cards, list):
            raise ValueError(f"{name}: should be a list of cards, not {cards!r}")
        codes = []
        for c in cards:
            text = c.get("card") if isinstance(c, dict) else c
            if not isinstance(text, str):
                raise ValueError(
                    f"{name}: {c!r} names no card (a code like AS, or {{'card': 'AS'}})"
                )
            try:
                codes.append(card_code(text))
            except CaptureError as e:
                raise CaptureError(f"{name}: {e}") from None
        if not (folder / name).is_file():
            print(f"labels.json names {name}, which is not in {folder}: left out")
            continue
        out[name] = codes
    return out


def _timed(fn, *a):  # noqa: ANN001, ANN202
    t0 = time.perf_counter()
    out = fn(*a)
    return out, (time.perf_counter() - t0) * 1000


def bench_singles(
    paths: list[Path],
    detector: CardDetector,
    baseline: TemplateBaseline,
    show: bool,
    unstretch: bool = False,
    as_saved: bool = False,
) -> str:
    """One card per photo: found, rank/suit right, and wrong reads the reader was sure of."""
    found = rank_ok = suit_ok = both_ok = base_ok = wrong_sure = right_doubted = 0
    wrong_counted = also_counted = 0
    times, base_times = [], []
    for p in paths:
        img = load_frame(p, unstretch, as_saved)
        if img is None:
            print(f"{p.name} will not decode as a picture: left out")
            continue
        truth = label_of(p)
        dets, ms = _timed(detector.detect, img)
        times.append(ms)
        base, ms = _timed(baseline.read, img)
        base_times.append(ms)
        base_ok += base == truth
        read = [d for d in dets if d.card]
        if dets:
            found += 1
        if read:
            top = max(read, key=lambda d: d.confidence)
            best = top.card
            rank_ok += best[:-1] == truth[:-1]
            suit_ok += best[-1] == truth[-1]
            both_ok += best == truth
            wrong_sure += best != truth and top.confidence >= SURE
            wrong_counted += best != truth and top.confidence >= COUNTED
            right_doubted += best == truth and top.confidence < COUNTED
            # another card counted beside the surest read, in a photo of one card: a
            # second play the referee would see (``courtpiece camera check`` counts it too)
            others = counted_beside(truth, [(d.card, d.confidence) for d in read if d is not top])
            also_counted += bool(others)
            if best != truth and show:
                print(f"miss {p.name}: read {best} ({top.confidence:.2f})")
            if others and show:
                also = ", ".join(f"{c} ({q:.2f})" for c, q in others)
                print(f"also {p.name}: read {also} beside {best}")
        elif show:
            print(f"miss {p.name}: {'unreadable' if dets else 'no card found'}")
    n = max(len(times), 1)
    pct = lambda k: 100.0 * k / n  # noqa: E731
    med = statistics.median(times) if times else 0.0
    base_med = statistics.median(base_times) if base_times else 0.0
    print(f"images {len(times)}  found {found} ({pct(found):.1f}%)")
    print(
        f"rank right {rank_ok} ({pct(rank_ok):.1f}%)  suit right {suit_ok} ({pct(suit_ok):.1f}%)  both right {both_ok} ({pct(both_ok):.1f}%)"
    )
    print(f"median {med:.2f} ms per frame (one thread)")
    print(
        f"baseline (outlines + template matching): both right {base_ok} ({pct(base_ok):.1f}%), median {base_med:.2f} ms"
    )
    return (
        f"vision images={len(times)} found={found} rank_right_pct={pct(rank_ok):.1f} suit_right_pct={pct(suit_ok):.1f} "
        f"both_right_pct={pct(both_ok):.1f} wrong_sure={wrong_sure} wrong_counted={wrong_counted} right_doubted={right_doubted} also_counted={also_counted} median_ms={med:.2f} rss_mb={rss_mb():.0f} "
        f"baseline_both_right_pct={pct(base_ok):.1f} baseline_median_ms={base_med:.2f}"
    )


def index_boxes_file(folder: Path) -> Path | None:
    """The set's ``index_boxes.json`` (file → the boxes round each printed corner index),
    in the scenes' folder or the one above it, if there is one."""
    return next(
        (
            f
            for f in (folder / "index_boxes.json", folder.parent / "index_boxes.json")
            if f.exists()
        ),
        None,
    )


def placed(
    dets: list[Detection], card: str, entries: list[dict], scale: tuple[float, float]
) -> bool:
    """Whether ``card`` was read where the set boxed one of its indices: a detection of
    it whose outline, grown by a tenth, holds the centre of one of that card's index
    boxes (``entries``, in the stored photo's pixels; ``scale`` (x, y) maps them to the
    frame's). A card read right but elsewhere (another card's index read as it) is
    right for the scene's set of cards, not for the referee, who needs it at its place."""
    sx, sy = scale
    centres = [
        ((e["box"][0] + e["box"][2]) / 2 * sx, (e["box"][1] + e["box"][3]) / 2 * sy)
        for e in entries
        if card_code(e["card"]) == card
    ]
    for d in dets:
        if d.card != card:
            continue
        c = d.quad.mean(axis=0)
        grown = (c + (d.quad - c) * 1.1).astype(np.float32).reshape(-1, 1, 2)
        if any(cv2.pointPolygonTest(grown, p, False) >= 0 for p in centres):
            return True
    return False


def boxed(boxes: dict[str, list[dict]], name: str) -> list[dict]:
    """The set's index boxes of scene ``name`` (keyed with its folder or without)."""
    return boxes.get(f"scenes/{name}") or boxes.get(name, [])


def corners_in_view(boxes: dict[str, list[dict]], name: str) -> collections.Counter[str]:
    """How many of each card's corner indices the set boxed in scene ``name``."""
    entries = boxed(boxes, name)
    return collections.Counter(card_code(b["card"]) for b in entries)


def bench_scenes(
    folder: Path,
    labels: dict[str, list[str]],
    detector: CardDetector,
    baseline: TemplateBaseline,
    show: bool,
    unstretch: bool = False,
    boxes: dict[str, list[dict]] | None = None,
    as_saved: bool = False,
) -> str:
    """Several cards per photo: per scene, the labelled cards read (right), the cards read
    that are not there (wrong), and those wrong reads the reader was sure of; and how
    many of each the tracker would count (read at 0.5 or more: ``counted_pct``,
    ``wrong_counted``), since a read below that only marks a zone as taken.

    With the set's index ``boxes``, the labelled cards are also split by how many of
    their two corner indices are in view: ``open`` (both: a card lying apart, or the top
    card of a pile or a fan, which is the card the referee needs) and ``covered`` (fewer:
    a card partly under another)."""
    cards = right = wrong = wrong_sure = base_right = base_wrong = 0
    counted = wrong_counted = 0
    split: collections.Counter[tuple[str, str]] = collections.Counter()
    times = []
    for name, truth_list in labels.items():
        img = load_frame(folder / name, unstretch, as_saved)
        if img is None:
            print(f"{name} will not decode as a picture: left out")
            continue
        truth = {card_code(c) for c in truth_list}
        dets, ms = _timed(detector.detect, img)
        times.append(ms)
        read = {d.card: d.confidence for d in dets if d.card}
        kinds: dict[str, str] = {}
        if boxes is not None:
            if f"scenes/{name}" not in boxes and name not in boxes:
                print(f"no index boxes for {name}: its cards count as covered")
            seen = corners_in_view(boxes, name)
            entries = boxed(boxes, name)
            with open(folder / name, "rb") as f:
                stored = image_size(f.read(65536)) or (img.shape[1], img.shape[0])
            scale = (img.shape[1] / stored[0], img.shape[0] / stored[1])
            for c in truth:
                kind = kinds[c] = "open" if seen[c] >= 2 else "covered"
                split[(kind, "cards")] += 1
                split[(kind, "right")] += c in read
                split[(kind, "counted")] += read.get(c, 0.0) >= COUNTED
                at_place = c in read and placed(dets, c, entries, scale)
                split[(kind, "placed")] += at_place
                split[("all", "placed")] += at_place
        bad = {c: v for c, v in read.items() if c not in truth}
        cards += len(truth)
        right += len(truth & read.keys())
        wrong += len(bad)
        wrong_sure += sum(v >= SURE for v in bad.values())
        counted += sum(read[c] >= COUNTED for c in truth & read.keys())
        wrong_counted += sum(v >= COUNTED for v in bad.values())
        base = set(baseline.read_all(img))
        base_right += len(truth & base)
        base_wrong += len(base - truth)
        if show:
            missed = sorted(truth - read.keys())
            print(
                f"scene {name}: {len(truth & read.keys())}/{len(truth)} right, "
                f"wrong {sorted(bad)}, missed {missed}"
                + (f" (open: {[c for c in missed if kinds[c] == 'open']})" if kinds else "")
            )
    pct = lambda k: 100.0 * k / max(cards, 1)  # noqa: E731
    med = statistics.median(times) if times else 0.0
    print(f"scenes {len(times)}  cards {cards}  right {right} ({pct(right):.1f}%)  wrong {wrong}")
    print(f"median {med:.2f} ms per frame (one thread)")
    by_corners = ""
    for kind in ("open", "covered") if boxes is not None else ():
        n = max(split[(kind, "cards")], 1)
        by_corners += (
            f"{kind}_cards={split[(kind, 'cards')]} "
            f"{kind}_right_pct={100.0 * split[(kind, 'right')] / n:.1f} "
            f"{kind}_counted_pct={100.0 * split[(kind, 'counted')] / n:.1f} "
            f"{kind}_placed_pct={100.0 * split[(kind, 'placed')] / n:.1f} "
        )
    if boxes is not None:
        by_corners = f"placed_pct={pct(split[('all', 'placed')]):.1f} " + by_corners
    return (
        f"vision_scenes scenes={len(times)} cards={cards} right_pct={pct(right):.1f} wrong={wrong} "
        f"wrong_sure={wrong_sure} counted_pct={pct(counted):.1f} wrong_counted={wrong_counted} "
        f"{by_corners}median_ms={med:.2f} rss_mb={rss_mb():.0f} "
        f"baseline_right_pct={pct(base_right):.1f} baseline_wrong={base_wrong}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "dir", type=Path, help="a folder of single-card photos, or of scenes with labels.json"
    )
    ap.add_argument(
        "--deck-glyphs", type=Path, default=None, help="a deck's glyphs from vision.learn_deck"
    )
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument(
        "--part",
        choices=PARTS,
        default="all",
        help="a part of the real-photo set: development, held out, or the development part's "
        "earlier / later photos (rules in bench/photo_split.py)",
    )
    ap.add_argument("--every", type=int, default=1, help="take every Nth photo (quick subsets)")
    ap.add_argument(
        "--only", default="", metavar="TEXT", help="only photos whose file name contains TEXT"
    )
    ap.add_argument("--show-misses", action="store_true")
    ap.add_argument(
        "--index-boxes",
        type=Path,
        default=None,
        metavar="FILE",
        help="boxes round each card's printed corner indices (file -> [{card, box}]); "
        "default: index_boxes.json in DIR or the folder above it",
    )
    ap.add_argument(
        "--unstretch",
        action="store_true",
        help="read the real-photo set's photos at the shape they were taken at, not stretched "
        "square as the set holds them",
    )
    ap.add_argument(
        "--as-saved",
        action="store_true",
        help="read each picture at the size it was saved, as the referee reads a camera's "
        "frame (and courtpiece camera check a capture), not scaled to 1280 px",
    )
    args = ap.parse_args(argv)
    if args.as_saved and args.unstretch:
        ap.error("--as-saved and --unstretch: one or the other")
    cv2.setNumThreads(1)
    rss_before = rss_mb()
    detector = CardDetector(deck_glyphs=args.deck_glyphs)
    baseline = TemplateBaseline()
    if args.index_boxes is not None and not args.index_boxes.is_file():
        ap.error(f"--index-boxes: no such file: {args.index_boxes}")
    if not args.dir.is_dir():
        print(f"vision_accuracy: {args.dir} is not a folder")
        return 2
    labels_file = args.dir / "labels.json"
    if labels_file.exists():
        try:
            labels = scene_labels(json.loads(labels_file.read_text()), args.dir)
        except (ValueError, CaptureError) as e:
            print(f"vision_accuracy: {labels_file}: {e}")
            return 2
        boxes_file = args.index_boxes or index_boxes_file(args.dir)
        boxes = json.loads(boxes_file.read_text()) if boxes_file else None
        names = sorted(n for n in labels if in_part(n, args.part) and args.only in n)
        names = names[:: args.every]
        if args.limit:
            names = names[: args.limit]
        line = bench_scenes(
            args.dir,
            {n: labels[n] for n in names},
            detector,
            baseline,
            args.show_misses,
            args.unstretch,
            boxes,
            args.as_saved,
        )
    else:
        paths = sorted(
            p
            for p in args.dir.iterdir()
            if label_of(p)
            and p.suffix.lower() in PHOTO_SUFFIXES
            and in_part(p.name, args.part)
            and args.only in p.name
        )[:: args.every]
        if args.limit:
            paths = paths[: args.limit]
        unnamed = sorted(
            p.name
            for p in args.dir.iterdir()
            if p.suffix.lower() in PHOTO_SUFFIXES and not label_of(p)
        )
        if unnamed:
            print(f"{len(unnamed)} photos not named by their card left out (first: {unnamed[0]})")
        if not paths:
            print(
                f"vision_accuracy: no labelled photo in {args.dir}: name single-card photos "
                "by their card first (AS_1.jpg, 10h.png), or give scenes a labels.json"
            )
            return 2
        line = bench_singles(
            paths, detector, baseline, args.show_misses, args.unstretch, args.as_saved
        )
    print(f"rss {rss_mb():.0f} MB (before vision {rss_before:.0f} MB)")
    print(line)
    if line.startswith(("vision images=0 ", "vision_scenes scenes=0 ")):
        print(f"vision_accuracy: no photo in {args.dir} could be read")
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
