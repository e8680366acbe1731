"""A close-up: a card nearer the camera than the frame is wide, one corner in view and
its sides running off the frame, found by that corner at the size its index reads at."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import CardDetector
from vision.detector import CARD_SIZE, Detection, _far_corner_off
from vision.index import corner_windows
from vision.locate import card_map
from vision.overlap import ASPECT, close_up_hypotheses, corner_hypotheses
from vision.reader import CardReader
from vision.synth import camera, card_face, place

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_vision_find import gold_on_black  # noqa: E402


def card_mask(corner: tuple[float, float], short: float, angle: float) -> np.ndarray:
    """A 640×480 mask of one card (``short`` its short side) whose top-left corner lies
    at ``corner``, turned ``angle`` degrees; the frame cuts what does not fit."""
    t = np.deg2rad(angle)
    right = np.array([np.cos(t), np.sin(t)])
    down = np.array([-np.sin(t), np.cos(t)])
    p = np.array(corner)
    quad = np.array(
        [p, p + right * short, p + right * short + down * short * ASPECT, p + down * short * ASPECT]
    )
    mask = np.zeros((480, 640), np.uint8)
    cv2.fillPoly(mask, [np.round(quad).astype(np.int32)], 1)
    return mask


def short_side(q: np.ndarray) -> float:
    return float(min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0])))


@pytest.mark.parametrize(("short", "angle"), [(500.0, 8.0), (700.0, -12.0), (560.0, 20.0)])
def test_a_close_up_corner_is_tried_at_sizes_one_of_which_is_the_card_s(
    short: float, angle: float
) -> None:
    hypotheses = close_up_hypotheses(card_mask((160.0, 120.0), short, angle), 1.0)
    assert hypotheses
    for q in hypotheses:
        assert np.linalg.norm(q[0] - [160, 120]) < 12  # all laid on the corner in view
    # the sizes tried step by at most a third: one lies within a sixth of the card's
    assert min(abs(np.log(short_side(q) / short)) for q in hypotheses) < np.log(1.17)
    # at half the frame's scale, the same outlines in frame pixels
    small = cv2.resize(card_mask((160.0, 120.0), short, angle), (320, 240))
    halved = close_up_hypotheses(small, 0.5)
    assert min(abs(np.log(short_side(q) / short)) for q in halved) < np.log(1.2)


def test_a_card_whose_sides_stop_in_the_frame_is_no_close_up() -> None:
    # lying whole in view: its sides end at its other corners
    assert close_up_hypotheses(card_mask((200.0, 60.0), 200.0, 5.0), 1.0) == []
    # running off the frame one way only (its long sides cut, its short ones not)
    assert close_up_hypotheses(card_mask((200.0, 60.0), 250.0, 0.0), 1.0) == []


def test_a_close_up_whose_sides_are_short_is_none() -> None:
    # a corner near the frame's far side: each side seen for a sixth of the frame only
    assert close_up_hypotheses(card_mask((540.0, 380.0), 600.0, 10.0), 1.0) == []


def close_up_in_a_view(short: float) -> tuple[np.ndarray, np.ndarray]:
    """A 1200×1200 mask of a table view with a plane, of which a slanted camera's frame
    shows a trapezoid (its outline returned), and in it a close-up card (``short`` its
    short side) whose top-left corner is in view and whose sides run off the
    trapezoid's slanted right edge and its bottom: off the frame, though not off the
    view."""
    shown = np.zeros((1200, 1200), np.uint8)
    trapezoid = np.array([[300, 200], [900, 200], [1000, 900], [200, 900]], np.int32)
    cv2.fillPoly(shown, [trapezoid], 255)
    t = np.deg2rad(8.0)
    right, down = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    p = np.array([400.0, 300.0])
    quad = np.array(
        [p, p + right * short, p + (right + down * ASPECT) * short, p + down * short * ASPECT]
    )
    card = np.zeros_like(shown)
    cv2.fillPoly(card, [np.round(quad).astype(np.int32)], 1)
    return card & (shown > 0), trapezoid.astype(np.float32)


def test_in_a_table_view_the_frame_s_edge_is_where_the_frame_shows_it() -> None:
    """With a table plane, the masks are of the view, where the frame's edge runs
    slanted across it: a card cut there runs off the frame, and that is where its sides
    end, not at the view's edge."""
    blob, shown = close_up_in_a_view(560.0)
    # the view's own edge alone: its sides stop in view, so it is no close-up, and its
    # outline (the card cut by the frame) passes for a plain card's
    assert close_up_hypotheses(blob, 1.0) == []
    assert corner_hypotheses(blob, 1.0, 560.0) == []
    # the frame's edge where the frame shows it: a close-up, laid on its corner in view
    hypotheses = close_up_hypotheses(blob, 1.0, shown)
    assert hypotheses
    for q in hypotheses:
        assert np.linalg.norm(q[0] - [400, 300]) < 12
    assert min(abs(np.log(short_side(q) / 560.0)) for q in hypotheses) < np.log(1.17)
    # and as a card on a pile, its one corner of a card's (none where the frame cuts it)
    piled = corner_hypotheses(blob, 1.0, 560.0, shown)
    assert piled and all(np.linalg.norm(q[0] - [400, 300]) < 12 for q in piled)


