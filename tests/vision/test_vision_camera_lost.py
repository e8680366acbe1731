"""A camera that gives no frames: not there at start, or unplugged in the middle of a
game. It is one fault on the table's screens, the camera is looked for again, and play
read after it comes back is reported as before; a recording that ends is just its end.

No camera is attached here: ``OpenCVSource`` is tried on a device index that does not
exist (OpenCV's own failure), and the cable pulled mid-game is a source that fails as
``OpenCVSource`` fails (it raises ``OSError`` and opens the camera again on the next
read)."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.readers.camera import CameraReader, OpenCVSource
from controller.readers.sightings import CardSeen, ReaderFault
from vision import CardDetector
from vision.synth import CardSpec, scene
from vision.tracker import TrackerConfig
from vision.zones import ZoneMap

#: No /dev/video97 on a test machine (nor on a table's Pi).
NO_CAMERA = 97
SPOTS = {"seat0": (160, 80, 320, 400), "seat1": (800, 80, 320, 400)}


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def frames(card: str | None, zone: str, n: int, seed: int) -> list[np.ndarray]:
    x, y, w, h = SPOTS[zone]
    specs = [CardSpec(card, (x + w / 2, y + h / 2), 300, 10)] if card else []
    return [scene(specs, seed=seed * 100 + k)[0] for k in range(n)]


class PulledCable:
    """Frames, then ``gone`` reads that fail as a camera whose cable is out fails, then
    frames again (the cable back in), then the end."""

    def __init__(self, before: list[np.ndarray], gone: int, after: list[np.ndarray]) -> None:
        self.before, self.gone, self.after = list(before), gone, list(after)
        self.failed = 0

    def read(self) -> np.ndarray | None:
        if self.before:
            return self.before.pop(0)
        if self.failed < self.gone:
            self.failed += 1
            raise OSError(f"camera 0 gave no frame (unplugged or failed) #{self.failed}")
        return self.after.pop(0) if self.after else None

    def close(self) -> None:
        pass


def test_a_camera_that_is_not_there_is_looked_for_on_each_read() -> None:
    source = OpenCVSource(NO_CAMERA)  # no longer fatal at start: the referee runs on
    assert source.live
    for _ in range(2):  # each read looks again, and says what is wrong
        with pytest.raises(OSError, match=f"cannot open camera {NO_CAMERA}"):
            source.read()
    source.close()
    by_path = OpenCVSource(f"/dev/video{NO_CAMERA}")  # a camera named by its device too
    assert by_path.live
    with pytest.raises(OSError, match=f"cannot open camera /dev/video{NO_CAMERA}"):
        by_path.read()


def test_a_video_file_that_is_not_there_is_refused_at_once(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="cannot open video .*none.avi': no such file or folder"):
        OpenCVSource(str(tmp_path / "none.avi"), size=None)


def test_a_camera_that_is_not_there_is_said_once_without_opencvs_own_warnings(capfd) -> None:
    """OpenCV's own warnings about a camera it cannot open (its source file and line) are
    noise beside the referee's one sentence."""
    source = OpenCVSource(NO_CAMERA)
    with pytest.raises(OSError, match=f"cannot open camera {NO_CAMERA}"):
        source.read()
    source.close()
    assert "WARN" not in capfd.readouterr().err


def test_a_recording_that_ends_is_its_end_not_a_fault(tmp_path: Path) -> None:
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    for k in range(3):
        writer.write(np.full((240, 320, 3), 40 * k, np.uint8))
    writer.release()
    source = OpenCVSource(str(path), size=None)
    assert not source.live
    assert [source.read() is not None for _ in range(3)] == [True] * 3
    assert source.read() is None  # the end, not an OSError
    source.close()


def test_a_camera_unplugged_mid_game_is_one_fault_and_play_goes_on_when_it_is_back(
    detector: CardDetector,
) -> None:
    cable = PulledCable(frames("QH", "seat0", 3, 1), 5, frames("QH", "seat0", 1, 2)
                        + frames("7S", "seat1", 3, 3))
    reader = CameraReader(cable, ZoneMap.rectangles(SPOTS), detector=detector,
                          tracker=TrackerConfig(frames_to_play=3, frames_to_clear=3),
                          clock=lambda: 7.0, frame_interval=0.0)
    reader.reopen_delay = 0.25
    got: list = []
    for _ in range(3):
        got += reader.poll()
    assert got == [CardSeen(zone="seat0", card="QH", at=7.0, source="camera")]
    assert reader.lost is None and reader._pause() == 0.0
    got = reader.poll()  # the cable pulled
    assert got == [ReaderFault(
        source="camera",
        message="camera: camera 0 gave no frame (unplugged or failed) #1; trying again every 0.25 s",
        at=7.0,
    )]
    assert reader.lost is not None
    assert reader._pause() == 0.25  # looked for again at the reopen pace, not flat out
    for _ in range(4):  # still out: said once, not once a round
        assert reader.poll() == []
    assert cable.failed == 5
    rest = [s for s in reader.sightings() if not isinstance(s, ReaderFault)]
    assert reader.lost is None and reader._pause() == 0.0
    # QH still lies where it lay (no second play); 7S, put down after, is read
    assert rest == [CardSeen(zone="seat1", card="7S", at=7.0, source="camera")]
    assert reader.finished


