"""The perspective warp gives the same pixels under every OpenCV release: it is the
fixed-point bilinear blend worked out here in plain integers, which is what 4.11 did and
what 5 no longer does in its own ``warpPerspective``."""

from __future__ import annotations

import cv2
import numpy as np

from vision.index import corner_windows
from vision.warp import warp_perspective, warp_windows


def by_hand(src: np.ndarray, m: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Bilinear at 1/32 pixel with 15-bit weights, replicated border, in numpy integers."""
    w, h = size
    inv = np.linalg.inv(m).astype(np.float32)
    xs = np.arange(w, dtype=np.float32)
    ys = np.arange(h, dtype=np.float32)[:, None]
    den = inv[2, 0] * xs + (inv[2, 1] * ys + inv[2, 2])
    pos = []
    for row in inv[:2]:
        f = row[0] * xs + (row[1] * ys + row[2])
        f /= den
        pos.append(np.rint(f * 32).astype(np.int64))
    ix, iy = pos
    x0, y0, ax, ay = ix >> 5, iy >> 5, ix & 31, iy & 31
    sh, sw = src.shape[:2]
    out = np.zeros((h, w, src.shape[2]), np.int64)
    for dy, wy in ((0, 32 - ay), (1, ay)):
        for dx, wx in ((0, 32 - ax), (1, ax)):
            px = src[np.clip(y0 + dy, 0, sh - 1), np.clip(x0 + dx, 0, sw - 1)].astype(np.int64)
            out += px * (wx * wy * 32)[..., None]
    return ((out + (1 << 14)) >> 15).astype(np.uint8)


def test_the_warp_is_the_fixed_point_blend() -> None:
    rng = np.random.default_rng(7)
    src = rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)
    src = cv2.GaussianBlur(src, (0, 0), 1.5)  # smooth, like a photo, and random noise
    quad = np.array([[41.3, 30.2], [270.8, 52.9], [250.1, 221.4], [20.6, 190.7]], np.float32)
    dst = np.array([[0, 0], [199, 0], [199, 299], [0, 299]], np.float32)
    m = cv2.getPerspectiveTransform(quad, dst).astype(np.float64)
    got = warp_perspective(src, m, (200, 300), cv2.BORDER_REPLICATE)
    assert np.array_equal(got, by_hand(src, m, (200, 300)))
    # and a whole-frame warp that reaches past the source's edge
    big = warp_perspective(src, np.linalg.inv(m), (320, 240), cv2.BORDER_REPLICATE)
    assert np.array_equal(big, by_hand(src, np.linalg.inv(m), (320, 240)))


def test_windows_of_the_warp_are_the_whole_warps_pixels() -> None:
    """A one-corner read warps only the index corners: each window must hold exactly the
    pixels the whole card's warp holds there, and nothing outside them."""
    rng = np.random.default_rng(4)
    src = cv2.GaussianBlur(rng.integers(0, 256, (480, 640, 3)).astype(np.uint8), (5, 5), 1.5)
    card = np.array([[0, 0], [199, 0], [199, 299], [0, 299]], np.float32)
    windows = corner_windows((200, 300))
    for _ in range(5):
        seen = (card + rng.uniform(-30, 30, (4, 2)) + [200, 90]).astype(np.float32)
        m = cv2.getPerspectiveTransform(seen, card)
        whole = warp_perspective(src, m, (200, 300), cv2.BORDER_REPLICATE)
        part = warp_windows(src, m, (200, 300), windows, cv2.BORDER_REPLICATE)
        inside = np.zeros((300, 200), bool)
        for x0, y0, x1, y1 in windows:
            inside[y0:y1, x0:x1] = True
        assert np.array_equal(part[inside], whole[inside])
        assert not part[~inside].any()


def test_the_corners_then_the_body_are_the_whole_warp_where_a_read_looks() -> None:
    """An outline is read corners first and the pips' part of the card only if they hold
    an index: the two steps together must give every pixel of the index corners and of
    the pips' box as the card's one warp does (the margins beside the pips, read by
    nothing, are left black)."""
    from vision.detector import BODY_WINDOWS, CARD_SIZE
    from vision.pips import BODY_X0, BODY_X1, BODY_Y0, BODY_Y1

    rng = np.random.default_rng(5)
    src = cv2.GaussianBlur(rng.integers(0, 256, (480, 640, 3)).astype(np.uint8), (5, 5), 1.5)
    w, h = CARD_SIZE
    card = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    for _ in range(5):
        seen = (card + rng.uniform(-30, 30, (4, 2)) + [200, 90]).astype(np.float32)
        m = cv2.getPerspectiveTransform(seen, card)
        whole = warp_perspective(src, m, CARD_SIZE, cv2.BORDER_REPLICATE)
        part = warp_windows(src, m, CARD_SIZE, corner_windows(CARD_SIZE), cv2.BORDER_REPLICATE)
        filled = warp_windows(src, m, CARD_SIZE, BODY_WINDOWS, cv2.BORDER_REPLICATE, out=part)
        assert filled is part
        looked_at = np.zeros((h, w), bool)
        for x0, y0, x1, y1 in corner_windows(CARD_SIZE):
            looked_at[y0:y1, x0:x1] = True
        looked_at[int(h * BODY_Y0) : int(h * BODY_Y1), int(w * BODY_X0) : int(w * BODY_X1)] = True
        assert np.array_equal(part[looked_at], whole[looked_at])
        assert not part[~looked_at].any()
