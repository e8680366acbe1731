"""A camera moved since calibration is told from a still one, and the camera reader says
so once, as a reader fault, rather than placing cards on the wrong spots."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.readers.camera import VIEW_CHECK_EVERY, CameraReader, IterableSource
from controller.readers.sightings import ReaderFault
from vision import CardDetector
from vision.moved import AGREE_PX, MOVED_PX, ViewCheck
from vision.synth import CardSpec, a_moment_later, scene_and_empty
from vision.zones import ZoneMap

SPOTS = ((640, 760), (250, 480), (640, 200), (1030, 480))
#: How far the camera was knocked (frame pixels, across and down).
KNOCK = (24.0, -16.0)


def table_and_capture(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A frame of four cards on a grained cloth, and the empty table captured a moment
    before (its own noise)."""
    specs = [
        CardSpec(card, spot, 280.0, 40.0 * k)
        for k, (card, spot) in enumerate(zip(("AS", "7H", "QD", "TC"), SPOTS, strict=True))
    ]
    frame, empty, _ = scene_and_empty(specs, seed=seed)
    return frame, a_moment_later(empty, np.random.default_rng(seed))


def knocked(frame: np.ndarray) -> np.ndarray:
    m = np.float32([[1, 0, KNOCK[0]], [0, 1, KNOCK[1]]])
    return cv2.warpAffine(frame, m, (frame.shape[1], frame.shape[0]), borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("seed", [400, 404])
def test_a_knocked_camera_is_measured_where_a_still_one_is_not(seed: int) -> None:
    frame, capture = table_and_capture(seed)
    view = ViewCheck(capture)
    still = view.shift(frame)
    assert still is not None and still.px < MOVED_PX
    moved = view.shift(knocked(frame))
    assert moved is not None
    assert np.hypot(moved.dx - KNOCK[0], moved.dy - KNOCK[1]) <= AGREE_PX


def test_a_move_is_believed_when_two_checks_in_a_row_agree() -> None:
    """One measurement can be pulled by a hand or a shadow; two in a row agreeing are a
    moved camera. A still frame between them starts the count again."""
    frame, capture = table_and_capture(400)
    view = ViewCheck(capture)
    assert view.moved(frame) is None
    assert view.moved(knocked(frame)) is None  # the first says so: not yet believed
    assert view.moved(knocked(frame)) is not None
    view = ViewCheck(capture)
    assert [view.moved(f) for f in (knocked(frame), frame, knocked(frame))] == [None] * 3


def test_a_plain_table_decides_nothing() -> None:
    """A plain colour with a camera's noise lines up anywhere as well as anywhere else:
    its peak is noise, so no check is made (a frame of it measured a 'move' of 53 px)."""
    plain = np.full((960, 1280, 3), (60, 110, 40), np.uint8)
    rng = np.random.default_rng(0)
    view = ViewCheck(a_moment_later(plain, rng))
    assert not view.measurable
    frames = [a_moment_later(plain, rng) for _ in range(3)]
    assert [view.shift(f) for f in frames] == [None] * 3


def test_the_camera_reader_reports_a_moved_camera_once(tmp_path: Path) -> None:
    """The camera reader compares a frame with the capture every VIEW_CHECK_EVERY frames
    polled: a camera knocked after calibration is reported once, as a reader fault that
    says to calibrate again; a still one never."""
    frame, capture = table_and_capture(400)
    cv2.imwrite(str(tmp_path / "empty.png"), capture)
    zones = replace(
        ZoneMap.rectangles({"seat0": (0, 0, 640, 480)}), empty_path=tmp_path / "empty.png"
    )

    def faults(frames: list[np.ndarray]) -> list[ReaderFault]:
        reader = CameraReader(IterableSource(frames), zones, detector=CardDetector())
        return [s for s in reader.sightings() if isinstance(s, ReaderFault)]

    assert faults([frame] * (3 * VIEW_CHECK_EVERY)) == []
    moved = faults([knocked(frame)] * (4 * VIEW_CHECK_EVERY))
    assert len(moved) == 1
    assert "moved" in moved[0].message and "calibrate again" in moved[0].message
