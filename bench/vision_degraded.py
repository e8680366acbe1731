"""How the camera path holds up when a table's photos are worse than the ones it was
developed on: the same labelled photos (single cards, or scenes) read plain and again
under each of the ways a real camera spoils a frame.

    .venv/bin/python bench/vision_degraded.py DIR [--part PART] [--every N] [--only KIND]
                                             [--show-misses]

DIR holds single-card photos named by their card first (``AS_1.jpg``, ``10h-kitchen.png``,
``TD.jpg``: a ten as ``10`` or ``T``), as ``bench/vision_accuracy.py`` reads them: an
organiser's own capture (``--part all``, the default), or the development part of the
real-photo set with ``--part dev`` (its held-out part is not read here; where a folder
holds photos named as held-out ones and no part is given, the bench says so). Each
photo is scaled to 1280 px on its long side, as the camera reader gets a frame, then
spoiled:

- ``grey``: no colour (a monochrome camera, or a photo set's grey copies);
- ``blur``: out of focus (Gaussian, sigma 0.25 % of the long side: 3.2 px);
- ``noise``: a dim room's sensor noise (Gaussian, 12 grey levels);
- ``dim``: underexposed (levels times 0.55);
- ``washed``: overexposed (levels times 1.25, plus 15);
- ``coarse``: half the resolution (shrunk to half and enlarged back: cards half as far
  in pixels as the documented size);
- ``jpeg``: a cheap camera's compression (quality 35);
- ``warm``: a tungsten lamp (blue times 0.7, red times 1.1);
- ``hazed``: seen through glare on a glossy sheet, or a misted lens (levels times 0.6,
  plus 110: nothing in view darker than 110);
- ``blur_noise``: out of focus in a dim room (blurred as ``blur``, then noise of 6 grey
  levels on top, as a sensor adds it after the lens). Added in the forty-fifth round:
  the mean over the kinds is over ten since.

DIR may instead hold scenes with a ``labels.json`` (file name -> the cards in view, as
``bench/vision_accuracy.py`` reads them; ``--part dev`` for the real-photo set's
development scenes). Then per kind it prints the share of the labelled cards the tracker
would count (read at 0.5 or more) and the wrong cards it would count, and ends with
``vision_degraded_scenes scenes=… cards=… plain_counted_pct=… plain_wrong_counted=…
mean_counted_pct=… worst=KIND worst_counted_pct=… ratio_worst_to_plain=… wrong_counted=…
wrong_sure=…``.

For single photos, per kind it prints the share read right (the surest read is the card), the wrong reads
the tracker would count (at 0.5 or more) and those at 0.9 or more, which should never
happen. Every kind is measured in the same run as the plain photos, so the figure that
matters is each kind's ratio to the plain one. Ends with one summary line:
``vision_degraded photos=… plain_right_pct=… mean_right_pct=… worst=KIND worst_right_pct=…
ratio_worst_to_plain=… wrong_counted=… wrong_sure=…`` (the last two summed over the
spoiled kinds).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parent))

from photo_split import PARTS, held_out, in_part  # noqa: E402
from vision_accuracy import (  # noqa: E402
    COUNTED,
    PHOTO_SUFFIXES,
    label_of,
    load_frame,
    scene_labels,
)

from vision import CardDetector  # noqa: E402
from vision.capture import CaptureError  # noqa: E402
from vision.reader import SURE  # noqa: E402


def _levels(img: np.ndarray, gain: tuple[float, float, float], lift: float = 0.0) -> np.ndarray:
    out = img.astype(np.float32) * np.array(gain, np.float32) + lift
    return np.clip(out, 0, 255).astype(np.uint8)


def _grey(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def _blur(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return cv2.GaussianBlur(img, (0, 0), 0.0025 * max(img.shape[:2]))


def _noise(img: np.ndarray, rng: np.random.Generator, sigma: float = 12.0) -> np.ndarray:
    noisy = img.astype(np.float32) + rng.normal(0.0, sigma, img.shape).astype(np.float32)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def _coarse(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    half = cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    return cv2.resize(half, (w, h), interpolation=cv2.INTER_LINEAR)


def _jpeg(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 35])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


#: The ways a frame is spoiled, in the order they are reported.
KINDS: dict[str, Callable[[np.ndarray, np.random.Generator], np.ndarray]] = {
    "grey": _grey,
    "blur": _blur,
    "noise": _noise,
    "dim": lambda img, rng: _levels(img, (0.55, 0.55, 0.55)),
    "washed": lambda img, rng: _levels(img, (1.25, 1.25, 1.25), 15.0),
    "coarse": _coarse,
    "jpeg": _jpeg,
    "warm": lambda img, rng: _levels(img, (0.7, 1.0, 1.1)),
    "hazed": lambda img, rng: _levels(img, (0.6, 0.6, 0.6), 110.0),
    "blur_noise": lambda img, rng: _noise(_blur(img, rng), rng, 6.0),
}


class SceneTally:
    """Reads of one kind over labelled scenes: the labelled cards counted (read at 0.5 or
    more, as the tracker counts them), and the cards counted or sure that are not there."""

    def __init__(self) -> None:
        self.scenes = self.cards = self.right = self.wrong_counted = self.wrong_sure = 0
        self.misses: list[str] = []

    def add(self, name: str, truth: set[str], detector: CardDetector, img: np.ndarray) -> None:
        counted = {d.card: d.confidence for d in detector.detect(img) if d.card}
        counted = {c: v for c, v in counted.items() if v >= COUNTED}
        wrong = sorted(set(counted) - truth)
        self.scenes += 1
        self.cards += len(truth)
        self.right += len(truth & set(counted))
        self.wrong_counted += len(wrong)
        self.wrong_sure += sum(counted[c] >= SURE for c in wrong)
        missed = sorted(truth - set(counted))
        if missed or wrong:
            self.misses.append(f"{name}: missed {missed}, wrong {wrong}")

    @property
    def pct(self) -> float:
        return 100.0 * self.right / max(self.cards, 1)


class Tally:
    """Reads of one kind: right, wrong and counted, wrong and sure."""

    def __init__(self) -> None:
        self.photos = self.right = self.wrong_counted = self.wrong_sure = 0
        self.misses: list[str] = []

    def add(self, name: str, truth: str, detector: CardDetector, img: np.ndarray) -> None:
        read = [d for d in detector.detect(img) if d.card]
        self.photos += 1
        if not read:
            self.misses.append(f"{name}: unread")
            return
        top = max(read, key=lambda d: d.confidence)
        if top.card == truth:
            self.right += 1
            return
        self.wrong_counted += top.confidence >= COUNTED
        self.wrong_sure += top.confidence >= SURE
        self.misses.append(f"{name}: read {top.card} ({top.confidence:.2f})")

    @property
    def pct(self) -> float:
        return 100.0 * self.right / max(self.photos, 1)

    @property
    def unread(self) -> int:
        """The photos read as no card at all."""
        return sum(m.endswith(": unread") for m in self.misses)


def print_tallies(
    tallies: dict[str, Tally], show_misses: bool, width: int = 7, unread: bool = False
) -> None:
    """Each kind's line (with the photos read as nothing, if ``unread``), and its misses
    if asked."""
    for kind, t in tallies.items():
        gone = f"unread {t.unread}  " if unread else ""
        print(
            f"{kind:{width}s} right {t.right}/{t.photos} ({t.pct:.1f}%)  {gone}wrong counted "
            f"{t.wrong_counted}  wrong sure {t.wrong_sure}"
        )
        if show_misses:
            for m in t.misses:
                print(f"    {m}")


def folder_arguments(ap: argparse.ArgumentParser) -> None:
    """The arguments that pick the photos: the folder, the part of the real-photo set
    (never its held-out part) and every how many (for the benches that read singles)."""
    ap.add_argument("dir", type=Path, help="a folder of single-card photos named by their card")
    ap.add_argument(
        "--part",
        choices=[p for p in PARTS if p != "held"],
        default="all",
        help="a part of the real-photo set (bench/photo_split.py): dev for its development "
        "photos; all (the default) for a folder of your own. The held-out part is not read here",
    )
    ap.add_argument("--every", type=int, default=1, help="take every Nth photo (quick subsets)")


def chosen_photos(args: argparse.Namespace) -> list[Path]:
    """The photos :func:`folder_arguments` pick, named by their card; says which were left
    out unnamed, and where some are named as the real-photo set's held-out ones."""
    photos = [p for p in args.dir.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES]
    unnamed = sorted(p.name for p in photos if not label_of(p))
    if unnamed:
        print(f"{len(unnamed)} photos not named by their card left out (first: {unnamed[0]})")
    paths = sorted(p for p in photos if label_of(p) and in_part(p.name, args.part))
    paths = paths[:: max(args.every, 1)]
    if args.part == "all" and any(held_out(p.name) for p in paths):
        print(
            "note: some of these photos are named as the real-photo set's held-out ones "
            "(bench/photo_split.py); for that set, --part dev leaves them out"
        )
    return paths


