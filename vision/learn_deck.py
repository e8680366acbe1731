"""Learn one specific deck's own index glyphs from labelled pictures of its cards.

    .venv/bin/python -m vision.learn_deck DIR OUT.npz

DIR holds one picture per card (more are fine), named by card like the benchmark sets
(``AS.jpg``, ``TD_01.jpg``, ``10C_00.jpg``): a camera frame with the card alone on the
table, or a flat scan of the card. The glyphs read from both corners become reference
examples that the detector blends in (``CardDetector(deck_glyphs=OUT)``), which fixes a
deck whose typeface the generic model finds unusual.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from vision import glyphs
from vision.detector import CARD_SIZE
from vision.imageio import read_image
from vision.index import corners, find_index
from vision.locate import find_quads, rectify
from vision.model import RANKS, SUITS, DeckGlyphs

_LABEL = re.compile(r"^(10|[AKQJT98765432])([SHDC])", re.IGNORECASE)


def label_of(name: str) -> str | None:
    m = _LABEL.match(name)
    if not m:
        return None
    rank = m.group(1).upper()
    return ("10" if rank in ("T", "10") else rank) + m.group(2).upper()


def card_views(image: np.ndarray) -> list[np.ndarray]:
    """Rectified views of the card in ``image``: the largest outline, else the whole image."""
    quads = find_quads(image)
    if quads:
        q = max(quads, key=lambda q: cv2.contourArea(q.astype(np.float32)))
        return [rectify(image, q, CARD_SIZE)]
    h, w = image.shape[:2]
    if h < w:
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    return [cv2.resize(image, CARD_SIZE, interpolation=cv2.INTER_AREA)]


def learn_deck(samples: Iterable[tuple[str, np.ndarray]]) -> DeckGlyphs:
    """Learn a deck's glyphs from ``(label, image)`` pairs (label like ``10C`` or ``TC``)."""
    rank_x, rank_y, suit_x, suit_y = [], [], [], []
    for label, image in samples:
        rank, suit = label[:-1], label[-1]
        rank = "10" if rank == "T" else rank
        for card in card_views(image):
            for corner in corners(card):
                g = find_index(corner)
                if g is None:
                    continue
                rank_x.append(glyphs.normalise(g.rank))
                rank_y.append(RANKS.index(rank))
                suit_x.append(glyphs.normalise(g.suit))
                suit_y.append(SUITS.index(suit))
    if not rank_x:
        return DeckGlyphs()
    return DeckGlyphs(
        glyphs.features(np.stack(rank_x)),
        np.array(rank_y, np.int32),
        glyphs.features(np.stack(suit_x)),
        np.array(suit_y, np.int32),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("dir", type=Path)
    ap.add_argument("out", type=Path)
    args = ap.parse_args(argv)

    def samples() -> Iterable[tuple[str, np.ndarray]]:
        for p in sorted(args.dir.iterdir()):
            label = label_of(p.name)
            img = read_image(p) if label else None
            if img is not None and label is not None:
                yield label, img

    learned = learn_deck(samples())
    learned.save(args.out)
    print(f"learn_deck glyphs={len(learned.rank_y)} out={args.out}")
    return 0 if len(learned.rank_y) else 1


if __name__ == "__main__":
    raise SystemExit(main())
