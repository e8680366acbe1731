"""Real photographs seen by a camera at a slant: each photo of the real-photo set taken as
the table seen from straight above, then seen again by a pinhole camera 30° and 45°
from vertical, and read without a table plane and with the plane calibration gives.

    .venv/bin/python bench/vision_tilted_photos.py SET_DIR [--part dev] [--every 1]
                                                   [--angles 30 45] [--limit N]
                                                   [--show-misses]

SET_DIR is ``phone-photos-ccby`` (its ``singles/``, ``scenes/labels.json`` and
``index_boxes.json``, the boxes round each card's printed corner indices). The
set has no photo taken at a slant, and ``bench/vision_oblique.py`` measures the slant
on rendered tables only. Cards lie flat on the table, and a camera's view of a plane
from anywhere is that plane's picture under a homography: so a photo taken from above,
warped as a tilted camera would see its plane, shows its real deck, print, light and
blur as that camera would (what it cannot show: the far side's own sensor noise and
focus, and things that stand off the table, which lean the wrong way).

Each photo is taken at its series' original shape (``--unstretch`` of
``bench/vision_accuracy.py``), its long side 1280 px. The tilted camera's frame is the
same size and lies wholly on the photo, as a real camera's frame cuts the table: the
slant makes the photo a trapezoid, narrower on the far side, and the frame is filled by
the largest upright box inside it (the far side's width, the whole depth), cut to the
frame's shape about its middle. For a landscape photo (the webcam's scenes) the far side
spans the frame and the near corners fall outside it; for a portrait one (the phones'
photos, every single among them) the box is cut top and bottom as well, so a strip of the
far side and the whole near edge fall outside (at 45° a quarter of the depth: fewer
singles are in view). The far side comes out squashed front to back and the near side
enlarged. The warp is worked at twice the frame's size and shrunk, so a far card is
sampled as a sensor would, not aliased. At a slant only the cards with a printed corner
index wholly in the frame are counted (the set's boxes), each against its own read
overhead.

The plane is what ``courtpiece calibrate`` would give from four spots marked on the
frame: a square round the photo's middle as the tilted camera sees it
(``vision.plane.plane_from_square``; for a portrait photo at 45° the far spot lies a
pixel or two beyond the frame's top edge). No empty table is captured for a photo, so
the calibrated reference is not measured.

The baseline, in the same run, is each photo at 0° (the photo itself, through the same
resampling). Counts the cards read as the tracker counts them (0.5 or more) and the
wrong reads it would count (a card not in the photo at all; ``wrong_sure``: 0.9 or
more). ``--angles``: whole degrees from vertical, 1 to 60, each once. Ends with one
summary line: ``vision_tilted_photos part=… singles=… scenes=… cards=… overhead_pct=…
deg30_cards=… deg30_overhead_pct=… deg30_pct=… plane_deg30_pct=… deg45_…
singles_overhead_pct=… singles_deg30_cards=… singles_deg30_overhead_pct=…
singles_deg30_pct=… singles_plane_deg30_pct=… … ratio_45_to_overhead=…
ratio_plane_45_to_overhead=… wrong_counted=… wrong_sure=… median_ms=…``:
``degN_cards`` the cards in view at N°, ``degN_overhead_pct`` the share of them read
overhead, ``degN_pct`` and ``plane_degN_pct`` the share read at N° without and with the
plane; ``singles_*`` the same for the single-card photos alone (``singles_overhead_pct``
over every single, at 0°); the ratios (named by the last angle asked) divide that
angle's share by the share of the same cards read overhead, so above 1 where the slant
reads more; the wrong reads are summed over 0° and every angle and way of reading (a
card wrongly read in one photo counts once for each); ``median_ms`` is over every read,
at every angle and way.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parent))

from photo_split import PARTS, in_part  # noqa: E402
from vision_accuracy import PHOTO_SUFFIXES, label_of, load_frame, scene_labels  # noqa: E402

from vision import CardDetector  # noqa: E402
from vision.capture import COUNTED, card_code  # noqa: E402
from vision.imageio import image_size  # noqa: E402
from vision.plane import plane_from_square  # noqa: E402
from vision.reader import SURE  # noqa: E402
from vision.synth import tilted_view  # noqa: E402
from vision.warp import warp_perspective  # noqa: E402

#: A webcam's focal length in pixels of a 1280 px wide frame (about 65° across), as in
#: bench/vision_oblique.py.
FOCAL = 1000.0
#: The marked square's half diagonal, as a share of the photo's long side.
SPOT_REACH = 0.25
#: The steepest slant asked for (degrees from vertical): near 90° the camera looks
#: along the table, and its frame no longer lies on the photo.
MOST_DEGREES = 60
#: The warp is worked at this many times the frame's size, then shrunk.
SUPERSAMPLE = 2


def tilted_camera(photo_shape: tuple[int, ...], degrees: float) -> np.ndarray:
    """The homography from photo pixels to the frame (the photo's size) of a camera
    ``degrees`` from vertical, aimed so its frame lies wholly on the photo: the photo's
    far side, narrowed by the slant, spans the frame, and the near side's corners fall
    outside it, as a real camera's frame cuts the table."""
    h, w = photo_shape[:2]
    m = tilted_view(degrees, (0, 0, w, h), (w, h), (w, h), FOCAL)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32).reshape(-1, 1, 2)
    tl, tr, br, bl = cv2.perspectiveTransform(corners, m).reshape(-1, 2)
    # the largest upright box inside the trapezoid: the far (narrow) side's width, the
    # whole depth; the frame fills it, cut to the frame's shape about its middle
    x0, x1 = max(tl[0], bl[0]), min(tr[0], br[0])
    y0, y1 = max(tl[1], tr[1]), min(bl[1], br[1])
    s = max(w / (x1 - x0), h / (y1 - y0))
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    fill = np.array([[s, 0, w / 2 - s * mx], [0, s, h / 2 - s * my], [0, 0, 1]])
    return fill @ m


