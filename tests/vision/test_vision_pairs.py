"""Index-pair search: every pair measured at once gives the pairs, and their order, that
measuring them one by one gives (the order decides which pairs are read), and that order
puts an index's rank and suit ahead of speckle and a picture's strokes; a card's two
opposite corners read alike count as one card read at both."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.detector import (
    CARD_SIZE,
    CORNER_MIN,
    SHIFTS,
    SPLIT_LEAST,
    STEADY_FROM,
    STRETCH_DISCOUNT,
    STRETCHES,
    UNSTEADY_JACK,
    CardDetector,
    Detection,
    _both_corners,
    _PairRead,
)
from vision.index_pairs import (
    AREA_WEIGHT,
    INK_MIN,
    PAIR_SPACING,
    RANK_AT,
    RANK_TO_SUIT,
    InkBlob,
    _alike,
    card_from_pair,
    frame_squash,
    index_pairs,
    ink_blobs,
    outline,
    pairs_to_read,
    table_grey,
    unsquashed,
)
from vision.locate import card_map
from vision.model import GlyphModel
from vision.pips import FirstPips
from vision.reader import LONE_CORNER, CardRead, agreeing_corners
from vision.render import suit_mask_shape
from vision.synth import CardSpec, a_moment_later, card_face, place, scene, scene_and_empty


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


def card_indices(
    origin: tuple[float, float], angle: float, k: float
) -> tuple[tuple[InkBlob, InkBlob], tuple[InkBlob, InkBlob]]:
    """The (rank, suit) blobs of a card's two corner indices, for a card whose top left
    lies at ``origin`` in the frame, turned by ``angle`` degrees, ``k`` frame pixels to
    a pixel of the rectified 200×300 card: the top-left index upright, the bottom-right
    one upside down (its suit above its rank)."""
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))

    def blob(x: float, y: float) -> InkBlob:
        fx = origin[0] + k * (c * x - s * y)
        fy = origin[1] + k * (s * x + c * y)
        return InkBlob(fx, fy, 10, 14, 100)

    rx, ry = RANK_AT
    w, h = CARD_SIZE
    top = (blob(rx, ry), blob(rx, ry + RANK_TO_SUIT))
    bottom = (blob(w - rx, h - ry), blob(w - rx, h - ry - RANK_TO_SUIT))
    return top, bottom


def pair_read(card: str, corner: float, rank: InkBlob, suit: InkBlob) -> _PairRead:
    return _PairRead(
        LONE_CORNER * corner, card, card_from_pair(rank, suit, 1.0), rank, corner, (rank, suit)
    )


def test_a_card_whose_two_corners_read_alike_is_read_as_two_agreeing_corners() -> None:
    """A card lying whole (a white card on a light table, no outline found) shows both
    corner indices: read as one card from opposite corners, it is as sure as a card
    outlined and read at both corners, though each alone stays below the tracker's 0.5."""
    top, bottom = card_indices((400.0, 120.0), 27.0, 1.3)
    reads = [pair_read("5H", 0.55, *top), pair_read("5H", 0.5, *bottom)]
    got = _both_corners(reads, 1.0)
    assert len(got) == 3
    both = got[2]
    assert both.card == "5H"
    assert both.confidence == pytest.approx(agreeing_corners(0.55, 0.5))
    assert both.confidence >= CORNER_MIN > max(r.confidence for r in reads)
    assert {id(b) for b in both.blobs} == {id(b) for b in (*top, *bottom)}


def test_two_reads_of_a_card_not_at_its_opposite_corners_stay_apart() -> None:
    """The same card read twice where no one card could show both: two upright indices
    (two cards' top-left corners, or a fan's), an index and a pair beside it the wrong
    way up, or another card's corner a card's length too far."""
    top, bottom = card_indices((400.0, 120.0), 27.0, 1.3)
    other_top, _ = card_indices((700.0, 300.0), 27.0, 1.3)
    _, far_bottom = card_indices((400.0, 120.0), 27.0, 2.6)
    upright_there = (bottom[1], bottom[0])  # the far corner's blobs read the other way
    _, turned_bottom = card_indices((400.0, 120.0), 27.0 + 90.0, 1.3)  # as far, off to a side
    for second in (other_top, upright_there, far_bottom, turned_bottom):
        reads = [pair_read("5H", 0.55, *top), pair_read("5H", 0.5, *second)]
        assert len(_both_corners(reads, 1.0)) == 2, second
    different = [pair_read("5H", 0.55, *top), pair_read("5D", 0.5, *bottom)]
    assert len(_both_corners(different, 1.0)) == 2


def test_two_weak_black_corners_do_not_make_a_card() -> None:
    """A soft club reads as a spade at both corners alike (one print, one blur): two
    black corners agree only if one of them alone would be counted (a red suit has its
    ink's colour to tell it)."""
    top, bottom = card_indices((300.0, 200.0), -40.0, 1.1)
    weak = [pair_read("7S", 0.55, *top), pair_read("7S", 0.5, *bottom)]
    assert len(_both_corners(weak, 1.0)) == 2
    one_sure = [pair_read("7S", 0.7, *top), pair_read("7S", 0.5, *bottom)]
    got = _both_corners(one_sure, 1.0)
    assert len(got) == 3
    assert got[2].confidence == pytest.approx(agreeing_corners(0.7, 0.5))


def test_a_spare_read_is_hidden_only_by_the_same_ink_or_a_card_over_it_whole() -> None:
    """The first index search's other reads (:meth:`CardDetector._spare_reads`): one
    whose index is a card's own index read from pairs is that ink read twice; an index
    a glyph's spacing further on is a neighbour's in a fan. An outlined card hides a read
    only lying over both its index and its middle (the card on top of a fan shows its
    index over the outline of the one under it)."""
    detector = CardDetector()
    top, _ = card_indices((400.0, 120.0), 0.0, 1.0)
    m = card_from_pair(*top, 1.0)
    by_pairs = Detection(outline(m, CARD_SIZE), "5H", 0.6)
    detector._by_index[id(by_pairs)] = (by_pairs, m, False)
    rank = (top[0].cx, top[0].cy)
    far = (400.0, 600.0)
    assert detector._hides(by_pairs, (rank[0] + 5.0, rank[1] + 5.0), far, "5C")
    assert not detector._hides(by_pairs, (rank[0] + 1.2 * RANK_TO_SUIT, rank[1]), far, "5C")
    box = np.array([[380, 100], [600, 100], [600, 420], [380, 420]], np.float32)
    outlined = Detection(box, "9C", 0.95)
    assert not detector._hides(outlined, rank, far, "5C")
    assert detector._hides(outlined, rank, (500.0, 300.0), "5C")
    # a red index is no mark of the nine of clubs: it lies over it (a pile outlined
    # whole, read as the card under it); a court card's picture has red in it
    assert not detector._hides(outlined, rank, (500.0, 300.0), "AD")
    assert detector._hides(Detection(box, "KC", 0.95), rank, (500.0, 300.0), "AD")
    detector._colour = False  # a frame without colour says nothing of the ink's
    assert detector._hides(outlined, rank, (500.0, 300.0), "AD")


class _ReadsByPlace:
    """A reader whose one-corner read depends only on where the card hypothesis falls:
    ``card`` at ``confidence`` everywhere but at the moves listed in ``elsewhere``."""

    def __init__(self, card: str, confidence: float, elsewhere: dict[int, str]) -> None:
        self.card, self.confidence, self.elsewhere = card, confidence, elsewhere
        self.base: np.ndarray | None = None
        self.model = GlyphModel.load()  # for the pips beside the index (none here)

    def read_corner(self, m: np.ndarray, colour: bool = True, first_only: bool = False) -> CardRead:
        if self.base is None:
            self.base = m
        for k, shift in enumerate(SHIFTS):
            if k in self.elsewhere and np.allclose(m, shift @ self.base):
                return CardRead(self.elsewhere[k], self.confidence, (None,))
        return CardRead(self.card, self.confidence, (None,))


def index_frame() -> np.ndarray:
    """A white frame holding one index: a rank's blob and its suit's just below."""
    frame = np.full((480, 640, 3), 235, np.uint8)
    frame[200:228, 300:318] = 20
    frame[236:256, 301:317] = 20
    return frame


@pytest.mark.parametrize(
    ("confidence", "elsewhere", "counted"),
    [
        (STEADY_FROM, {}, True),  # steady: counted
        (STEADY_FROM, {3: "8H"}, False),  # turned 4 degrees it reads another card
        (STEADY_FROM - 0.02, {}, False),  # too weak to be looked at again
    ],
)
def test_a_weak_pair_read_counts_if_it_reads_the_same_at_every_small_shift(
    monkeypatch: pytest.MonkeyPatch, confidence: float, elsewhere: dict[int, str], counted: bool
) -> None:
    """A pair's centres are blobs' centres, a pixel or two out: a read short of the
    tracker's 0.5 that holds wherever the corner falls within that reads the glyphs, and
    counts (at 0.5, never more); one that changes with the shift does not."""
    detector = CardDetector()
    reader = _ReadsByPlace("6H", confidence, elsewhere)
    monkeypatch.setattr(detector, "reader", reader)
    monkeypatch.setattr("vision.detector._corners_of", lambda frame, m: m)
    got = detector._from_index_pairs(index_frame(), [], CORNER_MIN)
    assert [(d.card, d.confidence) for d in got] == ([("6H", CORNER_MIN)] if counted else [])


