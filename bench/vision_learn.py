"""How much learning a deck's own glyphs helps: the organiser's procedure, measured.

    .venv/bin/python bench/vision_learn.py LEARN MEASURE [--learn-part PART] [--part PART]
                                          [--only TEXT] [--out deck.npz] [--as-saved]

LEARN holds single-card captures named by card (as ``courtpiece camera capture`` saves
them, or as ``bench/make_vision_set.py`` makes them from a deck's faces); their glyphs
are learned the way ``courtpiece camera learn`` learns them (``vision.learn_deck``).
MEASURE (single-card photos, or scenes with a ``labels.json``) is then read twice in
the same run: by the generic reader and by the reader with the learned glyphs.
``--learn-part`` and ``--part`` pick parts of the real-photo set
(``bench/photo_split.py``), ``--only`` one series (``IMG_2022``: the white deck,
``IMG_7``: the black-and-gold one). Measure on other frames than those learned from (a
second capture): read on its own captures a learned deck looks better than it will
play. Ends with one summary line:
``vision_learn pictures=… used=… glyphs=… generic_right_pct=… learned_right_pct=…
ratio_learned_to_generic=… generic_wrong_sure=… learned_wrong_sure=…
generic_wrong_counted=… learned_wrong_counted=…`` (wrong reads at 0.9 or more, and at 0.5
or more: those the tracker would count as plays), and for single-card photos
``generic_also_counted=… learned_also_counted=…`` (photos where another card is counted
beside the right one: ``courtpiece camera check`` reports the same).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parent))

from photo_split import PARTS, in_part  # noqa: E402
from vision_accuracy import TemplateBaseline, bench_scenes, bench_singles, label_of  # noqa: E402

from vision import CardDetector  # noqa: E402
from vision.imageio import read_image  # noqa: E402
from vision.learn_deck import LearnReport, learn_deck  # noqa: E402

PICTURES = (".jpg", ".jpeg", ".png")


def figures(line: str) -> dict[str, str]:
    """The key=value pairs of a bench summary line."""
    return dict(re.findall(r"(\w+)=(\S+)", line))


def measure(
    folder: Path, detector: CardDetector, part: str, only: str, as_saved: bool = False
) -> dict[str, str]:
    """The accuracy bench's figures for ``folder`` read by ``detector`` (``as_saved``: see
    ``bench/vision_accuracy.py --as-saved``)."""
    baseline = TemplateBaseline()
    labels_file = folder / "labels.json"
    if labels_file.exists():
        labels = json.loads(labels_file.read_text())
        names = sorted(n for n in labels if in_part(n, part) and only in n)
        return figures(
            bench_scenes(
                folder,
                {n: labels[n] for n in names},
                detector,
                baseline,
                False,
                as_saved=as_saved,
            )
        )
    paths = sorted(
        p
        for p in folder.iterdir()
        if label_of(p) and p.suffix.lower() in PICTURES and in_part(p.name, part) and only in p.name
    )
    f = figures(bench_singles(paths, detector, baseline, False, as_saved=as_saved))
    f["right_pct"] = f["both_right_pct"]
    return f


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("learn", type=Path, help="single-card captures named by card")
    ap.add_argument("measure", type=Path, help="single-card photos, or scenes with labels.json")
    ap.add_argument("--learn-part", choices=PARTS, default="all")
    ap.add_argument("--part", choices=PARTS, default="all")
    ap.add_argument("--only", default="", metavar="TEXT", help="only files whose name holds TEXT")
    ap.add_argument("--out", type=Path, help="also save the learned glyphs here")
    ap.add_argument(
        "--as-saved",
        action="store_true",
        help="read MEASURE's pictures at the size they were saved, as the referee (and "
        "courtpiece camera check) reads them, not scaled to 1280 px",
    )
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)

    def captures():  # noqa: ANN202
        for p in sorted(args.learn.iterdir()):
            card = label_of(p)
            if card is None or p.suffix.lower() not in PICTURES:
                continue
            if not in_part(p.name, args.learn_part) or args.only not in p.name:
                continue
            img = read_image(p)
            if img is not None:
                yield card, img, p.name

    report = LearnReport()
    learned = learn_deck(captures(), report=report)
    for name, why in report.skipped:
        print(f"passed over {name}: {why}")
    if args.out:
        learned.save(args.out)
    print(f"learned {len(learned.rank_y)} glyphs from {report.used} of {report.pictures}")
    print("generic reader:")
    generic = measure(args.measure, CardDetector(), args.part, args.only, args.as_saved)
    print("with the learned glyphs:")
    own = measure(
        args.measure, CardDetector(deck_glyphs=learned), args.part, args.only, args.as_saved
    )
    g, o = float(generic["right_pct"]), float(own["right_pct"])
    line = (
        f"vision_learn pictures={report.pictures} used={report.used} "
        f"glyphs={len(learned.rank_y)} generic_right_pct={g:.1f} learned_right_pct={o:.1f} "
        f"ratio_learned_to_generic={o / max(g, 1e-9):.3f} "
        f"generic_wrong_sure={generic['wrong_sure']} learned_wrong_sure={own['wrong_sure']}"
    )
    if "wrong_counted" in generic:
        line += (
            f" generic_wrong_counted={generic['wrong_counted']}"
            f" learned_wrong_counted={own['wrong_counted']}"
        )
    if "also_counted" in generic:  # singles: another card counted beside the right one
        line += (
            f" generic_also_counted={generic['also_counted']}"
            f" learned_also_counted={own['also_counted']}"
        )
    print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
