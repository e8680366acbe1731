"""The top card of a pile whose outline is not a card: found by one visible corner.

Cards thrown into the middle land on each other, and white stock on white stock shows
no seam, so the pile's outline is the union of several cards and no quad fits it. But
the card on top is whole, and at least one of its corners — where the index is printed
— is a right-angled corner of that outline. Each such corner, with the two sides leaving
it and the card's size (taken from the cards found whole in the same frame, or guessed
from the pile), gives a hypothetical card outline; its top-left index alone is read.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.locate import order_quad

#: How far from a right angle a card corner may look (degrees): perspective and the
#: rounding of the corner bend it.
ANGLE_TOLERANCE = 22.0
#: Card proportions (long over short side) tried when no whole card gives them.
ASPECT = 1.4
#: At most this many corner hypotheses are read per frame (each costs a read).
MAX_HYPOTHESES = 16


#: The turning sense of an upright card's corners, top-left first, in image coordinates.
_UPRIGHT = np.sign(
    cv2.contourArea(
        np.array([[0, 0], [2, 0], [2, 3], [0, 3]], np.float32).reshape(-1, 1, 2), oriented=True
    )
)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.linalg.norm(v)), 1e-6)


def corner_hypotheses(
    mask: np.ndarray, scale: float, short_side: float | None, by_sides: bool = False
) -> list[np.ndarray]:
    """Card outlines (frame pixels, the index corner first) from right-angled convex
    corners of the blobs in ``mask`` (a working-size mask; ``scale`` working/frame).

    Without ``short_side`` the card's size is guessed from the blob's area, or, with
    ``by_sides``, from each corner's shorter side (a blob of several cards touching one
    another is far bigger than any of them; a corner's sides are one card's own)."""
    h, w = mask.shape
    least = 0.004 * h * w
    if short_side:  # a pile is at least one whole card
        least = max(least, 0.8 * ASPECT * (short_side * scale) ** 2)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out: list[tuple[float, np.ndarray]] = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < least:
            continue
        poly = cv2.approxPolyDP(c, 0.012 * cv2.arcLength(c, True), True).reshape(-1, 2)
        poly = poly.astype(np.float32)
        n = len(poly)
        if n < 5:  # a plain quad was the locator's job already
            continue
        # the contour's own turning sense, to tell convex corners from notches
        sense = np.sign(cv2.contourArea(poly.reshape(-1, 1, 2), oriented=True))
        s_short = short_side * scale if short_side else np.sqrt(area / ASPECT) * 0.9
        for i in range(n):
            p, a, b = poly[i], poly[i - 1], poly[(i + 1) % n]
            if min(p[0], p[1], w - 1 - p[0], h - 1 - p[1]) < 0.03 * max(h, w):
                continue  # where the frame cuts a region off: no card's corner
            va, vb = a - p, b - p
            la, lb = float(np.linalg.norm(va)), float(np.linalg.norm(vb))
            if min(la, lb) < 0.2 * s_short:
                continue
            cos = float(np.dot(va, vb) / (la * lb))
            if abs(cos) > np.sin(np.deg2rad(ANGLE_TOLERANCE)):
                continue
            cross = float(va[0] * vb[1] - va[1] * vb[0])
            if np.sign(cross) == sense:
                continue  # a notch between two cards, not a card's corner
            ua, ub = _unit(va), _unit(vb)
            side = min(s_short, la, lb) if by_sides and not short_side else s_short
            long = side * ASPECT
            for short_u, long_u in ((ua, ub), (ub, ua)):
                quad = np.array(
                    [
                        p,
                        p + short_u * side,
                        p + short_u * side + long_u * long,
                        p + long_u * long,
                    ],
                    np.float32,
                )
                # An index is printed in the top-left (and bottom-right) corner of an
                # upright card: of the two ways to lay a card on this corner, only the one
                # that turns like an upright card puts an index here.
                if np.sign(cv2.contourArea(quad.reshape(-1, 1, 2), oriented=True)) == _UPRIGHT:
                    out.append((min(la, lb), quad / scale))
    out.sort(key=lambda t: -t[0])  # the longest visible sides first
    return [q for _, q in out[:MAX_HYPOTHESES]]


def card_short_side(quads: list[np.ndarray]) -> float | None:
    """The median short side (frame pixels) of the cards found whole."""
    if not quads:
        return None
    sides = [
        min(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[1] - q[2]))
        for q in map(order_quad, quads)
    ]
    return float(np.median(sides))
