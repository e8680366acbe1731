"""The top card of a pile whose outline is not a card: found by one visible corner.

Cards thrown into the middle land on each other, and white stock on white stock shows
no seam, so the pile's outline is the union of several cards and no quad fits it. But
the card on top is whole, and at least one of its corners — where the index is printed
— is a right-angled corner of that outline. Each such corner, with the two sides leaving
it and the card's size (taken from the cards found whole in the same frame, or guessed
from the pile), gives a hypothetical card outline; its top-left index alone is read.

A close-up is found the same way: a card nearer the camera than the frame is wide shows
one corner, both its sides running off the frame, and no size at all; its card is laid
on that corner at a few sizes, and the read of the index tells which fits.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from statistics import median

import cv2
import numpy as np

from vision.locate import order_quad, side_lengths

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


@dataclass(frozen=True)
class _Corner:
    """A right-angled convex corner of a blob's outline (working-size pixels): the
    corner point, the unit directions of the two sides leaving it, their lengths, and
    whether the frame cuts each side's far end off."""

    at: np.ndarray
    towards: tuple[np.ndarray, np.ndarray]
    lengths: tuple[float, float]
    cut: tuple[bool, bool]


#: A point this near the frame's edge (a share of the mask's long side) is on it.
EDGE_REACH = 0.03


def _corners(
    mask: np.ndarray, plain_quads: bool, shown: np.ndarray | None = None
) -> Iterator[tuple[_Corner, float]]:
    """The right-angled convex corners of the blobs in ``mask`` not on the frame's edge,
    each with its blob's area. ``plain_quads`` False leaves out the blobs outlined as a
    plain quad the frame does not cut (the locator's job already). ``shown``: for a mask
    of the table view, the frame's outline in the mask's pixels (a polygon, Nx2); the
    frame's edge is that outline, which runs slanted across the view, and a blob cut
    there has no card's corner on it."""
    h, w = mask.shape
    least = 0.004 * h * w
    reach = EDGE_REACH * max(h, w)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = None if shown is None else np.asarray(shown, np.float32).reshape(-1, 1, 2)

    def near_edge(pt: np.ndarray) -> bool:
        if min(pt[0], pt[1], w - 1 - pt[0], h - 1 - pt[1]) < reach:
            return True
        # (inside the outline the distance to it is positive, outside negative)
        return outline is not None and (
            cv2.pointPolygonTest(outline, (float(pt[0]), float(pt[1])), True) < reach
        )

    for c in contours:
        area = cv2.contourArea(c)
        if area < least:
            continue
        poly = cv2.approxPolyDP(c, 0.012 * cv2.arcLength(c, True), True).reshape(-1, 2)
        poly = poly.astype(np.float32)
        poly = _square_chamfers(poly)
        n = len(poly)
        if not plain_quads and n < 5 and not (n == 4 and any(near_edge(v) for v in poly)):
            continue  # a plain quad was the locator's job already (unless the frame cut it)
        # the contour's own turning sense, to tell convex corners from notches
        sense = np.sign(cv2.contourArea(poly.reshape(-1, 1, 2), oriented=True))
        sides = side_lengths(poly).tolist()
        for i in range(n):
            p, a, b = poly[i], poly[i - 1], poly[(i + 1) % n]
            if near_edge(p):
                continue  # where the frame cuts a region off: no card's corner
            va, vb = a - p, b - p
            la, lb = sides[i - 1], sides[i]  # |va| and |vb|
            cos = float(np.dot(va, vb) / max(la * lb, 1e-9))
            if abs(cos) > np.sin(np.deg2rad(ANGLE_TOLERANCE)):
                continue
            cross = float(va[0] * vb[1] - va[1] * vb[0])
            if np.sign(cross) == sense:
                continue  # a notch between two cards, not a card's corner
            ua, ub = va / max(la, 1e-6), vb / max(lb, 1e-6)
            yield _Corner(p, (ua, ub), (la, lb), (near_edge(a), near_edge(b))), area


def _laid(p: np.ndarray, short_u: np.ndarray, long_u: np.ndarray, side: float) -> np.ndarray | None:
    """The card of short side ``side`` lying on the corner ``p`` along those directions,
    its corners from ``p`` on; None where that way round puts no index at ``p``. (An
    index is printed in the top-left and bottom-right corners of an upright card: of
    the two ways to lay a card on a corner, only the one that turns like an upright
    card puts an index there.)"""
    long = side * ASPECT
    quad = np.array(
        [p, p + short_u * side, p + short_u * side + long_u * long, p + long_u * long],
        np.float32,
    )
    if np.sign(cv2.contourArea(quad.reshape(-1, 1, 2), oriented=True)) != _UPRIGHT:
        return None
    return quad


