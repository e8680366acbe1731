"""The body's pips as a vote on the suit where colour cannot help: a grey photo, or a
dark deck whose gold has gone grey under a cool lamp. A card's pips face its nearer end,
so an upside-down heart in the lower half is still a heart, not a stemless spade."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import render
from vision.model import SUITS, GlyphModel
from vision.pips import FIRST_PIPS_WINDOW, first_pips, first_pips_on_dark, read_pips

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


def dark_first_pips_window(suit: str, table_rows: int) -> np.ndarray:
    """The first pips' window of a black card with one light pip of ``suit`` (gold for
    the red suits, silver for the black; dim, as a lamp leaves them beside a table it lights)
    where a first pip lies, and ``table_rows`` rows
    of a light table showing past the card's top edge, blurred as a photo's edge is."""
    x0, y0, x1, y1 = FIRST_PIPS_WINDOW
    window = np.full((y1 - y0, x1 - x0, 3), 25, np.uint8)
    pip = cv2.resize(render.suit_mask_shape(suit, 64), (30, 36), interpolation=cv2.INTER_AREA)
    colour = (55, 80, 95) if suit in "HD" else (100, 100, 100)
    region = window[32:68, 20:50]
    region[pip > 127] = colour
    window[:table_rows] = 235
    return cv2.GaussianBlur(window, (0, 0), 1.0)


@pytest.mark.parametrize("suit", ["H", "S", "D", "C"])
def test_a_dark_cards_first_pips_are_read_past_the_table_showing_beside_them(
    model: GlyphModel, suit: str
) -> None:
    """A dark deck's card read from its index pair: its light pips are read in the
    negative, where the light table past the card's edge turns darker than any ink and
    would take the ink's threshold; painted over first, the pip reads as its suit."""
    window = dark_first_pips_window(suit, 20)
    pips = first_pips_on_dark(window, model)
    assert pips is not None and SUITS[int(pips.shape.argmax())] == suit
    assert pips.shape.max() > 0.8
    # the table left in the negative: the pip is lost to the threshold
    assert first_pips(cv2.bitwise_not(window), model) is None
    # and with no table in the window, read as before
    bare = dark_first_pips_window(suit, 0)
    assert SUITS[int(first_pips_on_dark(bare, model).shape.argmax())] == suit