def decoded(paths: list[Path]) -> Iterator[tuple[Path, np.ndarray, str]]:
    """Each photo that decodes, with its card (saying which do not, and going on)."""
    for p in paths:
        img = load_frame(p)
        if img is None:
            print(f"{p.name} will not decode as a picture: left out")
            continue
        truth = label_of(p)
        assert truth is not None
        yield p, img, truth


#: A tally of one kind of spoiling: of single photos or of scenes.
AnyTally = TypeVar("AnyTally", "Tally", "SceneTally")


def read_each_way(
    photos: Iterable[tuple[str, np.ndarray, Any]],
    tally: Callable[[], AnyTally],
    kinds: dict[str, Callable[[np.ndarray, np.random.Generator], np.ndarray]],
) -> dict[str, AnyTally]:
    """Each (name, photo, truth) read plain and then spoiled each way, by one detector
    and in that order (the spoilings that draw noise share one generator), into a tally
    per kind made by ``tally``."""
    detector = CardDetector()
    tallies = {"plain": tally(), **{k: tally() for k in kinds}}
    rng = np.random.default_rng(0)
    for name, img, truth in photos:
        tallies["plain"].add(name, truth, detector, img)
        for kind, spoil in kinds.items():
            tallies[kind].add(name, truth, detector, spoil(img, rng))
    return tallies


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    folder_arguments(ap)
    ap.add_argument("--only", choices=sorted(KINDS), default=None, help="one kind of spoiling")
    ap.add_argument("--show-misses", action="store_true")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if not args.dir.is_dir():
        print(f"vision_degraded: {args.dir} is not a folder")
        return 2
    kinds = {args.only: KINDS[args.only]} if args.only else KINDS
    if (args.dir / "labels.json").is_file():
        return bench_scenes(args, kinds)
    paths = chosen_photos(args)
    if not paths:
        where = f"{args.dir}" if args.part == "all" else f"the {args.part} part of {args.dir}"
        print(
            f"vision_degraded: no photo in {where} is named by its card (AS_1.jpg, 10h.png); "
            "scenes are not read here"
        )
        return 2
    tallies = read_each_way(
        ((p.name, img, truth) for p, img, truth in decoded(paths)), Tally, kinds
    )
    plain = tallies["plain"]
    if not plain.photos:
        print(f"vision_degraded: no photo in {args.dir} could be read")
        return 2
    print_tallies(tallies, args.show_misses)
    print(
        f"vision_degraded photos={plain.photos} plain_right_pct={plain.pct:.1f} "
        + over_spoiled(tallies, "right")
    )
    return 0