@pytest.mark.parametrize(
    ("card", "elsewhere", "reported"),
    [
        ("JH", {}, [("JH", 0.7)]),  # a jack that holds at every shift: counted as read
        ("JH", {3: "8H"}, []),  # one that does not: a fragment's shape, not counted
        ("6H", {3: "8H"}, [("6H", 0.7)]),  # other ranks are not asked
    ],
)
def test_a_jack_read_from_its_index_alone_counts_only_if_it_holds_at_every_shift(
    monkeypatch: pytest.MonkeyPatch,
    card: str,
    elsewhere: dict[int, str],
    reported: list[tuple[str, float]],
) -> None:
    """A jack's index is one hooked stroke, and a fragment of other ink matches it (a
    ten's "1", a five whose top bar came apart): a jack read from an index pair counts
    only if it reads the same wherever the corner falls within a pixel or two."""
    detector = CardDetector()
    monkeypatch.setattr(detector, "reader", _ReadsByPlace(card, 0.7, elsewhere))
    monkeypatch.setattr("vision.detector._corners_of", lambda frame, m: m)
    got = detector._from_index_pairs(index_frame(), [], CORNER_MIN)
    assert [(d.card, d.confidence) for d in got] == reported
    # below what counts it is still reported where the search keeps every read
    if not reported:
        low = detector._from_index_pairs(index_frame(), [], 0.0)
        assert [(d.card, d.confidence) for d in low] == [(card, UNSTEADY_JACK)]


class _ReadsTheIndex:
    """A reader that reads ``card`` from the card hypothesis of the index in
    :func:`index_frame` (its rank's and suit's blobs where a card's sit) and nothing
    elsewhere: the pip beside that index is neither."""

    def __init__(self, card: str, confidence: float) -> None:
        self.card, self.confidence = card, confidence
        self.model = GlyphModel.load()

    def read_corner(self, m: np.ndarray, colour: bool = True, first_only: bool = False) -> CardRead:
        rank = m @ np.array([308.5, 213.5, 1.0])
        suit = m @ np.array([308.5, 245.5, 1.0])
        at = np.array([RANK_AT, (RANK_AT[0], RANK_AT[1] + RANK_TO_SUIT)])
        if np.abs(np.stack([rank[:2], suit[:2]]) - at).max() < 3:
            return CardRead(self.card, self.confidence, (None,))
        return CardRead(None, 0.0, (None,))


def with_first_pip(frame: np.ndarray, suit: str, stock: int = 235) -> np.ndarray:
    """``frame`` with a pip of ``suit`` (35 px, softened as a camera blurs it, red for
    hearts and diamonds) where a spot card's first pip lies beside the index of
    :func:`index_frame`, on ``stock``."""
    frame = frame.copy()
    frame[frame > 100] = stock
    return _first_pip(frame, suit, (40, 40, 200) if suit in "HD" else (20, 20, 20))


