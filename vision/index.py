"""Cut the rank and suit glyphs out of one corner of a rectified card.

The index sits in the top-left corner of an upright card (and, turned round, in the
bottom-right). Rather than assume where exactly — decks differ — the corner is
thresholded against its own paper colour and the glyphs are found as ink blobs: the
top-most blob (or pair, for ``10``) is the rank, the next one below it is the suit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision import components
from vision.levels import percentile

#: Part of the card searched for the index, as fractions of width and height. Generous,
#: because decks differ: some print a large index whose suit reaches well down the card.
CORNER_W, CORNER_H = 0.30, 0.48
#: Where a rank may start (fractions of the card): an index hugs its corner, a pip or a
#: picture does not.
RANK_MAX_X, RANK_MAX_Y = 0.17, 0.15
#: Thresholds tried, as multiples of the corner's own, when the first finds no index: a
#: blurred or washed-out print joins rank and suit into one blob (harder splits them), or
#: leaves a pale rank below a strong suit's threshold (softer finds it).
RETRY_THRESHOLDS = (1.5, 2.0, 0.6)
#: Stock between these Lab lightness levels (8-bit) is a light card in a dim room: its
#: ink score is scaled up as if the stock were at the upper one. Every difference of ink
#: from stock shrinks with the light, while :data:`INK_FLOOR` and :data:`SOFT_FROM` are
#: fixed levels: unscaled, a dim corner's threshold fell below where the softer look for
#: a pale rank is taken. (Below the lower level the "stock" is a dark table or a dark
#: deck, whose grain must not be made ink.)
DIM_PAPER = (100.0, 150.0)
#: The least ink score ever counted as ink (below it, paper grain and JPEG blocks).
INK_FLOOR = 28
#: A softer look is taken only where the corner's own threshold is this far above the
#: floor: something in the corner is strong ink (a suit beside a pale rank). At the floor
#: the corner holds no real ink, and a softer look finds cloth or grain as glyphs.
SOFT_FROM = 35.0
#: A rank and suit run together: a blob where a rank starts, at least this many times as
#: tall as it is wide (a rank alone is about 1.4, a rank and suit in one piece 2.5).
JOINED_TALL = 1.6


@dataclass(frozen=True)
class Blob:
    x: int
    y: int
    w: int
    h: int
    label: int

    @property
    def x1(self) -> int:
        return self.x + self.w

    @property
    def y1(self) -> int:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2


@dataclass
class IndexGlyphs:
    """Ink masks of the rank and suit, and how red the ink is compared with the paper."""

    rank: np.ndarray
    suit: np.ndarray
    redness: float
    rank_parts: int = 1  # side-by-side glyphs of equal height: two only for a "10"
    #: For a two-part rank: the left glyph alone, and whether the right one has a hole.
    #: Lets the reader tell a "10" from a narrow letter printed beside a picture's pip.
    left_part: np.ndarray | None = None
    right_holed: bool = True
    #: How much more colourful (Lab chroma) the ink is than the paper: on a dark deck,
    #: gold or coloured ink marks the red suits where silver or white marks the black.
    colourfulness: float = 0.0
    #: The suit's ink score (not thresholded), its box and a little round it: a soft
    #: club's lobes still show there after the threshold has run them together.
    suit_score: np.ndarray | None = None
    #: The ink's colour against the stock's (Lab a*, b* differences): what a learned deck
    #: compares with the colours its suits were printed in (a four-colour deck).
    ink_ab: tuple[float, float] = (0.0, 0.0)


def ink_score(corner_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(ink mask, 8-bit Lab image, ink score, threshold) of a corner; ink is anything darker
    or more coloured than paper.

    Paper is estimated from the corner itself, so a warm lamp, a tinted card stock or a
    shadow across the card all shift the reference along with the ink.
    """
    lab8 = cv2.cvtColor(corner_bgr, cv2.COLOR_BGR2LAB)
    lum, a, b = cv2.split(lab8)
    # the 70th percentile's mask: L* >= p is L* > ceil(p) - 1 for 8-bit levels, which
    # OpenCV's threshold gives (it compares 8-bit levels with a whole threshold)
    level = percentile(lum, 70)
    _, bright = cv2.threshold(lum, math.ceil(level) - 1, 1, cv2.THRESH_BINARY)
    paper = _paper_level(lab8, bright)
    # (paper L* - L*) + 1.5 * sqrt(da * da + db * db), each term looked up per 8-bit level
    # from a table worked out with the very float32 operations it stands for: the same
    # value for every pixel, a pass over the corner fewer for each
    score = cv2.LUT(a, _squared_from(paper[1]))
    score += cv2.LUT(b, _squared_from(paper[2]))
    np.sqrt(score, out=score)
    score *= 1.5
    score += cv2.LUT(lum, paper[0] - _LEVELS)
    if DIM_PAPER[0] <= paper[0] < DIM_PAPER[1]:
        score *= DIM_PAPER[1] / float(paper[0])
    np.clip(score, 0, 255, out=score)
    score = score.astype(np.uint8)
    # Otsu's mask is the ink mask where the floor does not raise its threshold
    t, ink = cv2.threshold(score, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if t < INK_FLOOR:
        t = INK_FLOOR
        ink = (score > t).astype(np.uint8)
    return ink, lab8, score, float(t)


#: The 8-bit levels as float32, for the tables :func:`ink_score` looks levels up in.
_LEVELS = np.arange(256, dtype=np.float32).reshape(256, 1)


def _squared_from(level: np.float32) -> np.ndarray:
    """(v - level) ** 2 in float32 for every 8-bit level v, as ``ink_score`` squares a
    pixel's difference from the paper's a* or b*."""
    d = _LEVELS - level
    d *= d
    return d


def _paper_level(lab8: np.ndarray, bright: np.ndarray) -> np.ndarray:
    """The mean Lab colour of the bright pixels, as float32 (numpy's mean of the float32
    pixels, to the last bit: the sums of 8-bit levels are exact in float32 up to 2**24,
    so summing them exactly and dividing once in float32 is what numpy's float32 mean
    gives, without building the float32 image; :func:`_masked_sums`)."""
    n = cv2.countNonZero(bright)
    sums = _masked_sums(lab8, bright, n)
    if sums is None:
        return lab8.astype(np.float32)[bright > 0].mean(axis=0)
    return np.array(sums, np.float32) / np.float32(n)


def _masked_sums(lab8: np.ndarray, mask: np.ndarray, n: int) -> list[int] | None:
    """Each Lab channel's sum of 8-bit levels over the ``n`` pixels ``mask`` (uint8 or
    bool) marks, exactly; None where a sum may pass 2**24. OpenCV's masked mean (the sum
    times the reciprocal of the count, in double) carries such a sum to far within one
    half, so rounding recovers it: one call, no masked copy of the pixels to sum."""
    if n * 255 >= 1 << 24:
        return None
    return [round(m * n) for m in cv2.mean(lab8, mask=mask.view(np.uint8))[:3]]


def _is_tight_ten(score: np.ndarray, t: float) -> bool:
    """Whether one rank blob is a ``10`` whose digits touch (blur, a condensed index).

    Thresholded harder, a tight ten comes apart into a narrow, full-height ``1`` on the
    left and a wider ``0`` with a hole on the right; a ``Q`` or ``K`` does not.
    """
    h, w = score.shape
    if w < 0.5 * h:
        return False
    for k in (1.3, 1.7, 2.2):
        n, labels, stats, _ = cv2.connectedComponentsWithStats(
            (score > t * k).astype(np.uint8), connectivity=4
        )
        big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_HEIGHT] >= 0.75 * h]
        if len(big) != 2:
            continue
        a, b = sorted(big, key=lambda i: stats[i, cv2.CC_STAT_LEFT])
        la, lb = stats[a], stats[b]
        if la[cv2.CC_STAT_LEFT] + la[cv2.CC_STAT_WIDTH] > lb[cv2.CC_STAT_LEFT] + 1:
            continue  # not side by side
        if la[cv2.CC_STAT_WIDTH] > 0.4 * la[cv2.CC_STAT_HEIGHT]:
            continue
        if lb[cv2.CC_STAT_WIDTH] < 1.3 * la[cv2.CC_STAT_WIDTH]:
            continue
        if _encloses_paper((labels == b).astype(np.uint8)):
            return True
    return False