def tilted(photo: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """The photo as a camera ``degrees`` from vertical sees it (the same frame size),
    and the homography from photo pixels to that frame."""
    h, w = photo.shape[:2]
    m = tilted_camera(photo.shape, degrees)
    big = np.diag([SUPERSAMPLE, SUPERSAMPLE, 1.0]) @ m
    frame = warp_perspective(photo, big, (w * SUPERSAMPLE, h * SUPERSAMPLE), cv2.BORDER_REPLICATE)
    return cv2.resize(frame, (w, h), interpolation=cv2.INTER_AREA), m


def marked_spots(photo_shape: tuple[int, ...], m: np.ndarray) -> np.ndarray:
    """Four spots on a square round the photo's middle (seat 0 nearest, then round it),
    where the tilted camera sees them: what an organiser marks at calibration."""
    h, w = photo_shape[:2]
    r = SPOT_REACH * max(w, h)
    cx, cy = w / 2, h / 2
    spots = np.array([[cx, cy + r], [cx - r, cy], [cx, cy - r], [cx + r, cy]], np.float32)
    return cv2.perspectiveTransform(spots.reshape(-1, 1, 2), m).reshape(-1, 2)


def in_view(
    entries: list[dict], stored: tuple[int, int], photo_shape: tuple[int, ...], m: np.ndarray
) -> set[str]:
    """The cards with a printed corner index (the set's boxes, in the pixels of the
    picture as ``stored``, width and height) wholly inside the frame."""
    h, w = photo_shape[:2]
    out = set()
    for e in entries:
        x0, y0, x1, y1 = (float(v) for v in e["box"])
        box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
        box *= np.array([w / stored[0], h / stored[1]], np.float32)
        seen = cv2.perspectiveTransform(box.reshape(-1, 1, 2), m).reshape(-1, 2)
        if (seen >= 0).all() and (seen[:, 0] < w).all() and (seen[:, 1] < h).all():
            out.add(card_code(e["card"]))
    return out


def stored_size(path: Path, photo: np.ndarray) -> tuple[int, int]:
    """(width, height) of the picture as saved, which its index boxes are measured in."""
    with open(path, "rb") as f:
        return image_size(f.read(65536)) or (photo.shape[1], photo.shape[0])


class Tally:
    """Per angle: the cards in view, and of those the cards counted right overhead and
    at the angle, each way of reading; the wrong reads (cards not in the photo)."""

    def __init__(self) -> None:
        self.cards: dict[int, int] = collections.Counter()
        self.right: dict[tuple[int, str], int] = collections.Counter()
        self.overhead: dict[int, int] = collections.Counter()
        self.wrong: dict[tuple[int, str], int] = collections.Counter()
        self.sure = 0

    def pct(self, angle: int, mode: str = "none") -> float:
        return 100.0 * self.right[angle, mode] / max(self.cards[angle], 1)

    def overhead_pct(self, angle: int) -> float:
        return 100.0 * self.overhead[angle] / max(self.cards[angle], 1)

    def ratio(self, angle: int, mode: str) -> float:
        """The share of the cards in view read at ``angle`` over the share of the same
        cards read overhead (above 1 where the slant reads more of them)."""
        return self.right[angle, mode] / max(self.overhead[angle], 1)


def counted_reads(dets: list) -> dict[str, float]:
    return {d.card: d.confidence for d in dets if d.card and d.confidence >= COUNTED}


def read_tilted(
    detector: CardDetector,
    photo: np.ndarray,
    truth: set[str],
    entries: list[dict],
    stored: tuple[int, int],
    angles: list[int],
    tallies: list[Tally],
    times: list[float],
    name: str = "",
    show_misses: bool = False,
) -> None:
    """``photo`` read at 0° and at each angle, with no plane and with one; each angle
    counts the cards whose index it shows whole. ``show_misses``: print, for each angle
    and way, the cards in view read overhead but not there, and the wrong reads."""
    overhead: set[str] = set()
    for angle in [0, *angles]:
        frame, m = tilted(photo, angle)
        shown = truth if angle == 0 else truth & in_view(entries, stored, photo.shape, m)
        for mode in ("none", "plane") if angle else ("none",):
            size = (frame.shape[1], frame.shape[0])
            detector.plane = (
                plane_from_square(marked_spots(photo.shape, m), size) if mode == "plane" else None
            )
            t0 = time.perf_counter()
            reads = counted_reads(detector.detect(frame))
            times.append(1000 * (time.perf_counter() - t0))
            if angle == 0:
                overhead = truth & reads.keys()
            bad = {c: v for c, v in reads.items() if c not in truth}
            lost = sorted((shown & overhead) - reads.keys()) if angle else []
            if show_misses and (lost or bad):
                wrong = sorted(f"{c}@{v:.2f}" for c, v in bad.items())
                print(
                    f"miss {name} {angle} {mode}: lost {' '.join(lost) or '-'} "
                    f"wrong {' '.join(wrong) or '-'}"
                )
            for t in tallies:
                t.right[angle, mode] += len(shown & reads.keys())
                t.wrong[angle, mode] += len(bad)
                t.sure += sum(v >= SURE for v in bad.values())
        for t in tallies:
            t.cards[angle] += len(shown)
            t.overhead[angle] += len(shown & overhead)
    detector.plane = None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("root", type=Path, help="the real-photo set (phone-photos-ccby)")
    ap.add_argument("--part", choices=PARTS, default="dev", help="part of the set (dev)")
    ap.add_argument("--every", type=int, default=1, help="take every Nth photo")
    ap.add_argument("--limit", type=int, default=0, help="at most N photos of each kind")
    ap.add_argument("--angles", type=int, nargs="+", default=[30, 45], help="degrees (30 45)")
    ap.add_argument(
        "--show-misses",
        action="store_true",
        help="print each photo's cards lost at a slant (read overhead) and wrong reads",
    )
    args = ap.parse_args(argv)
    if args.every < 1 or args.limit < 0:
        ap.error("--every is 1 or more, --limit 0 (all) or more")
    if any(not 0 < a <= MOST_DEGREES for a in args.angles) or len(set(args.angles)) < len(
        args.angles
    ):
        ap.error(
            f"--angles: whole degrees from vertical, each once, from 1 to {MOST_DEGREES} "
            "(0, overhead, is always read)"
        )
    singles_dir, scenes_dir = args.root / "singles", args.root / "scenes"
    if not args.root.is_dir():
        print(f"vision_tilted_photos: {args.root} is not a folder")
        return 2
    needed = (singles_dir, scenes_dir / "labels.json", args.root / "index_boxes.json")
    if not all(p.exists() for p in needed):
        print(
            f"vision_tilted_photos: {args.root} should hold singles/, scenes/labels.json "
            "and index_boxes.json (the real-photo set's layout)"
        )
        return 2
    cv2.setNumThreads(1)
    detector = CardDetector()
    singles = sorted(
        p
        for p in singles_dir.iterdir()
        if p.suffix.lower() in PHOTO_SUFFIXES and label_of(p) and in_part(p.name, args.part)
    )[:: args.every]
    labels = scene_labels(json.loads((scenes_dir / "labels.json").read_text()), scenes_dir)
    scenes = sorted(n for n in labels if in_part(n, args.part))[:: args.every]
    if args.limit:
        singles, scenes = singles[: args.limit], scenes[: args.limit]
    boxes = json.loads((args.root / "index_boxes.json").read_text())
    every, alone = Tally(), Tally()
    times: list[float] = []
    for p in singles:
        photo = load_frame(p, unstretch=True)
        if photo is not None:
            entries = boxes.get(f"singles/{p.name}", [])
            stored = stored_size(p, photo)
            tallies = [every, alone]
            read_tilted(
                detector,
                photo,
                {label_of(p)},
                entries,
                stored,
                args.angles,
                tallies,
                times,
                p.name,
                args.show_misses,
            )
    for name in scenes:
        photo = load_frame(scenes_dir / name, unstretch=True)
        if photo is not None:
            truth = {card_code(c) for c in labels[name]}
            entries = boxes.get(f"scenes/{name}", boxes.get(name, []))
            stored = stored_size(scenes_dir / name, photo)
            read_tilted(
                detector,
                photo,
                truth,
                entries,
                stored,
                args.angles,
                [every],
                times,
                name,
                args.show_misses,
            )
    print(
        f" 0°: {every.pct(0):.1f} % of {every.cards[0]} cards counted right "
        f"(singles {alone.pct(0):.1f} % of {alone.cards[0]}); wrong reads counted "
        f"{every.wrong[0, 'none']}"
    )
    for a in args.angles:
        print(
            f"{a:2d}°: of the {every.cards[a]} cards whose index is in view, "
            f"{every.overhead_pct(a):.1f} % counted right overhead, {every.pct(a):.1f} % at "
            f"{a}°, {every.pct(a, 'plane'):.1f} % with the plane (singles: "
            f"{alone.overhead_pct(a):.1f}, {alone.pct(a):.1f}, {alone.pct(a, 'plane'):.1f} % "
            f"of {alone.cards[a]}); wrong reads counted {every.wrong[a, 'none']}, with the "
            f"plane {every.wrong[a, 'plane']}"
        )
    last = args.angles[-1]
    print(
        f"vision_tilted_photos part={args.part} singles={len(singles)} scenes={len(scenes)} "
        f"cards={every.cards[0]} overhead_pct={every.pct(0):.1f} "
        + " ".join(
            f"deg{a}_cards={every.cards[a]} deg{a}_overhead_pct={every.overhead_pct(a):.1f} "
            f"deg{a}_pct={every.pct(a):.1f} plane_deg{a}_pct={every.pct(a, 'plane'):.1f}"
            for a in args.angles
        )
        + f" singles_overhead_pct={alone.pct(0):.1f} "
        + " ".join(
            f"singles_deg{a}_cards={alone.cards[a]} "
            f"singles_deg{a}_overhead_pct={alone.overhead_pct(a):.1f} "
            f"singles_deg{a}_pct={alone.pct(a):.1f} "
            f"singles_plane_deg{a}_pct={alone.pct(a, 'plane'):.1f}"
            for a in args.angles
        )
        + f" ratio_{last}_to_overhead={every.ratio(last, 'none'):.3f}"
        f" ratio_plane_{last}_to_overhead={every.ratio(last, 'plane'):.3f}"
        f" wrong_counted={sum(every.wrong.values())} wrong_sure={every.sure}"
        f" median_ms={statistics.median(times) if times else 0.0:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