def test_a_capture_walk_says_a_camera_is_not_there(tmp_path: Path) -> None:
    from controller.commands.camera import run

    ns = argparse.Namespace(deck="club", state_dir=str(tmp_path / "state"),
                            camera=str(NO_CAMERA), frames=2, cards="AS", scenes=False,
                            size=(1280, 960))
    out = io.StringIO()
    assert run(ns, out=out, ask=lambda _: "") == 1
    assert f"camera capture: cannot open camera {NO_CAMERA}" in out.getvalue()
    assert "Traceback" not in out.getvalue()


def test_a_capture_walk_stopped_by_a_pulled_cable_keeps_what_it_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import controller.readers.camera as camera_module
    from controller.commands.camera import run

    one = [scene([CardSpec("AS", (640, 480), 320, 12)], seed=k, glare=False)[0] for k in range(2)]
    cable = PulledCable(one, 1, [])
    monkeypatch.setattr(camera_module, "open_source", lambda spec, size: cable)
    ns = argparse.Namespace(deck="club", state_dir=str(tmp_path / "state"),
                            camera="0", frames=2, cards="AS,KH", scenes=False,
                            size=(1280, 960))
    out = io.StringIO()
    assert run(ns, out=out, ask=lambda _: "") == 1
    said = out.getvalue()
    assert "camera capture: camera 0 gave no frame (unplugged or failed)" in said
    assert "captured 1 card in" in said and "not reached: KH" in said
    saved = sorted(p.name for p in (tmp_path / "state").rglob("*.jpg"))
    assert saved == ["AS_00.jpg", "AS_01.jpg"]


def test_a_camera_that_stays_away_is_said_again_each_minute(detector: CardDetector) -> None:
    """The table's screens show a fault for a while and drop it: a camera still away is
    said again each minute, with how long it has been away."""
    now = [100.0]
    cable = PulledCable([], 10**6, [])
    reader = CameraReader(cable, ZoneMap.rectangles(SPOTS), detector=detector, clock=lambda: now[0])
    said = []
    for _ in range(200):  # a poll each second for 200 seconds
        said += [f.message for f in reader.poll()]
        now[0] += 1.0
    assert len(said) == 4  # at 0 s, then at 60, 120 and 180 s
    assert "gave no frame" in said[0] and "trying again every 1 s" in said[0]
    assert [m.split(", for ")[1].split(" min")[0] for m in said[1:]] == ["1", "2", "3"]
    assert all(m.startswith("camera: still no frame, for ") for m in said[1:])


def test_a_pi_camera_that_fails_is_a_fault_not_a_dead_reader(
    detector: CardDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Picamera2 is not on this machine: a stand-in module with its calls, whose capture
    fails as libcamera's do (its own error kinds, not OSError). Before, that error ended
    the camera's thread; now it is the reader's fault, and the next frame is read on."""
    import sys
    import types

    from controller.readers.camera import Picamera2Source

    frames_left = [frames("QH", "seat0", 1, 5)[0], RuntimeError("Camera frontend has timed out!"),
                   frames("QH", "seat0", 1, 6)[0]]

    class Picamera2:
        def create_video_configuration(self, main: dict) -> dict:
            return main

        def configure(self, config: dict) -> None:
            pass

        def start(self) -> None:
            pass

        def capture_array(self) -> np.ndarray:
            got = frames_left.pop(0)
            if isinstance(got, Exception):
                raise got
            return got

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=Picamera2))
    reader = CameraReader(Picamera2Source(), ZoneMap.rectangles(SPOTS), detector=detector, clock=lambda: 1.0)
    assert reader.poll() == []  # a frame, read
    (fault,) = reader.poll()
    assert isinstance(fault, ReaderFault)
    assert fault.message.startswith("camera: Pi camera gave no frame (Camera frontend has timed out!)")
    assert reader.poll() == [] and reader.lost is None  # frames again


def test_a_frame_the_reader_cannot_get_through_is_a_fault_and_reading_goes_on(
    detector: CardDetector,
) -> None:
    """A fault in the reader itself (here a detector that breaks on one frame in three):
    before, the exception ended the camera's thread, and the table went on with no camera.
    Now it is said (once a minute at most), and the frames after it are read."""

    class Breaking:
        def __init__(self, inner: CardDetector) -> None:
            self.inner, self.calls = inner, 0
            self.empty = self.plane = None

        def detect(self, frame: np.ndarray, known=None):  # noqa: ANN001, ANN201
            self.calls += 1
            if self.calls % 3 == 2:
                raise ValueError("a broken frame")
            return self.inner.detect(frame, known=known)

    video = frames(None, "seat0", 1, 7) + frames("QH", "seat0", 6, 8)
    reader = CameraReader(PulledCable(video, 0, []), ZoneMap.rectangles(SPOTS), detector=Breaking(detector),
                          tracker=TrackerConfig(frames_to_play=2), clock=lambda: 3.0)
    got = list(reader.sightings())
    faults = [s for s in got if isinstance(s, ReaderFault)]
    assert len(faults) == 1  # said once, not for every broken frame
    assert faults[0].message == "camera: a frame could not be read (ValueError: a broken frame); reading on"
    assert [s.card for s in got if isinstance(s, CardSeen)] == ["QH"]
    assert reader.finished
