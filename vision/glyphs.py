"""Turn one index glyph (a binary ink mask) into a fixed-length feature vector.

Training (rendered glyphs) and recognition (glyphs cut from camera frames) both go through
exactly this code, so the classifier never sees a difference in how the two were framed:
the only gap left between them is the glyph shape itself.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.levels import percentile

#: Size of the normalised glyph box (width, height). Index glyphs are taller than wide.
GLYPH_W, GLYPH_H = 24, 32
_CELL = 4
_BINS = 8


def normalise(mask: np.ndarray) -> np.ndarray:
    """Fit the ink of ``mask`` (nonzero = ink) into the glyph box, keeping its aspect.

    Keeping the aspect matters: a ``1`` and an ``8`` only differ in width once scaled.
    Returns float32 in [0, 1], shape (GLYPH_H, GLYPH_W); all zeros if there is no ink.
    """
    out = np.zeros((GLYPH_H, GLYPH_W), np.float32)
    box = _ink_box(mask)
    if box is None:
        return out
    x, y, w, h = box
    crop = mask[y : y + h, x : x + w].astype(np.float32)
    crop /= max(float(crop.max()), 1e-6)
    h, w = crop.shape
    scale = min((GLYPH_W - 2) / w, (GLYPH_H - 2) / h)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA)
    x0, y0 = (GLYPH_W - nw) // 2, (GLYPH_H - nh) // 2
    out[y0 : y0 + nh, x0 : x0 + nw] = small
    return out


def _ink_box(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    """The box (x, y, w, h) round ``mask``'s nonzero pixels, None if it has none. An 8-bit
    mask's box from OpenCV (the same whole-pixel box, without numpy listing every pixel
    of the glyph first)."""
    if mask.dtype == np.uint8 and mask.ndim == 2:
        x, y, w, h = cv2.boundingRect(mask)
        return (x, y, w, h) if w else None
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    x, y = int(xs.min()), int(ys.min())
    return x, y, int(xs.max()) - x + 1, int(ys.max()) - y + 1


def normalise_soft(score: np.ndarray) -> np.ndarray | None:
    """Fit an ink-score patch (not thresholded) into the glyph box, as grey.

    A webcam's soft club is a spade once thresholded: its lobes run together into one
    round head. The grey levels still hold the lobes, so the black-suit head reads them
    as they are. The glyph is framed where the ink passes half its peak (a blur spreads
    a glyph's faint edge, never its half-peak one); None if the patch has no ink.
    """
    # an 8-bit score's percentile counted, not sorted (vision.levels: numpy's value,
    # which numpy gives in float32 for a float32 array)
    if score.dtype == np.uint8 and score.size:
        peak = float(np.float32(percentile(score, 95)))
        if peak <= 0:
            return None
        # above half the peak: an 8-bit level above 0.5 * peak is one above its whole
        # part, which OpenCV's threshold compares with (the same pixels as numpy's test)
        _, above = cv2.threshold(score, 0.5 * peak, 1, cv2.THRESH_BINARY)
        if cv2.countNonZero(above) < 4:
            return None
        x, y, w, h = cv2.boundingRect(above)
        crop = np.clip(score[y : y + h, x : x + w].astype(np.float32) / peak, 0.0, 1.0)
    else:
        ink = score.astype(np.float32)
        peak = float(np.percentile(ink, 95))
        if peak <= 0:
            return None
        ys, xs = np.nonzero(ink > 0.5 * peak)
        if len(xs) < 4:
            return None
        crop = np.clip(ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1] / peak, 0.0, 1.0)
    h, w = crop.shape
    scale = min((GLYPH_W - 2) / w, (GLYPH_H - 2) / h)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    way = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    out = np.zeros((GLYPH_H, GLYPH_W), np.float32)
    x0, y0 = (GLYPH_W - nw) // 2, (GLYPH_H - nh) // 2
    out[y0 : y0 + nh, x0 : x0 + nw] = cv2.resize(crop, (nw, nh), interpolation=way)
    return out


def features(glyphs: np.ndarray) -> np.ndarray:
    """Features for a batch of normalised glyphs, shape (N, H, W) -> (N, D) float32.

    A small hand-rolled histogram of oriented gradients (OpenCV's HOG is not in every
    build) plus a coarse picture of the ink, each L2-normalised. Gradients carry the
    stroke directions that separate similar glyphs; the coarse picture carries where the
    ink sits (the hole of a ``4`` against a ``9``).
    """
    g = np.asarray(glyphs, np.float32)
    if g.ndim == 2:
        g = g[None]
    if len(g) > 1024:
        return np.concatenate([features(g[i : i + 1024]) for i in range(0, len(g), 1024)])
    n = g.shape[0]
    blurred = np.stack([cv2.GaussianBlur(x, (3, 3), 0.8) for x in g])
    gx = np.zeros_like(blurred)
    gy = np.zeros_like(blurred)
    gx[:, :, 1:-1] = blurred[:, :, 2:] - blurred[:, :, :-2]
    gy[:, 1:-1, :] = blurred[:, 2:, :] - blurred[:, :-2, :]
    mag = np.sqrt(gx * gx + gy * gy)
    ang = np.arctan2(gy, gx)  # signed: ink is always the bright side
    pos = (ang + np.pi) / (2 * np.pi) * _BINS
    below = np.floor(pos)
    frac = pos - below
    # each pixel's magnitude shared between its two nearest direction bins, written
    # into them (a comparison with every bin builds eight times the arrays). The bins
    # are distinct and start at zero, so the second share is written, not added (0 + x
    # is x: the shares are never -0), at flat positions (numpy indexes one array of
    # positions faster than a pair); & 7 is % 8 for these levels (0 to 8)
    lo = below.astype(np.int32).ravel()
    lo &= _BINS - 1
    at = _bin_starts(lo.size)
    hist = np.zeros((n, GLYPH_H, GLYPH_W, _BINS), np.float32)
    flat = hist.reshape(-1)
    flat[at + lo] = (mag * (1 - frac)).ravel()
    lo += 1
    lo &= _BINS - 1
    flat[at + lo] = (mag * frac).ravel()
    hog = _block_sums(hist, _CELL).reshape(n, -1)
    hog /= np.linalg.norm(hog, axis=1, keepdims=True) + 1e-6
    coarse = (_block_sums(g, 2) * np.float32(0.25)).reshape(n, -1)
    coarse /= np.linalg.norm(coarse, axis=1, keepdims=True) + 1e-6
    return np.concatenate([hog, 0.7 * coarse], axis=1).astype(np.float32)


@lru_cache(maxsize=8)
def _bin_starts(pixels: int) -> np.ndarray:
    """Where each of ``pixels`` pixels' direction bins start in a flat histogram (a
    batch's pixels, :data:`_BINS` bins each): made once per batch size."""
    out = np.arange(pixels, dtype=np.intp) * _BINS
    out.flags.writeable = False
    return out


def _block_sums(a: np.ndarray, k: int) -> np.ndarray:
    """Sums over ``k``×``k`` blocks of a batch's rows and columns (axes 1 and 2), added
    slice by slice: numpy's reduction over two inner axes of a reshaped array walks
    them element by element, several times slower on these small glyph batches."""
    rows = a[:, 0::k]
    for i in range(1, k):
        rows = rows + a[:, i::k]
    out = rows[:, :, 0::k]
    for i in range(1, k):
        out = out + rows[:, :, i::k]
    return out
