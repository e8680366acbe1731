"""Card stock in a frame outside the cards read: whether more cards may lie there.

A frame whose cards all read still may hold a card no outline found (on a table about
as light as the stock, in a shadow, under a coloured lamp). Searching for it costs a
lot, so the detector first asks these cheap questions of the frame sampled every
:data:`COARSE` pixels: is there bright table, bare stock, or a pale unread outline
beside the cards read?
"""

from __future__ import annotations

from statistics import median

import cv2
import numpy as np

from vision import components
from vision.detection import Detection
from vision.levels import percentile
from vision.locate import difference_mask, table_mask
from vision.quads import grown

#: The frame is judged for stock every this many pixels (:func:`pale_gaps`,
#: :func:`bare_stock`): a card is still hundreds of samples.
COARSE = 8


def _filled(shape: tuple[int, ...], quads: list[np.ndarray]) -> np.ndarray:
    """A mask of ``shape`` (a frame sampled every :data:`COARSE` pixels) with the
    outlines ``quads`` (frame pixels) filled with 1."""
    mask = np.zeros(shape[:2], np.uint8)
    for q in quads:
        cv2.fillPoly(mask, [np.round(q / COARSE).astype(np.int32)], 1)
    return mask


def sampled(frame_bgr: np.ndarray) -> np.ndarray:
    """``frame_bgr[::COARSE, ::COARSE]`` as a contiguous copy, copied a channel at a time.
    (The same pixels: numpy copies a colour view that steps over pixels three bytes at a
    time, several times slower, and OpenCV copies such a view before every conversion; a
    frame's stock tests convert it three or four times.)"""
    view = frame_bgr[::COARSE, ::COARSE]
    if view.ndim == 2:
        return np.ascontiguousarray(view)
    out = np.empty(view.shape, view.dtype)
    for k in range(view.shape[2]):
        out[..., k] = view[..., k]
    return out


def _coarse(frame_bgr: np.ndarray, coarse: np.ndarray | None) -> np.ndarray:
    """The frame sampled every :data:`COARSE` pixels: ``coarse`` if given (the caller's
    copy of it, :func:`sampled`), else the view."""
    return coarse if coarse is not None else frame_bgr[::COARSE, ::COARSE]


#: An unread outline whose inside is at least this share of the read cards' brightness
#: may hold cards (stock); a darker one is table.
PALE_SHARE = 0.8


def pale_gaps(
    frame_bgr: np.ndarray, found: list[Detection], coarse: np.ndarray | None = None
) -> bool:
    """Whether an outline that read as nothing is about as bright inside (its median) as
    the cards read: pale like stock, so cards may lie there (a rendered table's grain outlined
    beside four cards read is darker, and needs no search). ``coarse``: the frame sampled
    as :func:`sampled` samples it, if the caller has it."""
    unread = [d for d in found if d.card is None]
    read = [d for d in found if d.card]
    if not unread or not read:
        return bool(unread)
    grey = cv2.cvtColor(_coarse(frame_bgr, coarse), cv2.COLOR_BGR2GRAY)

    def inside(d: Detection) -> float:
        inner = grey[_filled(grey.shape, [d.quad]) > 0]
        # the median: stock is most of a card (ink, pips and pictures the rest)
        return float(np.median(inner)) if inner.size else 0.0

    cards = float(np.median([inside(d) for d in read]))
    return any(inside(d) >= PALE_SHARE * cards for d in unread)


#: Stock outside the cards read, as a share of one card's area, that may be cards the
#: outlines missed (on a table about as light as the stock they run together).
BARE_SHARE = 0.2
#: A pixel is stock if its value-less-saturation is at least this share of the cards'.
STOCK_SHARE = 0.8


def bare_stock(
    frame_bgr: np.ndarray,
    found: list[Detection],
    empty: np.ndarray | None = None,
    coarse: np.ndarray | None = None,
) -> bool:
    """Whether there is card stock outside the cards read (grown a little): pixels as
    white as the inside of the cards read (value less saturation, the paper mask's
    score), making up at least :data:`BARE_SHARE` of a card in one piece. ``empty``, the
    empty table captured at calibration (the frame's size): only what differs from it
    counts, so a white cloth is not taken for cards the outlines missed. ``coarse``: as
    for :func:`pale_gaps`."""
    read = [d for d in found if d.card]
    if not read:
        return False
    small = _coarse(frame_bgr, coarse)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    score = cv2.subtract(hsv[..., 2], hsv[..., 1])
    inside = _filled(score.shape, [d.quad for d in read])
    if not inside.any():
        return False
    # (the median: counted, not sorted, vision.levels; np.median's value for 8-bit levels)
    stock = percentile(score[inside > 0], 50)
    bare = score >= STOCK_SHARE * stock
    if empty is not None and empty.shape == frame_bgr.shape:
        changed = difference_mask(small, empty[::COARSE, ::COARSE])
        bare &= changed > 0
    return _piece_outside(bare, read, BARE_SHARE)


def _piece_outside(mask: np.ndarray, read: list[Detection], share: float) -> bool:
    """Whether ``mask`` (the frame sampled every :data:`COARSE` pixels) holds, outside
    the cards ``read`` (grown a little), a piece of at least ``share`` of a card."""
    around = _filled(mask.shape, [grown(d.quad, 0.15).reshape(-1, 2) for d in read])
    outside = ((mask > 0) & (around == 0)).astype(np.uint8)
    n, _, stats, _ = components.with_stats(outside)
    card = median([cv2.contourArea(d.quad) for d in read]) / COARSE**2
    return n > 1 and int(stats[1:, cv2.CC_STAT_AREA].max()) >= share * card


#: Table brighter than its surroundings outside the cards read, as a share of one card's
#: area, that may be a card the first paper mask left out (in a shadow, or lit by a
#: coloured lamp): the other colour masks are then made. (On the rendered four-card
#: tables of bench/vision_speed.py the largest such piece is under a tenth of a card.)
BRIGHT_SHARE = 0.2


def bright_elsewhere(
    frame_bgr: np.ndarray, found: list[Detection], coarse: np.ndarray | None = None
) -> bool:
    """Whether something brighter than the table around it (:func:`table_mask`, on the
    frame sampled every :data:`COARSE` pixels) lies outside the cards read (grown a
    little), in a piece of at least :data:`BRIGHT_SHARE` of a card: maybe a card the
    first paper mask missed, which the table mask outlines. ``coarse``: as for
    :func:`pale_gaps`."""
    read = [d for d in found if d.card]
    if not read:
        return True
    return _piece_outside(table_mask(_coarse(frame_bgr, coarse)), read, BRIGHT_SHARE)