def corner_hypotheses(
    mask: np.ndarray, scale: float, short_side: float | None, shown: np.ndarray | None = None
) -> list[np.ndarray]:
    """Card outlines (frame pixels, the index corner first) from right-angled convex
    corners of the blobs in ``mask`` (a working-size mask; ``scale`` working/frame; for
    a mask of the table view, view pixels, ``shown`` as for :func:`_corners`).

    Without ``short_side`` (no card read whole) the card's size is guessed from the
    corner's own sides that the frame does not cut (a blob of several cards touching one
    another is far bigger than any of them, a card cut by the frame far smaller; a
    corner's whole sides are one card's own), or else from the blob's area. A blob may
    be smaller than one card: the frame can cut it."""
    out: list[tuple[float, np.ndarray]] = []
    for corner, area in _corners(mask, plain_quads=False, shown=shown):
        s_short = short_side * scale if short_side else np.sqrt(area / ASPECT) * 0.9
        la, lb = corner.lengths
        if min(la, lb) < 0.2 * s_short:
            continue
        ua, ub = corner.towards
        cut_a, cut_b = corner.cut
        for short_u, long_u, l_short, l_long, cut_short, cut_long in (
            (ua, ub, la, lb, cut_a, cut_b),
            (ub, ua, lb, la, cut_b, cut_a),
        ):
            side = s_short
            if not short_side:
                # a side the frame does not cut off is about the card's own (longer
                # where a neighbour's edge runs on in line with it, shorter where a
                # card lies over it): the shorter guess, whose corner still holds
                # the index
                sizes = [l_short] * (not cut_short) + [l_long / ASPECT] * (not cut_long)
                side = min(sizes) if sizes else s_short
            quad = _laid(corner.at, short_u, long_u, side)
            if quad is not None:
                out.append((min(la, lb), quad / scale))
    out.sort(key=lambda t: -t[0])  # the longest visible sides first
    return [q for _, q in out[:MAX_HYPOTHESES]]


#: The sizes a close-up's card is tried at, times the least its corner's sides allow.
CLOSE_UP_SIZES = (1.0, 1.3, 1.7, 2.2)
#: A close-up corner's sides are each at least this share of the frame's long side, and
#: both run off the frame: a card nearer than the frame is wide.
CLOSE_UP_SIDE = 0.25


def close_up_hypotheses(
    mask: np.ndarray, scale: float, shown: np.ndarray | None = None
) -> list[np.ndarray]:
    """Card outlines (frame pixels, the index corner first; for a mask of the table
    view, view pixels, ``shown`` as for :func:`_corners`) for a close-up: a card so near
    that its sides run off the frame, one corner in view. Its size is not in view, only
    its least (each side at least as long as the part of it seen), so each corner is
    tried at :data:`CLOSE_UP_SIZES` times that; the read of its index tells the size
    that fits. Longest visible sides first, each corner's sizes smallest first."""
    h, w = mask.shape
    out: list[tuple[float, np.ndarray]] = []
    for corner, _ in _corners(mask, plain_quads=True, shown=shown):
        la, lb = corner.lengths
        if min(la, lb) < CLOSE_UP_SIDE * max(h, w) or not all(corner.cut):
            continue
        ua, ub = corner.towards
        for short_u, long_u, l_short, l_long in ((ua, ub, la, lb), (ub, ua, lb, la)):
            least = max(l_short, l_long / ASPECT)
            for f in CLOSE_UP_SIZES:
                quad = _laid(corner.at, short_u, long_u, least * f)
                if quad is not None:
                    out.append((min(la, lb), quad / scale))
    out.sort(key=lambda t: -t[0])
    return [q for _, q in out]


#: A polygon side shorter than both its neighbours, and this much shorter than the longer,
#: is a card's rounded corner cut across (the outline's simplification makes two bends of
#: it, neither a right angle).
CHAMFER_SHARE = 0.2


def _square_chamfers(poly: np.ndarray) -> np.ndarray:
    """``poly`` with each short side between two long ones replaced by the point where
    those two meet: the card's corner its rounding hid."""
    n = len(poly)
    if n < 5:
        return poly
    sides = side_lengths(poly).tolist()
    out: list[np.ndarray] = []
    skip = set()
    for i in range(n):
        prev, nxt = sides[i - 1], sides[(i + 1) % n]
        if i in skip or sides[i] >= min(prev, nxt, CHAMFER_SHARE * max(prev, nxt)):
            if i not in skip:
                out.append(poly[i])
            continue
        # side i runs from poly[i] to poly[i+1]: meet the lines of sides i-1 and i+1
        a0, a1 = poly[i - 1], poly[i]
        b0, b1 = poly[(i + 1) % n], poly[(i + 2) % n]
        da, db = a1 - a0, b1 - b0
        den = float(da[0] * db[1] - da[1] * db[0])
        if abs(den) < 1e-6:
            out.append(poly[i])
            continue
        t = float((b0[0] - a0[0]) * db[1] - (b0[1] - a0[1]) * db[0]) / den
        meet = a0 + t * da
        if np.linalg.norm(meet - poly[i]) > 2 * sides[i] + 2:
            out.append(poly[i])
            continue
        out.append(meet.astype(np.float32))
        skip.add((i + 1) % n)
    if 0 in skip and out:  # the last side's corner replaced the first point
        out = out[1:]
    return np.array(out, np.float32)


def card_short_side(quads: list[np.ndarray]) -> float | None:
    """The median short side (frame pixels) of the cards found whole."""
    if not quads:
        return None
    sides = [
        min(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[1] - q[2]))
        for q in map(order_quad, quads)
    ]
    # (statistics.median: numpy's value for a handful, without its array set-up)
    return float(median(sides))
