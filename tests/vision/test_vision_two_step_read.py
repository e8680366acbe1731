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