def near(
    card: str, angle: float, seed: int, dark: bool = False, table: tuple = (90, 110, 130)
) -> np.ndarray:
    """A camera held over ``card``: the card half again as tall as the frame, its top-left
    corner and index in view, the rest running off the frame's right and bottom.
    ``dark``: a black-and-gold deck's card."""
    rng = np.random.default_rng(seed)
    img = np.full((960, 1280, 3), table, np.uint8)
    place(img, gold_on_black(card) if dark else card_face(card), (980, 900), 1536, angle, rng)
    return camera(img, rng, glare=False)


@pytest.mark.parametrize(("card", "angle"), [("KS", 10.0), ("AS", 6.0)])
def test_a_close_up_is_read_by_its_corner_before_any_index_alone(
    monkeypatch: pytest.MonkeyPatch, card: str, angle: float
) -> None:
    """A close-up of a court card shows its picture's ornaments as big as an index, and
    they read as one now and then (a king's robe as a jack of diamonds): the corner with
    its two sides is read first, and the index search alone is not run."""
    frame = near(card, angle, seed=1)
    other = "JD" if card != "JD" else "QH"
    # read in the frame's middle, as a card the frame does not cut
    box = [[500, 300], [700, 300], [700, 600], [500, 600]]
    wrong = Detection(np.array(box, np.float32), other, 0.69)

    def pairs(self: CardDetector, frame: np.ndarray, found: list[Detection], *a, **k) -> list:  # noqa: ANN002, ANN003
        # an index read alone wherever no card was read yet (beside one, none)
        return [] if any(d.card for d in found) else [wrong]

    monkeypatch.setattr(CardDetector, "_from_index_pairs", pairs)
    detector = CardDetector()
    dets = [d for d in detector.detect(frame) if d.card]
    assert [d.card for d in dets] == [card]
    assert 0.5 <= dets[0].confidence < 0.9  # one corner, nothing else to check it
    # its outline a guess but for that corner (its size is the first the index read at)
    assert detector.found_by_index(dets[0])
    # without the close-up search, the index read alone is all there is
    monkeypatch.setattr("vision.detector.close_up_hypotheses", lambda *a: [])
    assert [d.card for d in CardDetector().detect(frame) if d.card] == [other]


@pytest.mark.parametrize(("card", "seed"), [("5D", 1), ("5D", 3), ("9D", 3)])
def test_a_close_up_outlined_as_the_part_in_view_is_read_by_its_corner(
    monkeypatch: pytest.MonkeyPatch, card: str, seed: int
) -> None:
    """Turned the other way, the part of the card in view is fitted as a card's outline
    (its corners where the frame cuts it) and read at that size, wrongly (as another
    rank, or beside another card): an outline the frame cuts does not keep the close-up
    from being searched for, and the close-up's read replaces it. (A KS and a 3S were
    read so as clubs until the black-suit head learned real soft suits; they now read
    right either way, so they no longer show it.)"""
    frame = near(card, -12.0, seed=seed)
    # read as seen: the close-up, enlarged, is soft enough to be sharpened, and sharpened
    # it reads right without the close-up search as well
    monkeypatch.setattr("vision.focus.SOFT_FROM", 2.0)
    monkeypatch.setattr("vision.focus.HALF_SOFT_FROM", 2.0)
    dets = [d for d in CardDetector().detect(frame) if d.card]
    assert [d.card for d in dets] == [card]
    monkeypatch.setattr("vision.detector.close_up_hypotheses", lambda *a: [])
    assert [d.card for d in CardDetector().detect(frame) if d.card] not in ([card], [])


