"""Index-pair search: every pair measured at once gives the pairs, and their order, that
measuring them one by one gives (the order decides which pairs are read)."""

from __future__ import annotations

import numpy as np

from vision.index_pairs import InkBlob, _alike, index_pairs


def one_by_one(blobs: list[InkBlob]) -> list[tuple[InkBlob, InkBlob]]:
    pairs = []
    for i, a in enumerate(blobs):
        for b in blobs[i + 1 :]:
            size = max(a.w, a.h, b.w, b.h)
            d = float(np.hypot(b.cx - a.cx, b.cy - a.cy))
            if 0.7 * size <= d <= 1.9 * size and _alike(a, b):
                pairs.append((d / size, a, b))
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