def _first_pip(frame: np.ndarray, suit: str, colour: tuple[int, int, int]) -> np.ndarray:
    """``frame`` with a pip of ``suit`` in ``colour`` (35 px, softened as a camera blurs
    it) where a spot card's first pip lies beside the index of :func:`index_frame`."""
    mask = suit_mask_shape(suit, 34)
    ys, xs = np.nonzero(mask)
    mask = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    h, w = mask.shape
    ink = np.zeros(frame.shape[:2], np.float32)
    ink[229 - h // 2 : 229 - h // 2 + h, 341 - w // 2 : 341 - w // 2 + w] = mask / 255.0
    ink = cv2.GaussianBlur(ink, (0, 0), 1.0)[:, :, None]
    return (frame * (1 - ink) + np.array(colour, np.float32) * ink).astype(np.uint8)


@pytest.mark.parametrize(
    ("read", "confidence", "pip", "stock", "reported"),
    [
        ("5S", 0.6, "C", 235, [("5C", CORNER_MIN)]),  # the pips are clubs: a club, not surer
        ("5C", 0.6, "S", 235, [("5S", CORNER_MIN)]),  # and the other way round
        ("5S", 0.6, "S", 235, [("5S", 0.6)]),  # the pips agree: as read
        ("QS", 0.6, "C", 235, [("QC", CORNER_MIN)]),  # a court's picture shows its suit there
        ("KC", 0.7, "S", 235, [("KS", CORNER_MIN)]),  # the other way round, never surer
        ("QS", 0.6, "S", 235, [("QS", 0.6)]),  # the picture's sign agrees: as read
        ("QH", 0.6, "C", 235, [("QH", 0.6)]),  # a red court is told by colour alone
        ("AS", 0.6, "C", 235, [("AS", 0.6)]),  # an ace has nothing beside its index
        ("JS", 0.6, "C", 110, [("JS", 0.6)]),  # on dark stock not looked at
        ("5H", 0.6, "C", 235, [("5H", 0.6)]),  # colour tells a red suit; the pips check black
        ("5S", 0.6, "C", 110, [("5S", 0.6)]),  # stock as dark as a dark deck's: not looked at
        ("5S", 0.4, "S", 235, [("5S", CORNER_MIN)]),  # weak, the pips agree: counted
        ("5H", 0.4, "H", 235, [("5H", CORNER_MIN)]),  # a red suit too
        ("5H", 0.4, "D", 235, []),  # the pips are of the other red suit: not counted
        ("5S", 0.4, "C", 235, []),  # turned to a club but no surer: not counted
        ("5S", 0.4, "H", 235, []),  # red pips beside a black index: another card's
        ("5S", 0.6, "H", 235, [("5S", 0.6)]),  # and they turn nothing
        ("5S", 0.25, "S", 235, []),  # too weak for the pips to count it
        ("QS", 0.4, "S", 235, []),  # a court card's picture can hold a pip-like suit
    ],
)
def test_the_first_pips_beside_an_index_check_its_suit(
    monkeypatch: pytest.MonkeyPatch,
    read: str,
    confidence: float,
    pip: str,
    stock: int,
    reported: list[tuple[str, float]],
) -> None:
    """A webcam's club of a few pixels reads as a spade in the index; the pips beside
    it, twice as tall, still show their lobes: a spot card read from its index pair
    takes their black suit where they are sure of it, counted but never surer, and a read
    short of the tracker's 0.5 counts where they are sure of its own suit. A black court
    card's picture carries a sign of its suit there, which turns its black suit the same
    way (but lifts no weak read: a picture's ornament may look like a pip)."""
    detector = CardDetector()
    monkeypatch.setattr(detector, "reader", _ReadsTheIndex(read, confidence))
    monkeypatch.setattr("vision.detector._corners_of", lambda frame, m: m)
    frame = with_first_pip(index_frame(), pip, stock)
    got = detector._from_index_pairs(frame, [], CORNER_MIN)
    assert [(d.card, d.confidence) for d in got] == reported


def dark_index_frame(suit: str, stock: int = 20) -> np.ndarray:
    """:func:`index_frame` as a dark deck's card (light index on ``stock``), with a dim
    pip of ``suit`` beside its index (gold for the red suits, silver for the black), and
    a light table showing past the card's top edge across the first pips' window."""
    frame = cv2.bitwise_not(index_frame())
    frame[frame < 100] = stock
    frame = _first_pip(frame, suit, (55, 80, 95) if suit in "HD" else (100, 100, 100))
    frame[:205, 322:] = 235  # the card's top edge runs at y 191 here, as the window does
    return frame


@pytest.mark.parametrize(
    ("read", "confidence", "pip", "reported"),
    [
        ("5C", 0.44, "D", [("5D", CORNER_MIN)]),  # a washed-out gold: diamonds, counted
        ("5D", 0.44, "D", [("5D", CORNER_MIN)]),  # weak, the pips agree: counted
        ("5D", 0.7, "D", [("5D", 0.7)]),  # sure, the pips agree: as read
        ("5C", 0.7, "D", [("5D", CORNER_MIN)]),  # turned, never surer
        ("5H", 0.7, "S", [("5S", CORNER_MIN)]),  # silver spades beside a gold-read index
        ("5C", 0.25, "D", []),  # too weak for the pips to count it
        ("QC", 0.44, "D", []),  # a court card has no pips beside its index
    ],
)
def test_a_dark_decks_first_pips_settle_its_washed_out_suit(
    monkeypatch: pytest.MonkeyPatch,
    read: str,
    confidence: float,
    pip: str,
    reported: list[tuple[str, float]],
) -> None:
    """A dark deck tells its red suits from its black by the ink's colour (gold against
    silver), which a lamp washes out: the black-and-gold 7D's index read as 7C. The
    first pips beside the index show their shape three times the index suit's size, and
    the table past the card's edge does not hide them: a spot card takes their suit,
    and a read from :data:`PIPS_LIFT_FROM` counts, never surer than it was."""
    detector = CardDetector()
    monkeypatch.setattr(detector, "reader", _ReadsTheIndex(read, confidence))
    monkeypatch.setattr("vision.detector._corners_of", lambda frame, m: m)
    frame = dark_index_frame(pip)
    got = detector._from_index_pairs(frame, [], CORNER_MIN, negative=True)
    assert [(d.card, d.confidence) for d in got] == reported


@pytest.mark.parametrize(
    ("lean", "reported"),
    [
        (0.65, [("5C", CORNER_MIN)]),  # a soft club's pips, two in three for a club: a club
        (0.55, [("5S", 0.6)]),  # next to even: the index's spade stands
    ],
)
def test_pips_leaning_two_in_three_to_the_other_black_suit_turn_it(
    monkeypatch: pytest.MonkeyPatch, lean: float, reported: list[tuple[str, float]]
) -> None:
    """The first pips are twice the index suit's size, so their grey levels outweigh
    it: on the development webcam scenes their black-suit head was right in every one
    of 176 one-corner black reads where it leaned 0.6 or more to the other suit (turned
    from 0.7 until the eighteenth round, 6 more clubs and spades right, none lost)."""
    detector = CardDetector()
    monkeypatch.setattr(detector, "reader", _ReadsTheIndex("5S", 0.6))
    monkeypatch.setattr("vision.detector._corners_of", lambda frame, m: m)
    votes = FirstPips(
        np.array([0.6, 0.0, 0.0, 0.4], np.float32), np.array([1 - lean, lean], np.float32)
    )
    monkeypatch.setattr("vision.detector.first_pips", lambda window, model: votes)
    frame = with_first_pip(index_frame(), "C")
    got = detector._from_index_pairs(frame, [], CORNER_MIN)
    assert [(d.card, d.confidence) for d in got] == reported


class _ReadsByWidth:
    """A reader whose one-corner read depends only on how wide the card hypothesis of
    the index in :func:`index_frame` is read: ``reads`` maps a width (as in
    :data:`STRETCHES`, 1.0 the pair's own) to (card, confidence); others read nothing."""

    def __init__(self, reads: dict[float, tuple[str | None, float]]) -> None:
        self.reads = reads
        self.model = GlyphModel.load()
        self.widths: list[float] = []

    def read_corner(self, m: np.ndarray, colour: bool = True, first_only: bool = False) -> CardRead:
        rank = m @ np.array([308.5, 213.5, 1.0])
        suit = m @ np.array([308.5, 245.5, 1.0])
        if np.hypot(*(rank[:2] - RANK_AT)) > 1 or abs(suit[0] - RANK_AT[0]) > 1:
            return CardRead(None, 0.0, (None,))
        # the index's width in the hypothesis: 18 px of the frame, 34/32 card px each
        width = round(float(np.hypot(*(m[:2, :2] @ np.array([1.0, 0.0])))) / (34 / 32), 2)
        self.widths.append(width)
        card, confidence = self.reads.get(width, (None, 0.0))
        return CardRead(card, confidence, (None,))


@pytest.mark.parametrize(
    ("reads", "reported", "tried"),
    [
        # weak as the pair gives it, sure squeezed: the squeezed read, discounted
        ({1.0: ("5H", 0.4), 0.8: ("6H", 0.7)}, [("6H", 0.7 * STRETCH_DISCOUNT)], 3),
        ({1.0: ("5H", 0.4), 1.25: ("6H", 0.7)}, [("6H", 0.7 * STRETCH_DISCOUNT)], 3),
        # counted as it is: no other width is tried
        ({1.0: ("5H", 0.6), 0.8: ("6H", 0.9)}, [("5H", 0.6)], 1),
        # read as nothing: most likely no index; no other width is tried either
        ({1.0: (None, 0.0), 0.8: ("6H", 0.9)}, [], 1),
        # a stretched read no surer once discounted: as it was (not counted)
        ({1.0: ("5H", 0.45), 0.8: ("6H", 0.5)}, [], 3),
    ],
)
def test_a_weak_pair_read_is_read_again_squeezed_and_stretched_across(
    monkeypatch: pytest.MonkeyPatch,
    reads: dict[float, tuple[str | None, float]],
    reported: list[tuple[str, float]],
    tried: int,
) -> None:
    """An index pair gives its card's scale down the card, not across it: at a slant a
    card looks narrower than its height says, and its glyphs read at the wrong width read
    weakly. A weak read is read again at other widths, the surest read taken, discounted."""
    detector = CardDetector()
    reader = _ReadsByWidth(reads)
    monkeypatch.setattr(detector, "reader", reader)
    monkeypatch.setattr("vision.detector._corners_of", lambda frame, m: m)
    monkeypatch.setattr("vision.detector.STEADY_FROM", 1.0)  # not the shifts' test
    got = detector._from_index_pairs(index_frame(), [], CORNER_MIN)
    assert [(d.card, pytest.approx(d.confidence)) for d in got] == reported
    assert sorted(reader.widths) == sorted([1.0, *STRETCHES][:tried])


def whole_card_pairs(card: str) -> tuple[np.ndarray, float, _PairRead, _PairRead]:
    """A rendered card lying whole, and its two corner indices as index-pair reads (the
    blobs nearest where its outline puts each rank and suit), to be given any reading.
    The frame is squeezed across to 0.7 of its width, as the set's webcam photos were
    (and a camera at a slant squeezes a card): its card is narrower than its indices'
    spacing says, so only the two indices together give its width."""
    frame, _ = scene([CardSpec(card, (640, 480), 300, 20.0)], seed=5, glare=False)
    frame = cv2.resize(frame, (896, 960), interpolation=cv2.INTER_AREA)
    quad = next(d.quad for d in CardDetector().detect(frame) if d.card == card)
    back = np.linalg.inv(card_map(quad, CARD_SIZE))
    blobs, scale = ink_blobs(frame)

    def blob_at(x: float, y: float) -> InkBlob:
        fx, fy, w = back @ np.array([x, y, 1.0])
        return min(blobs, key=lambda b: np.hypot(b.cx / scale - fx / w, b.cy / scale - fy / w))

    (rx, ry), (w, h) = RANK_AT, CARD_SIZE
    top = (blob_at(rx, ry), blob_at(rx, ry + RANK_TO_SUIT))
    bottom = (blob_at(w - rx, h - ry), blob_at(w - rx, h - ry - RANK_TO_SUIT))

    def read(text: str, corner: float, rank: InkBlob, suit: InkBlob) -> _PairRead:
        m = card_from_pair(rank, suit, scale)
        return _PairRead(LONE_CORNER * corner, text, m, rank, corner, (rank, suit))

    return frame, scale, read(card, 0.4, *top), read(card, 0.35, *bottom)


def test_a_card_whose_two_indices_read_weakly_or_unlike_is_read_whole() -> None:
    """A webcam's soft indices of a card lying whole read weakly (a spade's as a club),
    or as two ranks. The two indices fix the card's length and width, so its face is read
    as an outlined card's is, both corners and its pips: a weak or split read is settled,
    but only to the surer corner's card, or to another suit of the rank both read (a
    whole read naming a third card is no card's)."""
    frame, scale, top, bottom = whole_card_pairs("8S")
    detector = CardDetector()
    as_club = [replace(top, card="8C"), replace(bottom, card="8C")]
    got = detector._whole_cards(frame, as_club, scale)
    assert [r.card for r in got] == ["8S"]
    assert got[0].confidence >= CORNER_MIN > max(r.confidence for r in as_club)
    assert {id(b) for b in got[0].blobs} == {id(b) for b in (*top.blobs, *bottom.blobs)}
    assert got[0].m is top.m  # the surer corner's outline, as two agreeing corners keep
    split = [replace(top, card="8S", corner=0.6), replace(bottom, card="3S")]
    assert [r.card for r in detector._whole_cards(frame, split, scale)] == ["8S"]
    surer_wrong = [replace(top, card="QS", corner=0.6), replace(bottom, card="8S")]
    assert detector._whole_cards(frame, surer_wrong, scale) == []
    # not opposite corners of one card: not read whole
    same_corner = [top, replace(top, blobs=(bottom.blobs[0], top.blobs[1]))]
    assert detector._whole_cards(frame, same_corner, scale) == []


def test_an_index_read_otherwise_than_its_own_outline_is_doubted() -> None:
    """A single card read weakly from its outline (its pips had their say) whose index
    the pair search reads alone as another card: one index read two ways, so the pair's
    read is no surer than the outline's. In a pile's outline, holding several cards found
    by their indices, the outline's weak read says nothing against them."""
    detector = CardDetector()
    w, h = CARD_SIZE
    outline_quad = np.array([[200, 100], [400, 100], [400, 400], [200, 400]], np.float32)
    weak = Detection(outline_quad, "3H", 0.45)

    def pair_at(x: float, y: float, card: str) -> Detection:
        # a card found from its index, its rank at (x, y) in frame pixels
        quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) + [
            x - RANK_AT[0],
            y - RANK_AT[1],
        ]
        det = Detection(quad.astype(np.float32), card, 0.8)
        detector._by_index[id(det)] = (det, card_map(quad.astype(np.float32), CARD_SIZE), False)
        return det

    own = pair_at(220, 125, "5H")  # in the outline's top-left index corner
    got = detector._doubted_by(own, [weak], [own])
    assert got.card == "5H" and got.confidence == 0.45
    assert detector._index_point(got) == detector._index_point(own)  # still a pair read
    # a little outside the outline: the pair places its card from one index only,
    # and a weak outline may be off (a card cut by the frame's edge)
    beside = pair_at(190, 125, "5H")
    assert detector._doubted_by(beside, [weak], [beside]).confidence == 0.45
    far = pair_at(390, 390, "5H")  # its bottom-right index corner, turned
    assert detector._doubted_by(far, [weak], [far]).confidence == 0.45
    middle = pair_at(300, 250, "5H")  # in the outline's middle: not its index
    assert detector._doubted_by(middle, [weak], [middle]).confidence == 0.8
    same = pair_at(220, 125, "3H")  # the same card: the outline's read agrees
    assert detector._doubted_by(same, [weak], [same]).confidence == 0.8
    other = pair_at(300, 250, "9C")  # a second card found in the outline: a pile
    assert detector._doubted_by(own, [weak], [own, other]).confidence == 0.8
    sure = Detection(outline_quad, "3H", 0.9)  # an outline read more surely: not weak
    assert detector._doubted_by(own, [sure], [own]).confidence == 0.8


