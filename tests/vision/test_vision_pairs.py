"""Index-pair search: every pair measured at once gives the pairs, and their order, that
measuring them one by one gives (the order decides which pairs are read), and that order
puts an index's rank and suit ahead of speckle and a picture's strokes."""

from __future__ import annotations

import numpy as np

from vision.index_pairs import AREA_WEIGHT, PAIR_SPACING, InkBlob, _alike, index_pairs


def one_by_one(blobs: list[InkBlob]) -> list[tuple[InkBlob, InkBlob]]:
    pairs = []
    for i, a in enumerate(blobs):
        for b in blobs[i + 1 :]:
            size = max(a.w, a.h, b.w, b.h)
            d = float(np.hypot(b.cx - a.cx, b.cy - a.cy))
            if 0.7 * size <= d <= 1.9 * size and _alike(a, b):
                unlike = abs(np.log(np.float64(a.area) / b.area))
                pairs.append((abs(d / size - PAIR_SPACING) + AREA_WEIGHT * unlike, a, b))
    pairs.sort(key=lambda p: p[0])
    return [(a, b) for _, a, b in pairs]


def test_pairs_and_their_order_are_those_of_one_by_one() -> None:
    rng = np.random.default_rng(11)
    for k in range(60):
        on_grid = k % 2 == 0  # whole-pixel centres: many exact ties in distance
        blobs = [
            InkBlob(
                float(rng.integers(0, 50)) if on_grid else float(rng.uniform(0, 250)),
                float(rng.integers(0, 50)) if on_grid else float(rng.uniform(0, 250)),
                int(rng.integers(3, 18)),
                int(rng.integers(3, 18)),
                int(rng.integers(5, 250)),
            )
            for _ in range(int(rng.integers(0, 80)))
        ]
        got = [(id(a), id(b)) for a, b in index_pairs(blobs)]
        assert got == [(id(a), id(b)) for a, b in one_by_one(blobs)]
    assert index_pairs([]) == []


def test_an_index_is_read_before_nearer_speckle() -> None:
    """A rank and its suit stand about 1.15 glyph sizes apart and are printed alike;
    two specks touching-close, one thrice the other, come after them (read nearest
    first, the specks came first and, on a speckled table, the indices past the cap)."""
    rank, suit = InkBlob(100.0, 100.0, 20, 28, 300), InkBlob(100.0, 132.0, 18, 20, 250)
    speck_a, speck_b = InkBlob(300.0, 300.0, 20, 20, 110), InkBlob(315.0, 300.0, 20, 20, 330)
    pairs = index_pairs([speck_a, rank, speck_b, suit])
    assert pairs[0] == (rank, suit)
    assert (speck_a, speck_b) in pairs
