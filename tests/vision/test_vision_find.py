"""Finding cards where the old locator could not: close-ups, light tables, lamp light,
squashed outlines. Scenes are rendered here (never real photographs)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import CardDetector
from vision.detector import FAINT_HALF_LEAST, FAINT_INK, Detection
from vision.index_pairs import INK_MIN
from vision.locate import LocateConfig, _fit_quad, dark_quads, rectify, turned
from vision.overlap import _square_chamfers
from vision.reader import CardReader
from vision.synth import (
    LIGHT_TABLES,
    CardSpec,
    camera,
    card_face,
    lamp,
    place,
    rounded_alpha,
    scene,
    scene_and_empty,
    table,
)
from vision.warp import warp_perspective


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def read(detector: CardDetector, img: np.ndarray) -> list[str]:
    return sorted(d.card for d in detector.detect(img) if d.card)


def test_a_card_filling_most_of_the_frame_is_found_and_read(detector: CardDetector) -> None:
    # a 900 px tall card in a 1280x960 frame covers about 60% of it
    img, _ = scene([CardSpec("QH", (640, 480), 900, 4)], seed=11, glare=False)
    assert read(detector, img) == ["QH"]


@pytest.mark.parametrize("colour", LIGHT_TABLES)
def test_cards_on_a_light_table_are_found(detector: CardDetector, colour: tuple) -> None:
    specs = [CardSpec("7D", (400, 480), 300, 15), CardSpec("KS", (880, 480), 300, -20)]
    img, _ = scene(specs, seed=4, glare=False, table_colour=colour)
    assert read(detector, img) == ["7D", "KS"]


def test_the_empty_table_from_calibration_is_a_reference(detector: CardDetector) -> None:
    specs = [CardSpec("9C", (640, 480), 300, 30)]
    img, empty, _ = scene_and_empty(specs, seed=8, glare=False, table_colour=LIGHT_TABLES[1])
    with_ref = CardDetector(model=detector.reader.model, empty=empty)
    assert read(with_ref, img) == ["9C"]
    assert read(with_ref, empty) == []


@pytest.mark.parametrize("kelvin", [2700, 8000])
def test_warm_and_cool_lamps_read_like_daylight(detector: CardDetector, kelvin: int) -> None:
    specs = [CardSpec("AH", (400, 480), 300, 10), CardSpec("5S", (880, 480), 300, 80)]
    img, _ = scene(specs, seed=2, glare=False)
    assert read(detector, lamp(img, kelvin)) == ["5S", "AH"]


def test_a_squashed_outline_is_tried_the_other_way_round(detector: CardDetector) -> None:
    # an oblique camera squashes the card along its length: its long side looks short
    img, _ = scene([CardSpec("8S", (640, 480), 300, 0)], seed=6, glare=False)
    squashed = img[::2, :].copy()  # half height: the card's outline is now wider than tall
    dets = [d for d in detector.detect(squashed) if d.card]
    assert [d.card for d in dets] == ["8S"]


#: A card's corners (top-left, top-right, bottom-right, bottom-left) as a phone held low
#: over a table saw one: turned about 40 degrees and foreshortened along a diagonal, so
#: its top side is shorter than its left side but its bottom side longer than its right.
SLANTED = np.array([[204, 291], [378, 81], [478, 412], [234, 690]], np.float32)


def slanted_card(card: str) -> np.ndarray:
    rng = np.random.default_rng(4)
    img = table(rng, colour=(70, 80, 95))
    face = card_face(card).astype(np.float32)
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, SLANTED)
    h, w = img.shape[:2]
    a = warp_perspective(rounded_alpha(fw, fh), m, (w, h)).astype(np.float32) / 255
    out = img * (1 - a[:, :, None]) + warp_perspective(face, m, (w, h)) * a[:, :, None]
    return camera(np.clip(out, 0, 255).astype(np.uint8), rng, glare=False)


@pytest.mark.parametrize("card", ["2S", "9D"])
def test_a_card_foreshortened_along_a_diagonal_is_outlined(
    detector: CardDetector, card: str
) -> None:
    # the corner the outline starts at has its short side beside a longer long side,
    # the opposite corner the other way round: the two pairs of opposite sides taken
    # together say which is short (taken from the first corner alone, the outline came
    # out wider than long and was dropped as no card's shape)
    img = slanted_card(card)
    sides = np.linalg.norm(SLANTED - np.roll(SLANTED, -1, axis=0), axis=1)
    assert sides[0] < sides[3] and sides[2] > sides[1]
    assert sides[0] + sides[2] < sides[1] + sides[3]
    dets = [d for d in detector.detect(img) if d.card]
    assert [d.card for d in dets] == [card]
    assert dets[0].confidence >= 0.9
    assert np.abs(np.sort(dets[0].quad, axis=0) - np.sort(SLANTED, axis=0)).max() < 12


def test_the_parts_a_blob_is_cut_into_are_not_turned() -> None:
    # a shape whose first corner's sides say one pair is short and the two pairs of
    # opposite sides the other (half a court card cut along its picture's frame, seen
    # in perspective, is one): as a blob's part it stays no card's shape; as a whole
    # blob it is a card seen at a slant, started one corner on
    mask = np.zeros((700, 700), np.uint8)
    half = np.array([[100, 300], [350, 300], [420, 555], [40, 555]], np.int32)
    cv2.fillPoly(mask, [half], 255)
    contour = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0][0]
    assert _fit_quad(contour, LocateConfig(), slant=False) is None
    whole = _fit_quad(contour, LocateConfig())
    assert whole is not None
    sides = np.linalg.norm(whole - np.roll(whole, -1, axis=0), axis=1)
    assert sides[0] + sides[2] < sides[1] + sides[3]


def test_turned_rectifies_a_quarter_turn() -> None:
    img = np.zeros((100, 100, 3), np.uint8)
    img[:50, :50] = 255
    quad = np.array([[10, 10], [90, 10], [90, 90], [10, 90]], np.float32)
    a = rectify(img, quad, (60, 60))
    b = rectify(img, turned(quad), (60, 60))
    assert np.array_equal(np.rot90(a, 1), b) or np.array_equal(np.rot90(a, -1), b)


def test_an_empty_light_table_reads_no_card(detector: CardDetector) -> None:
    for colour in LIGHT_TABLES:
        img, _ = scene([], seed=3, glare=False, table_colour=colour)
        assert read(detector, img) == []


def grey_card_on_a_white_desk(card: str, shade: float) -> np.ndarray:
    """A close-up as phone photos show it: the card in the photographer's shade, greyer
    than the white desk, and a shadow over the desk's lower left as grey as the card, so
    there the card's border all but vanishes. No drop shadow, no seam."""
    rng = np.random.default_rng(1)
    h, w = 960, 1280
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    desk = (232 + 10 * (xx / w) - 8 * (yy / h))[:, :, None] * np.ones(3, np.float32)
    shadow = cv2.GaussianBlur(((yy - 0.9 * xx) > 380).astype(np.float32), (0, 0), 6)
    desk *= 1 - (1 - shade) * shadow[:, :, None]
    face = card_face(card).astype(np.float32) * shade
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    t = np.deg2rad(9)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    dst = ((src - [fw / 2, fh / 2]) * (780 / fh)) @ rot.T + [640, 470]
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    a = warp_perspective(rounded_alpha(fw, fh), m, (w, h)).astype(np.float32) / 255
    img = desk * (1 - a[:, :, None]) + warp_perspective(face, m, (w, h)) * a[:, :, None]
    img = cv2.GaussianBlur(img, (0, 0), 1.2) + rng.normal(0, 2.5, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


@pytest.mark.parametrize(("card", "shade"), [("7C", 0.84), ("QD", 0.9)])
def test_a_grey_close_up_whose_border_fades_into_a_shadow_is_read(
    detector: CardDetector, card: str, shade: float
) -> None:
    # its edge region runs out into the shadow through the faded border; the card is
    # still what the rest of its border closes, and what its four border lines frame
    assert read(detector, grey_card_on_a_white_desk(card, shade)) == [card]


def gold_on_black(card: str) -> np.ndarray:
    """A dark deck's face: black stock, the red suits in gold, the black suits in silver."""
    face = card_face(card).astype(np.float32)
    ink = np.clip((240 - face.min(axis=2)) / 210, 0, 1)[:, :, None]  # 0 stock, 1 ink
    colour = (60, 170, 215) if card[-1] in "HD" else (205, 205, 205)
    return (np.array([22, 22, 24]) * (1 - ink) + np.array(colour) * ink).astype(np.uint8)


@pytest.mark.parametrize("cards", [("QH", "7S"), ("TD", "AC")])
def test_a_gold_on_black_deck_is_read_as_its_negative(
    detector: CardDetector, cards: tuple[str, str]
) -> None:
    rng = np.random.default_rng(5)
    img = np.full((960, 1280, 3), (226, 230, 232), np.uint8)  # a plain white desk
    for card, x, angle in zip(cards, (400, 880), (12, -25), strict=True):
        place(img, gold_on_black(card), (x, 480), 320, angle, rng)
    frame = camera(img, rng, glare=False)
    dets = [d for d in detector.detect(frame) if d.card]
    # gold marks hearts and diamonds, silver spades and clubs: colour still weighs suit
    assert sorted(d.card for d in dets) == sorted(cards)
    # a negative is never sure, but sure enough for the tracker to count it
    assert all(0.5 <= d.confidence < 0.9 for d in dets)


DARK_ROW = (
    ("2S", (220, 480), 5),
    ("KD", (500, 430), -13),
    ("5C", (790, 500), 22),
    ("8H", (1070, 420), -6),
)


def dark_deck_on(desk: tuple[int, int, int], seed: int, phone: bool = False) -> np.ndarray:
    """Four gold-on-black cards apart on a light, grained table; ``phone`` adds a black
    card-sized slab with nothing printed on it (a phone face down, a card box)."""
    rng = np.random.default_rng(seed)
    img = table(rng, colour=desk)
    for card, xy, angle in DARK_ROW:
        place(img, gold_on_black(card), xy, 290, angle, rng)
    if phone:
        slab = np.full((350, 250, 3), 20, np.uint8)
        place(img, slab, (640, 820), 260, 80, rng)
    return camera(img, rng, glare=False)


@pytest.mark.parametrize("desk", LIGHT_TABLES)
@pytest.mark.parametrize("seed", [2, 3])
def test_a_dark_deck_on_a_light_grained_table_is_found_by_its_negative(
    detector: CardDetector, desk: tuple[int, int, int], seed: int
) -> None:
    # the grain breaks the edge regions and the colour masks look for stock brighter than
    # the table: only the frame's negative, where the black stock is the paper, finds them
    dets = [d for d in detector.detect(dark_deck_on(desk, seed)) if d.card]
    assert sorted(d.card for d in dets) == sorted(c for c, _, _ in DARK_ROW)
    assert all(0.5 <= d.confidence < 0.9 for d in dets)


@pytest.mark.parametrize("shade", [0.35, 0.45])
@pytest.mark.parametrize("seed", [5, 6])
def test_dark_cards_beside_a_shadowed_part_of_the_table_are_outlined(
    shade: float, seed: int
) -> None:
    """The far part of a white desk in shadow is grey: in the negative, the first split
    puts it with the black stock, and a dark card lying across its edge makes one blob
    with it. The negative's second split parts the blacker stock from the shadow."""
    rng = np.random.default_rng(seed)
    img = np.full((960, 1280, 3), (226, 230, 232), np.float32)
    img[300:] *= shade
    img = img.astype(np.uint8)
    cards = {"7H": (400, 560), "QS": (880, 360)}
    for (card, xy), angle in zip(cards.items(), (12, -25), strict=True):
        place(img, gold_on_black(card), xy, 320, angle, rng)
    quads = dark_quads(camera(img, rng, glare=False))
    for x, y in cards.values():
        assert any(np.hypot(*(q.mean(axis=0) - (x, y))) < 20 for q in quads)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_card_in_the_shade_beside_one_read_from_its_index_is_read_too(
    detector: CardDetector, seed: int
) -> None:
    """Nothing outlined, the first index search reads both cards; it keeps only its best
    read (the rest of a single card's photo is its own picture), and the search beside
    that card looks only on stock as bright as its own, so the card in the shade was
    the first search's read alone."""
    rng = np.random.default_rng(seed)
    img = np.full((960, 1280, 3), (235, 240, 242), np.uint8)
    place(img, card_face("KH"), (380, 480), 330, 8, rng)
    place(img, card_face("7S"), (900, 480), 330, -12, rng)
    # the right half falls into shade, smoothly (an edge there would be outlined)
    ramp = np.clip((np.arange(1280, dtype=np.float32) - 560) / 160, 0, 1)
    img = (img * (1 - 0.5 * ramp)[None, :, None]).astype(np.uint8)
    assert read(detector, camera(img, rng, glare=False)) == ["7S", "KH"]


def test_a_black_slab_beside_a_dark_deck_is_no_card(detector: CardDetector) -> None:
    dets = detector.detect(dark_deck_on(LIGHT_TABLES[1], 2, phone=True))
    assert sorted(d.card for d in dets if d.card) == sorted(c for c, _, _ in DARK_ROW)
    # the negative's outlines are kept only when they read: the slab is not reported at
    # all (an unreadable outline would hold a play spot "occupied")
    slab = [d for d in dets if abs(d.center[0] - 640) < 150 and abs(d.center[1] - 820) < 150]
    assert slab == []


def test_dark_outlines_are_not_looked_for_beside_a_light_deck(
    detector: CardDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A frame whose cards read as they are (light stock) has no dark deck: the search
    costs nothing there, and a keyboard or a shadow cannot be read as a card."""
    img, _ = scene(
        [CardSpec("QH", (400, 480), 300, 10), CardSpec("7S", (880, 480), 300, -20)], seed=4
    )
    calls = []
    monkeypatch.setattr(
        "vision.detector.dark_quads_and_mask",
        lambda *a: calls.append(1) or ([], np.zeros((8, 8), np.uint8), 1.0),
    )
    no_light_ink(detector, monkeypatch)
    assert read(detector, img) == ["7S", "QH"]
    assert calls == []
    dark = dark_deck_on(LIGHT_TABLES[0], 2)
    assert len([d for d in detector.detect(dark) if d.card]) == 0
    assert calls == [1]


def no_light_ink(detector: CardDetector, monkeypatch: pytest.MonkeyPatch) -> None:
    """The detector without the search for a dark deck's light indices (for tests of
    the dark deck's other ways in: without it, nothing else reads their cards)."""
    search = detector._from_index_pairs

    def dark_ink_only(*a, negative: bool = False, **k):  # noqa: ANN002, ANN003, ANN202
        return [] if negative else search(*a, **k)

    monkeypatch.setattr(detector, "_from_index_pairs", dark_ink_only)


def close_up(card: str, turn: int, seed: int) -> np.ndarray:
    """A phone held close over one card: the frame shows its middle and one index, and
    no edge of the card at all (all stock, the frame's edge everywhere)."""
    face = card_face(card)
    h, w = face.shape[:2]
    part = face[int(0.02 * h) : int(0.55 * h), int(0.03 * w) :]  # from just inside the edges
    part = np.rot90(part, turn).copy()
    img = cv2.resize(part, (1280, 960) if part.shape[1] > part.shape[0] else (960, 1280))
    return camera(img, np.random.default_rng(seed), glare=False)


@pytest.mark.parametrize(("card", "turn"), [("7C", 0), ("KD", 1), ("3S", 3)])
def test_a_card_with_no_outline_in_view_is_read_by_its_index(
    detector: CardDetector, card: str, turn: int
) -> None:
    dets = [d for d in detector.detect(close_up(card, turn, seed=turn)) if d.card]
    assert [d.card for d in dets] == [card]
    assert dets[0].confidence < 0.9  # one index, nothing else to check it: never "sure"


@pytest.mark.parametrize(("card", "turn"), [("5D", 0), ("KS", 1), ("9C", 2)])
def test_an_index_a_fifth_of_the_frame_tall_is_read(
    detector: CardDetector, card: str, turn: int
) -> None:
    """Closer still: the frame shows the card's top-left quarter, its index a fifth of
    the frame tall, too big for the index search's working copy (its glyphs are
    judged against the stock within a window narrower than they are). Nothing else
    reads, so the search is run once more at half that size."""
    face = card_face(card)
    h, w = face.shape[:2]
    part = np.rot90(face[int(0.02 * h) : int(0.32 * h), int(0.03 * w) : int(0.6 * w)], turn)
    img = cv2.resize(part, (1280, 960) if part.shape[1] > part.shape[0] else (960, 1280))
    shade = np.linspace(0.6, 0.95, img.shape[1])[None, :, None]  # a dim, shaded photo
    img = camera(
        np.clip(img * shade, 0, 255).astype(np.uint8), np.random.default_rng(turn), glare=False
    )
    dets = [d for d in detector.detect(img) if d.card]
    assert [d.card for d in dets] == [card]
    assert dets[0].confidence < 0.9


def pale_grey_close_up(card: str, turn: int, pale: float) -> np.ndarray:
    """:func:`close_up` in a grey photo whose ink is pale (``pale`` of its darkness
    kept): a red index in grey, or a phone's washed-out print, is only a fifth or so
    darker than the stock round it."""
    face = cv2.cvtColor(card_face(card), cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = face.shape[:2]
    part = np.rot90(face[int(0.02 * h) : int(0.55 * h), int(0.03 * w) :], turn)
    part = 255 - (255 - part) * pale
    img = cv2.resize(part, (1280, 960) if part.shape[1] > part.shape[0] else (960, 1280))
    grey = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    return camera(grey, np.random.default_rng(turn), glare=False)


@pytest.mark.parametrize(
    ("card", "turn", "pale"), [("KD", 0, 0.35), ("KD", 1, 0.3), ("3S", 0, 0.25)]
)
def test_a_pale_index_in_a_frame_where_nothing_read_is_searched_for_again(
    monkeypatch: pytest.MonkeyPatch, card: str, turn: int, pale: float
) -> None:
    """Where nothing else read, the index search runs once more taking fainter ink
    (:data:`vision.detector.FAINT_INK`): the pale index is read; with the search's own
    threshold only, nothing is. Nothing in view is dark, so the frame is lifted all over:
    read with its levels lowered (:data:`vision.detector.LIFTED_BLACK`), the first
    search reads it too; the fainter search is what reads it as seen."""
    frame = pale_grey_close_up(card, turn, pale)
    monkeypatch.setattr("vision.detector.LIFTED_BLACK", 255.0)  # read as seen
    dets = [d for d in CardDetector().detect(frame) if d.card]
    assert [d.card for d in dets] == [card]
    assert dets[0].confidence < 0.9
    monkeypatch.setattr("vision.detector.FAINT_INK", INK_MIN)
    assert [d.card for d in CardDetector().detect(frame) if d.card] == []
    monkeypatch.undo()
    monkeypatch.setattr("vision.detector.FAINT_INK", INK_MIN)
    assert [d.card for d in CardDetector().detect(frame) if d.card] == [card]


def pale_grey_big_index(card: str, turn: int, pale: float) -> np.ndarray:
    """A pale grey close-up nearer still: the card's top-left quarter fills the frame, so
    its index is big as well as faint (``pale`` of its ink's darkness kept)."""
    face = cv2.cvtColor(card_face(card), cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = face.shape[:2]
    part = np.rot90(face[int(0.02 * h) : int(0.32 * h), int(0.03 * w) : int(0.6 * w)], turn)
    part = 255 - (255 - part) * pale
    img = cv2.resize(part, (1280, 960) if part.shape[1] > part.shape[0] else (960, 1280))
    grey = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    return camera(grey, np.random.default_rng(turn), glare=False)


@pytest.mark.parametrize(("card", "turn", "pale"), [("3S", 0, 0.25), ("3S", 1, 0.3)])
def test_a_big_pale_index_is_searched_for_at_half_size_as_well(
    monkeypatch: pytest.MonkeyPatch, card: str, turn: int, pale: float
) -> None:
    """Too faint for the first searches and too big for the fainter one: the fainter
    search is run again at half its size (kept from FAINT_HALF_LEAST); without that run
    nothing reads as seen. (Lowered as a lifted frame, :data:`vision.detector.LIFTED_BLACK`,
    it reads without that run, and so it does sharpened as a soft frame.)"""
    frame = pale_grey_big_index(card, turn, pale)
    monkeypatch.setattr("vision.detector.LIFTED_BLACK", 255.0)  # read as seen
    monkeypatch.setattr("vision.focus.SOFT_FROM", 2.0)  # and not sharpened
    monkeypatch.setattr("vision.focus.HALF_SOFT_FROM", 2.0)
    dets = [d for d in CardDetector().detect(frame) if d.card]
    assert [d.card for d in dets] == [card]
    assert FAINT_HALF_LEAST <= dets[0].confidence < 0.9
    monkeypatch.setattr("vision.detector.FAINT_HALF_LEAST", 1.01)
    assert [d.card for d in CardDetector().detect(frame) if d.card] == []
    monkeypatch.undo()
    monkeypatch.setattr("vision.detector.FAINT_HALF_LEAST", 1.01)
    assert [d.card for d in CardDetector().detect(frame) if d.card] == [card]


@pytest.mark.parametrize(("later", "kept"), [(0.7, "5D"), (0.2, "6D")])
def test_a_weak_first_index_read_gives_way_to_a_surer_one_from_a_later_search(
    monkeypatch: pytest.MonkeyPatch, later: float, kept: str
) -> None:
    """Where nothing else read, the first index search's read short of counting (a
    big index's fragments read as a 6 at 0.27) does not end the search: the later ones
    (half size, fainter ink) are run too, and a surer read replaces it; a weaker one
    does not."""
    frame = np.full((960, 1280, 3), 120, np.uint8)
    box = np.array([[500, 300], [700, 300], [700, 600], [500, 600]], np.float32)
    asked: list[tuple[int, int]] = []

    def pairs(
        self: CardDetector,
        f: np.ndarray,
        found: list,
        least: float,
        size: int = 640,
        negative: bool = False,
        ink: int = INK_MIN,
        most: int = 96,
    ) -> list:  # noqa: E501
        if negative or found and any(d.card for d in found):
            return []
        asked.append((size, ink))
        if (size, ink, least) == (640, INK_MIN, 0.0):
            return [Detection(box, "6D", 0.27)]
        if (size, ink) == (320, INK_MIN):
            return [Detection(box + 10, "5D", later)]
        return []

    monkeypatch.setattr(CardDetector, "_from_index_pairs", pairs)
    dets = [d for d in CardDetector().detect(frame) if d.card]
    assert [d.card for d in dets] == [kept]
    assert (320, INK_MIN) in asked
    if later >= 0.5:  # a read that counts ends the search
        assert (640, FAINT_INK) not in asked


def two_cards_held_close(first: str, second: str, seed: int) -> np.ndarray:
    """Two cards held close side by side, their top-left corners in view and no outline:
    the second nearer the camera, its index half again as big as the first's, too big
    for the index search's working copy."""
    halves = []
    for card, share in ((first, 0.45), (second, 0.28)):
        face = card_face(card)
        h, w = face.shape[:2]
        part = face[int(0.02 * h) : int(1.6 * share * h), int(0.03 * w) : int(share * w)]
        halves.append(cv2.resize(part, (640, 960)))
    return camera(np.hstack(halves), np.random.default_rng(seed), glare=False)


@pytest.mark.parametrize(("first", "second"), [("9S", "2H"), ("4C", "AD")])
def test_cards_held_close_are_searched_for_at_half_size_beside_the_first_read(
    monkeypatch: pytest.MonkeyPatch, first: str, second: str
) -> None:
    """Where no outline reads and the index search reads a card that counts, it also
    runs at half size (HALF_SPARE_LEAST) for the indices too big for it: the nearer
    card is read too; without that run it is not."""
    frame = two_cards_held_close(first, second, seed=0)
    assert sorted(d.card for d in CardDetector().detect(frame) if d.card) == sorted([first, second])
    monkeypatch.setattr("vision.detector.HALF_SPARE_LEAST", 1.01)
    assert [d.card for d in CardDetector().detect(frame) if d.card] == [first]


@pytest.mark.parametrize("seed", [2, 3])
def test_a_dark_deck_with_no_outline_is_read_by_its_light_indices(
    detector: CardDetector, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dark deck whose cards give no outline at all, not even in the frame's negative
    (an oblique photo of cards lying against each other and a keyboard): their gold and
    silver indices, lighter than the stock round them, are searched for as a light deck's
    dark ones are."""
    monkeypatch.setattr(
        "vision.detector.dark_quads_and_mask", lambda *a: ([], np.zeros((8, 8), np.uint8), 1.0)
    )
    monkeypatch.setattr("vision.detector.grouped", lambda *a, **k: [])
    dets = [d for d in detector.detect(dark_deck_on(LIGHT_TABLES[0], seed)) if d.card]
    assert len(dets) >= 3
    assert {d.card for d in dets} <= {c for c, _, _ in DARK_ROW}
    assert all(d.confidence < 0.9 for d in dets)


#: Four dark cards side by side, each touching the next: one blob in the negative.
TOUCHING_ROW = (
    ("2S", (330, 470), 8),
    ("KD", (560, 470), -10),
    ("5C", (800, 470), 14),
    ("8H", (1020, 470), -4),
)


@pytest.mark.parametrize("desk", LIGHT_TABLES)
@pytest.mark.parametrize("seed", [2, 3])
def test_dark_cards_touching_each_other_are_read_by_their_corners(
    detector: CardDetector, desk: tuple[int, int, int], seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # black stock against black stock has no edge: the row is one blob in the frame's
    # negative, and no card's shape; the blob's right-angled corners are each one card's
    rng = np.random.default_rng(seed)
    img = table(rng, colour=desk)
    for card, xy, angle in TOUCHING_ROW:
        place(img, gold_on_black(card), xy, 290, angle, rng)
    frame = camera(img, rng, glare=False)
    dets = [d for d in detector.detect(frame) if d.card]
    assert len(dets) >= 2
    assert {d.card for d in dets} <= {c for c, _, _ in TOUCHING_ROW}  # nothing else
    assert all(0.5 <= d.confidence < 0.9 for d in dets)
    monkeypatch.setattr(detector, "_dark_corners", lambda *a: [])
    no_light_ink(detector, monkeypatch)
    assert [d for d in detector.detect(frame) if d.card] == []


def grey_and_gold(card: str, stock: int) -> np.ndarray:
    """A dark deck's face photographed in bright light: its black stock comes out grey."""
    face = cv2.resize(card_face(card), (200, 300), interpolation=cv2.INTER_AREA)
    ink = np.clip((240 - face.astype(np.float32).min(axis=2)) / 210, 0, 1)[:, :, None]
    colour = (90, 200, 240) if card[-1] in "HD" else (225, 225, 225)
    grey = np.array([stock, stock, stock + 4], np.float32)
    return (grey * (1 - ink) + np.array(colour, np.float32) * ink).astype(np.uint8)


GREY_STOCK_CARDS = ("7D", "QH", "2S", "9C", "KD", "5S", "AH", "TC")


@pytest.mark.parametrize("stock", [100, 115, 130])
def test_a_dark_decks_stock_lit_to_grey_is_still_read_as_its_negative(stock: int) -> None:
    # the stock is the bulk of the corner and the ink is brighter than it: a dark deck,
    # however bright the lamp makes the black
    reader = CardReader()
    reads = [reader.read(grey_and_gold(c, stock)) for c in GREY_STOCK_CARDS]
    assert [r.card for r in reads] == list(GREY_STOCK_CARDS)
    assert all(r.negative for r in reads)


@pytest.mark.parametrize("light", [0.35, 0.45, 0.55])
def test_a_light_card_in_dim_light_is_not_taken_for_a_dark_deck(light: float) -> None:
    reader = CardReader()
    for c in GREY_STOCK_CARDS:
        face = cv2.resize(card_face(c), (200, 300), interpolation=cv2.INTER_AREA)
        res = reader.read((face * light).astype(np.uint8))
        assert (res.card, res.negative) == (c, False)


@pytest.mark.parametrize("desk", LIGHT_TABLES)
@pytest.mark.parametrize("seed", [2, 3])
def test_dark_cards_cut_by_the_frame_are_read_by_their_visible_corner(
    detector: CardDetector, desk: tuple[int, int, int], seed: int
) -> None:
    # a close-up: the card read whole in the middle, its neighbours half out of the
    # frame, each showing one index (the four of spades its lower one, the jack of
    # hearts, turned round, its upper one); the frame cuts their outlines to no card's
    # shape, and their corners are sized by the card read whole
    rng = np.random.default_rng(seed)
    img = table(rng, colour=desk)
    place(img, gold_on_black("9D"), (640, 480), 330, 8, rng)
    place(img, gold_on_black("4S"), (0, 470), 330, -6, rng)
    place(img, gold_on_black("JH"), (1280, 520), 330, 174, rng)
    dets = [d for d in detector.detect(camera(img, rng, glare=False)) if d.card]
    assert sorted(d.card for d in dets) == ["4S", "9D", "JH"]
    assert all(0.5 <= d.confidence < 0.9 for d in dets)


def test_a_rounded_corner_cut_across_is_squared() -> None:
    # the outline's simplification cuts a card's rounded corner into two bends of about
    # 135 degrees each; the corner is where the two long sides meet
    poly = np.array([[0, 207], [0, 605], [71, 604], [94, 565], [105, 220]], np.float32)
    got = _square_chamfers(poly)
    assert len(got) == 4
    assert np.allclose(got[2], (92.8, 603.7), atol=0.5)
    assert np.allclose(got[1], (0, 605))  # the frame's cut is no rounded corner
    # two cards' outline with square corners and no short side is left as it is
    pile = np.array([[0, 0], [300, 0], [300, 200], [150, 200], [150, 420], [0, 420]], np.float32)
    assert np.array_equal(_square_chamfers(pile), pile)


@pytest.mark.parametrize("seed", [0, 3, 5])
def test_light_cards_cut_by_the_frame_are_read_by_their_visible_corner(
    detector: CardDetector, seed: int
) -> None:
    # the same close-up with a light deck on the rendered tables: the pile search's
    # corners, sized by the card read whole, find the neighbours' one index each
    img, _ = scene(
        [
            CardSpec("9D", (640, 480), 330, 8),
            CardSpec("4S", (0, 470), 330, -6),
            CardSpec("JH", (1280, 520), 330, 174),
        ],
        seed=seed,
    )
    dets = [d for d in detector.detect(img) if d.card]
    assert sorted(d.card for d in dets) == ["4S", "9D", "JH"]
    assert all(0.5 <= d.confidence < 0.9 for d in dets if d.card != "9D")


def _blob_of(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    assert len(contours) == 1
    return contours[0]


def test_a_blob_outlined_whole_is_cut_only_for_cards_side_by_side(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import vision.locate as locate_module

    fits = [0]
    real_fit = locate_module._fit_slanted  # every fit, a part's too, goes through it

    def counted(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        fits[0] += 1
        return real_fit(*args, **kwargs)

    monkeypatch.setattr(locate_module, "_fit_slanted", counted)
    cfg = locate_module.LocateConfig()
    # one card: its blob is outlined whole, and its one piece is not fitted again
    small = np.full((480, 640, 3), 60, np.uint8)
    small[100:240, 100:200] = 235
    mask = np.zeros((480, 640), np.uint8)
    mask[100:240, 100:200] = 255
    got = locate_module._outline_blob(_blob_of(mask), mask, small, [], cfg, True)
    assert len(got) == 1 and fits[0] == 1
    assert np.abs(np.sort(got[0][:, 0]) - [100, 100, 199, 199]).max() < 2
    # two cards touching along their long sides: one blob of a card's shape (aspect
    # 1.4), which the line between them cuts into the two cards
    small[100:240, 200:300] = 235
    small[100:240, 200] = 150
    mask[100:240, 100:300] = 255
    fits[0] = 0
    got = locate_module._outline_blob(_blob_of(mask), mask, small, [], cfg, True)
    assert len(got) == 2 and fits[0] == 3
    centres = sorted(float(q[:, 0].mean()) for q in got)
    assert abs(centres[0] - 150) < 3 and abs(centres[1] - 250) < 3
