"""Whether kept reads (``vision.known``) read real tables as reading afresh does: each
labelled scene is read, then the same photo a frame later (fresh sensor noise, JPEG loss)
is read with the reads kept from the first and afresh, and the cards the tracker would
count (0.5 or more) are compared.

    .venv/bin/python bench/vision_kept.py DIR [--part PART] [--limit N]

DIR holds scenes with a ``labels.json`` (``bench/vision_accuracy.py``'s scene folders;
``--part`` picks a part of the real-photo set, ``bench/photo_split.py``; default
``dev``). Two reads afresh of a photo and of the same photo a frame later disagree now
and then (a card read at the edge of 0.5, a pair found in one and not the other): that
is the yardstick, ``afresh_twice_differ``. Ends with one summary line:
``vision_kept photos=… same=… differ=… afresh_twice_differ=… cards=… right_kept=…
right_afresh=…`` (``same``/``differ``: the frame a moment later read with kept reads
against afresh; ``right_*``: labelled cards counted, each way).
"""

from __future__ import annotations

import argparse
import json
import runpy
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import CardDetector  # noqa: E402
from vision.detector import CORNER_MIN, Detection  # noqa: E402
from vision.known import KnownReads  # noqa: E402
from vision.synth import a_moment_later  # noqa: E402


def counted(dets: list[Detection]) -> set[str]:
    return {d.card for d in dets if d.card and d.confidence >= CORNER_MIN}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("dir", type=Path, help="scenes with a labels.json")
    ap.add_argument("--part", default="dev", help="part of the real-photo set (default dev)")
    ap.add_argument("--limit", type=int, default=0, help="the first N scenes only")
    args = ap.parse_args(argv)
    labels_file = args.dir / "labels.json"
    if not labels_file.exists():
        ap.error(f"{labels_file} is not there: DIR must hold scenes with a labels.json")
    accuracy = runpy.run_path(str(ROOT / "bench" / "vision_accuracy.py"), run_name="bench")
    split = runpy.run_path(str(ROOT / "bench" / "photo_split.py"), run_name="bench")
    if args.part not in split["PARTS"]:
        ap.error(f"--part must be one of {', '.join(split['PARTS'])}")
    labels = json.loads(labels_file.read_text())
    names = [n for n in sorted(labels) if split["in_part"](n, args.part)]
    names = names[: args.limit] if args.limit else names
    detector = CardDetector()
    same = differ = twice = cards = right_kept = right_afresh = 0
    for i, name in enumerate(names):
        frame = accuracy["load_frame"](args.dir / name)
        if frame is None:
            print(f"skipped {name}: not readable")
            continue
        known: KnownReads = KnownReads()
        first = counted(detector.detect(frame, known=known))
        later = a_moment_later(frame, np.random.default_rng(i), noise=3.0, quality=90)
        kept = counted(detector.detect(later, known=known))
        afresh = counted(detector.detect(later))
        truth = set(labels[name])
        cards += len(truth)
        right_kept += len(kept & truth)
        right_afresh += len(afresh & truth)
        twice += first != afresh
        if kept == afresh:
            same += 1
        else:
            differ += 1
            print(f"{name}: kept {sorted(kept)} afresh {sorted(afresh)} labels {sorted(truth)}")
    print(
        f"vision_kept photos={same + differ} same={same} differ={differ} "
        f"afresh_twice_differ={twice} cards={cards} right_kept={right_kept} "
        f"right_afresh={right_afresh}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