def _encloses_paper(mask: np.ndarray) -> bool:
    """Whether ink encloses paper, as a "0" does and a solid pip does not."""
    _, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    return hier is not None and bool((hier[0][:, 3] >= 0).any())


#: The closing (pixels of the rectified corner, a glyph about 25 tall) that mends a
#: soft "0" broken open before it is asked for its hole: at 3 no development scene
#: card changed; at 5 a webcam's ten read as a jack reads as the ten.
HOLE_GAP = 5


def _has_hole(labels: np.ndarray, blob: Blob) -> bool:
    """Whether the blob encloses paper, also once a gap of a pixel or two in its ink is
    closed: a soft "0" whose thin side fell below the ink threshold is a "C" (a webcam's
    ten then read as its "1" alone, a jack). A solid pip stays solid."""
    mask = (labels[blob.y : blob.y1, blob.x : blob.x1] == blob.label).astype(np.uint8)
    if _encloses_paper(mask):
        return True
    g = HOLE_GAP // 2
    framed = cv2.copyMakeBorder(mask, g, g, g, g, cv2.BORDER_CONSTANT, value=0)
    closed = cv2.morphologyEx(framed, cv2.MORPH_CLOSE, np.ones((HOLE_GAP, HOLE_GAP), np.uint8))
    return _encloses_paper(closed)