def test_a_weak_card_searched_as_a_pile_keeps_its_doubt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where nothing read surely, the outlines are searched for indices as a pile's: the
    one card found there, in the weak outline's own index corner and read otherwise,
    stays doubted (the tracker waits) rather than counted."""
    detector = CardDetector()
    w, h = CARD_SIZE
    weak = Detection(
        np.array([[200, 100], [400, 100], [400, 400], [200, 400]], np.float32), "3H", 0.45
    )
    quad = (np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) + [199, 101]).astype(np.float32)
    pair = Detection(quad, "5H", 0.8)
    detector._by_index[id(pair)] = (pair, card_map(quad, CARD_SIZE), False)
    monkeypatch.setattr(detector, "_from_index_pairs", lambda *args, **kwargs: [pair])
    got = detector._pile_as_one(np.zeros((600, 800, 3), np.uint8), [weak])
    assert [(d.card, d.confidence) for d in got] == [("5H", 0.45)]


def test_a_weak_outlines_own_index_read_otherwise_beside_an_unread_outline_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Beside an outline that reads as nothing, the indices are searched inside weak
    outlines too (a fan outlined as one). A single card found there, in the weak
    outline's own index corner and read otherwise, is that outline's index read a second
    way: it stays no surer than the outline. Two found in it are a fan's: both count."""
    detector = CardDetector()
    w, h = CARD_SIZE
    weak = Detection(
        np.array([[200, 100], [400, 100], [400, 400], [200, 400]], np.float32), "6D", 0.39
    )
    unread = Detection(
        np.array([[500, 100], [700, 100], [700, 400], [500, 400]], np.float32), None, 0.0
    )

    def pair_at(dx: float, dy: float, card: str) -> Detection:
        quad = (np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) + [dx, dy]).astype(
            np.float32
        )
        det = Detection(quad, card, 0.6)
        detector._by_index[id(det)] = (det, card_map(quad, CARD_SIZE), False)
        return det

    own = pair_at(199, 101, "TD")
    frame = np.zeros((600, 800, 3), np.uint8)
    monkeypatch.setattr(detector, "_from_index_pairs", lambda *args, **kwargs: [own])
    got = detector._beside_unread(frame, [weak, unread])
    assert [(d.card, d.confidence) for d in got] == [("TD", 0.39)]
    other = pair_at(300, 250, "AH")
    monkeypatch.setattr(detector, "_from_index_pairs", lambda *args, **kwargs: [own, other])
    got = detector._beside_unread(frame, [weak, unread])
    assert [(d.card, d.confidence) for d in got] == [("TD", 0.6), ("AH", 0.6)]


def test_a_card_read_from_one_end_and_its_other_index_alone_disagreeing_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A card read from one corner of its outline, whose other index the search beside
    sure cards reads alone as another card: the surer read stands where it is the
    card's own (its other index read less surely is dropped); where the index alone is
    at least as sure, the two disagree and the card waits below the tracker's count (a
    blurred six read from one end at 0.6, its other index as a queen at 0.66)."""
    from vision.detector import READ_TWICE_MOST

    detector = CardDetector()
    quad = np.array([[200, 100], [400, 100], [400, 400], [200, 400]], np.float32)
    # the card's other end: its index read alone makes a card turned end for end
    other_end = quad[[2, 3, 0, 1]].copy()
    frame = np.zeros((600, 800, 3), np.uint8)

    def beside(card_conf: float, pair_card: str, pair_conf: float) -> list[tuple]:
        card = Detection(quad, "6C", card_conf)
        detector._one_corner[id(card)] = (card, card_map(quad, CARD_SIZE), 0)
        pair = Detection(other_end, pair_card, pair_conf)
        detector._by_index[id(pair)] = (pair, card_map(other_end, CARD_SIZE), False)
        monkeypatch.setattr(detector, "_from_index_pairs", lambda *args, **kwargs: [pair])
        return [(d.card, d.confidence) for d in detector._beside_sure_cards(frame, [card])]

    assert beside(0.6, "QC", 0.66) == [("6C", READ_TWICE_MOST)]
    assert beside(0.6, "QC", 0.6) == [("6C", READ_TWICE_MOST)]
    assert beside(0.78, "QC", 0.58) == [("6C", 0.78)]  # the glared ten's case: it stands
    assert beside(0.6, "6C", 0.7) == [("6C", 0.6)]  # the same card: read once


def test_an_index_of_the_other_colour_at_a_cards_far_end_is_another_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A card's two indices are printed in one ink: where a red card read from one end
    has a black index read alone at its outline's far end (a fan outlined with the card
    below it), that is another card, and both stand; a frame without colour cannot
    tell, and the card still waits."""
    from vision.detector import READ_TWICE_MOST

    detector = CardDetector()
    quad = np.array([[200, 100], [400, 100], [400, 400], [200, 400]], np.float32)
    other_end = quad[[2, 3, 0, 1]].copy()
    frame = np.zeros((600, 800, 3), np.uint8)

    def beside(pair_card: str, colour: bool) -> list[tuple]:
        detector._colour = colour
        card = Detection(quad, "QH", 0.61)
        detector._one_corner[id(card)] = (card, card_map(quad, CARD_SIZE), 0)
        pair = Detection(other_end, pair_card, 0.63)
        detector._by_index[id(pair)] = (pair, card_map(other_end, CARD_SIZE), False)
        monkeypatch.setattr(detector, "_from_index_pairs", lambda *args, **kwargs: [pair])
        return [(d.card, d.confidence) for d in detector._beside_sure_cards(frame, [card])]

    assert beside("9S", colour=True) == [("QH", 0.61), ("9S", 0.63)]
    assert beside("9S", colour=False) == [("QH", READ_TWICE_MOST)]
    assert beside("9D", colour=True) == [("QH", READ_TWICE_MOST)]  # one ink: read twice


def test_a_frame_reads_each_index_pair_hypothesis_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame where nothing reads (an empty table) is searched for indices several
    times over, pairing the same blobs again: each card hypothesis is read once."""
    frame, _ = scene([], seed=0)
    asked: list[bytes] = []
    read: list[bytes] = []
    pair, afresh = CardDetector._read_pair, CardDetector._read_pair_afresh

    def asking(self: CardDetector, f: np.ndarray, m: np.ndarray) -> tuple:
        asked.append(m.tobytes())
        return pair(self, f, m)

    def reading(self: CardDetector, f: np.ndarray, m: np.ndarray) -> tuple:
        read.append(m.tobytes())
        return afresh(self, f, m)

    monkeypatch.setattr(CardDetector, "_read_pair", asking)
    monkeypatch.setattr(CardDetector, "_read_pair_afresh", reading)
    CardDetector().detect(frame)
    assert len(asked) > len(set(asked))  # the searches asked for some again
    assert len(read) == len(set(read)) == len(set(asked))  # each read once


def test_a_cluster_of_blobs_does_not_crowd_an_index_out_of_the_pairs_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cluster of blobs (a knit cloth's shadows, a spot card's pips) pairs each blob
    with its neighbours, and those pairs come first: an index pair lying apart, 13th
    here, is not among the 9 likeliest. Read after them, the pairs with no blob in more
    than two still reach it; the likeliest stay first, in their order."""
    cluster = [
        InkBlob(100 + 11.5 * c, 100 + 11.5 * r, 10, 10, 70) for r in range(3) for c in range(3)
    ]
    index = [InkBlob(400, 300, 10, 10, 70), InkBlob(400, 315, 10, 10, 70)]
    pairs = index_pairs(cluster + index)
    at = [k for k, (a, b) in enumerate(pairs) if a in index and b in index]
    assert at == [12]
    got = pairs_to_read(pairs, 9)
    assert got[:9] == pairs[:9]
    assert (index[0], index[1]) in got[9:] or (index[1], index[0]) in got[9:]
    # with none read after the likeliest, it is not read
    monkeypatch.setattr("vision.index_pairs.SPREAD_PAIRS", 0)
    assert all(not (a in index and b in index) for a, b in pairs_to_read(pairs, 9))
    # where every pair is among the likeliest, those are all
    assert pairs_to_read(pairs, len(pairs)) == pairs


