"""The reader's faster steps give what the plain OpenCV and numpy calls give: the labels
of connected components in 16 bits, and an index's chroma without ``hypot``. Checked on
whatever OpenCV and libm the machine has (a Pi's OpenCV 4 as well as a desktop's 5)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import index
from vision.components import with_stats
from vision.synth import CardSpec, scene


def _masks() -> list[np.ndarray]:
    """Masks like those the reader labels: speckle of every density (a webcam's noise
    makes thousands of components), rendered cards thresholded, corners cut from them."""
    rng = np.random.default_rng(3)
    out = [
        (rng.random((h, w)) < p).astype(np.uint8)
        for h, w, p in (
            (60, 144, 0.1),
            (60, 144, 0.5),
            (255, 255, 0.45),
            (300, 200, 0.9),
            (7, 5, 0.5),
        )
    ]
    frame, _ = scene(
        [CardSpec("9H", (400, 400), 300, 20), CardSpec("QS", (800, 500), 280, -35)], seed=8
    )
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for t in (60, 120, 200):
        whole = (grey < t).astype(np.uint8)
        out += [whole[250:550, 250:550], whole[380:520, 700:900], (grey > t)[100:400, 600:760]]
    out.append(np.ones((40, 30), np.uint8))  # no background at all: label 0 has no centroid
    return [np.ascontiguousarray(m, np.uint8) for m in out]


@pytest.mark.parametrize("threads", [1, 4])
def test_16_bit_labels_are_the_32_bit_ones(threads: int) -> None:
    before = cv2.getNumThreads()
    cv2.setNumThreads(threads)
    try:
        for mask in _masks():
            n, labels, stats, cents = with_stats(mask)
            m, want, want_stats, want_cents = cv2.connectedComponentsWithStats(
                mask, connectivity=8, ltype=cv2.CV_32S
            )
            assert labels.dtype == np.uint16  # every mask here is small enough
            assert n == m
            assert np.array_equal(labels.astype(np.int32), want)
            assert np.array_equal(stats, want_stats)
            assert np.array_equal(cents, want_cents, equal_nan=True)
    finally:
        cv2.setNumThreads(before)


def test_a_mask_with_more_blocks_than_16_bits_hold_is_labelled_in_32() -> None:
    # a checkerboard of single pixels: 8-way, one component; but as many 2x2 blocks as
    # 16 bits hold could each be a component of their own
    mask = np.zeros((520, 520), np.uint8)
    mask[::2, ::2] = 1
    n, labels, _, _ = with_stats(mask)
    assert labels.dtype == np.int32
    assert n == 1 + 260 * 260  # 8-way: isolated dots two pixels apart stay apart
    small = mask[:100, :100]
    assert with_stats(small)[1].dtype == np.uint16


def test_an_index_chroma_is_hypots_mean() -> None:
    assert index._HYPOT_IS_SQRT  # glibc's hypotf is rounded once here
    rng = np.random.default_rng(5)
    a = rng.integers(0, 256, (40, 30)).astype(np.float32)
    b = rng.integers(0, 256, (40, 30)).astype(np.float32)
    assert index._chroma(a.copy(), b.copy()) == float(np.hypot(a - 128, b - 128).mean())
