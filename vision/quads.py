"""Card outlines as quadrilaterals in frame pixels: their shape, where they lie, and
which of them are one card.

A card is outlined by several masks and searches at once, so one physical card can
come with several outlines, and a pile or a frame's edge can give outlines that are
no card's. These tests are plain geometry on the outlines, shared by the detector's
passes.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.detection import Detection

#: Opposite sides of a card's outline differ by less than this factor, even seen at 45°:
#: more, and the outline is a pile's or a fold's that a card's corner happens to start.
#: (Development photos: 99 % of the outlines read right are under 1.75; some read right
#: from a pile's corner reach 2.7.)
MISSHAPEN = 2.2


def misshapen(quad: np.ndarray) -> bool:
    """Whether an outline's opposite sides are too unlike for one card seen whole."""
    a, b, c, d = (float(v) for v in np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1))
    return max(a, c) > MISSHAPEN * min(a, c) or max(b, d) > MISSHAPEN * min(b, d)


#: An outline corner this near the frame's edge (share of its long side) is where the
#: frame cuts the card, not the card's own corner.
FRAME_EDGE = 0.01


def cut_by_frame(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether two or more of an outline's corners lie on the frame's edge: the frame
    cut it, so it is the part of a card in view, not a card's outline."""
    h, w = shape[:2]
    near = FRAME_EDGE * max(h, w)
    x, y = quad[:, 0], quad[:, 1]
    on_edge = (x < near) | (y < near) | (x > w - 1 - near) | (y > h - 1 - near)
    return int(on_edge.sum()) >= 2


def holds(quad: np.ndarray, point: tuple[float, float], margin: float = 0.1) -> bool:
    """``point`` lies inside the outline ``quad`` grown by ``margin`` of its size."""
    return cv2.pointPolygonTest(grown(quad, margin), point, False) >= 0


def grown(quad: np.ndarray, margin: float = 0.1) -> np.ndarray:
    """The outline ``quad`` grown about its centre by ``margin`` of its size, as a
    contour for ``cv2.pointPolygonTest``."""
    c = quad.mean(axis=0)
    return (c + (quad - c) * (1 + margin)).astype(np.float32).reshape(-1, 1, 2)


def overlapping(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two outlines share any area."""
    pa = np.asarray(a, np.float32).reshape(-1, 1, 2)
    pb = np.asarray(b, np.float32).reshape(-1, 1, 2)
    area, _ = cv2.intersectConvexConvex(pa, pb)
    return area > 1.0


def within(quad: np.ndarray, card: np.ndarray) -> bool:
    """``quad`` lies wholly inside the outline ``card`` and is clearly smaller."""
    poly = np.asarray(card, np.float32).reshape(-1, 1, 2)
    if cv2.contourArea(quad) > 0.8 * cv2.contourArea(poly):
        return False
    return all(cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in quad)


def centre_inside(d: Detection, quad: np.ndarray) -> bool:
    poly = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, d.center, False) > 0


def one_spot(a: Detection, b: Detection) -> bool:
    """Two detections of one physical card: each outline holds the other's centre."""
    return centre_inside(a, b.quad) and centre_inside(b, a.quad)


def one_per_card(
    dets: list[Detection], two: Callable[[Detection, Detection], bool] | None = None
) -> list[Detection]:
    """One detection per physical card: outlines from different masks that were not
    grouped (a shadow halo, a table-difference blob) each hold the other's centre; the
    best reading of them stays. ``two``: whether two detections that so share a spot are
    two cards all the same (a card lying on a pile outlined as one)."""
    ranked = sorted(dets, key=lambda d: (d.card is not None, d.confidence), reverse=True)
    kept: list[Detection] = []
    for d in ranked:
        if not any(one_spot(d, k) and not (two is not None and two(d, k)) for k in kept):
            kept.append(d)
    return [d for d in dets if any(d is k for k in kept)]