def shaded_index_frame() -> np.ndarray:
    """A dark table, a card in the light and a card in shade whose index a shadow's
    edge crosses: its rank on stock bright enough for the search, its suit below the
    edge on stock that is not; and a speck alone on that darker stock."""
    frame = np.full((480, 640, 3), 70, np.uint8)
    frame[40:440, 40:300] = 235
    frame[40:440, 360:620] = 150
    frame[236:440, 360:620] = 120
    frame[200:228, 400:418] = 20  # the rank
    frame[240:260, 401:417] = 20  # its suit, in the deeper shade
    frame[330:350, 500:516] = 20  # a speck, alone
    return frame


def test_a_suit_in_shade_beside_its_rank_on_the_stock_is_kept_as_its_partner() -> None:
    """Where cards are read already the search keeps only ink on stock nearly as bright
    as the brightest paper (speckle on the table costs a read each). A close-up's card in
    shade lost its index so: its rank passed, its suit beside the card's edge did not. A
    blob off the stock that could pair with one on it is kept, marked; one alone is not."""
    frame = shaded_index_frame()
    everything, _ = ink_blobs(frame, on_stock=False)
    assert len(everything) == 3
    blobs, _ = ink_blobs(frame, on_stock=True)
    assert [(round(b.cy), b.shaded) for b in blobs] == [(214, False), (250, True)]
    rank, suit = blobs
    assert pairs_to_read(index_pairs(blobs), 96) == [(rank, suit)]


def test_pairs_with_a_blob_in_shade_are_read_after_all_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pairs with a blob in shade come last, at most SHADED_PAIRS of them: let in among
    the others, a webcam's fan of 25 cards lost two to the pairs they crowded out."""
    lit = [InkBlob(100.0 + 40 * k, 100.0, 10, 10, 70) for k in range(12)]
    under = [InkBlob(100.0 + 40 * k, 112.0, 10, 10, 70, shaded=True) for k in range(12)]
    pairs = index_pairs(lit + under)
    plain = [p for p in pairs if not (p[0].shaded or p[1].shaded)]
    shaded = [p for p in pairs if p[0].shaded != p[1].shaded]
    assert not plain and len(shaded) == 12  # (each lit blob pairs its own shaded one)
    lit_pairs = [InkBlob(100.0 + 40 * k, 300.0, 10, 10, 70) for k in range(12)]
    lit_pairs += [InkBlob(100.0 + 40 * k, 312.0, 10, 10, 70) for k in range(12)]
    pairs = index_pairs(lit + under + lit_pairs)
    plain = [p for p in pairs if not (p[0].shaded or p[1].shaded)]
    got = pairs_to_read(pairs, 96)
    assert got[: len(plain)] == plain and got[len(plain) :] == shaded
    monkeypatch.setattr("vision.index_pairs.SHADED_PAIRS", 5)
    assert pairs_to_read(pairs, 96) == plain + shaded[:5]
    assert pairs_to_read(pairs, 4)[-5:] == shaded[:5]


def suit_against_an_edge_frame() -> np.ndarray:
    """White stock with a rank alone, and its suit below run into the soft grey shadow
    line of the next card's edge (a fan seen by a webcam): darker than the ink the search
    looks for, but fainter than the print, and far longer than any glyph."""
    frame = np.full((480, 640, 3), 225, np.uint8)
    frame[150:178, 300:318] = 30  # the rank
    cv2.line(frame, (120, 208), (420, 178), (150, 150, 150), 5)  # the edge's shadow
    cv2.circle(frame, (309, 200), 10, (30, 30, 30), -1)  # the suit, on the line
    return frame