def _blobs(ink: np.ndarray) -> tuple[list[Blob], np.ndarray]:
    h, w = ink.shape
    # The card's own edge (and its shadow) can touch an index printed close to it; a
    # thin band is cleared first so the two come apart.
    band = max(2, round(0.015 * w / CORNER_W))
    ink = ink.copy()
    ink[:, :band] = 0
    ink[:band, :] = 0
    n, labels, stats, _ = components.with_stats(ink)
    card_w, card_h = w / CORNER_W, h / CORNER_H
    # table showing through a round corner: a small patch in the innermost corner (an
    # index printed tight to the corner also covers it, but reaches much further)
    wedge = set(labels[band : band + 2, band : band + 2].ravel().tolist()) - {0}
    out = []
    # (the stats as Python ints at once: a numpy row read element by element costs more)
    for i, (x, y, bw, bh, area) in enumerate(stats[1:n].tolist(), start=1):
        if i in wedge and max(bw, bh) < 0.07 * card_w:
            continue
        if x + bw >= w or y + bh >= h:  # cut off by the crop: part of the picture or a pip
            continue
        if bh < 0.025 * card_h or area < 12:
            continue
        if bh > 0.2 * card_h or bw > 0.22 * card_w:
            continue
        out.append(Blob(x, y, bw, bh, i))
    return out, labels


def find_index(corner_bgr: np.ndarray) -> IndexGlyphs | None:
    """The rank and suit glyphs of a corner, or None if it holds no index-like pair."""
    ink, lab8, score, t = ink_score(corner_bgr)
    blobs, labels = _blobs(ink)
    found = _index_in(blobs, labels, ink, lab8, score, t)
    for k in RETRY_THRESHOLDS:
        if found is not None:
            break
        if (k < 1 and t < SOFT_FROM) or (k > 1 and not _joined(blobs, ink.shape)):
            continue
        ink_k = (score > t * k).astype(np.uint8)
        found = _index_in(*_blobs(ink_k), ink_k, lab8, score, t * k)
    if found is None:
        cut = _cut_joined(ink)
        if cut is not None:
            found = _index_in(*_blobs(cut), cut, lab8, score, t)
    return found


