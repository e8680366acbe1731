"""A camera out of focus over the table: telling a soft frame, and reading it sharpened
(:mod:`vision.focus`, :data:`vision.focus.SOFT_FROM`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.detector as detector_module
import vision.focus as focus_module
from controller.readers.camera import FOCUS_CHECKS, VIEW_CHECK_EVERY, CameraReader, IterableSource
from controller.readers.sightings import ReaderFault
from vision.detector import LIFTED_BLACK, CardDetector
from vision.focus import HALF_SOFT_FROM, SOFT_FROM, focus_check, sharpened, softness
from vision.levels import lowered
from vision.synth import CardSpec, scene_and_empty
from vision.zones import ZoneMap

#: Four cards lying apart, a little over the documented least size.
APART = ["AH", "4D", "9C", "JS"]


def _table(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Four cards apart on a rendered table, and the same table empty."""
    rng = np.random.default_rng(seed)
    cards = [
        CardSpec(
            code, (320 + (i % 2) * 640, 240 + (i // 2) * 480), 210.0, float(rng.uniform(0, 360))
        )
        for i, code in enumerate(APART)
    ]
    frame, empty, _ = scene_and_empty(cards, seed=seed)
    return frame, empty


def _out_of_focus(frame: np.ndarray, sigma: float = 2.6) -> np.ndarray:
    return cv2.GaussianBlur(frame, (0, 0), sigma)


def _noisy(frame: np.ndarray, sigma: float, seed: int = 9) -> np.ndarray:
    """Sensor noise of ``sigma`` levels, as a camera adds it after its lens."""
    noise = np.random.default_rng(seed).normal(0, sigma, frame.shape)
    return np.clip(frame.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def _counted(frame: np.ndarray) -> set[str]:
    return {d.card for d in CardDetector().detect(frame) if d.card and d.confidence >= 0.5}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_sharp_table_is_not_soft_and_the_same_table_out_of_focus_is(seed: int) -> None:
    frame, _ = _table(seed)
    assert softness(frame) < SOFT_FROM - 0.1
    assert softness(_out_of_focus(frame)) > SOFT_FROM


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_a_pale_table_out_of_focus_is_soft(seed: int) -> None:
    """Red cards on pale wood, in a washed-out frame (a quarter of the levels): out of
    focus, no step between neighbouring pixels is 8 levels, though each edge still climbs
    that over three. Found by a capture walk over a real photo of the seven of diamonds,
    which was taken for sharp."""
    rng = np.random.default_rng(seed)
    cards = [
        CardSpec(code, (320 + (i % 2) * 640, 240 + (i // 2) * 480), 210.0, rng.uniform(0, 360))
        for i, code in enumerate(["7D", "3H", "5D", "AH"])
    ]
    frame, _, _ = scene_and_empty(cards, seed=seed, table_colour=(170, 195, 215))
    washed = (frame.astype(np.float32) * 0.25 + 153).astype(np.uint8)
    blurred = _out_of_focus(washed, 3.2)
    steps = np.abs(np.diff(cv2.cvtColor(blurred, cv2.COLOR_BGR2GRAY).astype(int)))
    assert steps.max() < 8
    assert softness(washed) < SOFT_FROM - 0.1
    assert softness(blurred) >= SOFT_FROM


def test_a_frame_with_no_edge_to_measure_is_not_soft() -> None:
    """A blank frame, a bare table so far out of focus that only its levels' rounding is
    left, and a frame too narrow to hold a step: nothing to sharpen, so not soft."""
    blank = np.full((480, 640, 3), 200, np.uint8)
    ramp = np.tile(np.linspace(100, 110, 640).astype(np.uint8), (480, 1))
    narrow = np.full((480, 2, 3), 200, np.uint8)
    assert softness(blank) == 0.0
    assert softness(cv2.cvtColor(ramp, cv2.COLOR_GRAY2BGR)) == 0.0
    assert softness(narrow) == 0.0


def test_sensor_noise_is_not_taken_for_focus() -> None:
    """A sharp frame with a dim room's noise on it measures sharper still: sharpened, the
    noise would grow into ink."""
    frame, _ = _table(0)
    noisy = np.clip(
        frame.astype(np.float32) + np.random.default_rng(4).normal(0, 12, frame.shape), 0, 255
    ).astype(np.uint8)
    assert softness(noisy) < softness(frame) < SOFT_FROM


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_noisy_frame_out_of_focus_is_found_at_half_size(seed: int) -> None:
    """A dim room's noise on a camera out of focus: whole, the noise's own steps are the
    frame's strongest and it measures sharp; at half size the noise is halved and the
    blur shows. The same noise on a sharp frame is not taken for a blur either way."""
    frame, _ = _table(seed)
    for sigma in (3.0, 6.0):
        soft = _noisy(_out_of_focus(frame, 3.2), sigma)
        check = focus_check(soft)
        assert check.whole < SOFT_FROM  # the whole frame alone would miss it
        assert check.half >= HALF_SOFT_FROM and check.out_of_focus
        sharp = focus_check(_noisy(frame, sigma))
        assert not sharp.out_of_focus
        assert sharp.half < HALF_SOFT_FROM - 0.05


def test_sharpening_gives_a_blurred_edge_back_its_step() -> None:
    edge = np.full((40, 1280), 60, np.uint8)
    edge[:, 640:] = 180
    soft = cv2.GaussianBlur(edge, (0, 0), 3.2)

    def steepest(img: np.ndarray) -> int:
        return int(np.abs(np.diff(img[20].astype(int))).max())

    assert steepest(sharpened(soft)) > 1.5 * steepest(soft)
    flat = np.full((40, 1280, 3), 120, np.uint8)
    assert np.array_equal(sharpened(flat), flat)


def _never_sharpened(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(focus_module, "SOFT_FROM", 2.0)
    monkeypatch.setattr(focus_module, "HALF_SOFT_FROM", 2.0)


def test_a_table_out_of_focus_is_read_sharpened(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four cards a camera out of focus sees: read sharpened, two of them count (the
    others, a jack and a nine of clubs, have their small indices run into blobs); read as
    seen, none."""
    frame, _ = _table(1)
    soft = _out_of_focus(frame)
    assert _counted(soft) == {"AH", "4D"}
    _never_sharpened(monkeypatch)
    assert _counted(soft) == set()


@pytest.mark.parametrize(
    ("seed", "sigma", "sharpened_reads", "as_seen"),
    [
        (2, 3.0, {"AH"}, {"AC"}),  # as seen, the ace of hearts counts as the ace of clubs
        (1, 6.0, {"4D"}, set()),
    ],
)
def test_a_noisy_table_out_of_focus_is_read_sharpened(
    monkeypatch: pytest.MonkeyPatch,
    seed: int,
    sigma: float,
    sharpened_reads: set[str],
    as_seen: set[str],
) -> None:
    """A dim room's camera out of focus measures sharp whole, and is found soft at half
    size: read sharpened (the noise with it), it reads better than as seen."""
    frame, _ = _table(seed)
    soft = _noisy(_out_of_focus(frame, 3.2), sigma)
    assert softness(soft) < SOFT_FROM
    assert _counted(soft) == sharpened_reads
    _never_sharpened(monkeypatch)
    assert _counted(soft) == as_seen


def test_only_a_soft_frame_is_sharpened(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sharp frame is read as it is (sharpened, its grain and JPEG blocks would grow
    into ink); a soft one is sharpened once, and its calibrated empty table with it."""
    made: list[tuple[int, ...]] = []
    sharpen = detector_module.sharpened

    def sharpening(image: np.ndarray) -> np.ndarray:
        made.append(image.shape)
        return sharpen(image)

    monkeypatch.setattr(detector_module, "sharpened", sharpening)
    frame, empty = _table(1)
    detector = CardDetector(empty=_out_of_focus(empty))
    detector.detect(frame)
    assert made == []
    detector.detect(_out_of_focus(frame))
    assert len(made) == 2  # the frame and the empty table
    detector.detect(_out_of_focus(frame, 2.7))
    assert len(made) == 3  # the empty table was kept


def test_the_empty_table_is_made_ready_as_the_frame_was() -> None:
    """Lowered as a lifted frame is, sharpened as a soft one is, both, or neither: the
    empty table is compared with the frame level for level and edge for edge."""
    _, empty = _table(2)
    detector = CardDetector(empty=empty)
    assert detector._empty_seen(None, False) is empty
    soft = detector._empty_seen(None, True)
    assert np.array_equal(soft, sharpened(empty))
    assert detector._empty_seen(None, True) is soft
    both = detector._empty_seen(120.0, True)
    assert np.array_equal(both, sharpened(lowered(empty, 120.0, LIFTED_BLACK)))
    assert np.array_equal(detector._empty_seen(120.0, False), lowered(empty, 120.0, LIFTED_BLACK))
    assert CardDetector()._empty_seen(None, True) is None


def _faults(frames: list[np.ndarray]) -> list[ReaderFault]:
    zones = ZoneMap.rectangles({"seat0": (0, 0, 640, 480)})
    reader = CameraReader(IterableSource(frames), zones, detector=CardDetector())
    return [s for s in reader.sightings() if isinstance(s, ReaderFault)]


def test_the_camera_reader_says_once_that_its_view_is_out_of_focus() -> None:
    """A camera out of focus during play is said once, as a reader fault with what to
    do, after FOCUS_CHECKS checks in a row; one in focus never; a blur that passes (a
    hand near the lens) is not; and a camera brought back into focus and blurred again
    is said again."""
    frame, _ = _table(1)
    soft = _out_of_focus(frame)
    run = VIEW_CHECK_EVERY * FOCUS_CHECKS
    assert _faults([frame] * (2 * run)) == []
    said = _faults([soft] * (2 * run))
    assert len(said) == 1
    assert "out of focus" in said[0].message and "focus the camera on the table" in said[0].message
    assert _faults([soft] * (run - VIEW_CHECK_EVERY) + [frame] * run) == []
    assert len(_faults([soft] * run + [frame] * VIEW_CHECK_EVERY + [soft] * run)) == 2


def test_a_bare_cloth_out_of_focus_decides_nothing() -> None:
    """An empty table between hands neither says a blur nor ends one (the blur then said
    again at every hand): far out of focus it has no edge to measure; with a dim room's
    noise on it, it measures as sharp as the noise."""
    frame, empty = _table(1)
    soft = _out_of_focus(frame)
    bare = _out_of_focus(empty, 4.5)
    assert softness(bare) == 0.0
    noisy_bare = _noisy(_out_of_focus(empty, 3.2), 3.0)
    assert not focus_check(noisy_bare).out_of_focus
    run = VIEW_CHECK_EVERY * FOCUS_CHECKS
    assert len(_faults([soft] * run + [bare] * run + [soft] * run)) == 1
    assert len(_faults([soft] * run + [noisy_bare] * run + [soft] * run)) == 1


def test_the_camera_reader_says_a_noisy_view_out_of_focus() -> None:
    """A dim room's camera out of focus: said once, though every frame measures sharp
    whole."""
    frame, _ = _table(2)
    soft = _noisy(_out_of_focus(frame, 3.2), 6.0)
    assert softness(soft) < SOFT_FROM
    run = VIEW_CHECK_EVERY * FOCUS_CHECKS
    said = _faults([soft] * (2 * run))
    assert len(said) == 1 and "out of focus" in said[0].message
    assert _faults([_noisy(frame, 6.0)] * (2 * run)) == []