def test_a_glyph_run_into_a_longer_line_is_split_off_by_its_darker_ink(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A suit run into the shadow line of the next card's edge made one component, too
    long for a glyph, and the index lost its suit. The component is thresholded again
    within itself, at its own Otsu level (at least SPLIT_FROM times the search's ink):
    the print comes apart from the fainter line, marked as split off."""
    blobs, _ = ink_blobs(suit_against_an_edge_frame(), on_stock=False)
    plain = [b for b in blobs if not b.split]
    split = [b for b in blobs if b.split]
    assert [(round(b.cx), round(b.cy)) for b in plain] == [(308, 164)]  # the rank
    assert [(round(b.cx), round(b.cy)) for b in split] == [(309, 200)]  # its suit
    assert [(a.split, b.split) for a, b in index_pairs(blobs)] in ([(False, True)], [(True, False)])
    monkeypatch.setattr("vision.index_pairs.SPLIT_FROM", 10.0)  # (no ink that dark)
    assert ink_blobs(suit_against_an_edge_frame(), on_stock=False)[0] == plain


class _ReadsThePair:
    """A reader that reads ``card`` at ``confidence`` from the card hypothesis whose
    rank and suit lie at ``rank`` and ``suit`` (frame pixels), and nothing elsewhere."""

    def __init__(self, card: str, confidence: float, rank: tuple, suit: tuple) -> None:
        self.card, self.confidence = card, confidence
        self.rank, self.suit = np.array([*rank, 1.0]), np.array([*suit, 1.0])
        self.model = GlyphModel.load()

    def read_corner(self, m: np.ndarray, colour: bool = True, first_only: bool = False) -> CardRead:
        rank, suit = m @ self.rank, m @ self.suit
        at = np.array([RANK_AT, (RANK_AT[0], RANK_AT[1] + RANK_TO_SUIT)])
        if np.abs(np.stack([rank[:2] / rank[2], suit[:2] / suit[2]]) - at).max() < 3:
            return CardRead(self.card, self.confidence, (None,))
        return CardRead(None, 0.0, (None,))


@pytest.mark.parametrize(("confidence", "kept"), [(0.55, False), (0.65, True)])
def test_a_card_read_with_a_split_off_glyph_is_kept_from_split_least(
    monkeypatch: pytest.MonkeyPatch, confidence: float, kept: bool
) -> None:
    """A glyph cut out of a line is weaker evidence than one standing alone: a card read
    with one is kept from SPLIT_LEAST (0.6), as the other added searches' reads are,
    not from the tracker's 0.5."""
    detector = CardDetector()
    reader = _ReadsThePair("9S", confidence, (308.5, 164.0), (309.0, 200.0))
    monkeypatch.setattr(detector, "reader", reader)
    monkeypatch.setattr("vision.detector._corners_of", lambda frame, m: m)
    monkeypatch.setattr(detector, "_by_first_pips", lambda frame, card, c, m: (card, c))
    got = detector._from_index_pairs(suit_against_an_edge_frame(), [], CORNER_MIN)
    assert [(d.card, d.confidence) for d in got] == ([("9S", confidence)] if kept else [])
    assert SPLIT_LEAST == 0.6


def test_pairs_with_a_glyph_split_off_are_read_after_all_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pairs with a split-off glyph come after all others (after those with a blob in
    shade), at most SPLIT_PAIRS: let in among them, a webcam fan's split parts took the
    places of its own index pairs (two cards that had read at 0.8 and 0.7 lost)."""
    whole = [InkBlob(100.0 + 40 * k, 100.0, 10, 10, 70) for k in range(12)]
    whole += [InkBlob(100.0 + 40 * k, 112.0, 10, 10, 70) for k in range(12)]
    parts = [InkBlob(100.0 + 40 * k, 300.0, 10, 10, 70) for k in range(12)]
    parts += [InkBlob(100.0 + 40 * k, 312.0, 10, 10, 70, split=True) for k in range(12)]
    pairs = index_pairs(parts + whole)
    plain = [p for p in pairs if not (p[0].split or p[1].split)]
    split = [p for p in pairs if p[0].split or p[1].split]
    assert len(plain) == 12 and len(split) == 12
    assert pairs.index(split[0]) < pairs.index(plain[0])  # likelier, and still read last
    assert pairs_to_read(pairs, 96) == plain + split
    monkeypatch.setattr("vision.index_pairs.SPLIT_PAIRS", 5)
    assert pairs_to_read(pairs, 96) == plain + split[:5]


def test_a_frames_squash_leaves_split_off_glyphs_out() -> None:
    """A part cut out of a line is as flat or as tall as the line made it, not as the
    frame shows glyphs: the squash is measured from whole blobs alone."""
    true = blobs_shaped(1.0, 20)
    flat = [replace(b, h=round(b.h * 0.6), split=True) for b in blobs_shaped(1.0, 40)]
    assert frame_squash(true + flat) is None
    assert frame_squash(true + [replace(b, split=False) for b in flat]) is not None


def test_a_rank_beside_another_blob_of_its_size_may_be_half_a_ten() -> None:
    """A "0" with its suit below and a "1" beside it (across the line to the suit): the
    two joined make one rank, spanning both, used up with it; a blob above or below, one
    too far off to the side, or of another size is no ten's half."""
    from vision.index_pairs import ten_ranks

    zero = InkBlob(200, 100, 16, 20, 200)
    suit = InkBlob(202, 134, 16, 18, 180)
    one = InkBlob(184, 100, 6, 20, 90)
    got = ten_ranks(zero, suit, [zero, suit, one])
    assert len(got) == 1
    ten, half = got[0]
    assert half is one
    assert (ten.w, ten.h) == (27, 20) and ten.cx == pytest.approx(194.5)
    assert ten.area == zero.area + one.area
    above = InkBlob(200, 80, 6, 20, 90)  # along the line to the suit: the card's picture
    far = InkBlob(160, 100, 6, 20, 90)  # two glyphs away: a pip
    small = InkBlob(185, 100, 4, 8, 20)  # a speck
    assert ten_ranks(zero, suit, [zero, suit, above, far, small]) == []
    # turned, the same holds: "across" is across the line from rank to suit
    turned = ten_ranks(
        InkBlob(100, 200, 20, 16, 200),
        InkBlob(134, 202, 18, 16, 180),
        [InkBlob(100, 184, 20, 6, 90)],
    )
    assert len(turned) == 1


def test_a_ten_on_a_board_as_white_as_its_stock_is_read_by_its_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ten lying on a board as white as its stock has no outline and is read by its
    index alone, whose sharp "1" and "0" are two blobs. Read with the "0" as its rank it
    is a queen (a wrong card, here short of what the tracker counts); with the two
    joined, the ten."""
    import vision.detector as detector_module

    frame, _ = scene(
        [CardSpec("TH", (640, 480), 260.0, 185.0)], seed=5, table_colour=(238, 240, 240)
    )

    def counted() -> set[str]:
        return {d.card for d in CardDetector().detect(frame) if d.card and d.confidence >= 0.5}

    assert counted() == {"TH"}
    monkeypatch.setattr(detector_module, "ten_ranks", lambda *args: [])
    monkeypatch.setattr(detector_module, "SMALL_LEAST", 1.1)  # (it reads the ten too)
    assert {d.card for d in CardDetector().detect(frame) if d.card} == {"QH"}


#: Four small cards on a white board (bench/vision_white_board.py's draw, 200-240 px tall).
SMALL_ON_WHITE = [
    CardSpec("AH", (640, 760), 208.1301134445826, 116.97935204721819),
    CardSpec("4D", (250, 480), 232.24861324108173, 113.92275146561646),
    CardSpec("5D", (640, 200), 205.96154334134224, 251.46431651459187),
    CardSpec("AS", (1030, 480), 217.94176403041504, 287.61821674672825),
]


def test_a_small_red_card_on_a_white_board_is_found_at_the_fainter_ink(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four cards about 210 px tall on a board as white as their stock: none has an
    outline, and three are read by their indices alone. The small ace of hearts' thin
    red "A" is too faint for the first search's ink; searched again at the fainter ink
    (outside the cards read), it is found too; the fainter search beside the cards read
    (``FAINT_BESIDE_INK``, a red index under the next card) finds it as well, and so does
    the search at the frame's full size for small glyphs (the "A" is small enough for it,
    and its thin strokes are not paled by halving the frame). Without all three it is
    missed."""
    import vision.detector as detector_module

    frame, _ = scene(SMALL_ON_WHITE, seed=805, table_colour=(238, 240, 240))

    def counted() -> set[str]:
        return {d.card for d in CardDetector().detect(frame) if d.card and d.confidence >= 0.5}

    assert counted() == {"AH", "4D", "5D", "AS"}
    monkeypatch.setattr(detector_module, "FAINT_SPARE_LEAST", 1.1)  # nothing kept from it
    assert counted() == {"AH", "4D", "5D", "AS"}
    monkeypatch.setattr(detector_module, "FAINT_BESIDE_LEAST", 1.1)
    assert counted() == {"AH", "4D", "5D", "AS"}
    monkeypatch.setattr(detector_module, "SMALL_LEAST", 1.1)
    assert counted() == {"4D", "5D", "AS"}


def test_a_hazed_frames_faint_indices_are_measured_from_its_black_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same four small cards on a white board, seen through a haze (every level
    lifted most of the way to white: glare, or a photo overexposed): nothing in view is
    darker than 110, so the ace of hearts' and the five of diamonds' thin red indices
    are under a fifth darker than the stock, too faint even for the fainter search
    measured from black. Measured from the frame's black point they are found too. The
    first search keeps measuring from black (its blobs the same). (The frame is read
    as seen: lowering a lifted frame's levels, ``LIFTED_BLACK``, would find them too.)"""
    import vision.detector as detector_module
    import vision.index_pairs as pairs_module

    monkeypatch.setattr(detector_module, "LIFTED_BLACK", 255.0)
    frame, _ = scene(SMALL_ON_WHITE, seed=805, table_colour=(238, 240, 240))
    hazed = np.clip(frame.astype(np.float32) * 0.6 + 110, 0, 255).astype(np.uint8)

    def counted() -> set[str]:
        return {d.card for d in CardDetector().detect(hazed) if d.card and d.confidence >= 0.5}

    first = ink_blobs(hazed, on_stock=False, size=640, least=INK_MIN)
    assert counted() == {"AH", "4D", "5D", "AS"}
    monkeypatch.setattr(detector_module, "SMALL_LEAST", 1.1)  # (it finds them too)
    assert counted() == {"AH", "4D", "5D", "AS"}
    monkeypatch.setattr(pairs_module, "BLACK_POINT_MOST", 0.0)  # from black, as before
    assert counted() == {"4D", "AS"}
    assert ink_blobs(hazed, on_stock=False, size=640, least=INK_MIN) == first


def _through_haze(frame: np.ndarray) -> np.ndarray:
    """``frame`` seen through a heavy haze: every level lifted, nothing darker than 160."""
    return np.clip(frame.astype(np.float32) * 0.35 + 160, 0, 255).astype(np.uint8)


def test_a_frame_lifted_all_over_is_read_with_its_levels_lowered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four small cards on a white board through a heavy haze (glare on a glossy sheet,
    a misted lens). Read as seen, only two of them count; with the frame's levels
    lowered until its darkest ink sits at ``LIFTED_BLACK`` (the lightest black the
    development photos show), all four do."""
    import vision.detector as detector_module

    frame, _, _ = scene_and_empty(SMALL_ON_WHITE, seed=805, table_colour=(238, 240, 240))
    hazed = _through_haze(frame)

    def counted() -> set[str]:
        return {d.card for d in CardDetector().detect(hazed) if d.card and d.confidence >= 0.5}

    assert counted() == {"AH", "4D", "5D", "AS"}
    monkeypatch.setattr(detector_module, "LIFTED_BLACK", 255.0)  # never lowered
    assert counted() == {"4D", "5D"}


def test_a_calibration_made_while_a_hazed_frame_is_read_stands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The dashboard calibrates (another thread) while the camera reads a hazed frame
    against the empty table lowered with it: the new calibration is the detector's
    afterwards, not put back to the old one when the frame is done."""
    _, table, _ = scene_and_empty([], seed=2)
    frame = _through_haze(a_moment_later(table, np.random.default_rng(1)))
    old = _through_haze(a_moment_later(table, np.random.default_rng(2)))
    new = a_moment_later(table, np.random.default_rng(3))
    detector = CardDetector(empty=old)
    read = CardDetector._read_pair_afresh

    def reading(self: CardDetector, f: np.ndarray, m: np.ndarray) -> tuple:
        detector.empty = new  # set from the dashboard mid-frame
        return read(self, f, m)

    monkeypatch.setattr(CardDetector, "_read_pair_afresh", reading)
    monkeypatch.setattr("vision.detector.BARE_MOST", 0)  # (searched, so read mid-frame)
    detector.detect(frame)
    assert detector.empty is new


def test_a_frame_with_no_ink_at_all_is_not_lowered_into_ink(monkeypatch: pytest.MonkeyPatch) -> None:
    """A camera blinded white, or a blank glare with only sensor noise in it: nothing
    in view is darker than ``LIFTED_MOST``, so it is read as it is (no card, no error);
    lowered, its noise would be stretched into ink. A haze with a card's ink in it is
    lowered."""
    import vision.detector as detector_module

    lowered_from: list[float] = []
    lower = detector_module.lowered

    def lowering(image: np.ndarray, black: float, to: float) -> np.ndarray:
        lowered_from.append(black)
        return lower(image, black, to)

    monkeypatch.setattr(detector_module, "lowered", lowering)
    rng = np.random.default_rng(4)
    white = np.full((960, 1280, 3), 255, np.uint8)
    glare = np.clip(rng.normal(232, 6, (960, 1280, 3)), 0, 255).astype(np.uint8)
    for frame in (white, glare):
        assert CardDetector().detect(frame) == []
    assert lowered_from == []
    frame, _, _ = scene_and_empty(SMALL_ON_WHITE, seed=805, table_colour=(238, 240, 240))
    CardDetector().detect(_through_haze(frame))
    assert len(lowered_from) == 1 and 160 < lowered_from[0] <= detector_module.LIFTED_MOST


def test_a_calibrated_table_seen_through_haze_is_still_known_bare(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Calibrated through the same haze, the empty grained table is lowered as each
    frame is, level for level: a frame of the empty table a moment later is known bare
    and not searched. Compared with the empty table as captured, it differs all over,
    and its grain is searched for cards."""
    _, table, _ = scene_and_empty([], seed=2)
    frame = _through_haze(a_moment_later(table, np.random.default_rng(1)))
    empty = _through_haze(a_moment_later(table, np.random.default_rng(2)))
    read = _pair_reads(monkeypatch)
    assert CardDetector(empty=empty).detect(frame) == []
    assert read == []
    monkeypatch.setattr(CardDetector, "_empty_seen", lambda self, black, soft: self.empty)
    assert not [d for d in CardDetector(empty=empty).detect(frame) if d.card]
    assert len(read) > 40


def test_an_index_pair_handed_over_is_read_as_the_search_reads_it() -> None:
    """``CardDetector.read_index`` (bench/vision_index_reads.py): a card's own index pair,
    found as the search finds blobs, reads as that card; the same two blobs the other way
    up (the suit taken for the rank) do not."""
    frame, _ = scene(
        [CardSpec("7D", (640, 480), 480, 12)], seed=3, glare=False, table_colour=(40, 90, 40)
    )
    blobs, scale = ink_blobs(frame, on_stock=True, size=640, least=64)
    det = CardDetector()
    reads = [
        (det.read_index(frame, a, b, scale), det.read_index(frame, b, a, scale))
        for a, b in index_pairs(blobs)[:12]
    ]
    right = [(one, other) for one, other in reads if one.card == "7D"] + [
        (other, one) for one, other in reads if other.card == "7D"
    ]
    assert right and max(one.confidence for one, _ in right) >= CORNER_MIN
    assert all(other.card != "7D" for _, other in right)


def test_a_calibrated_tables_own_grain_is_not_searched_for_indices() -> None:
    """A grained dark cloth gives the index search a hundred and more ink blobs; with
    the empty table captured (another frame of it, its own noise), those the empty table
    shows too are the table's and are left out."""
    _, table, _ = scene_and_empty([], seed=2)
    frame, empty = a_moment_later(table, np.random.default_rng(1)), a_moment_later(table, np.random.default_rng(2))
    everything, _ = ink_blobs(frame, on_stock=False)
    searched, _ = ink_blobs(frame, on_stock=False, table=table_grey(empty))
    assert len(everything) > 100
    assert len(searched) < len(everything) / 5


def test_a_cards_index_over_a_dark_patch_of_the_table_is_still_searched() -> None:
    """A card laid over a patch of the table that was dark when it was captured (a
    marker, a stripe of the cloth): its index's ink lies where the empty table's did,
    but the empty table's patch is no glyph, so the index is searched as uncalibrated."""
    rng = np.random.default_rng(4)
    empty = np.full((960, 1280, 3), 200, np.uint8)
    empty[405:495, 525:590] = 20  # the patch, a little wider than the card's index
    frame = empty.copy()
    place(frame, card_face("KS"), (640, 560), 300.0, 0.0, rng, card="KS")
    corner = (540, 400, 620, 500)  # the card's top-left index, over the patch

    def on_the_index(blobs: list[InkBlob], scale: float) -> int:
        x0, y0, x1, y1 = corner
        return sum(x0 <= b.cx / scale <= x1 and y0 <= b.cy / scale <= y1 for b in blobs)

    assert on_the_index(*ink_blobs(frame, on_stock=False)) >= 2  # its rank and its suit
    searched = ink_blobs(frame, on_stock=False, table=table_grey(empty))
    assert on_the_index(*searched) == on_the_index(*ink_blobs(frame, on_stock=False))


def _empty_grained_table() -> tuple[np.ndarray, np.ndarray]:
    """A grained table seen empty (a hand moved over it, say), and the empty table as
    calibration captured it: each a moment apart (its own sensor noise, JPEG loss)."""
    _, table, _ = scene_and_empty([], seed=2)
    return a_moment_later(table, np.random.default_rng(1)), a_moment_later(table, np.random.default_rng(2))


def _pair_reads(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The card hypotheses every detector reads afresh from now on (each map's bytes)."""
    read: list[bytes] = []
    afresh = CardDetector._read_pair_afresh

    def reading(self: CardDetector, f: np.ndarray, m: np.ndarray) -> tuple:
        read.append(m.tobytes())
        return afresh(self, f, m)

    monkeypatch.setattr(CardDetector, "_read_pair_afresh", reading)
    return read


def test_a_calibrated_empty_table_reads_few_index_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty grained table's frame (a hand moved over it) is searched for indices
    several times over; calibrated, the table's own grain is not paired, so far fewer
    card hypotheses are read, and no card is seen."""
    import vision.detector as detector_module

    frame, empty = _empty_grained_table()
    read = _pair_reads(monkeypatch)
    # (searched as if something on it differed from the empty table: a hand, say)
    monkeypatch.setattr(detector_module, "BARE_MOST", 0)
    CardDetector().detect(frame)
    uncalibrated = len(read)
    read.clear()
    found = CardDetector(empty=empty).detect(frame)
    assert not [d for d in found if d.card]
    assert uncalibrated > 40
    assert len(read) < uncalibrated / 4


def test_a_calibrated_frame_of_the_empty_table_alone_is_not_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A grained table, calibrated, seen empty a moment later (fresh sensor noise, JPEG
    loss): nothing in it differs from the empty table, so it holds no card and is not
    searched for one (the costliest frame of all, every search run for nothing). A
    single card lying small on a board as white as its stock still differs by its ink,
    and is read."""
    import vision.detector as detector_module

    frame, empty = _empty_grained_table()
    read = _pair_reads(monkeypatch)
    assert CardDetector(empty=empty).detect(frame) == []
    assert read == []
    small, bare, _ = scene_and_empty(
        [CardSpec("2S", (640, 480), 140.0, 30.0)], seed=5, table_colour=(238, 240, 240)
    )
    detector = CardDetector(empty=a_moment_later(bare, np.random.default_rng(3)))
    assert [d.card for d in detector.detect(small) if d.card] == ["2S"]
    monkeypatch.setattr(detector_module, "BARE_MOST", 10**7)  # every frame taken as bare
    assert detector.detect(small) == []


def test_a_calibrated_tables_grain_is_known_when_the_exposure_has_drifted() -> None:
    """The camera's exposure drifts after calibration (the frame a quarter brighter than
    the empty table): the table's grain is still the table's."""
    _, table, _ = scene_and_empty([], seed=2)
    frame = cv2.convertScaleAbs(a_moment_later(table, np.random.default_rng(1)), alpha=1.25)
    everything, _ = ink_blobs(frame, on_stock=False)
    searched, _ = ink_blobs(frame, on_stock=False, table=table_grey(a_moment_later(table, np.random.default_rng(2))))
    assert len(searched) < len(everything) / 5


def blobs_shaped(tall: float, count: int) -> list[InkBlob]:
    """``count`` blobs of pips and glyphs as a frame ``tall`` times too tall shows them:
    some upright, some lying, some square (every way round a table's cards lie)."""
    rng = np.random.default_rng(count)
    out = []
    for k in range(count):
        w, h = [(14, 18), (18, 14), (16, 16)][k % 3]
        h = round(h * tall * float(rng.uniform(0.95, 1.05)))
        out.append(InkBlob(float(20 * k), 50.0, w, h, int(0.7 * w * h)))
    return out


@pytest.mark.parametrize(
    ("tall", "count", "squash"),
    [
        (1.78, 40, 1.78),  # a 16:9 webcam's frames stretched square (the real-photo set's)
        (0.7, 40, 0.7),  # a camera tilted 45 degrees without a calibrated plane
        (1.1, 40, None),  # about true: read as it is
        (1.78, 10, None),  # too few blobs to say
        (0.3, 40, None),  # flatter than any camera's view: a table's speckle
    ],
)
def test_a_frames_squash_is_measured_from_its_ink(
    tall: float, count: int, squash: float | None
) -> None:
    got = frame_squash(blobs_shaped(tall, count))
    assert got == (None if squash is None else pytest.approx(squash, rel=0.06))


@pytest.mark.parametrize("squash", [1.78, 0.7])
@pytest.mark.parametrize("turn", [0.0, 35.0, 120.0])
def test_a_pair_unsquashed_is_a_true_card_in_the_frames_true_shape(
    squash: float, turn: float
) -> None:
    """A card turned ``turn`` degrees, its index shown in a frame ``squash`` times too
    tall: its hypothesis made in the frame's true shape keeps the rank and the suit where
    the reader wants them, and its outline, the frame made true, is a card's rectangle."""
    a = np.radians(turn)
    down = np.array([-np.sin(a), np.cos(a)])  # the card's "down" in the true frame
    rank_true = np.array([400.0, 300.0])
    suit_true = rank_true + 30.0 * down
    tall = np.array([1.0, squash])
    rank = InkBlob(*(rank_true * tall), 12, 16, 120)
    suit = InkBlob(*(suit_true * tall), 12, 12, 100)
    m = unsquashed(card_from_pair(rank, suit, 1.0), squash)
    for seen, want in ((rank, RANK_AT), (suit, (RANK_AT[0], RANK_AT[1] + RANK_TO_SUIT))):
        x, y, _ = m @ np.array([seen.cx, seen.cy, 1.0])
        assert (x, y) == (pytest.approx(want[0]), pytest.approx(want[1]))
    corners = outline(m, CARD_SIZE) / tall  # the outline in the frame's true shape
    sides = [corners[(k + 1) % 4] - corners[k] for k in range(4)]
    assert abs(float(np.dot(sides[0], sides[1]))) < 1e-3 * float(np.dot(sides[0], sides[0]))
    ratio = np.linalg.norm(sides[1]) / np.linalg.norm(sides[0])
    assert ratio == pytest.approx(CARD_SIZE[1] / CARD_SIZE[0])
    # the plain hypothesis is no rectangle there (what the squash mends)
    plain = outline(card_from_pair(rank, suit, 1.0), CARD_SIZE) / tall
    p0, p1 = plain[1] - plain[0], plain[2] - plain[1]
    bent = abs(float(np.dot(p0, p1))) / float(np.linalg.norm(p0) * np.linalg.norm(p1))
    long = np.linalg.norm(p1) / np.linalg.norm(p0)
    assert bent > 0.05 or abs(long - CARD_SIZE[1] / CARD_SIZE[0]) > 0.1


def test_cards_on_a_white_board_in_a_frame_stretched_tall_are_read_in_its_true_shape(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four cards on a board as white as their stock (no outlines: read by their indices
    alone), the frame stretched 1.78 times as tall (a 16:9 webcam's frame stretched
    square, as the real-photo set's are). Read as the frame shows them, their index
    pairs read weakly or as nothing (a queen of hearts at 0.3 is the best), and none is
    counted; read again in the frame's true shape, all four are (the ten's "1" and "0",
    read apart, read as nothing as the frame shows them: read again once weak reads
    made sure showed the squash to be the frame's)."""
    import vision.detector as detector_module

    specs = [
        CardSpec("8H", (640, 760), 230.9, 225.5),
        CardSpec("AC", (250, 480), 238.0, 133.0),
        CardSpec("TH", (640, 200), 217.6, 213.8),
        CardSpec("JS", (1030, 480), 232.4, 52.4),
    ]
    frame, _ = scene(specs, seed=412, table_colour=(238, 240, 240))
    tall = cv2.resize(frame, (frame.shape[1], round(frame.shape[0] * 1.78)))
    s = 1280 / tall.shape[0]
    tall = cv2.resize(tall, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)

    def counted() -> set[str]:
        return {d.card for d in CardDetector().detect(tall) if d.card and d.confidence >= 0.5}

    assert counted() == {"8H", "AC", "TH", "JS"}
    monkeypatch.setattr(detector_module, "frame_squash", lambda blobs: None)
    assert counted() == set()


class _ReadsByShape:
    """A reader that reads the plain hypothesis ``plain`` as ``as_shown`` and every other
    map (the one made in the frame's true shape) as ``true``."""

    def __init__(self, plain: np.ndarray) -> None:
        self.plain = plain
        self.as_shown: tuple[str | None, float] = (None, 0.0)
        self.true: tuple[str | None, float] = (None, 0.0)

    def read_corner(self, m: np.ndarray, colour: bool = True, first_only: bool = False) -> CardRead:
        card, confidence = self.as_shown if np.allclose(m, self.plain) else self.true
        return CardRead(card, confidence, (None,))


def test_a_pair_read_as_nothing_is_read_in_the_true_shape_once_a_weak_one_showed_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A frame's squash measured from its blobs may be a table's streaks (crumbs lying
    one way): a pair that reads as nothing is read again in the frame's true shape only
    once a weak read of the frame read so became sure as the same card; a weak read
    turned into another card shows nothing."""
    detector = CardDetector()
    m = card_from_pair(InkBlob(300, 200, 14, 24, 200), InkBlob(302, 232, 14, 16, 150), 1.0)
    reader = _ReadsByShape(m)
    monkeypatch.setattr(detector, "reader", reader)
    monkeypatch.setattr("vision.detector._corners_of", lambda frame, m: m)
    frame = index_frame()
    detector._squash = 1.78

    def read(as_shown: tuple[str | None, float], true: tuple[str | None, float]) -> tuple:
        reader.as_shown, reader.true = as_shown, true
        got = detector._read_pair_afresh(frame, m)[0]
        return got.card, got.confidence

    assert read((None, 0.0), ("9C", 0.7)) == (None, 0.0)  # not shown yet
    assert read(("5H", 0.4), ("6H", 0.8)) == ("6H", 0.8)  # weak: read so, taken
    assert read((None, 0.0), ("9C", 0.7)) == (None, 0.0)  # another card: shows nothing
    assert read(("6H", 0.4), ("6H", 0.45)) == ("6H", 0.45)  # the same card, not sure
    assert read((None, 0.0), ("9C", 0.7)) == (None, 0.0)
    assert read(("6H", 0.4), ("6H", 0.8)) == ("6H", 0.8)  # the same card, sure: shown
    assert read((None, 0.0), ("9C", 0.7)) == ("9C", 0.7)


#: Four cards lying small on a white board, as a 1280-pixel camera sees a whole table
#: (bench/vision_white_board.py --sizes 110 170, seed 3, its twentieth frame).
SMALL_CARDS = [
    CardSpec("9C", (640, 760), 144.94499181630542, 37.583630777509676),
    CardSpec("7H", (250, 480), 136.54505909354504, 140.3477546328791),
    CardSpec("2C", (640, 200), 152.39914466602306, 31.72782377173888),
    CardSpec("8S", (1030, 480), 120.13749034759984, 184.53508414397683),
]


def test_cards_lying_small_are_found_by_their_indices_at_the_frames_full_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cards about 120-150 px tall on a board as white as their stock: no outline, and in
    the search's working copy each index's rank and suit run together into one blob.
    Searched again at the frame's full size, for small glyphs only, two clubs and the
    seven of hearts are found (the seven only since an outline read too weakly to count
    no longer hides the ink inside it: its own outline reads as a king of diamonds at
    0.15).
    In the same frame in grey that search would read both clubs as diamonds (a small
    club's lobes blur into a lozenge, and no colour says the ink is black), so a grey
    frame is not searched so."""
    import vision.detector as detector_module

    frame, _ = scene(SMALL_CARDS, seed=719, table_colour=(238, 240, 240))
    grey = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)

    def counted(image: np.ndarray) -> set[str]:
        return {d.card for d in CardDetector().detect(image) if d.card and d.confidence >= 0.5}

    assert counted(frame) == {"9C", "7H", "2C"}
    assert counted(grey) == set()
    with monkeypatch.context() as m:
        m.setattr(detector_module, "SMALL_LEAST", 1.1)  # nothing kept from it
        assert counted(frame) == set()
    with monkeypatch.context() as m:
        m.setattr(detector_module, "SMALL_GREY_LEAST", 0.6)
        assert {"9D", "2D"} <= counted(grey)
    # beside a card read at close range (500 px) no card lies small: not searched, as
    # the development singles' close-ups are not (a fifth of their time)
    near, _ = scene(
        [*SMALL_CARDS, CardSpec("KD", (1000, 230), 500.0, 10.0)],
        seed=719,
        table_colour=(238, 240, 240),
    )
    assert counted(near) == {"KD"}
    monkeypatch.setattr(detector_module, "SMALL_BESIDE_MOST", 1e9)
    assert counted(near) == {"KD", "9C", "7H", "2C", "8S"}


@pytest.mark.parametrize(
    ("confidence", "hidden"),
    [(0.19, False), (CORNER_MIN - 0.01, False), (CORNER_MIN, True), (0.9, True)],
)
def test_only_an_outline_read_as_surely_as_counted_hides_the_indices_inside_it(
    confidence: float, hidden: bool
) -> None:
    """An outline round a fan's cards reads as none of them, weakly (at a slant, an ace
    of diamonds at 0.19 lay over a row of hearts whose indices read at 0.7): the
    indices inside it are still searched. An outline that counts hides them: the ink
    inside a card read is its own index, pips and picture."""
    frame, placed = scene([CardSpec("7S", (640, 480), 300, 20.0)], seed=5, glare=False)
    detector = CardDetector()
    assert [d.card for d in detector._from_index_pairs(frame, [], CORNER_MIN)] == ["7S"]
    around = np.array([[400, 200], [880, 200], [880, 760], [400, 760]], np.float32)
    assert all(cv2.pointPolygonTest(around, tuple(map(float, p)), False) > 0 for p in placed[0].quad)
    over = Detection(around, "AD", confidence)
    got = detector._from_index_pairs(frame, [over], CORNER_MIN)
    assert [d.card for d in got] == ([] if hidden else ["7S"])