#: A rank and suit run together, too tall for one glyph (:func:`_blobs` drops it), is
#: cut at its narrowest row between these shares of its height, where that row is at
#: most ``WAIST`` of its widest: a deck whose index is big for its spacing, blurred.
CUT_BETWEEN = (0.35, 0.75)
WAIST = 0.5
#: Both parts at least this share of the component's width (a rank and its suit are
#: printed about as wide), and the component at least this share of its box in ink.
CUT_PART_WIDE = 0.5
CUT_FILL = 0.35


def _cut_joined(ink: np.ndarray) -> np.ndarray | None:
    """``ink`` with each component where a rank starts that is a rank and suit in one
    piece (far taller than wide, up to twice a glyph's greatest height) cut across at
    its waist, or None where there is none. Thresholds alone do not part them when the
    print's blur fills the gap (a white deck's big index in a dim photo)."""
    h, w = ink.shape
    card_w, card_h = w / CORNER_W, h / CORNER_H
    n, labels, stats, _ = components.with_stats(ink)
    out = None
    for i, (x, y, bw, bh, area) in enumerate(stats[1:n].tolist(), start=1):
        if not (x < RANK_MAX_X * card_w and y < RANK_MAX_Y * card_h and bh >= JOINED_TALL * bw):
            continue
        if not 0.2 * card_h < bh <= 0.4 * card_h or x + bw >= w or y + bh >= h:
            continue
        if area < CUT_FILL * bw * bh:
            continue  # sparse: a picture's frame or hatching, no print run together
        rows = (labels[y : y + bh, x : x + bw] == i).sum(axis=1)
        lo, hi = int(CUT_BETWEEN[0] * bh), int(CUT_BETWEEN[1] * bh)
        r = lo + int(np.argmin(rows[lo:hi]))
        if rows[r] > WAIST * rows.max():
            continue
        if min(rows[:r].max(), rows[r + 1 :].max()) < CUT_PART_WIDE * bw:
            continue  # a glyph with a stroke hanging off it, not two glyphs
        out = ink.copy() if out is None else out
        out[y + r, x : x + bw][labels[y + r, x : x + bw] == i] = 0
    return out


def _joined(blobs: list[Blob], shape: tuple[int, ...]) -> bool:
    """Whether a rank and its suit may have run together into one blob: a blob where a
    rank starts, far taller than it is wide. (A card back's pattern is one mesh at the
    corner's threshold, which a harder one would cut into index-like pieces: it has no
    such blob, so it is not looked at again.)"""
    card_w, card_h = shape[1] / CORNER_W, shape[0] / CORNER_H
    return any(
        b.x < RANK_MAX_X * card_w and b.y < RANK_MAX_Y * card_h and b.h >= JOINED_TALL * b.w
        for b in blobs
    )


