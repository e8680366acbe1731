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

Neither colour mask holds on a light table (cream stock on beige wood, a white cloth),
nor when one card fills most of the frame (then the "table around it" is the card). Two
more sources do not care what colour the table is: the regions closed by the frame's
edges (a card's border is an edge on any surface), and — when the empty table was
captured at calibration — whatever differs from that empty table. The frame is first
balanced on its brightest pixels (white patch: card stock is the whitest thing on a
table), so a warm or cool lamp does not tint the paper out of the paper mask.

No limit on how much of the frame a card may fill, and the aspect limits are wide: an
oblique camera squashes a card's outline, and the reader tries a nearly square outline
both ways round (:func:`turned`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache, partial

import cv2
import numpy as np

from vision import components
from vision.levels import percentile
from vision.warp import warp_perspective

#: Long-side length (pixels) the frame is scaled to for finding outlines. Reading the
#: index uses the full-resolution frame.
WORK_SIZE = 640


@dataclass(frozen=True)
class LocateConfig:
    min_area_frac: float = 0.002  # of the frame, so a card is at least ~45 px long at 640
    max_area_frac: float = 1.0  # no limit: a close camera or a phone photo fills the frame
    # long side over short side; poker 1.40, bridge 1.56 — wide, because an oblique view
    # squashes or stretches the outline (a table homography makes it true again)
    min_aspect: float = 1.0
    max_aspect: float = 2.7  # a far card at 45° lying across the view (see ELONGATED)
    min_solidity: float = 0.88  # contour area over fitted quad area
    #: An outline with all four corners this close to the frame's edge (fraction of the
    #: frame) is the frame itself — a white table seen whole — not a card.
    frame_margin: float = 0.015


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
    sides = side_lengths(pts)
    if sides[start] > sides[(start + 1) % 4]:
        start += 1
    return pts[[(start + k) % 4 for k in range(4)]]


def side_lengths(poly: np.ndarray) -> np.ndarray:
    """The lengths of a closed float32 polygon's sides (n x 2 points: side i runs from
    point i to the next), each to the last bit what ``np.linalg.norm`` gives for that
    side (each square rounded to float32, then their sum, then the root), in one pass:
    outlines are measured by the thousand a frame, and a call per side costs its
    bookkeeping each time."""
    d = poly - np.concatenate((poly[1:], poly[:1]))
    d *= d
    return np.sqrt(d[:, 0] + d[:, 1])


def white_balance(small_bgr: np.ndarray) -> np.ndarray:
    """The frame scaled per channel so its brightest pixels are grey (white patch).

    Card stock is the whitest thing on a card table, so its colour is the lamp's colour;
    dividing it out makes a tungsten-lit or a cool-LED-lit card look like daylight paper.
    A high percentile rather than the maximum, so a specular glint does not decide.
    """
    sample = small_bgr[::4, ::4]
    ref = np.array([percentile(sample[:, :, k], 98) for k in range(3)], np.float32)
    if ref.min() < 40:  # a dark frame: nothing white to balance on
        return small_bgr
    gain = ref.max() / np.maximum(ref, 1.0)
    if gain.max() < 1.04:
        return small_bgr
    # each channel's 256 levels scaled (in float32) and rounded once, then looked up:
    # the same pixels as scaling the whole frame, without a float32 copy of it
    levels = np.arange(256, dtype=np.float32)[:, None] * gain.reshape(1, 3).astype(np.float32)
    return cv2.LUT(small_bgr, cv2.convertScaleAbs(levels).reshape(256, 1, 3))


def edge_regions(small_bgr: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """Regions closed by image edges, holes filled: a card on any table, by its border.

    Returns the union of the regions as a mask, and each region's own outline. A card's
    border is an edge however close its colour is to the table's; inside it the pips and
    pictures are only holes, filled once the outer contour is drawn. Wood grain and cloth
    texture break up into small or ragged regions the quad fit rejects.

    Each region is outlined on its own: a card lying inside the table's region (a white
    card on a white desk, bounded by its faint border) is a hole of that region, and
    drawn together the two would be one blob the size of the table.
    """
    gray = cv2.medianBlur(cv2.cvtColor(small_bgr, cv2.COLOR_BGR2GRAY), 5)  # speckle, grain
    edges = cv2.Canny(gray, 15, 45)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    edges[0, :] = edges[-1, :] = 255
    edges[:, 0] = edges[:, -1] = 255
    h, w = gray.shape
    # Cut thin channels of free space first: where a faint border has gaps, a card's
    # inside leaks into the table through them (and a card filling the frame would be
    # lost with the open table round it).
    k = max(3, (min(h, w) // 60) | 1)
    ball = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    free = cv2.morphologyEx(cv2.bitwise_not(edges), cv2.MORPH_OPEN, ball)
    least = max(8, int(0.04 * max(h, w)))  # shorter than the smallest card: grain, pips
    n, labels, stats, _ = components.with_stats(free)
    pieces = []
    for i, (x, y, cw, ch, _) in enumerate(stats[1:n].tolist(), start=1):
        if min(cw, ch) < least:
            continue  # too small for a card: grain, a pip
        # Thin necks are cut: where a gap in a faint border lets a card's inside run out
        # into the table, the card comes apart from the table again (and a streak of
        # table along one side is cut off). Pips and pictures inside are only holes,
        # filled once the outer contour is drawn.
        k = max(3, min(int(0.08 * min(cw, ch)), int(0.05 * max(h, w))) | 1)
        region = np.zeros((ch + 2, cw + 2), np.uint8)
        region[1:-1, 1:-1] = (labels[y : y + ch, x : x + cw] == i).astype(np.uint8) * 255
        if not (cw >= w - 8 and ch >= h - 8):
            # a region short of the whole frame: its holes (pips, a court card's
            # picture, whose margin alone may be the free space) are part of it; the
            # open table round everything is not filled, or the cards in it would go
            outer, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            cv2.drawContours(region, outer, -1, 255, -1)
            # a court card's margin broken once (a corner in shadow) is a C round its
            # picture: filled, it is not the card, but its convex hull is
            hull = cv2.convexHull(np.concatenate(outer))
            if cv2.contourArea(hull) > 1.3 * cv2.countNonZero(region):
                pieces.append(hull + np.array([x - 1, y - 1], np.int32))
        ball = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        region = cv2.morphologyEx(region, cv2.MORPH_OPEN, ball)
        parts, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for part in parts:
            _, _, pw, ph = cv2.boundingRect(part)
            if min(pw, ph) >= least and not (pw >= w - 8 and ph >= h - 8):
                pieces.append(part + np.array([x - 1, y - 1], np.int32))
    out = np.zeros_like(gray)
    cv2.drawContours(out, pieces, -1, 255, -1)
    # give back the band the dilated edges took from each region's rim
    out = cv2.dilate(out, np.ones((3, 3), np.uint8))
    return out, [_grow_contour(c) for c in pieces]


def _grow_contour(c: np.ndarray) -> np.ndarray:
    """An outline pushed out by about a pixel, as the dilated edges took from it."""
    centre = c.reshape(-1, 2).mean(axis=0)
    d = c.astype(np.float32) - centre
    n = np.linalg.norm(d, axis=-1, keepdims=True)
    return (centre + d * (n + 1.5) / np.maximum(n, 1e-6)).astype(np.int32)


def _segment_lines(edges: np.ndarray, least: int) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Straight edge runs merged into lines: (a point, unit direction, supported length)."""
    segs = cv2.HoughLinesP(
        edges,
        1,
        np.pi / 180,
        threshold=max(10, least // 2),
        minLineLength=least,
        maxLineGap=max(3, least // 4),
    )
    if segs is None:
        return []
    lines: list[list] = []  # angle (0 to pi), offset along its normal, length, a point
    for x0, y0, x1, y1 in segs.reshape(-1, 4).astype(np.float32):
        length = float(np.hypot(x1 - x0, y1 - y0))
        ang = float(np.arctan2(y1 - y0, x1 - x0) % np.pi)
        off = float(-np.sin(ang) * x0 + np.cos(ang) * y0)
        for ln in lines:
            da = abs(ang - ln[0])
            if min(da, np.pi - da) < np.radians(4) and abs(off - ln[1]) < 4 and da < np.pi / 2:
                ln[2] += length  # the same line, seen again past a gap
                break
        else:
            lines.append([ang, off, length, np.array([x0, y0], np.float32)])
    lines.sort(key=lambda ln: -ln[2])
    return [
        (ln[3], np.array([np.cos(ln[0]), np.sin(ln[0])], np.float32), ln[2]) for ln in lines[:14]
    ]


def _cross(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray) -> np.ndarray | None:
    m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float32)
    if abs(np.linalg.det(m)) < 1e-3:
        return None
    t = np.linalg.solve(m, p2 - p1)
    return p1 + t[0] * d1


def line_quads(
    small_bgr: np.ndarray, cfg: LocateConfig = _DEFAULT, most: int = 3
) -> list[np.ndarray]:
    """Card outlines from the straight lines of its border, gaps and all.

    A faint border (a white card on a white desk) leaves gaps an edge-closed region runs
    out through; but most of each of its four sides is still a straight edge. Two pairs
    of nearly parallel lines, crossing at nearly right angles, with a card's proportions
    and edges under most of their outline, are a card.
    """
    h, w = small_bgr.shape[:2]
    gray = cv2.medianBlur(cv2.cvtColor(small_bgr, cv2.COLOR_BGR2GRAY), 5)
    edges = cv2.Canny(gray, 12, 36)
    least = max(8, int(0.1 * min(h, w)))
    lines = _segment_lines(edges, least)
    # a side is supported where the brightness steps across it (the gradient points
    # along its normal), not merely where some edge lies near: cloth and grain have
    # edges everywhere, in every direction
    soft = cv2.GaussianBlur(gray.astype(np.float32), (5, 5), 1.2)
    gx = cv2.Sobel(soft, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(soft, cv2.CV_32F, 0, 1, ksize=3) / 8
    mag = cv2.dilate(np.hypot(gx, gy), np.ones((3, 3), np.uint8))
    step = max(1.5, 3.0 * float(np.median(mag)))
    pairs = []
    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            (p1, d1, _), (p2, d2, _) = lines[i], lines[j]
            if abs(float(d1 @ d2)) < np.cos(np.radians(12)):
                continue
            gap = abs(float((p2 - p1) @ np.array([-d1[1], d1[0]])))
            if gap >= least:
                pairs.append((i, j, gap))
    scored = []
    t = np.linspace(0.1, 0.9, 24, dtype=np.float32)[:, None]
    for a in range(len(pairs)):
        for b in range(a + 1, len(pairs)):
            i, j, g1 = pairs[a]
            k, m, g2 = pairs[b]
            if len({i, j, k, m}) < 4:
                continue
            if abs(float(lines[i][1] @ lines[k][1])) > np.sin(np.radians(25)):
                continue  # the two pairs must cross at roughly right angles
            # (border lines are the last resort, where nothing else read: an elongated
            # pair of lines is a strip of pattern, not a far card)
            if not cfg.min_aspect <= max(g1, g2) / min(g1, g2) <= min(cfg.max_aspect, ELONGATED):
                continue
            ps = [
                _cross(*lines[i][:2], *lines[k][:2]),
                _cross(*lines[k][:2], *lines[j][:2]),
                _cross(*lines[j][:2], *lines[m][:2]),
                _cross(*lines[m][:2], *lines[i][:2]),
            ]
            if any(p is None for p in ps):
                continue
            q = np.array(ps, np.float32)
            if (
                (q[:, 0] < -2).any()
                or (q[:, 0] > w + 1).any()
                or (q[:, 1] < -2).any()
                or (q[:, 1] > h + 1).any()
            ):
                continue
            support = []
            for s in range(4):
                pts = q[s] + t * (q[(s + 1) % 4] - q[s])
                side = q[(s + 1) % 4] - q[s]
                normal = np.array([-side[1], side[0]], np.float32) / max(
                    float(np.linalg.norm(side)), 1e-6
                )
                best = np.zeros(len(pts), np.float32)
                for shift in (-1.5, 0.0, 1.5):  # the side's line is a pixel or so off
                    at = pts + shift * normal
                    xs = np.clip(at[:, 0].astype(int), 0, w - 1)
                    ys = np.clip(at[:, 1].astype(int), 0, h - 1)
                    across = np.abs(gx[ys, xs] * normal[0] + gy[ys, xs] * normal[1])
                    aligned = across >= 0.8 * np.hypot(gx[ys, xs], gy[ys, xs])
                    best = np.maximum(best, np.where(aligned, across, 0.0))
                support.append(float((best >= step).mean()))
            if min(support) < 0.5 or sum(support) < 2.8:
                continue
            q = order_quad(q)
            if _is_frame(q, small_bgr.shape, cfg) or cv2.contourArea(q) < cfg.min_area_frac * h * w:
                continue
            scored.append((sum(support) * np.sqrt(cv2.contourArea(q)), q))
    scored.sort(key=lambda sq: -sq[0])
    out: list[np.ndarray] = []
    for _, q in scored:
        if not any(_same_card(o, q) for o in out):
            out.append(q)
        if len(out) >= most:
            break
    return out


def difference_mask(small_bgr: np.ndarray, empty_small: np.ndarray) -> np.ndarray:
    """Pixels that differ from the empty table captured at calibration.

    The surest reference on a light table: whatever its colour, an empty spot looks like
    itself. Brightness changes between capture and play are divided out first (the
    median ratio of frame to reference), and only clear differences count.
    """
    a = small_bgr.astype(np.float32)
    b = empty_small.astype(np.float32) + 1.0
    # the three channels added one by one: numpy sums a length-3 last axis several times
    # slower, and adds them in this order itself (the same float32 values, bit for bit)
    gain = float(
        np.median((a[..., 0] + a[..., 1] + a[..., 2]) / (b[..., 0] + b[..., 1] + b[..., 2]))
    )
    b *= gain
    a -= b
    np.abs(a, out=a)
    diff = a[..., 0] + a[..., 1] + a[..., 2]
    diff = cv2.GaussianBlur(diff, (5, 5), 0)
    return ((diff > 45) * 255).astype(np.uint8)


def paper_masks(small_bgr: np.ndarray) -> list[np.ndarray]:
    """Bright, unsaturated pixels: at the frame's Otsu split, and split again above it.

    On a light table the first split puts table and card together on the bright side;
    Otsu run again on the bright side alone then parts the whiter card stock from the
    paler wood or cloth.
    """
    hsv = cv2.cvtColor(small_bgr, cv2.COLOR_BGR2HSV)
    _, s, v = cv2.split(hsv)  # (one pass: two channel extractions cost three times more)
    score = cv2.subtract(v, s)  # saturating: value less saturation, or 0
    # the masks from OpenCV's threshold (Otsu's own where it stands): score > t, as 0/255
    t, first = cv2.threshold(score, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Otsu splits table from paper when both are present; never accept dim grey as paper
    if t < 90:
        t, first = cv2.threshold(score, 90, 255, cv2.THRESH_BINARY)
    out = [first]
    bright = score[score > t]
    if bright.size > 100:
        t2, _ = cv2.threshold(bright.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        if t2 > t + 8:
            out.append(cv2.threshold(score, t2, 255, cv2.THRESH_BINARY)[1])
    return out


def paper_mask(small_bgr: np.ndarray) -> np.ndarray:
    """Bright, unsaturated pixels (the first of :func:`paper_masks`)."""
    return paper_masks(small_bgr)[0]


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
    # saturating uint8 arithmetic: per-channel excess over the table, summed (two
    # saturating adds give what a float transform of the three rounds and saturates to,
    # at a fraction of its cost)
    excess = cv2.subtract(small_bgr, bg)
    b, g, r = cv2.split(excess)
    score = cv2.add(cv2.add(b, g), r)
    # score > max(t, 25) as 0/255: Otsu's own mask, unless the floor raises its threshold
    t, mask = cv2.threshold(score, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return mask if t >= 25 else cv2.threshold(score, 25, 255, cv2.THRESH_BINARY)[1]


def _is_frame(q: np.ndarray, shape: tuple[int, ...], cfg: LocateConfig) -> bool:
    h, w = shape[:2]
    mx, my = cfg.frame_margin * w + 2, cfg.frame_margin * h + 2
    near = (q[:, 0] < mx) | (q[:, 0] > w - 1 - mx) | (q[:, 1] < my) | (q[:, 1] > h - 1 - my)
    return bool(near.all())


#: The least length to width an outline started one corner on must have to be taken
#: (:func:`_fit_slanted`): two cards lying across each other outline a near square.
SLANTED_ASPECT = 1.1


def _fit_quad(contour: np.ndarray, cfg: LocateConfig, slant: bool = True) -> np.ndarray | None:
    """The card outline fitted to ``contour``, or None if it is no card's shape.
    ``slant``: also an outline that is a card's shape only started one corner on (see
    :func:`_fit_slanted`)."""
    q, slanted = _fit_slanted(contour, cfg)
    return None if slanted and not slant else q


def _fit_slanted(contour: np.ndarray, cfg: LocateConfig) -> tuple[np.ndarray | None, bool]:
    """(:func:`_fit_quad`'s outline, whether it was started one corner on). A card seen
    at a slant can have the short side at the corner the outline starts at longer than
    the long side beside it (foreshortened less), while the opposite pair says the other
    way round; taken together the opposite sides say which pair is short. The parts a
    blob is cut into are not taken so (half a court card cut along its picture's frame
    is such a shape), nor a blob another outline was found in."""
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
        return None, False
    q = order_quad(_refine(quad, contour.reshape(-1, 2).astype(np.float32)))
    sides = side_lengths(q)
    short = (sides[0] + sides[2]) / 2
    long = (sides[1] + sides[3]) / 2
    slanted = bool(long < short)
    if slanted:
        q = turned(q)
        short, long = long, short
    least = max(cfg.min_aspect, SLANTED_ASPECT) if slanted else cfg.min_aspect
    if short <= 0 or not least <= long / short <= cfg.max_aspect:
        return None, False
    return q, slanted


def _refine(quad: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Fit a line to each side's contour points and intersect them.

    The polygon approximation puts corners somewhere on the rounded card corners, a few
    pixels off; straight sides fitted by least squares are more exact, and an index
    printed close to the edge depends on that.
    """
    sides = quad[[1, 2, 3, 0]] - quad
    lengths = np.sqrt((sides.astype(np.float64) ** 2).sum(axis=1))
    if lengths.min() < 1:
        return quad
    units = (sides / lengths[:, None]).astype(np.float32)
    # every contour point measured along and across all four sides at once
    rel = pts[None, :, :] - quad[:, None, :]
    along = rel[..., 0] * units[:, None, 0] + rel[..., 1] * units[:, None, 1]
    across = np.abs(rel[..., 0] * units[:, None, 1] - rel[..., 1] * units[:, None, 0])
    lim = lengths[:, None]
    near = np.maximum(3.0, 0.04 * lim)
    sel = (along > 0.15 * lim) & (along < 0.85 * lim) & (across < near)
    if (sel.sum(axis=1) < 5).any():
        return quad
    lines = [cv2.fitLine(pts[sel[i]], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel() for i in range(4)]
    out = np.empty((4, 2), np.float32)
    for i in range(4):
        # where side i-1's line crosses side i's (Cramer's rule on p1 + t d1 = p2 + s d2)
        d1x, d1y, x1, y1 = (float(v) for v in lines[i - 1])
        d2x, d2y, x2, y2 = (float(v) for v in lines[i])
        det = d2x * d1y - d1x * d2y
        if abs(det) < 1e-6:
            return quad
        t = (d2x * (y2 - y1) - d2y * (x2 - x1)) / det
        out[i] = (x1 + t * d1x, y1 + t * d1y)
    if np.abs(out - quad).max() > 0.1 * np.linalg.norm(quad[0] - quad[2]):
        return quad
    return out


def _grow(q: np.ndarray, by: float) -> np.ndarray:
    c = q.mean(axis=0)
    d = q - c
    n = np.linalg.norm(d, axis=1, keepdims=True)
    return (c + d * (n + by) / np.maximum(n, 1e-6)).astype(np.float32)


def _split(
    c: np.ndarray,
    mask: np.ndarray,
    gray: np.ndarray,
    cfg: LocateConfig,
    lo: float,
    hi: float,
    wanted: int = 1,
) -> list[np.ndarray]:
    """Card outlines inside one paper blob once it is cut along image edges; none where
    fewer than ``wanted`` pieces are the size of a card. (A blob already outlined whole
    is cut for two cards side by side only: nearly every blob is one card, its one piece
    the card itself, whose fit would only be thrown away.)"""
    x, y, w, h = cv2.boundingRect(c)
    blob = np.zeros((h, w), np.uint8)
    cv2.drawContours(blob, [c - [x, y]], -1, 255, -1)
    blob &= mask[y : y + h, x : x + w]
    edges = cv2.Canny(gray[y : y + h, x : x + w], 40, 120)
    # cleared along the edges: the dilated edges are 0 or 255, so a saturating subtract
    # of them clears just those pixels (as a masked assignment would, without its mask)
    blob = cv2.subtract(blob, cv2.dilate(edges, np.ones((2, 2), np.uint8)))
    blob = cv2.morphologyEx(blob, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    parts, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    sized = [part for part in parts if lo <= cv2.contourArea(part) <= hi]
    if len(sized) < wanted:
        return []
    out = []
    for part in sized:
        q = _fit_quad(part, cfg, slant=False)
        if q is not None and not _is_frame(q + [x, y], mask.shape, cfg):
            out.append(_grow(q, 1.5) + np.array([x, y], np.float32))
    return out


class Later:
    """An alternative outline of a card, fitted only when it is wanted.

    Most frames' cards read from their first outline, so the alternatives the other masks
    offer are never looked at; a blob that repeats one already outlined (the same box and
    area) is not fitted, only noted here, and fitted if the card's earlier outlines do
    not read (a pixel's difference in an outline can decide a soft index).
    """

    def __init__(self, fit: Callable[[], list[np.ndarray]]) -> None:
        self._fit = fit
        self._quads: list[np.ndarray] | None = None

    def quads(self) -> list[np.ndarray]:
        if self._quads is None:
            self._quads = self._fit()
        return self._quads

    def map(self, f: Callable[[np.ndarray], np.ndarray]) -> Later:
        """The same outlines, each passed through ``f`` (another pixel frame)."""
        return Later(lambda: [f(q) for q in self.quads()])


#: One outline of a group: fitted, or to be fitted when wanted.
Outline = np.ndarray | Later


def outlines(group: list[Outline]) -> Iterator[np.ndarray]:
    """A group's outlines in order, fitting the :class:`Later` ones as they are reached;
    of those, only outlines of the group's card (its first outline) count."""
    for item in group:
        if isinstance(item, Later):
            yield from (q for q in item.quads() if _same_card(group[0], q))
        else:
            yield item


class _Blobs:
    """The blobs outlined so far in a frame that gave one card outline each (their box
    and area, in working-size pixels): the same blob in a later mask would give the same
    outline, a second fit of one card, so it is only noted as a :class:`Later`."""

    def __init__(self) -> None:
        self.boxes: list[tuple[float, float, float, float, float]] = []

    @staticmethod
    def _key(c: np.ndarray, scale: float) -> tuple[float, float, float, float, float]:
        x, y, w, h = cv2.boundingRect(c)
        box = (x * scale, y * scale, (x + w) * scale, (y + h) * scale)
        return (*box, cv2.contourArea(c) * scale**2)

    def seen(self, c: np.ndarray, scale: float = 1.0) -> int | None:
        """Which blob ``c`` repeats, if any."""
        x0, y0, x1, y1, a = self._key(c, scale)
        tol = max(REPEAT_PX, REPEAT_SHARE * max(x1 - x0, y1 - y0))
        for n, b in enumerate(self.boxes):
            if (
                abs(x0 - b[0]) <= tol
                and abs(y0 - b[1]) <= tol
                and abs(x1 - b[2]) <= tol
                and abs(y1 - b[3]) <= tol
                and abs(a - b[4]) <= REPEAT_AREA * b[4]
            ):
                return n
        return None

    def add(self, c: np.ndarray) -> int:
        self.boxes.append(self._key(c, 1.0))
        return len(self.boxes) - 1


#: How closely a blob must repeat one already outlined to be fitted only when wanted:
#: each side of its box within this many pixels (at the working size) or this share of
#: its size, and its area within this share.
REPEAT_PX = 2.0
REPEAT_SHARE = 0.01
REPEAT_AREA = 0.03

#: An outline or a :class:`Later`, with the blob it came from (or repeats), if that blob
#: gave one outline.
_Found = tuple[Outline, int | None]


def _outline_blob(
    c: np.ndarray,
    mask: np.ndarray,
    small: np.ndarray,
    gray_cache: list,
    cfg: LocateConfig,
    split: bool,
) -> list[np.ndarray]:
    """The card outlines of one blob of a mask (see :func:`_quads_in_mask`)."""
    sh, sw = mask.shape
    lo, hi = cfg.min_area_frac * sh * sw, cfg.max_area_frac * sh * sw
    whole, slanted = _fit_slanted(c, cfg) if cv2.contourArea(c) <= hi else (None, False)
    if whole is not None and _is_frame(whole, mask.shape, cfg):
        whole = None
    # a card seen at a slant, or an elongated outline (a far card at a slant, a fan's
    # whole pile), is taken only where nothing else outlines its blob (two cards lying
    # across each other make such shapes too, and are better cut apart)
    odd = whole is not None and (slanted or elongated(whole))
    at_slant, whole = (whole, None) if odd else (None, whole)
    if split:
        if not gray_cache:
            gray_cache.append(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))
        # Two cards side by side can make a card-shaped blob too, so every blob is also
        # cut along image edges; if that yields several cards, they win. (The parts are
        # cards seen square on: none elongated.)
        square_on = replace(cfg, max_aspect=min(cfg.max_aspect, ELONGATED))
        parts = _split(c, mask, gray_cache[0], square_on, lo, hi, 1 if whole is None else 2)
        if len(parts) >= 2 or (whole is None and parts):
            return parts
    whole = whole if whole is not None else at_slant
    return [] if whole is None else [whole]


#: Fits a blob's outlines, or gives those kept from an earlier frame of a camera
#: (:func:`vision.known.kept_fits`): called with what is fitted (a name for the mask),
#: the blob's contour, the mask's scale (its pixels per input pixel) and the fit itself.
Fits = Callable[[str, np.ndarray, float, Callable[[], list[np.ndarray]]], list[np.ndarray]]


def _fitted(fits: Fits | None, kind: str, c: np.ndarray, s: float, fit: Callable) -> list:
    return fit() if fits is None else fits(kind, c, s, fit)


def _quads_in_mask(
    mask: np.ndarray,
    small: np.ndarray,
    gray_cache: list,
    cfg: LocateConfig,
    split: bool = True,
    blobs: _Blobs | None = None,
    fits: Fits | None = None,
    kind: str = "mask",
    scale: float = 1.0,
) -> list[_Found]:
    """Card outlines in one mask; ``split`` also cuts each blob along image edges (not
    needed for the edge mask, whose regions are bounded by edges already). ``fits``,
    ``kind`` and ``scale``: see :data:`Fits`."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    sh, sw = mask.shape
    lo = cfg.min_area_frac * sh * sw
    blobs = blobs if blobs is not None else _Blobs()
    out: list[_Found] = []
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    for c in contours:
        if cv2.contourArea(c) < lo:
            continue
        fit = partial(_outline_blob, c, mask, small, gray_cache, cfg, split)
        repeats = blobs.seen(c)
        if repeats is not None:
            out.append((Later(fit), repeats))
            continue
        quads = _fitted(fits, kind, c, scale, fit)
        token = blobs.add(c) if len(quads) == 1 else None
        out += [(q, token) for q in quads]
    return out


def _outline_region(c: np.ndarray, shape: tuple[int, ...], cfg: LocateConfig) -> list[np.ndarray]:
    q = _fit_quad(c, cfg)
    return [] if q is None or _is_frame(q, shape, cfg) else [q]


def _quads_in_regions(
    regions: list[np.ndarray],
    shape: tuple[int, ...],
    cfg: LocateConfig,
    blobs: _Blobs | None = None,
    scale: float = 1.0,
) -> list[_Found]:
    """Card outlines among separately outlined regions (:func:`edge_regions`); ``scale``
    takes region pixels to those ``blobs`` was measured in. (Their fits are not kept
    from frame to frame: most regions are the table's grain, outlined anew by each
    frame's noise, and a card's region is cheap to fit.)"""
    lo, hi = cfg.min_area_frac * shape[0] * shape[1], cfg.max_area_frac * shape[0] * shape[1]
    out: list[_Found] = []
    for c in regions:
        if not lo <= cv2.contourArea(c) <= hi:
            continue
        repeats = blobs.seen(c, scale) if blobs is not None else None
        if repeats is not None:
            out.append((Later(partial(_outline_region, c, shape, cfg)), repeats))
        else:
            out += [(q, None) for q in _outline_region(c, shape, cfg)]
    return out


def _same_card(a: np.ndarray, b: np.ndarray) -> bool:
    """Two outlines of one card: each centre well inside the other, similar size."""
    return _alike(_measure(a), _measure(b))


#: What :func:`_same_card` compares of an outline: its first side's length, its centre
#: and its area.
_Measure = tuple[np.float32, np.ndarray, float]


def _measure(q: np.ndarray) -> _Measure:
    """An outline's :data:`_Measure`: taken once for an outline compared with many (each
    new outline of a frame with every card's first one)."""
    return np.linalg.norm(q[0] - q[1]), q.mean(axis=0), cv2.contourArea(q)


def _alike(a: _Measure, b: _Measure) -> bool:
    """:func:`_same_card` of two measured outlines."""
    short = min(a[0], b[0])
    if np.linalg.norm(a[1] - b[1]) > 0.3 * short:
        return False
    return 0.6 < a[2] / max(b[2], 1e-6) < 1.6


def work_copy(frame_bgr: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame at :data:`WORK_SIZE` long side (never enlarged), and the scale used."""
    h, w = frame_bgr.shape[:2]
    scale = WORK_SIZE / max(h, w)
    if scale >= 1:
        return frame_bgr, 1.0
    return cv2.resize(frame_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), scale


@dataclass
class Sources:
    """What a frame's outlines are found in: its working copy, the masks made so far
    (each with its scale, mask pixels per frame pixel) and the outlines each gave. The
    masks are made in order and only as far as asked: most frames' cards are all
    outlined, and read, from the first paper mask alone (:func:`add_masks` makes the
    other colour masks, :func:`add_edges` the edge mask, the costliest, a fallback for
    light tables)."""

    small: np.ndarray
    scale: float
    masks: list[tuple[np.ndarray, float]]
    found: list[tuple[list[_Found], float]]
    blobs: _Blobs
    edges: bool = False
    #: the colour masks not made yet, in order: each its kept fits' name and its maker
    pending: list[tuple[str, Callable[[], np.ndarray]]] = field(default_factory=list)
    cfg: LocateConfig = _DEFAULT
    fits: Fits | None = None
    #: the working copy in grey, made once when a blob is first cut along edges
    gray: list[np.ndarray] = field(default_factory=list)
    #: the difference from the empty table (when one was given), made once when first
    #: asked for: by its place among the masks, or before it to see if anything differs
    difference: Callable[[], np.ndarray] | None = None


def mask_sources(
    frame_bgr: np.ndarray,
    cfg: LocateConfig = _DEFAULT,
    empty: np.ndarray | None = None,
    fits: Fits | None = None,
    first_only: bool = False,
) -> Sources:
    """The colour masks of a frame and their outlines, in this order: paper (one mask or
    two), the empty-table difference (when ``empty``, a frame of the empty table, is
    given), brighter than the table around it. ``fits``: see :func:`find_candidates`.
    ``first_only``: only the first paper mask made yet (:func:`add_masks` the rest)."""
    small, scale = work_copy(frame_bgr)
    papers = paper_masks(white_balance(small))
    pending: list[tuple[str, Callable[[], np.ndarray]]] = [("paper", lambda: papers[0])]
    if len(papers) > 1:
        pending.append(("whiter paper", lambda: papers[1]))
    difference = None
    if empty is not None:

        @cache
        def difference() -> np.ndarray:
            size = (small.shape[1], small.shape[0])
            return difference_mask(small, cv2.resize(empty, size, interpolation=cv2.INTER_AREA))

        pending.append(("difference", difference))
    pending.append(("table", lambda: table_mask(small)))
    src = Sources(
        small, scale, [], [], _Blobs(), pending=pending, cfg=cfg, fits=fits, difference=difference
    )
    add_masks(src, 1 if first_only else None)
    return src


def add_masks(src: Sources, most: int | None = None) -> None:
    """The colour masks of ``src`` not made yet (at most ``most`` of them) made and
    outlined, in their order (a card's first outline comes from the first mask that
    found it)."""
    todo = src.pending if most is None else src.pending[:most]
    src.pending = src.pending[len(todo) :]
    for name, make in todo:
        m = make()
        quads = _quads_in_mask(m, src.small, src.gray, src.cfg, True, src.blobs, src.fits, name, src.scale)
        src.found.append((quads, src.scale))
        src.masks.append((m, src.scale))


def add_edges(src: Sources) -> None:
    """The edge mask added to ``src`` (once, after every colour mask, with the settings
    the sources were made with), at half the working size: its outlines come last in
    every group, so exactness matters less there."""
    if src.edges:
        return
    add_masks(src)
    small = src.small
    half = cv2.resize(
        small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA
    )
    edge_mask, regions = edge_regions(half)
    quads = _quads_in_regions(regions, edge_mask.shape, src.cfg, src.blobs, 2.0)
    src.found.append((quads, src.scale / 2))
    src.masks.append((edge_mask, src.scale / 2))
    src.edges = True


def grouped(src: Sources, weak_out: list[bool] | None = None) -> list[list[Outline]]:
    """The outlines of ``src`` in full-frame pixels, grouped per card (see
    :func:`find_candidates`)."""
    found = src.found
    # the outlines of the edge regions (the last source) can be pieces of one card (a
    # court card's picture, the part of a card above a shadow's edge): they never make
    # a bigger outline count as two cards merged
    groups: list[list[Outline]] = []
    weak: list[bool] = []
    heads: list[_Measure] = []  # each group's first outline, measured
    heads_long: list[bool] = []  # and whether it is elongated
    by_blob: dict[int, list[Outline]] = {}
    for n, (items, s) in enumerate(found):
        for item, blob in items:
            if isinstance(item, Later):
                # a repeat of a blob outlined before: an alternative of that card's group
                if blob in by_blob:
                    by_blob[blob].append(item.map(partial(_to_frame, s=s)))
                continue
            q = _to_frame(item, s)
            mq = _measure(q)
            long = elongated(q)
            for g, head, head_long in zip(groups, heads, heads_long, strict=True):
                # an elongated outline (a fan's strip, a far card at a slant) groups
                # only with its like: at the head of a card's group it would hold back
                # the card's own outlines till last
                if head_long == long and _alike(head, mq):
                    g.append(q)
                    break
            else:
                g = [q]
                groups.append(g)
                heads.append(mq)
                heads_long.append(long)
                weak.append(src.edges and n == len(found) - 1)
            if blob is not None:
                by_blob[blob] = g
    kept = _drop_merged(groups, weak)
    if weak_out is not None:
        weak_out += [w for g, w in zip(groups, weak, strict=True) if any(g is k for k in kept)]
    return kept


def find_candidates(
    frame_bgr: np.ndarray,
    cfg: LocateConfig = _DEFAULT,
    empty: np.ndarray | None = None,
    masks_out: list[tuple[np.ndarray, float]] | None = None,
    weak_out: list[bool] | None = None,
    fits: Fits | None = None,
) -> list[list[Outline]]:
    """Card outlines in full-frame pixels, grouped per card, best guess first in each group.

    Each outline is ordered by :func:`order_quad`. The masks are tried in order — paper,
    the empty-table difference (when ``empty``, a frame of the empty table, is given:
    after paper, since it outlines a card with its shadow, a few pixels too big),
    brighter than the table around it, closed by edges — and a card's first outline comes
    from the first mask that found it; the others are its alternatives. ``masks_out``,
    if given, receives each mask with its scale (mask pixels per frame pixel), for the
    search for overlapped cards (:mod:`vision.overlap`). A group's first outline is always
    fitted; an alternative that repeats a blob already outlined is a :class:`Later`, read
    through :func:`outlines`. ``weak_out``, if given, receives
    for each group whether only the edge regions found it: they also outline pieces of
    the table (wood grain, a shadow's edge), so such a group is no card unless it reads
    as one. ``fits`` (:data:`Fits`) may give a blob's outlines as an earlier frame fitted
    them (a camera's frame of play: most blobs are the cards already lying there).
    (:func:`mask_sources`, :func:`add_edges` and :func:`grouped` in one; the detector
    calls them apart, to make the edge mask only where it is needed.)
    """
    src = mask_sources(frame_bgr, cfg, empty, fits)
    add_edges(src)
    if masks_out is not None:
        masks_out += src.masks
    return grouped(src, weak_out)


def _to_frame(q: np.ndarray, s: float) -> np.ndarray:
    return order_quad(q / s)


#: An outline longer than this (long side over short) is no card seen square on (a
#: poker card 1.4, a bridge card 1.55, stretched by a camera's odd pixels up to about
#: 2), but :attr:`LocateConfig.max_aspect` lets such outlines through, up to a far card
#: at 45° lying across the view. They group only with their like and count as no card
#: beside others (:func:`grouped`), and are read last
#: (``vision.detector.CardDetector._elongated_cards``).
ELONGATED = 2.3


def elongated(quad: np.ndarray) -> bool:
    a, b, c, d = side_lengths(np.asarray(quad, np.float32)).tolist()
    return max(a + c, b + d) > ELONGATED * max(min(a + c, b + d), 1e-6)


def _drop_merged(groups: list[list[Outline]], weak: list[bool]) -> list[list[Outline]]:
    """Groups whose outline holds two or more other cards' centres: touching cards
    fitted as one, which would be read as one of them a second time. Only groups not
    marked ``weak`` count as those other cards."""
    centres = [g[0].mean(axis=0) for g in groups]
    areas = [cv2.contourArea(g[0]) for g in groups]
    weak = [w or elongated(g[0]) for g, w in zip(groups, weak, strict=True)]
    keep = []
    for i, g in enumerate(groups):
        poly = g[0].reshape(-1, 1, 2)
        # only card-sized pieces count: pips and picture frames inside a card do not
        inside = sum(
            not weak[j]
            and 0.25 * areas[i] <= areas[j] <= 0.75 * areas[i]
            and cv2.pointPolygonTest(poly, (float(c[0]), float(c[1])), False) > 0
            for j, c in enumerate(centres)
            if j != i
        )
        if inside < 2:
            keep.append(g)
    return keep


def border_quads(frame_bgr: np.ndarray, cfg: LocateConfig = _DEFAULT) -> list[np.ndarray]:
    """Card outlines from border lines (:func:`line_quads`), in full-frame pixels.

    The costliest source and the last resort: for a frame in which nothing else found a
    card that reads (a white card on a white desk, a close-up whose border is faint).
    """
    small, scale = work_copy(frame_bgr)
    half = cv2.resize(
        small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA
    )
    return [order_quad(q / (scale / 2)) for q in line_quads(half, cfg)]


def dark_quads(frame_bgr: np.ndarray, cfg: LocateConfig = _DEFAULT) -> list[np.ndarray]:
    """Outlines of dark cards (a black-and-gold deck) on a lighter table, in full-frame
    pixels: the paper mask of the frame's negative, where dark, colourless stock is the
    bright paper. Dark things that are no card (a keyboard, a shadow, a sleeve) are found
    too, so the detector keeps only outlines that read, and looks here only when a frame
    gives reason to (nothing read, or a card read as its negative)."""
    return dark_quads_and_mask(frame_bgr, cfg)[0]


def dark_quads_and_mask(
    frame_bgr: np.ndarray, cfg: LocateConfig = _DEFAULT
) -> tuple[list[np.ndarray], np.ndarray, float]:
    """:func:`dark_quads`, with the mask they came from and its scale (mask pixels per
    frame pixel): dark cards touching each other are one blob there, whose corners are
    still each card's own (:mod:`vision.overlap`).

    Both splits of the negative are outlined, as for a light deck: where part of the
    table lies in shadow (or a keyboard, a dark cloth fills part of the view), the first
    split puts it with the dark cards, and a card touching it is no card's shape there;
    the second parts the blacker stock from the grey shadow."""
    small, scale = work_copy(frame_bgr)
    negative = cv2.bitwise_not(white_balance(small))
    masks = paper_masks(negative)
    gray: list[np.ndarray] = []  # converted once, for both masks
    blobs = _Blobs()
    quads = []
    for mask in masks:
        found = _quads_in_mask(mask, negative, gray, cfg, blobs=blobs)
        quads += [order_quad(q / scale) for q, _ in found if not isinstance(q, Later)]
    return quads, masks[0], scale


def find_quads(
    frame_bgr: np.ndarray, cfg: LocateConfig = _DEFAULT, empty: np.ndarray | None = None
) -> list[np.ndarray]:
    """Card outlines in full-frame pixel coordinates, each ordered by :func:`order_quad`."""
    return [g[0] for g in find_candidates(frame_bgr, cfg, empty)]


def turned(quad: np.ndarray) -> np.ndarray:
    """The same outline starting one corner on: rectified, the card comes out 90° turned.

    For an outline whose short side was picked wrong (a squashed, oblique view of a card,
    or a nearly square fit), so the reader can try it the other way round.
    """
    return np.asarray(quad, np.float32)[[1, 2, 3, 0]]


def squareish(quad: np.ndarray, limit: float = 1.3) -> bool:
    """Whether the outline's sides are too alike to be sure which is the short one."""
    q = np.asarray(quad, np.float32)
    a = (np.linalg.norm(q[0] - q[1]) + np.linalg.norm(q[2] - q[3])) / 2
    b = (np.linalg.norm(q[1] - q[2]) + np.linalg.norm(q[3] - q[0])) / 2
    return max(a, b) / max(min(a, b), 1e-6) < limit


def rectify(
    frame_bgr: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (200, 300)
) -> np.ndarray:
    """Warp the card inside ``quad`` to an upright ``size`` (width, height) image."""
    return warp_perspective(frame_bgr, card_map(quad, size), size, cv2.BORDER_REPLICATE)


def card_map(quad: np.ndarray, size: tuple[int, int] = (200, 300)) -> np.ndarray:
    """The homography taking the outline ``quad`` (its first corner the card's top left)
    to an upright card image of ``size`` (width, height): what :func:`rectify` warps by."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    return cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
