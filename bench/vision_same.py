"""Whether a change to the camera path changes any read: dump the detector's output on fixed
frames, then compare two dumps.

    .venv/bin/python bench/vision_same.py dump OUT.json [--photos DIR] [--code ROOT]
    .venv/bin/python bench/vision_same.py compare BEFORE.json AFTER.json

A speed-up should read every frame as before. ``dump`` runs the detector on 40 rendered
four-card tables (the frames of ``bench/vision_speed.py``) and, with ``--photos``, on the
development part of the real-photo set (``bench/photo_split.py``; the held-out part is
never read here), recording each detection's card, confidence and outline. ``--code``
runs another checkout's ``vision`` package (a ``git worktree`` of the commit before), so
both dumps come from one machine. ``compare`` prints each frame whose cards differ, and
ends with one summary line:
``vision_same frames=… same=… near=… cards_differ=… confidence_differs=… most_px=…``
(``near``: the same cards and confidences within 0.0005, outlines moved by at most
``most_px`` pixels; ``confidence_differs``: the same cards, a confidence changed).
"""

from __future__ import annotations

import argparse
import json
import runpy
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def dump(out: Path, photos: Path | None, code: Path) -> int:
    if not (code / "vision" / "__init__.py").is_file():
        print(f"vision_same: no vision package under {code} (--code is a checkout)")
        return 2
    if photos is not None and not (photos / "singles").is_dir():
        print(f"vision_same: {photos} has no singles/ (--photos is phone-photos-ccby)")
        return 2
    sys.path.insert(0, str(code))
    sys.path.append(str(ROOT / "bench"))  # photo_split, after the package
    import cv2
    from photo_split import development_photos

    from vision import CardDetector

    # the speed bench's frames (it imports vision too: the one imported above stays)
    tables = runpy.run_path(str(ROOT / "bench" / "vision_speed.py"), run_name="bench")
    cv2.setNumThreads(1)
    detector = CardDetector()
    frames: dict[str, list] = {}

    def record(dets) -> list:  # noqa: ANN001
        return [
            (d.card, round(float(d.confidence), 4), [round(float(v), 2) for v in d.quad.ravel()])
            for d in dets
        ]

    t0 = time.perf_counter()
    for i, (frame, _) in enumerate(tables["four_card_tables"](40)):
        frames[f"rendered-{i}"] = record(detector.detect(frame))
    if photos is not None:
        for name, img in development_photos(photos):
            frames[name] = record(detector.detect(img))
    out.write_text(json.dumps(frames))
    import vision

    where = Path(vision.__file__).parent
    print(f"dumped {len(frames)} frames in {time.perf_counter() - t0:.0f} s to {out} ({where})")
    return 0


def _order(d: list) -> tuple:
    """Detections of one frame in a fixed order: by card, then where they lie (numbers,
    not their text, so a slightly moved outline keeps its place)."""
    return (str(d[0]), d[1], d[2])


def compare(before: Path, after: Path) -> int:
    a, b = (json.loads(p.read_text()) for p in (before, after))
    same = near = differ = doubted = 0
    most = 0.0
    for name, was in a.items():
        now = b.get(name, [])
        if was == now:
            same += 1
            continue
        if sorted(str(d[0]) for d in was) != sorted(str(d[0]) for d in now):
            differ += 1
            print(name, [(d[0], d[1]) for d in was], "->", [(d[0], d[1]) for d in now])
            continue
        pairs = zip(sorted(was, key=_order), sorted(now, key=_order), strict=True)
        moved = 0.0
        for x, y in pairs:
            if abs(x[1] - y[1]) > 0.0005:
                moved = float("inf")
            moved = max(moved, *(abs(u - v) for u, v in zip(x[2], y[2], strict=True)))
        if moved == float("inf"):
            doubted += 1
            print(
                name, "confidence", [(d[0], d[1]) for d in was], "->", [(d[0], d[1]) for d in now]
            )
            continue
        near += 1
        most = max(most, moved)
    print(
        f"vision_same frames={len(a)} same={same} near={near} cards_differ={differ} "
        f"confidence_differs={doubted} most_px={most:.2f}"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="what", required=True)
    d = sub.add_parser("dump", help="run the detector on the fixed frames")
    d.add_argument("out", type=Path)
    d.add_argument("--photos", type=Path, help="the phone-photos-ccby folder")
    d.add_argument("--code", type=Path, default=ROOT, help="checkout whose vision to run")
    c = sub.add_parser("compare", help="compare two dumps")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = ap.parse_args(argv)
    if args.what == "dump":
        return dump(args.out, args.photos, args.code.resolve())
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
