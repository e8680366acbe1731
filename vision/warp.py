"""A perspective warp that gives the same pixels under every OpenCV release.

OpenCV 5 rewrote ``warpPerspective`` (and ``remap`` with float maps) to interpolate in
floating point, where 4.x rounds each source position to 1/32 pixel and blends in fixed
point. The two differ by a grey level or two on a few per cent of the pixels, and a
blurred index glyph thresholded from them can then come out another shape: the same
photo read one way on a Pi (whose numpy 1.x pin brings OpenCV 4.11) and another on a
desktop. Here the source position of every output pixel is computed in numpy
and rounded to 1/32 pixel by us; ``remap`` given such fixed-point maps blends them the
same way in both releases (as 4.x's own ``warpPerspective`` does).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

#: Bits of sub-pixel position in OpenCV's fixed-point maps (its INTER_BITS).
_BITS = 5
_STEPS = 1 << _BITS


def fixed_point_maps(
    m: np.ndarray,
    size: tuple[int, int],
    src_shape: tuple[int, ...],
    origin: tuple[int, int] = (0, 0),
) -> tuple[np.ndarray, np.ndarray]:
    """``remap``'s fixed-point maps for the homography ``m`` (source → output) and the
    output ``size`` (width, height): whole pixels (int16 pairs) and the 1/32 fraction
    index. Positions are clamped just outside the source, which changes no pixel under
    a replicated or constant border and keeps them inside int16. (float32 is exact
    enough: a position is off by far less than 1/32 pixel, and numpy's arithmetic is
    the same on every machine.) ``origin`` (x, y) makes the maps those of the output
    window of ``size`` starting there: the same values the whole output's maps hold."""
    inv = np.linalg.inv(np.asarray(m, np.float64)).astype(np.float32)
    return _maps_of_inverse(inv, size, src_shape, origin)


def _maps_of_inverse(
    inv: np.ndarray,
    size: tuple[int, int],
    src_shape: tuple[int, ...],
    origin: tuple[int, int] = (0, 0),
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`fixed_point_maps` from the homography's inverse (float32), worked out once
    for all the windows of one warp."""
    w, h = size
    xs = np.arange(origin[0], origin[0] + w, dtype=np.float32)
    ys = np.arange(origin[1], origin[1] + h, dtype=np.float32)[:, None]
    den = inv[2, 0] * xs + (inv[2, 1] * ys + inv[2, 2])
    den[np.abs(den) < 1e-9] = 1e-9
    sh, sw = src_shape[:2]
    # in place where numpy allows: two maps a warp, a dozen warps a frame, and a fresh
    # array per step (and int16 casts through int32 temporaries) cost more than the sums.
    # The 1/32 steps are taken in the row itself: times 32 is exact in floating point
    # (a power of two), so each sum, quotient and bound comes out 32 times the one in
    # pixels, bit for bit, one pass fewer.
    whole = np.empty((h, w, 2), np.int16)
    fracs = []
    for k, (row, limit) in enumerate(((inv[0] * _STEPS, sw), (inv[1] * _STEPS, sh))):
        f = row[0] * xs + (row[1] * ys + row[2])
        f /= den
        np.clip(f, -2 * _STEPS, (limit + 1) * _STEPS, out=f)
        np.rint(f, out=f)
        pos = f.astype(np.int32)
        np.right_shift(pos, _BITS, out=whole[..., k], casting="unsafe")
        pos &= _STEPS - 1
        fracs.append(pos)
    fx, fy = fracs
    fy <<= _BITS  # the fraction index: y's 1/32 step times 32 plus x's
    fy |= fx
    return whole, fy.astype(np.uint16)


def warp_perspective(
    src: np.ndarray,
    m: np.ndarray,
    size: tuple[int, int],
    border: int = cv2.BORDER_CONSTANT,
    keep_maps: bool = False,
    fill: tuple[float, ...] = (0, 0, 0),
) -> np.ndarray:
    """``src`` warped by the homography ``m`` into an image of ``size`` (width, height),
    bilinear, the same pixels whatever the OpenCV release. ``keep_maps`` keeps the maps
    for the next call with the same homography (the table plane: one per calibration,
    used on every frame). ``fill``: the colour beyond ``src`` with a constant border."""
    if keep_maps:
        key = (np.asarray(m, np.float64).tobytes(), tuple(size), tuple(src.shape[:2]))
        whole, frac = _kept_maps(key)
    else:
        whole, frac = fixed_point_maps(m, size, src.shape)
    return cv2.remap(src, whole, frac, cv2.INTER_LINEAR, borderMode=border, borderValue=fill)


@lru_cache(maxsize=4)
def _kept_maps(
    key: tuple[bytes, tuple[int, int], tuple[int, int]],
) -> tuple[np.ndarray, np.ndarray]:
    raw, size, shape = key
    return fixed_point_maps(np.frombuffer(raw, np.float64).reshape(3, 3), size, shape)


def warp_windows(
    src: np.ndarray,
    m: np.ndarray,
    size: tuple[int, int],
    windows: list[tuple[int, int, int, int]],
    border: int = cv2.BORDER_CONSTANT,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """An image of ``size`` in which only the ``windows`` (x0, y0, x1, y1) are warped, each
    pixel exactly as :func:`warp_perspective` gives it; the rest is black. For a reader
    that looks at a card's index corners only (a quarter of the card): the rest of the
    warp would be thrown away. ``out``, an image this call gave before, is filled in
    place instead (the rest of a card once its corners turned out worth it)."""
    w, h = size
    if out is None:
        out = np.zeros((h, w, *src.shape[2:]), src.dtype)
    inv = np.linalg.inv(np.asarray(m, np.float64)).astype(np.float32)
    for x0, y0, x1, y1 in windows:
        whole, frac = _maps_of_inverse(inv, (x1 - x0, y1 - y0), src.shape, (x0, y0))
        out[y0:y1, x0:x1] = cv2.remap(src, whole, frac, cv2.INTER_LINEAR, borderMode=border)
    return out
