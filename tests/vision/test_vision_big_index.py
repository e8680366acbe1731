"""A one-corner read of a light card's index in the two ways a white deck's photos in dim
light lost it (thirty-sixth round): its rank and suit printed big and blurred into one
piece, and its stock taken for a dark deck's because the far corner the search's
hypothesis lands on is a court card's picture."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.index import corner_windows, corners, find_index
from vision.reader import CardReader
from vision.synth import _index_glyphs, card_face

STOCK = (235, 240, 242)


def joined_index(card: str, rank_h: int = 46, blur: float = 1.6) -> np.ndarray:
    """A rectified 200×300 light card whose index is big for its corner: the suit tucked
    right under the rank, the two run together by the blur (and the same, turned, in the
    other corner)."""
    face = np.full((300, 200, 3), STOCK, np.uint8)
    ink = (30, 30, 200) if card[1] in "HD" else (25, 25, 25)
    r, s = _index_glyphs(card[0], card[1], 0)
    r = cv2.resize(r, (max(1, r.shape[1] * rank_h // r.shape[0]), rank_h), interpolation=cv2.INTER_AREA)
    sw = int(rank_h * 0.8)
    s = cv2.resize(s, (sw, max(1, s.shape[0] * sw // s.shape[1])), interpolation=cv2.INTER_AREA)
    for m, y in ((r, 6), (s, 6 + rank_h - 3)):
        x = 22 - m.shape[1] // 2
        region = face[y : y + m.shape[0], x : x + m.shape[1]]
        a = (m.astype(np.float32) / 255)[:, :, None]
        region[:] = (region * (1 - a) + np.array(ink) * a).astype(np.uint8)
    face[-130:, -60:] = face[:130, :60][::-1, ::-1]
    return cv2.GaussianBlur(face, (0, 0), blur)


@pytest.mark.parametrize("card", ["4D", "5D", "6C"])
def test_a_rank_and_suit_run_together_are_cut_apart(card: str) -> None:
    """One component, taller than any glyph, where the rank starts: no threshold parts
    them (the blur fills the gap), so it was dropped and the corner held no index. It is
    cut at its waist now, and read."""
    face = joined_index(card)
    assert find_index(corners(face)[0]) is not None
    read = CardReader().read_corner(face)
    assert read.card == card and read.confidence >= 0.5


@pytest.mark.parametrize("card", ["JD", "4H", "7S", "QC"])
@pytest.mark.parametrize("dim", [0.45, 0.6])
def test_a_dim_light_card_is_not_taken_for_a_dark_one_by_its_far_corner(card: str, dim: float) -> None:
    """A light card in dim light (its stock at grey 105-145) whose far index corner, as a
    pair's hypothesis places it, lands on something dark (a court card's picture, the
    card beside it): judged on both corners the stock passed for a dark deck's, the
    corner was read in the negative and held no index. The corner read decides now,
    where the negative shows none."""
    face = cv2.resize(card_face(card), (200, 300), interpolation=cv2.INTER_AREA)
    face = (face.astype(np.float32) * dim).astype(np.uint8)
    _, (x0, y0, x1, y1) = corner_windows((200, 300))
    face[y0:y1, x0:x1] = (40, 30, 70)  # a dark picture's colours
    assert CardReader().read_corner(face).card == card
