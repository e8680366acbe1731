"""Find card outlines (quadrilaterals) in an overhead frame.

Card stock is bright and nearly colourless; felt, wood and cloth are darker or coloured.
So a "paperness" score (bright and unsaturated) is thresholded against the frame's own
statistics, which keeps it working across table colours and room light. Touching or
overlapping cards merge in that mask, so it is cut along image edges first: the thin
shadow line where one card meets another is an edge, which splits the blob into one
outline per card. Only the outer contour of each piece is used, so the pips and pictures
inside a card never matter.

One mask is not enough: a dim, warm-tinted card under a weak lamp scores no better than
a light oak table, and a glare streak on wood can look like card stock. So a second mask
marks whatever differs in colour from the table *around it* (a local median of the
frame, which follows light falloff and glare), and outlines from both masks are offered
as alternatives: :func:`find_candidates` groups the outlines that cover the same card,
and the detector reads them in turn until one reads.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Long-side length (pixels) the frame is scaled to for finding outlines. Reading the
#: index uses the full-resolution frame.
WORK_SIZE = 640


@dataclass(frozen=True)
class LocateConfig:
    min_area_frac: float = 0.002  # of the frame, so a card is at least ~45 px long at 640
    max_area_frac: float = 0.5
    min_aspect: float = 1.2  # long side over short side; poker 1.40, bridge 1.56
    max_aspect: float = 1.85
    min_solidity: float = 0.88  # contour area over fitted quad area


_DEFAULT = LocateConfig()


def order_quad(pts: np.ndarray) -> np.ndarray:
    """Corners clockwise (on screen), starting so the first side is a short side.

    Clockwise order keeps the warped card unmirrored; starting on a short side makes it
    upright or upside down, and the index reader looks at both ends.
    """
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]
    # start at the corner nearest the top-left so the result is stable frame to frame
    start = int(np.argmin(pts.sum(axis=1)))
    pts = np.roll(pts, -start, axis=0)
    if np.linalg.norm(pts[0] - pts[1]) > np.linalg.norm(pts[1] - pts[2]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def paper_mask(small_bgr: np.ndarray) -> np.ndarray:
    hsv = cv2.cvtColor(small_bgr, cv2.COLOR_BGR2HSV)
    s = hsv[:, :, 1].astype(np.int16)
    v = hsv[:, :, 2].astype(np.int16)
    score = np.clip(v - s, 0, 255).astype(np.uint8)
    t, _ = cv2.threshold(score, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Otsu splits table from paper when both are present; never accept dim grey as paper
    t = max(t, 90)
    return (score > t).astype(np.uint8) * 255


def table_mask(small_bgr: np.ndarray) -> np.ndarray:
    """Pixels brighter than the table around them in any colour channel.

    The table is a median of a coarse copy of the frame (a window several cards wide, so
    a card never dominates it), which keeps up with light falloff and glare. Only
    *brighter* counts, so a card's drop shadow stays table; card stock is brighter than
    any playing surface in at least one channel, even a tinted card on a light wood.
    """
    h, w = small_bgr.shape[:2]
    tiny = cv2.resize(small_bgr, (max(1, w // 16), max(1, h // 16)), interpolation=cv2.INTER_AREA)
    k = min(11, max(3, (min(tiny.shape[:2]) // 3) | 1))
    bg = cv2.resize(cv2.medianBlur(tiny, k), (w, h), interpolation=cv2.INTER_LINEAR)
    # saturating uint8 arithmetic: per-channel excess over the table, summed
    score = cv2.transform(cv2.subtract(small_bgr, bg), np.ones((1, 3), np.float32))
    t, _ = cv2.threshold(score, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return (score > max(t, 25)).astype(np.uint8) * 255


def _fit_quad(contour: np.ndarray, cfg: LocateConfig) -> np.ndarray | None:
    hull = cv2.convexHull(contour)
    area = cv2.contourArea(contour)
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32)
            break
        if len(approx) < 4:
            break
    else:
        approx = None
    if approx is None or len(approx) != 4:
        quad = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)
    q_area = cv2.contourArea(quad)
    if q_area <= 0 or area / q_area < cfg.min_solidity:
        return None
    q = order_quad(_refine(quad, contour.reshape(-1, 2).astype(np.float32)))
    short = (np.linalg.norm(q[0] - q[1]) + np.linalg.norm(q[2] - q[3])) / 2
    long = (np.linalg.norm(q[1] - q[2]) + np.linalg.norm(q[3] - q[0])) / 2
    if short <= 0 or not cfg.min_aspect <= long / short <= cfg.max_aspect:
        return None
    return q


def _refine(quad: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Fit a line to each side's contour points and intersect them.

    The polygon approximation puts corners somewhere on the rounded card corners, a few
    pixels off; straight sides fitted by least squares are more exact, and an index
    printed close to the edge depends on that.
    """
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 1:
            return quad
        u = d / length
        rel = pts - a
        along = rel @ u
        across = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
        sel = (along > 0.15 * length) & (along < 0.85 * length) & (across < max(3.0, 0.04 * length))
        if sel.sum() < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(pts[sel], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float32)
        if abs(np.linalg.det(m)) < 1e-6:
            return quad
        t = np.linalg.solve(m, p2 - p1)
        out.append(p1 + t[0] * d1)
    res = np.array(out, np.float32)
    if np.abs(res - quad).max() > 0.1 * np.linalg.norm(quad[0] - quad[2]):
        return quad
    return res


