"""Cut the 52 faces of a deck design out of a card-game SVG theme, for measuring.

    .venv/bin/python bench/deck_faces.py THEME.svgz OUT [--layout grid|ids] [--rsvg PATH]

Card games in Debian ship dozens of deck designs, which makes them a supply of decks
the recognition was never developed on: the question ``bench/vision_accuracy.py`` must answer for
a club's own cards. Two layouts are understood:

- ``grid`` (aisleriot, package gnome-cards-data: /usr/share/aisleriot/cards/*.svgz): one
  sheet of 13 columns (ace to king) and rows of clubs, diamonds, hearts, spades;
- ``ids`` (KDE, package kdegames-card-data-kf5: /usr/share/carddecks/svg-*/*.svgz): one
  element per card, ``1_club`` … ``king_spade``.

Needs ``rsvg-convert`` (package librsvg2-bin; ``apt-get download`` and ``dpkg -x`` will do
without root). The faces are written as ``AS.png`` … ``TC.png``; then

    .venv/bin/python bench/make_vision_set.py OUT SET --per-card 1 --seed 7
    .venv/bin/python bench/vision_accuracy.py SET

Nothing here runs in tests, and no deck image is committed.
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2

RANKS = "A23456789TJQK"
GRID_ROWS = "CDHS"
ID_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
ID_SUITS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}


def _svg(theme: Path, tmp: Path) -> Path:
    data = theme.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    out = tmp / "theme.svg"
    out.write_bytes(data)
    return out


def grid(theme: Path, out: Path, rsvg: str) -> int:
    with tempfile.TemporaryDirectory() as t:
        sheet = Path(t) / "sheet.png"
        svg = _svg(theme, Path(t))
        subprocess.run([rsvg, "-w", "3250", "-b", "white", str(svg), "-o", str(sheet)], check=True)
        img = cv2.imread(str(sheet))
    h, w = img.shape[:2]
    cw, ch = w / 13, h / 5  # the fifth row holds jokers and the back
    pad = 3
    for r, suit in enumerate(GRID_ROWS):
        for c, rank in enumerate(RANKS):
            x0, y0 = int(c * cw) + pad, int(r * ch) + pad
            face = img[y0 : int(y0 + ch) - 2 * pad, x0 : int(x0 + cw) - 2 * pad]
            cv2.imwrite(str(out / f"{rank}{suit}.png"), face)
    return 52


def ids(theme: Path, out: Path, rsvg: str) -> int:
    n = 0
    with tempfile.TemporaryDirectory() as t:
        svg = _svg(theme, Path(t))
        for suit, sname in ID_SUITS.items():
            for rank, rname in zip(RANKS, ID_RANKS, strict=True):
                target = out / f"{rank}{suit}.png"
                cmd = [rsvg, "-i", f"{rname}_{sname}", "-w", "250", "-b", "white", str(svg)]
                done = subprocess.run([*cmd, "-o", str(target)], capture_output=True)
                n += done.returncode == 0
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("theme", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--layout", choices=("grid", "ids"), default="grid")
    ap.add_argument("--rsvg", default=shutil.which("rsvg-convert") or "rsvg-convert")
    args = ap.parse_args(argv)
    if not args.theme.is_file():
        print(f"deck_faces: no theme file {args.theme} (gnome-cards-data, kdegames-card-data-kf5)")
        return 2
    if shutil.which(args.rsvg) is None:
        print(f"deck_faces: {args.rsvg} not found: install librsvg2-bin, or give --rsvg PATH")
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    n = (grid if args.layout == "grid" else ids)(args.theme, args.out, args.rsvg)
    print(f"deck_faces theme={args.theme.name} faces={n} out={args.out}")
    return 0 if n == 52 else 1


if __name__ == "__main__":
    sys.exit(main())
