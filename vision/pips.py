"""The pips in the body of a card: a second opinion on its suit, and on a spot card's rank.

The index glyphs are small: at table distance a club in the corner is ten pixels tall and
blurs towards a spade, and an unusual typeface can make a 3 look like a 5. The body of a
spot card repeats the suit in large pips, as many as the rank says. Both cues are soft —
a pip can be covered by the next card played, a court card has a picture, not pips — so
the reader only multiplies them into what the corners said.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import glyphs
from vision.index import ink_score
from vision.model import SUITS, GlyphModel

#: Part of the card where pips lie (fractions of width and height): clear of both indices.
BODY_X0, BODY_X1, BODY_Y0, BODY_Y1 = 0.17, 0.83, 0.06, 0.94


@dataclass(frozen=True)
class Pips:
    """What the body of a card shows: its pips' suit vote, and how many pips agree."""

    suit_proba: np.ndarray  # over SUITS without "junk", sums to 1
    count: int


def _hull_area(mask: np.ndarray) -> float:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return float(cv2.contourArea(cv2.convexHull(np.concatenate(contours)))) + 1.0


def read_pips(card_bgr: np.ndarray, model: GlyphModel) -> Pips | None:
    """The pips of an upright rectified card, or None if its body holds no pip-like shapes."""
    h, w = card_bgr.shape[:2]
    x0, x1 = int(w * BODY_X0), int(w * BODY_X1)
    y0, y1 = int(h * BODY_Y0), int(h * BODY_Y1)
    body = card_bgr[y0:y1, x0:x1]
    ink, _, _, _ = ink_score(body)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    bh, bw = ink.shape
    masks, areas = [], []
    for i in range(1, n):
        x, y, cw, ch, area = (int(v) for v in stats[i])
        if x == 0 or y == 0 or x + cw >= bw or y + ch >= bh:
            continue  # cut by the body's edge: a frame line, a picture, an index
        if not (0.05 * h <= ch <= 0.2 * h) or not (0.6 <= cw / ch <= 1.4):
            continue
        mask = (labels[y : y + ch, x : x + cw] == i).astype(np.uint8) * 255
        if area < 0.75 * _hull_area(mask):  # pips are solid; outlines and figures are not
            continue
        masks.append(mask)
        areas.append(area)
    if not masks:
        return None
    # Pips stand both ways up, and decks differ on which way a middle pip faces: a pip
    # counts for a suit by its better reading of the two. (An upside-down heart reads
    # as a spade too, but every pip of a heart reads as a heart one way or the other.)
    upright = np.stack([glyphs.normalise(m) for m in masks])
    both = model.suit_proba(glyphs.features(np.concatenate([upright, upright[:, ::-1, ::-1]])))
    p = np.maximum(both[: len(masks)], both[len(masks) :])[:, : len(SUITS) - 1]
    score = p.sum(axis=0)
    suit = int(score.argmax())
    agree = p[:, suit] > 0.5
    if not agree.any():
        return None
    # the pips of one card are one size; the big pip beside a picture counts alone
    area = np.asarray(areas, np.float32)
    med = float(np.median(area[agree]))
    count = int((agree & (area >= 0.6 * med) & (area <= 1.6 * med)).sum())
    vote = score / max(float(score.sum()), 1e-9)
    return Pips(vote, count)