def _index_in(
    blobs: list[Blob],
    labels: np.ndarray,
    ink: np.ndarray,
    lab8: np.ndarray,
    score: np.ndarray,
    t: float,
) -> IndexGlyphs | None:
    """The index among ``blobs``, the blobs of one ink mask (``score`` above ``t``)."""
    if len(blobs) < 2:
        return None
    blobs.sort(key=lambda b: (b.y, b.x))
    card_w, card_h = ink.shape[1] / CORNER_W, ink.shape[0] / CORNER_H
    firsts = [b for b in blobs if b.x < RANK_MAX_X * card_w and b.y < RANK_MAX_Y * card_h]
    for first in firsts[:3]:
        rank_parts = [first]
        for b in blobs:
            if b is first:
                continue
            overlap = min(b.y1, first.y1) - max(b.y, first.y)
            gap = max(b.x - first.x1, first.x - b.x1)
            similar = 0.7 * first.h < b.h < 1.4 * first.h and abs(b.y - first.y) < 0.25 * first.h
            if similar and overlap > 0.5 * min(b.h, first.h) and gap < 0.6 * first.h:
                # only a ten is two glyphs wide, and its left glyph is a narrowish "1"
                # (a letter beside a picture's big pip is sorted out by the reader)
                left, right = sorted((first, b), key=lambda k: k.x)
                if left.w < 0.8 * left.h and left.w <= 1.1 * right.w:
                    rank_parts.append(b)
        x0 = min(b.x for b in rank_parts)
        x1 = max(b.x1 for b in rank_parts)
        y0 = min(b.y for b in rank_parts)
        y1 = max(b.y1 for b in rank_parts)
        rh, rw = y1 - y0, x1 - x0
        if rw > 1.6 * rh:
            continue
        below = [
            b
            for b in blobs
            if b not in rank_parts
            and b.y >= y1 - 0.15 * rh
            and b.y < y1 + 1.2 * rh
            and x0 - 0.6 * rw <= b.cx <= x1 + 0.6 * rw
            and b.h > 0.3 * rh
        ]
        if not below:
            continue
        n_parts = len(rank_parts)
        if n_parts == 1 and _is_tight_ten(score[y0:y1, x0:x1], t):
            n_parts = 2
        suit = min(below, key=lambda b: (b.y - y1) + 2 * abs(b.cx - (x0 + x1) / 2))
        rank_mask = labels == rank_parts[0].label
        for b in rank_parts[1:]:
            rank_mask |= labels == b.label
        suit_mask = labels == suit.label
        r_mask = rank_mask[y0:y1, x0:x1]
        s_mask = suit_mask[suit.y : suit.y1, suit.x : suit.x1]
        glyph_px = rank_mask | suit_mask
        ink_ab = _a_b(lab8, glyph_px)
        paper_px = ink == 0
        paper_ab = _a_b(lab8, paper_px)
        both = paper_ab[0].size and ink_ab[0].size
        ink_mean = _lab_means(lab8, glyph_px, ink_ab) if both else None
        paper_mean = _lab_means(lab8, paper_px, paper_ab) if both else None
        redness = _redness(ink_mean, paper_mean)
        colourful = float(_chroma(*ink_ab) - _chroma(*paper_ab)) if paper_ab[0].size else 0.0
        ink_hue = (
            (float(ink_mean[1] - paper_mean[1]), float(ink_mean[2] - paper_mean[2]))
            if ink_mean is not None and paper_mean is not None
            else (0.0, 0.0)
        )
        left_part, right_holed = None, True
        if len(rank_parts) >= 2:
            lb, rb = sorted(rank_parts, key=lambda k: k.x)[:2]
            left_part = (labels[lb.y : lb.y1, lb.x : lb.x1] == lb.label).astype(np.uint8) * 255
            right_holed = _has_hole(labels, rb)
        return IndexGlyphs(
            r_mask.astype(np.uint8) * 255,
            s_mask.astype(np.uint8) * 255,
            redness,
            n_parts,
            left_part,
            right_holed,
            colourful,
            _around(score, suit),
            ink_hue,
        )
    return None


def _around(score: np.ndarray, blob: Blob, pad: int = 2) -> np.ndarray:
    """The score of ``blob``'s box, ``pad`` pixels wider each way (within the corner)."""
    h, w = score.shape
    y0, y1 = max(0, blob.y - pad), min(h, blob.y1 + pad)
    return score[y0:y1, max(0, blob.x - pad) : min(w, blob.x1 + pad)]


def _redness(
    glyph: tuple[float, np.float32, np.float32] | None,
    paper: tuple[float, np.float32, np.float32] | None,
) -> float:
    """How much redder (Lab a*) the glyphs' ink is than its stock, where a green stock
    counts only as far as the ink is as light. A tinted light shifts a dark ink's a* only
    in proportion to its lightness: under a green cast black ink measured 5.5 redder
    than its greenish stock. A reddish stock (a warm lamp; a red card back, whose
    darker lattice is no red index) is taken off whole: the ink never comes out redder
    than the plain difference. ``glyph`` and ``paper``: their pixels' mean Lab levels
    (:func:`_lab_means`), None where either has no pixels."""
    if glyph is None or paper is None:
        return 0.0
    ink_l, glyph_a = glyph[0], glyph[1]
    paper_l, paper_a = paper[0], paper[1]
    stock = float(paper_a) - 128.0
    share = min(1.0, ink_l / max(paper_l, 1.0)) if stock < 0 else 1.0
    return float(glyph_a - 128.0) - stock * share


