"""The body's pips as a vote on the suit where colour cannot help: a grey photo, or a
dark deck whose gold has gone grey under a cool lamp. A card's pips face its nearer end,
so an upside-down heart in the lower half is still a heart, not a stemless spade."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import render
from vision.model import SUITS, GlyphModel
from vision.pips import read_pips

#: Pip rows of a seven (fractions of the card's height) and whether each faces up: two
#: rows each end, and one more in the upper half.
SEVEN = (
    (0.2, True),
    (0.2, True),
    (0.35, True),
    (0.5, None),
    (0.8, False),
    (0.8, False),
    (0.65, False),
)
STOCK, INK = 230, 40


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def grey_card(suit: str, rows=SEVEN, middle_up: bool = True) -> np.ndarray:  # noqa: ANN001
    """A 200×300 grey spot card: pips drawn at ``rows``, upright in the upper half and
    upside down in the lower, the middle one as ``middle_up`` says."""
    card = np.full((300, 200), STOCK, np.uint8)
    pip = cv2.resize(render.suit_mask_shape(suit, 64), (30, 34), interpolation=cv2.INTER_AREA)
    columns = iter([70, 130, 100, 100, 70, 130, 100])
    for at, up in rows:
        x, y = next(columns), int(at * 300)
        face_up = middle_up if up is None else up
        m = pip if face_up else pip[::-1, ::-1]
        region = card[y - 17 : y + 17, x - 15 : x + 15]
        region[m > 127] = INK
    return cv2.cvtColor(card, cv2.COLOR_GRAY2BGR)


@pytest.mark.parametrize("suit", ["H", "S", "D", "C"])
def test_grey_pips_vote_for_their_suit(model: GlyphModel, suit: str) -> None:
    pips = read_pips(grey_card(suit), model)
    assert pips is not None
    assert SUITS[int(pips.suit_proba.argmax())] == suit
    assert pips.count == 7


def test_upside_down_hearts_are_not_spades(model: GlyphModel) -> None:
    """Read either way round, the lower half's hearts count as spades as much as hearts:
    the vote splits near even and cannot settle a corner that doubts its suit."""
    pips = read_pips(grey_card("H"), model)
    assert pips is not None
    assert pips.suit_proba[SUITS.index("H")] > 2 * pips.suit_proba[SUITS.index("S")]


@pytest.mark.parametrize("middle_up", [True, False])
def test_a_middle_pip_may_face_either_way(model: GlyphModel, middle_up: bool) -> None:
    """Decks differ on the middle pip: alone, it votes for its suit facing up or down."""
    pips = read_pips(grey_card("H", ((0.5, None),), middle_up), model)
    assert pips is not None
    assert SUITS[int(pips.suit_proba.argmax())] == "H"
    assert pips.count == 1


@pytest.mark.parametrize("suit", ["H", "S"])
def test_a_one_way_decks_pips_still_count(model: GlyphModel, suit: str) -> None:
    """A one-way deck prints every pip upright: the lower ones face the wrong end, yet
    each is still a pip of the suit, so the count (a vote on a spot card's rank) holds."""
    rows = tuple((at, True) for at, _ in SEVEN)
    pips = read_pips(grey_card(suit, rows), model)
    assert pips is not None
    assert pips.count == 7