def _grow(q: np.ndarray, by: float) -> np.ndarray:
    c = q.mean(axis=0)
    d = q - c
    n = np.linalg.norm(d, axis=1, keepdims=True)
    return (c + d * (n + by) / np.maximum(n, 1e-6)).astype(np.float32)


def _split(
    c: np.ndarray, mask: np.ndarray, gray: np.ndarray, cfg: LocateConfig, lo: float, hi: float
) -> list[np.ndarray]:
    """Card outlines inside one paper blob once it is cut along image edges."""
    x, y, w, h = cv2.boundingRect(c)
    blob = np.zeros((h, w), np.uint8)
    cv2.drawContours(blob, [c - [x, y]], -1, 255, -1)
    blob &= mask[y : y + h, x : x + w]
    edges = cv2.Canny(gray[y : y + h, x : x + w], 40, 120)
    blob[cv2.dilate(edges, np.ones((2, 2), np.uint8)) > 0] = 0
    blob = cv2.morphologyEx(blob, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    parts, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = []
    for part in parts:
        if lo <= cv2.contourArea(part) <= hi:
            q = _fit_quad(part, cfg)
            if q is not None:
                out.append(_grow(q, 1.5) + np.array([x, y], np.float32))
    return out


def _quads_in_mask(
    mask: np.ndarray, small: np.ndarray, gray_cache: list, cfg: LocateConfig
) -> list[np.ndarray]:
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    sh, sw = mask.shape
    lo, hi = cfg.min_area_frac * sh * sw, cfg.max_area_frac * sh * sw
    quads = []
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    for c in contours:
        a = cv2.contourArea(c)
        if a < lo:
            continue
        whole = _fit_quad(c, cfg) if a <= hi else None
        if not gray_cache:
            gray_cache.append(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))
        # Two cards side by side can make a card-shaped blob too, so every blob is also
        # cut along image edges; if that yields several cards, they win.
        parts = _split(c, mask, gray_cache[0], cfg, lo, hi)
        if len(parts) >= 2 or (whole is None and parts):
            quads += parts
        elif whole is not None:
            quads.append(whole)
    return quads


def _same_card(a: np.ndarray, b: np.ndarray) -> bool:
    """Two outlines of one card: each centre well inside the other, similar size."""
    short = min(np.linalg.norm(a[0] - a[1]), np.linalg.norm(b[0] - b[1]))
    if np.linalg.norm(a.mean(axis=0) - b.mean(axis=0)) > 0.3 * short:
        return False
    ra, rb = cv2.contourArea(a), cv2.contourArea(b)
    return 0.6 < ra / max(rb, 1e-6) < 1.6


def find_candidates(frame_bgr: np.ndarray, cfg: LocateConfig = _DEFAULT) -> list[list[np.ndarray]]:
    """Card outlines in full-frame pixels, grouped per card, best guess first in each group.

    Each outline is ordered by :func:`order_quad`. The paper mask's outline comes first
    when it found the card; the table-difference mask's outline is the alternative.
    """
    h, w = frame_bgr.shape[:2]
    scale = WORK_SIZE / max(h, w)
    small = (
        cv2.resize(frame_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        if scale < 1
        else frame_bgr
    )
    if scale >= 1:
        scale = 1.0
    gray: list[np.ndarray] = []
    groups: list[list[np.ndarray]] = []
    for mask in (paper_mask(small), table_mask(small)):
        for q in _quads_in_mask(mask, small, gray, cfg):
            q = order_quad(q / scale)
            for g in groups:
                if _same_card(g[0], q):
                    g.append(q)
                    break
            else:
                groups.append([q])
    return groups


def find_quads(frame_bgr: np.ndarray, cfg: LocateConfig = _DEFAULT) -> list[np.ndarray]:
    """Card outlines in full-frame pixel coordinates, each ordered by :func:`order_quad`."""
    return [g[0] for g in find_candidates(frame_bgr, cfg)]


def rectify(
    frame_bgr: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (200, 300)
) -> np.ndarray:
    """Warp the card inside ``quad`` to an upright ``size`` (width, height) image."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(
        frame_bgr, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
