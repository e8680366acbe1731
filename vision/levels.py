"""Percentiles of 8-bit images, from a histogram.

``np.percentile`` sorts (partitions) its input, and the reader asks it for a paper level
or a balance point a dozen times a frame: several milliseconds of a frame's budget on a
Pi. An 8-bit image has only 256 levels, so counting them gives the same order statistics
for the price of one pass. The value returned is the one ``np.percentile`` (its default,
linear method) gives, to the last bit, so swapping one for the other changes no read.
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def percentiles(values: np.ndarray, qs: tuple[float, ...]) -> tuple[float, ...]:
    """``np.percentile(values, q)`` for each ``q``, for an array of 8-bit levels (uint8,
    or integers 0-255 held in another integer type)."""
    cum = np.cumsum(_histogram(values))
    n = int(cum[-1])
    if n == 0:
        raise ValueError("percentile of no pixels")
    out = []
    for q in qs:
        # numpy's linear method: the virtual index (n - 1) * q / 100, its floor and the
        # next order statistic (the first level whose running count passes it: how many
        # running counts are at most the index, as bisect_right counts them), blended as
        # numpy's _lerp blends them
        pos = (n - 1) * (q / 100)
        below = math.floor(pos)
        t = pos - below
        a, b = (float(k) for k in cum.searchsorted((below, min(below + 1, n - 1)), "right"))
        d = b - a
        out.append(b - d * (1 - t) if t >= 0.5 else a + d * t)
    return tuple(out)


def _histogram(values: np.ndarray) -> np.ndarray:
    """How many of ``values`` hold each of the 256 levels. OpenCV counts an 8-bit image
    (or a view into one) in place, several times faster than numpy's ``bincount`` of a
    contiguous copy; its float32 counts, and their running sums, are exact below 2**24
    pixels (whole numbers, as are the indices they are compared with)."""
    if values.dtype == np.uint8 and values.ndim <= 2 and 0 < values.size < 1 << 24:
        return cv2.calcHist([values], [0], None, [256], [0, 256]).ravel()
    flat = np.ascontiguousarray(values).ravel()
    if flat.dtype != np.uint8:
        flat = flat.astype(np.uint8)
    return np.bincount(flat, minlength=256)


def percentile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` for an array of 8-bit levels (:func:`percentiles`)."""
    return percentiles(values, (q,))[0]


def darkest(frame_bgr: np.ndarray) -> float:
    """The frame's darkest grey level, measured on its copy at half size: each pixel
    there the mean of four, so one hot pixel or a speck of sensor noise does not set it,
    while a card's ink, a few pixels thick, still does."""
    h, w = frame_bgr.shape[:2]
    half = cv2.resize(frame_bgr, (max(w // 2, 1), max(h // 2, 1)), interpolation=cv2.INTER_AREA)
    grey = half if half.ndim == 2 else cv2.cvtColor(half, cv2.COLOR_BGR2GRAY)
    return float(grey.min())


def lowered(image: np.ndarray, black: float, to: float) -> np.ndarray:
    """``image`` with its levels moved down in a straight line so that ``black`` becomes
    ``to`` while white stays white: a frame lifted all over, brought back down."""
    gain = (255.0 - to) / (255.0 - black)
    return cv2.convertScaleAbs(image, alpha=gain, beta=to - black * gain)
