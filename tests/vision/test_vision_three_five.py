"""A 5 and a 3 told apart by the stroke at the glyph's left below its top bar: a 5's
runs down to its bowl, a 3 has none there (a deck whose 3 has a flat top and a spur at
its left was read as 5 from one corner)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.index import IndexGlyphs
from vision.model import RANKS
from vision.reader import FIVE_DOWN, CardReader, _weigh_five_and_three

THREE, FIVE = RANKS.index("3"), RANKS.index("5")


def glyph(text: str, font: int = cv2.FONT_HERSHEY_DUPLEX) -> np.ndarray:
    """A rank's ink mask as an index gives it: the glyph drawn bold, 1 for ink."""
    mask = np.zeros((60, 50), np.uint8)
    cv2.putText(mask, text, (5, 50), font, 1.6, 1, 4)
    return mask


def flat_topped_three() -> np.ndarray:
    """The deck's own 3: a straight top bar with a short spur down at its left, a
    diagonal from its right end to the middle, and the lower bowl."""
    mask = np.zeros((60, 44), np.uint8)
    cv2.line(mask, (6, 6), (36, 6), 1, 5)  # the top bar
    cv2.line(mask, (6, 6), (6, 14), 1, 5)  # its spur
    cv2.line(mask, (36, 6), (20, 26), 1, 5)  # the diagonal
    cv2.ellipse(mask, (22, 40), (15, 14), 0, -100, 150, 1, 5)  # the bowl
    return mask


def even() -> np.ndarray:
    pr = np.full(len(RANKS), 0.02)
    pr[THREE] = pr[FIVE] = 0.4
    return pr


@pytest.mark.parametrize(
    "mask", [glyph("3"), glyph("3", cv2.FONT_HERSHEY_COMPLEX), flat_topped_three()]
)
def test_a_three_s_bare_left_weighs_the_five_down(mask: np.ndarray) -> None:
    pr = even()
    _weigh_five_and_three(pr, mask)
    assert pr[FIVE] == pytest.approx(0.4 * FIVE_DOWN) and pr[THREE] == 0.4


@pytest.mark.parametrize("font", [cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX])
def test_a_five_s_left_stroke_weighs_the_three_down(font: int) -> None:
    pr = even()
    _weigh_five_and_three(pr, glyph("5", font))
    assert pr[THREE] == pytest.approx(0.4 * FIVE_DOWN) and pr[FIVE] == 0.4


def test_neither_is_weighed_where_neither_is_likely() -> None:
    pr = np.full(len(RANKS), 0.05)
    pr[RANKS.index("8")] = 0.5
    before = pr.copy()
    _weigh_five_and_three(pr, glyph("3"))
    assert np.array_equal(pr, before)


def test_the_reader_weighs_them_when_it_reads_an_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model torn between 3 and 5 (as on the flat-topped 3): the read is the 3."""
    reader = CardReader()
    monkeypatch.setattr(reader.model, "rank_proba", lambda x: np.stack([even()] * len(x)))
    suit = glyph("8")  # any blob: the suit is not looked at here
    found = IndexGlyphs(flat_topped_three(), suit, redness=0.0)
    pr, _ = reader.index_proba([found])
    assert RANKS[int(pr[0].argmax())] == "3"
    assert pr[0, THREE] > 2 * pr[0, FIVE]
