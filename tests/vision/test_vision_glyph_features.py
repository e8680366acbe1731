"""The glyph features the model reads: the fast histogram of oriented gradients must give
what the plain textbook sums give, so the shipped weights (trained on them) still fit."""

from __future__ import annotations

import cv2
import numpy as np

from vision.glyphs import GLYPH_H, GLYPH_W, features


def textbook_features(g: np.ndarray) -> np.ndarray:
    """Each pixel's gradient magnitude shared between its two nearest of eight direction
    bins, summed over 4×4 cells, beside the glyph averaged over 2×2 blocks; each part
    scaled to unit length (the coarse picture weighted 0.7)."""
    out = []
    for glyph in g:
        b = cv2.GaussianBlur(glyph, (3, 3), 0.8).astype(np.float64)
        gx = np.zeros_like(b)
        gy = np.zeros_like(b)
        gx[:, 1:-1] = b[:, 2:] - b[:, :-2]
        gy[1:-1, :] = b[2:, :] - b[:-2, :]
        hog = np.zeros((GLYPH_H // 4, GLYPH_W // 4, 8))
        for y in range(GLYPH_H):
            for x in range(GLYPH_W):
                mag = np.hypot(gx[y, x], gy[y, x])
                pos = (np.arctan2(gy[y, x], gx[y, x]) + np.pi) / (2 * np.pi) * 8
                lo = int(np.floor(pos))
                frac = pos - lo
                hog[y // 4, x // 4, lo % 8] += mag * (1 - frac)
                hog[y // 4, x // 4, (lo + 1) % 8] += mag * frac
        hog = hog.ravel() / (np.linalg.norm(hog) + 1e-6)
        coarse = glyph.astype(np.float64).reshape(GLYPH_H // 2, 2, GLYPH_W // 2, 2).mean((1, 3))
        coarse = coarse.ravel() / (np.linalg.norm(coarse) + 1e-6)
        out.append(np.concatenate([hog, 0.7 * coarse]))
    return np.array(out)


def test_features_are_the_textbook_histogram_of_gradients() -> None:
    rng = np.random.default_rng(3)
    ring = np.zeros((GLYPH_H, GLYPH_W), np.float32)
    cv2.circle(ring, (12, 16), 8, 1.0, 3)  # a "0": strokes in every direction
    bar = np.zeros_like(ring)
    bar[4:28, 10:14] = 1.0  # a "1": two directions only
    noisy = rng.random((GLYPH_H, GLYPH_W)).astype(np.float32)
    grey = (rng.random((GLYPH_H, GLYPH_W)) * (rng.random((GLYPH_H, GLYPH_W)) > 0.5)).astype(
        np.float32
    )
    batch = np.stack([ring, bar, noisy, grey])
    got = features(batch)
    assert got.shape == (4, (GLYPH_H // 4) * (GLYPH_W // 4) * 8 + (GLYPH_H // 2) * (GLYPH_W // 2))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, textbook_features(batch), atol=2e-6)
    # one glyph alone gives the same row as within a batch
    np.testing.assert_array_equal(features(bar), got[1:2])