@pytest.mark.parametrize(("card", "angle"), [("QH", 8.0), ("KD", 5.0)])
def test_a_dark_deck_s_close_up_is_read_by_its_corner_in_the_negative(
    monkeypatch: pytest.MonkeyPatch, card: str, angle: float
) -> None:
    """A black-and-gold card held close over a white desk, its index not searched for
    alone: its corner is the negative's, and its stock is judged on the corner in view
    alone (the other lies off the frame, where the warp repeats the gold picture's
    edge: judged on both corners, the stock passes for light and the gold index reads
    as nothing)."""
    frame = near(card, angle, seed=2, dark=True, table=(226, 230, 232))
    monkeypatch.setattr(CardDetector, "_from_index_pairs", lambda self, *a, **k: [])
    detector = CardDetector()
    dets = [d for d in detector.detect(frame) if d.card]
    assert [d.card for d in dets] == [card]
    assert detector.found_by_index(dets[0]) and dets[0].confidence < 0.9
    # without the close-up search it is not read at all
    monkeypatch.setattr("vision.detector.close_up_hypotheses", lambda *a: [])
    assert [d.card for d in CardDetector().detect(frame) if d.card] == []


@pytest.mark.parametrize("card", ["QH", "7S", "KD"])
def test_a_close_up_s_stock_is_judged_on_the_corner_in_view(card: str) -> None:
    """A dark card's close-up warped whole: its bottom-right corner lies off the frame,
    where the warp repeats what the frame's edge shows (a gold picture). Judged on both
    corners the stock passes for light and the gold index reads as nothing; on the
    corner in view, the card is read."""
    face = cv2.resize(gold_on_black(card), (200, 300), interpolation=cv2.INTER_AREA)
    _, (x0, y0, x1, y1) = corner_windows((200, 300))
    face[y0:y1, x0:x1] = (60, 170, 215)  # gold
    read = CardReader()
    assert read.read_corner(face).card is None
    assert read.read_corner(face, first_only=True).card == card


@pytest.mark.parametrize(
    ("card", "angle", "seed"), [("KC", 8.0, 2), ("QS", -6.0, 1), ("5C", 0.0, 1)]
)
def test_an_index_read_alone_whose_card_runs_off_the_frame_is_judged_on_the_corner_in_view(
    monkeypatch: pytest.MonkeyPatch, card: str, angle: float, seed: int
) -> None:
    """A close-up read by its index alone (its corner not searched for): the card that
    index puts there has its other index corner off the frame, where the warp repeats
    the frame's edge, here a dark picture running off it. Judged on both corners the
    light stock passes for dark and the index reads as nothing; judged on the corner in
    view (:func:`vision.detector._far_corner_off`), the card is read."""
    frame = near(card, angle, seed=seed).copy()
    frame[500:, 700:] = (70, 30, 20)  # a court card's dark robe, or a dark cloth
    monkeypatch.setattr("vision.detector.close_up_hypotheses", lambda *a: [])
    detector = CardDetector()
    dets = [d for d in detector.detect(frame) if d.card]
    assert [d.card for d in dets] == [card]
    assert detector.found_by_index(dets[0]) and dets[0].confidence < 0.9
    # judged on both corners it is not read (unless a corner read says light on its own,
    # thirty-sixth round, which reads it too)
    monkeypatch.setattr("vision.detector._far_corner_off", lambda m, shape: False)
    monkeypatch.setattr("vision.reader._dark_only_afar", lambda card, first_only: False)
    from vision.capture import COUNTED  # (its negative, a rank and suit cut apart, reads at 0.12)

    assert [d.card for d in CardDetector().detect(frame) if d.card and d.confidence >= COUNTED] == []


def test_a_card_hypothesis_s_far_corner_is_off_the_frame_only_where_it_is() -> None:
    inside = np.array([[500, 300], [700, 300], [700, 600], [500, 600]], np.float32)
    m = card_map(inside, CARD_SIZE)
    assert not _far_corner_off(m, (960, 1280, 3))
    assert _far_corner_off(card_map(inside + (0, 400), CARD_SIZE), (960, 1280, 3))
    assert _far_corner_off(card_map(inside + (640, 0), CARD_SIZE), (960, 1280, 3))
    # turned half round, its far corner is the top-left one
    assert _far_corner_off(card_map(inside[[2, 3, 0, 1]] - (0, 340), CARD_SIZE), (960, 1280, 3))
    assert not _far_corner_off(card_map(inside[[2, 3, 0, 1]] + (0, 290), CARD_SIZE), (960, 1280, 3))
