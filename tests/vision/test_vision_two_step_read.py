"""A card is read in two steps (its corners' index glyphs, then the rest), so that an
outline that is no card costs only its corners' warp: the two steps must read exactly
as one read of the whole card does, on light cards, on a dark deck's (read in the
negative) and on bare table."""

from __future__ import annotations

import cv2
import numpy as np

from vision import CardDetector
from vision.detector import CARD_SIZE
from vision.locate import rectify
from vision.synth import CardSpec, scene

SPOTS = ((640, 700), (300, 480), (640, 230), (980, 480))


def test_two_steps_read_as_one() -> None:
    detector = CardDetector()
    cards = ["QS", "7H", "TD", "3C"]
    specs = [CardSpec(c, SPOTS[k], 280.0, 25.0 * k) for k, c in enumerate(cards)]
    frame, placed = scene(specs, seed=11)
    bare = np.array([[20, 20], [180, 20], [180, 260], [20, 260]], np.float32)  # table only
    read_any = 0
    for image in (frame, cv2.bitwise_not(frame)):  # the negative: dark cards, light ink
        detector._colour = True
        for quad in [p.quad.astype(np.float32) for p in placed] + [bare]:
            whole = detector.reader.read(rectify(image, quad, CARD_SIZE))
            assert detector._read_outline(image, quad) == whole
            read_any += whole.card is not None
    assert read_any >= 6  # the cards read, light and dark, not only nothing twice


def test_a_dark_cards_pips_are_read_on_its_negative(monkeypatch) -> None:
    """The pips reader expects dark ink on light stock: a dark deck's card, found in the
    negative from its corners, must hand the pips reader its whole card inverted too."""
    import vision.reader as reader_module

    given = []
    real = reader_module.read_pips

    def spy(card_bgr, model):  # noqa: ANN001, ANN202
        given.append(float(card_bgr.mean()))
        return real(card_bgr, model)

    monkeypatch.setattr(reader_module, "read_pips", spy)
    detector = CardDetector()
    detector._colour = True
    frame, placed = scene([CardSpec("8D", (640, 480), 300.0, 10.0)], seed=3)
    quad = placed[0].quad.astype(np.float32)
    dark = cv2.bitwise_not(frame)
    assert detector.reader.read(rectify(dark, quad, CARD_SIZE)).negative
    assert detector._read_outline(dark, quad).negative
    assert len(given) == 2 and min(given) > 128, given  # light stock both times


def ten_of_spades_on_a_table() -> tuple[np.ndarray, np.ndarray]:
    """A ten of spades (its pips at a real ten's places: the outer rows close to the
    card's ends) on a dark table, turned and seen a little slanted; the frame and the
    card's outline."""
    from vision import render

    w, h = CARD_SIZE
    card = np.full((h, w, 3), 235, np.uint8)
    pip = cv2.resize(render.suit_mask_shape("S", 64), (30, 34), interpolation=cv2.INTER_AREA)
    places = [(x, y) for x in (0.3, 0.7) for y in (0.15, 0.38, 0.62, 0.85)]
    places += [(0.5, 0.27), (0.5, 0.73)]
    for fx, fy in places:
        x, y = int(fx * w), int(fy * h)
        m = pip if fy < 0.5 else pip[::-1, ::-1]
        card[y - 17 : y + 17, x - 15 : x + 15][m > 127] = 30
    quad = np.array([[330, 140], [520, 180], [470, 470], [270, 420]], np.float32)
    corners = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(corners, quad)
    frame = np.full((600, 800, 3), (40, 70, 30), np.uint8)
    seen = cv2.warpPerspective(card, m, (800, 600))
    inside = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (800, 600)) > 127
    frame[inside] = seen[inside]
    return frame, quad


def test_the_two_steps_show_the_pips_reader_every_pip() -> None:
    """The second step warps only the part of the card the pips lie in: the pips read
    there must be the whole card's, the rows nearest its ends included."""
    from vision.detector import BODY_WINDOWS, _corners_of
    from vision.locate import card_map
    from vision.pips import read_pips
    from vision.warp import warp_windows

    model = CardDetector().reader.model
    frame, quad = ten_of_spades_on_a_table()
    m = card_map(quad, CARD_SIZE)
    part = _corners_of(frame, m)
    warp_windows(frame, m, CARD_SIZE, BODY_WINDOWS, cv2.BORDER_REPLICATE, out=part)
    whole = read_pips(rectify(frame, quad, CARD_SIZE), model)
    got = read_pips(part, model)
    assert whole is not None and whole.count == 10
    assert got is not None and got.count == whole.count
    assert np.array_equal(got.suit_proba, whole.suit_proba)
