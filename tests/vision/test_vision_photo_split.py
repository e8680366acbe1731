"""The real-photo set's parts (bench/photo_split.py) by file name: the inner split of the
development part must be disjoint, cover it, and never take a held-out photo; the photos
moved from the held-out part are development photos."""

from __future__ import annotations

import runpy
from pathlib import Path

SPLIT = runpy.run_path(str(Path(__file__).resolve().parents[2] / "bench" / "photo_split.py"))
in_part = SPLIT["in_part"]

NAMES = {
    # white phone deck: early, inner-late (from 20:00), moved from the held-out part to
    # development (20:05 to 20:14), held out (from 20:14)
    "2C_IMG_20220921_194205_jpg.jpg": "dev-early",
    "2C_IMG_20220921_200020_jpg.jpg": "dev-late",
    "2C_IMG_20220921_200547_jpg.jpg": "dev-moved",
    "2C_IMG_20220921_200959_jpg.jpg": "dev-moved",
    "2C_IMG_20220921_201000_jpg.jpg": "dev-moved",
    "2C_IMG_20220921_201259_jpg.jpg": "dev-moved",
    "2C_IMG_20220921_201300_jpg.jpg": "dev-moved",
    "2C_IMG_20220921_201359_jpg.jpg": "dev-moved",
    "2C_IMG_20220921_201400_jpg.jpg": "held",
    # black-and-gold deck: early, inner-late (from 7770), held out (from 7790)
    "2D_IMG_7751_JPG.jpg": "dev-early",
    "multi_IMG_7775_JPG.jpg": "dev-late",
    "multi_IMG_7792_JPG.jpg": "held",
    # webcam: early, inner-late (from 12:54), held out (from 17:12)
    "multi_WIN_20240627_12_53_51_Pro_jpg.jpg": "dev-early",
    "multi_WIN_20240627_17_05_18_Pro_jpg.jpg": "dev-late",
    "multi_WIN_20240630_10_00_00_Pro_jpg.jpg": "held",
}


def test_each_photo_is_in_exactly_one_inner_part_or_held_out() -> None:
    for name, part in NAMES.items():
        got = [p for p in ("dev-early", "dev-late", "dev-moved", "held") if in_part(name, p)]
        assert got == [part], name
        assert in_part(name, "dev") == (part != "held"), name
        assert in_part(name, "all")
