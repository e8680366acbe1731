"""Still frames: a frame that shows what the last read one showed is not read again, and
anything a referee must see (a card down, a card up, one card swapped for another, the
light changing) is read."""

from __future__ import annotations

import cv2
import numpy as np

from controller.readers.camera import CameraReader
from vision.detector import CardDetector
from vision.still import StillFrames
from vision.synth import CardSpec, scene, scene_and_empty
from vision.tracker import TrackerConfig
from vision.zones import ZoneMap

SPOTS = {"south": (640, 760), "west": (250, 480), "north": (640, 200), "east": (1030, 480)}


def table_of(cards: dict[str, str], seed: int = 3, height: float = 150.0) -> np.ndarray:
    specs = [CardSpec(card, SPOTS[zone], height, 20.0 * i) for i, (zone, card) in enumerate(cards.items())]
    frame, _ = scene(specs, seed=seed)
    return frame


def again(frame: np.ndarray, seed: int, sigma: float = 4.0) -> np.ndarray:
    """The same table a frame later: fresh sensor noise and fresh JPEG loss."""
    rng = np.random.default_rng(seed)
    noisy = np.clip(frame.astype(np.float32) + rng.normal(0, sigma, frame.shape), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 75])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def test_noise_alone_is_still_and_the_first_frame_is_always_read():
    still = StillFrames()
    frame = table_of({"south": "9H", "west": "KS"})
    assert not still.unchanged(frame)
    assert [still.unchanged(again(frame, s)) for s in range(5)] == [True] * 5


def test_a_card_put_down_is_new():
    frame, empty, _ = scene_and_empty([CardSpec("4C", SPOTS["east"], 130.0, 35.0)], seed=9)
    still = StillFrames()
    assert not still.unchanged(empty)
    assert still.unchanged(again(empty, 1))
    assert not still.unchanged(frame), "a card put down was not seen"
    assert still.unchanged(again(frame, 2))
    assert not still.unchanged(empty), "a card taken up was not seen"


def test_a_card_swapped_in_its_spot_is_new():
    """Same table, same camera, same place and angle: only the card differs."""
    for before, after in (("9H", "6H"), ("6H", "6S"), ("KD", "QD"), ("TC", "9C")):
        still = StillFrames()
        assert not still.unchanged(table_of({"south": before}, seed=5))
        assert not still.unchanged(table_of({"south": after}, seed=5)), f"{before} -> {after} went unseen"


def test_light_that_changes_is_new_and_a_slow_drift_adds_up():
    frame = table_of({"north": "AS"})
    still = StillFrames()
    assert not still.unchanged(frame)
    darker = (frame.astype(np.float32) * 0.7).astype(np.uint8)
    assert not still.unchanged(darker)
    still = StillFrames()
    still.unchanged(frame)
    steps = [still.unchanged((frame.astype(np.float32) * (1 - 0.02 * k)).astype(np.uint8)) for k in range(1, 25)]
    assert False in steps, "a drift of half the light never counted as new"
    assert steps[0], "a 2 % flicker counted as new"


def test_a_read_is_forced_every_most_frames():
    still = StillFrames(most=4)
    frame = table_of({"west": "2D"})
    got = [still.unchanged(frame) for _ in range(11)]
    assert got == [False, True, True, True, True, False, True, True, True, True, False]


class CountingDetector(CardDetector):
    """The real detector, counting its reads."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def detect(self, frame_bgr, known=None):  # type: ignore[no-untyped-def]
        self.reads += 1
        return super().detect(frame_bgr, known)


class Frames:
    def __init__(self, frames: list[np.ndarray]) -> None:
        self.frames = list(frames)

    def read(self) -> np.ndarray | None:
        return self.frames.pop(0) if self.frames else None

    def close(self) -> None:
        pass


def test_the_camera_reader_reads_a_still_table_once_and_still_reports_the_play():
    _, empty, _ = scene_and_empty([], seed=4)
    with_card, _, _ = scene_and_empty([CardSpec("7S", SPOTS["south"], 280.0, 10.0)], seed=4)
    frames = [again(empty, k) for k in range(3)] + [again(with_card, 10 + k) for k in range(8)]
    zones = ZoneMap.rectangles({"seat0": (440, 560, 400, 400)})
    detector = CountingDetector()
    reader = CameraReader(Frames(frames), zones, detector=detector,
                          tracker=TrackerConfig(frames_to_play=3, frames_to_clear=3))
    seen = []
    while not reader.finished:
        seen += reader.poll()
    assert [(s.zone, s.card) for s in seen] == [("seat0", "7S")]
    assert detector.reads == 2, f"{detector.reads} reads of 11 frames showing two tables"
    assert reader.frames_read == 2


def test_the_thumbnail_is_each_areas_mean_to_a_grey_level():
    """Halved step by step (faster), it is still the area mean, rounded on the way."""
    from vision.still import thumbnail

    for size in ((1280, 960), (1920, 1080), (700, 500)):
        frame = cv2.resize(table_of({"south": "9H", "west": "KS"}), size)
        whole = cv2.cvtColor(cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
        got = thumbnail(frame)
        assert got.shape == (240, 320)
        assert np.abs(got.astype(int) - whole.astype(int)).max() <= 1
