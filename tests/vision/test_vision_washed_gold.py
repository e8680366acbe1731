"""A dark deck's gold, washed out by the photo, against its silver (thirty-sixth round).

On a black-and-gold deck the red suits are gold and the black ones silver; the reader
takes ink more colourful than the stock for red. A phone photo under a lamp washes the
gold towards grey, and a one-corner read (a card in a pile, or found by its index alone)
let the colour veto the index's own clear diamond or heart: the read fell below what the
tracker counts. The colour's cut is softer now, so a sure shape outweighs washed gold,
while silver, even tinted, still reads black."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.capture import COUNTED
from vision.reader import CardReader
from vision.synth import card_face


def dark_face(card: str, ink_bgr: tuple[int, int, int]) -> np.ndarray:
    """A rectified 200×300 card of a dark deck, its ink in ``ink_bgr``."""
    face = card_face(card).astype(np.float32)
    ink = np.clip((240 - face.min(axis=2)) / 210, 0, 1)[:, :, None]
    out = (np.array([22, 22, 24]) * (1 - ink) + np.array(ink_bgr) * ink).astype(np.uint8)
    return cv2.resize(out, (200, 300), interpolation=cv2.INTER_AREA)


def chroma(bgr: tuple[int, int, int]) -> float:
    lab = cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2LAB)[0, 0].astype(float)
    return float(np.hypot(lab[1] - 128, lab[2] - 128))


WASHED_GOLD = (160, 175, 185)  # a gold a lamp has washed out: chroma about 9 (gold 25-50)


@pytest.mark.parametrize("card", ["7D", "9H", "QD", "3H", "AD"])
def test_a_washed_gold_index_read_from_one_corner_is_counted(card: str) -> None:
    assert chroma(WASHED_GOLD) < 10
    read = CardReader().read_corner(dark_face(card, WASHED_GOLD))
    assert read.card == card and read.confidence >= COUNTED


@pytest.mark.parametrize("silver", [(205, 205, 205), (225, 205, 190), (180, 200, 215)])
@pytest.mark.parametrize("card", ["8C", "KC", "3C", "5S"])
def test_silver_even_tinted_still_reads_black(card: str, silver: tuple[int, int, int]) -> None:
    read = CardReader().read_corner(dark_face(card, silver))
    assert read.card == card
