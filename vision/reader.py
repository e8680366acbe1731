"""Read a rectified card: both index corners, classified and checked against each other."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision import glyphs
from vision.index import IndexGlyphs, corners, find_index
from vision.model import RANKS, SUITS, GlyphModel

#: Ink at least this much redder (Lab a*) than the paper is red ink.
RED_THRESHOLD = 12.0
_RED = {"H", "D"}


@dataclass(frozen=True)
class CornerRead:
    rank: str
    suit: str
    confidence: float


@dataclass(frozen=True)
class CardRead:
    """What a card says: ``card`` like ``TS``, or None if unreadable or the corners disagree."""

    card: str | None
    confidence: float
    corners: tuple[CornerRead | None, ...]


def card_text(rank: str, suit: str) -> str:
    return ("T" if rank == "10" else rank) + suit


def _suit_proba(p_shape: np.ndarray, redness: float) -> np.ndarray:
    """Shape probabilities weighed by colour: red ink can only be hearts or diamonds.

    Colour is a soft cue (a sigmoid around the threshold), so a dim red under warm light
    still leans on shape rather than being forced into the wrong pair.
    """
    p_red = 1.0 / (1.0 + np.exp(-(redness - RED_THRESHOLD) / 3.0))
    w = np.array([1 - p_red if s not in _RED else p_red for s in SUITS[:-1]] + [0.5])
    p = p_shape * w
    return p / max(p.sum(), 1e-9)


class CardReader:
    """Turns a rectified upright card image into a :class:`CardRead`."""

    def __init__(self, model: GlyphModel | None = None) -> None:
        self.model = model or GlyphModel.load()

    def read_corner_glyphs(self, found: list[IndexGlyphs]) -> list[CornerRead]:
        if not found:
            return []
        rx = glyphs.features(np.stack([glyphs.normalise(f.rank) for f in found]))
        sx = glyphs.features(np.stack([glyphs.normalise(f.suit) for f in found]))
        pr = self.model.rank_proba(rx)
        ps = self.model.suit_proba(sx)
        # Only a ten is printed as two glyphs side by side; one blob is rarely a ten
        # (its digits touch only when badly blurred). A structural hint the shape
        # classifier cannot see once the glyph is scaled into its box.
        ten = RANKS.index("10")
        for i, f in enumerate(found):
            pr[i, ten] *= 4.0 if f.rank_parts >= 2 else 0.4
            pr[i] /= pr[i].sum()
        out = []
        for i, f in enumerate(found):
            s = _suit_proba(ps[i], f.redness)
            ri, si = int(pr[i].argmax()), int(s.argmax())
            out.append(CornerRead(RANKS[ri], SUITS[si], float(pr[i, ri] * s[si])))
        return out

    def read(self, card_bgr: np.ndarray) -> CardRead:
        found = [find_index(c) for c in corners(card_bgr)]
        present = [f for f in found if f is not None]
        reads = iter(self.read_corner_glyphs(present))
        per_corner = tuple(next(reads) if f is not None else None for f in found)
        good = [r for r in per_corner if r is not None and r.rank != "junk" and r.suit != "junk"]
        if not good:
            return CardRead(None, 0.0, per_corner)
        texts = {card_text(r.rank, r.suit) for r in good}
        if len(texts) > 1:  # the two corners must agree
            return CardRead(None, 0.0, per_corner)
        conf = float(np.mean([r.confidence for r in good]))
        if len(good) == 1:
            conf *= 0.8  # one corner only (the other covered): believable, less so
        else:
            conf = 1 - (1 - good[0].confidence) * (1 - good[1].confidence)
        return CardRead(texts.pop(), conf, per_corner)