def _lab_means(
    lab8: np.ndarray, where: np.ndarray, ab: tuple[np.ndarray, np.ndarray]
) -> tuple[float, np.float32, np.float32]:
    """The mean L* (as a float: numpy's mean of the 8-bit levels) and a*, b* (as float32:
    numpy's mean of ``ab``, the float32 levels :func:`_a_b` picked) of the 8-bit Lab
    pixels ``where`` is true (some are), to the last bit, in one OpenCV call.

    Why exact: the sums are exact (:func:`_masked_sums`); numpy sums such levels exactly
    too (in float64 for 8-bit ones; in float32 below 2**24, in any order) and divides
    that sum by the count in double, rounding the quotient to float32 for a float32
    array: the same two steps as here. (Three calls of numpy's mean on a few hundred
    pixels each, and picking the L* levels out, cost more than the arithmetic.)"""
    n = ab[0].size
    sums = _masked_sums(lab8, where, n)
    if sums is None:
        return (
            float(lab8[..., 0][where].mean()),
            np.float32(ab[0].mean()),
            np.float32(ab[1].mean()),
        )
    return sums[0] / n, np.float32(sums[1] / n), np.float32(sums[2] / n)


def _a_b(lab8: np.ndarray, where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The a* and b* levels (as float32) of the 8-bit Lab pixels ``where`` is true, in
    row order. Picked one channel at a time: numpy picks a 2-D mask's pixels out of a
    3-channel image several times slower, and float32 is what the means are taken in."""
    return lab8[..., 1][where].astype(np.float32), lab8[..., 2][where].astype(np.float32)


def _chroma(a: np.ndarray, b: np.ndarray) -> float:
    """Mean colourfulness of Lab pixels' a* and b* levels (8-bit Lab: centred on 128), as
    float32 (``a`` and ``b`` float32 levels). The hypotenuses as sqrt(da * da + db * db)
    where that is numpy's hypot for every pair of levels (:data:`_HYPOT_IS_SQRT`): the
    same values at a third of the cost (hypot calls libm once a pixel)."""
    if not _HYPOT_IS_SQRT:
        return float(np.hypot(a - 128, b - 128).mean())
    da = a - 128
    db = b - 128
    da *= da
    db *= db
    da += db
    return float(np.sqrt(da, out=da).mean())


def _hypot_is_rounded_sqrt() -> bool:
    """Whether numpy's float32 hypot of every pair of centred 8-bit levels (all 65,536)
    is the float32 root of their sum of squares. That sum is a whole number below 2**24,
    exact in float32, and the root is rounded once, so this holds wherever libm's hypotf
    is correctly rounded for these (glibc's is: it takes the root in double); checked
    here once rather than assumed, so no platform reads otherwise than with hypot."""
    d = np.arange(256, dtype=np.float32) - 128
    da, db = (g.ravel() for g in np.meshgrid(d, d))
    return bool(np.array_equal(np.hypot(da, db), np.sqrt(da * da + db * db)))


#: See :func:`_hypot_is_rounded_sqrt`.
_HYPOT_IS_SQRT = _hypot_is_rounded_sqrt()


def corner_windows(size: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """The two index corners of an upright card of ``size`` (width, height) as windows
    (x0, y0, x1, y1): what :func:`corners` cuts out."""
    w, h = size
    cw, ch = int(w * CORNER_W), int(h * CORNER_H)
    return [(0, 0, cw, ch), (w - cw, h - ch, w, h)]


def corners(card_bgr: np.ndarray) -> list[np.ndarray]:
    """Both index corners of an upright rectified card, each turned so the index is upright."""
    h, w = card_bgr.shape[:2]
    (ax, ay, ax1, ay1), (bx, by, bx1, by1) = corner_windows((w, h))
    top_left = card_bgr[ay:ay1, ax:ax1]
    bottom_right = cv2.rotate(card_bgr[by:by1, bx:bx1], cv2.ROTATE_180)
    return [top_left, bottom_right]