def over_spoiled(tallies: dict[str, Tally] | dict[str, SceneTally], share: str) -> str:
    """The summary line's figures over the spoiled kinds (every tally but ``plain``): the
    mean and the worst kind's ``share`` (``mean_{share}_pct``), the worst's ratio to
    plain, and the wrong reads counted and sure, summed."""
    plain = tallies["plain"]
    spoiled = {k: t for k, t in tallies.items() if k != "plain"}
    worst = min(spoiled, key=lambda k: spoiled[k].pct)
    mean = sum(t.pct for t in spoiled.values()) / len(spoiled)
    return (
        f"mean_{share}_pct={mean:.1f} worst={worst} worst_{share}_pct={spoiled[worst].pct:.1f} "
        f"ratio_worst_to_plain={spoiled[worst].pct / max(plain.pct, 1e-9):.3f} "
        f"wrong_counted={sum(t.wrong_counted for t in spoiled.values())} "
        f"wrong_sure={sum(t.wrong_sure for t in spoiled.values())}"
    )


def bench_scenes(
    args: argparse.Namespace,
    kinds: dict[str, Callable[[np.ndarray, np.random.Generator], np.ndarray]],
) -> int:
    """The scenes of a folder with a ``labels.json`` (as ``bench/vision_accuracy.py`` reads
    them), plain and spoiled: the share of their labelled cards counted, per kind."""
    try:
        labels = scene_labels(json.loads((args.dir / "labels.json").read_text()), args.dir)
    except (ValueError, CaptureError) as e:
        print(f"vision_degraded: {args.dir / 'labels.json'}: {e}")
        return 2
    names = sorted(n for n in labels if in_part(n, args.part))[:: max(args.every, 1)]

    def scenes() -> Iterator[tuple[str, np.ndarray, set[str]]]:
        for name in names:
            img = load_frame(args.dir / name)
            if img is None:
                print(f"{name} will not decode as a picture: left out")
                continue
            yield name, img, set(labels[name])

    tallies = read_each_way(scenes(), SceneTally, kinds)
    plain = tallies["plain"]
    if not plain.scenes:
        print(f"vision_degraded: no scene in {args.dir} could be read")
        return 2
    for kind, t in tallies.items():
        print(
            f"{kind:7s} counted {t.right}/{t.cards} ({t.pct:.1f}%)  wrong counted "
            f"{t.wrong_counted}  wrong sure {t.wrong_sure}"
        )
        for m in t.misses if args.show_misses else ():
            print(f"    {m}")
    print(
        f"vision_degraded_scenes scenes={plain.scenes} cards={plain.cards} "
        f"plain_counted_pct={plain.pct:.1f} plain_wrong_counted={plain.wrong_counted} "
        + over_spoiled(tallies, "counted")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
