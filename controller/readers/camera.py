"""Overhead camera as a card reader: frames in, :class:`CardSeen` out.

Frame sources (USB camera through OpenCV, Picamera2 on a Pi, a video file, a folder of
images, or any iterable of frames) all feed the same path: ``vision.CardDetector``
finds and reads the cards, the zone map puts each in a play spot, and
``vision.tracker.ZoneTracker`` turns per-frame readings into plays. So the simulator and
the tests drive the camera reader exactly like the RFID readers: same sightings, and the
same rounds, thread and stop (``controller.readers.polling``).

Face-down cards show no index and are never reported: for the hidden-trump presets, put
one RFID reader under the trump spot and leave ``trump`` out of the camera's zones (see
docs/camera.md).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Protocol

import numpy as np

from controller.readers.polling import PollingReader
from controller.readers.sightings import ALL_ZONES, CardSeen, ReaderFault
from vision.detector import CardDetector, Detection
from vision.focus import focus_check
from vision.known import KnownReads
from vision.moved import ViewCheck
from vision.still import StillFrames
from vision.tracker import Reading, TrackerConfig, ZoneEvent, ZoneTracker
from vision.zones import ZoneMap

Sighting = CardSeen | ReaderFault
log = logging.getLogger(__name__)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
#: Every this many frames polled (about once a second at 30 frames a second), the frame
#: is compared with the empty table captured at calibration: a camera knocked since
#: then puts cards on the wrong spots (:mod:`vision.moved`).
VIEW_CHECK_EVERY = 30
#: Checks in a row (one each VIEW_CHECK_EVERY frames) that find the view out of focus
#: before it is said: a hand passing close to the lens, or a card flicked across, blurs
#: a frame or two; a lens out of focus blurs them all.
FOCUS_CHECKS = 3
#: Seconds between the faults said while the camera stays away: once when it goes, then
#: again each minute (the table's screens show a fault for a while, then drop it).
LOST_REMINDER = 60.0


class FrameSource(Protocol):
    """Anything that hands out BGR frames; ``read`` returns None when there are no more."""

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


class OpenCVSource:
    """A USB camera (device index) or a video file/URL, through ``cv2.VideoCapture``.

    A video file that runs out is the end of a recording (``read`` returns None). A
    camera (a device index) that gives no frame has been unplugged or has failed:
    ``read`` raises ``OSError`` saying so, and the next ``read`` opens it again, so a
    camera plugged back in is read on; one that is not there at start is looked for
    the same way rather than stopping the referee with it.
    """

    def __init__(self, device: int | str = 0, size: tuple[int, int] | None = (1280, 960)) -> None:
        self.device = device
        self.size = size
        self.live = isinstance(device, int) or str(device).startswith("/dev/video")
        self._cap = None
        try:
            self._open()
        except OSError:
            if not self.live:
                raise

    def _open(self):  # noqa: ANN202 - a cv2.VideoCapture
        import cv2

        where = str(self.device)
        if not self.live and "://" not in where and not Path(where).exists():
            raise OSError(f"cannot open video {where!r}: no such file or folder")
        quiet = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)  # our message says it
        try:
            cap = cv2.VideoCapture(self.device)
        finally:
            cv2.utils.logging.setLogLevel(quiet)
        if self.size is not None and self.live:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        if not cap.isOpened():
            cap.release()
            what = f"camera {self.device}" if self.live else f"video {self.device!r}"
            raise OSError(f"cannot open {what}")
        self._cap = cap
        return cap

    def read(self) -> np.ndarray | None:
        cap = self._cap if self._cap is not None else self._open()
        ok, frame = cap.read()
        if ok:
            return frame
        if self.live:
            cap.release()
            self._cap = None
            raise OSError(f"camera {self.device} gave no frame (unplugged or failed)")
        return None

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class Picamera2Source:
    """The Pi camera through Picamera2 (imported only when used; absent off the Pi)."""

    def __init__(self, size: tuple[int, int] = (1280, 960)) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:  # pragma: no cover - depends on the Pi's packages
            raise OSError("Picamera2 is not installed (apt install python3-picamera2)") from exc
        self._cam = Picamera2()
        self._cam.configure(
            self._cam.create_video_configuration(main={"size": size, "format": "RGB888"})
        )
        self._cam.start()

    def read(self) -> np.ndarray | None:
        # Picamera2's "RGB888" is laid out B, G, R in memory: already OpenCV's order.
        try:
            return self._cam.capture_array()
        except Exception as exc:  # noqa: BLE001 - libcamera's errors are its own kinds
            # a camera that fails is a reader fault, as a USB camera's is (not a dead thread)
            raise OSError(f"Pi camera gave no frame ({exc})") from exc

    def close(self) -> None:
        self._cam.stop()
        self._cam.close()


class FolderSource:
    """Every image in a folder, in name order: a recorded game as stills."""

    def __init__(self, folder: str | Path, long_side: int = 1280) -> None:
        self._paths = sorted(
            p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES
        )
        self._i = 0
        self.long_side = long_side

    def read(self) -> np.ndarray | None:
        from vision.imageio import read_image

        while self._i < len(self._paths):
            # a phone photo is decoded at the reader's size, not at 12 megapixels
            frame = read_image(self._paths[self._i], self.long_side)
            self._i += 1
            if frame is not None:
                return frame
        return None

    def close(self) -> None:
        self._i = len(self._paths)


class IterableSource:
    """Frames from any iterable (the simulator and tests hand frames straight in)."""

    def __init__(self, frames: Iterable[np.ndarray]) -> None:
        self._it = iter(frames)

    def read(self) -> np.ndarray | None:
        return next(self._it, None)

    def close(self) -> None:
        self._it = iter(())


def open_source(spec: str | int | Path, size: tuple[int, int] = (1280, 960)) -> FrameSource:
    """``0`` or ``/dev/video0`` (USB camera), ``picamera2``, a folder, or a video file.
    ``size`` is asked of a live camera; a folder's pictures are read at its long side at
    most (a video file gives the frames it holds)."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        return OpenCVSource(int(spec), size)
    if str(spec) == "picamera2":
        return Picamera2Source(size)
    if str(spec).startswith("/dev/video"):
        return OpenCVSource(str(spec), size)  # a camera by its device
    if Path(spec).is_dir():
        return FolderSource(spec, max(size))
    return OpenCVSource(str(spec), size=None)


class CameraReader(PollingReader):
    """One camera watching several zones, reporting a :class:`CardSeen` per play.

    ``on_removed`` (optional) hears when a played card leaves its zone; removals are not
    sightings, but the referee or dashboard may want them.
    """

    def __init__(
        self,
        source: FrameSource,
        zones: ZoneMap,
        *,
        detector: CardDetector | None = None,
        tracker: TrackerConfig | None = None,
        source_name: str = "camera",
        clock: Callable[[], float] = time.time,
        on_removed: Callable[[ZoneEvent], None] | None = None,
        frame_interval: float = 0.0,
        still: StillFrames | None = None,
    ) -> None:
        unknown = [n for n in zones.names() if n not in ALL_ZONES]
        if unknown:
            raise ValueError(f"unknown zones {unknown}; expected some of {', '.join(ALL_ZONES)}")
        self.source = source
        self.detector = detector or CardDetector()
        #: Frames that show what the last read one showed reuse its detections.
        self.still = still or StillFrames()
        #: Reads kept from the last frame read: a card lying where it lay, unchanged, is
        #: not read again (most of a frame's cards during play).
        self.known: KnownReads = KnownReads()
        #: The empty table's capture, to tell when the camera has moved since
        #: calibration; whether that was reported; frames polled.
        self._view: ViewCheck | None = None
        self._moved = False
        #: Checks in a row that found the view out of focus, and whether it was said.
        self._soft_checks = 0
        self._soft_said = False
        self._polls = 0
        self.frames_read = 0
        self.zones = zones
        self.tracker = ZoneTracker(tracker)
        self.source_name = source_name
        self._clock = clock
        self.on_removed = on_removed
        self.poll_interval = frame_interval
        self.finished = False
        #: Why the camera gives no frames (its last error), or None while it does; since
        #: when (the clock's time) and when that was last said.
        self.lost: str | None = None
        self._lost_since = self._lost_said = 0.0
        #: When a frame the reader could not get through was last said (None: never).
        self._unreadable_said: float | None = None
        self.last_detections: list[Detection] = []
        #: The latest frame seen, for the dashboard's zone calibration page to draw on.
        self.last_frame: np.ndarray | None = None
        self._closed = False
        self._init_polling()

    @property
    def zones(self) -> ZoneMap:
        return self._zones

    @zones.setter
    def zones(self, zones: ZoneMap) -> None:
        """New zones (the dashboard's calibration page sets them live): with a table plane,
        frames are warped top-down and zones are looked up in table coordinates; the
        empty table captured at calibration becomes the detector's reference."""
        self._marked = zones
        self._misfit: tuple[int, int] | None = None
        self._misfit_said = 0.0
        self.unmarked: str | None = None  # new zones end a standing fault (below)
        self._unmarked_said: float | None = None
        self._use(zones)

    def _use(self, zones: ZoneMap) -> None:
        self._zones = zones
        self._table_zones = zones.in_table()
        empty = zones.empty_table()
        self.detector.empty = empty
        self._view = ViewCheck(empty) if empty is not None else None
        self._moved = False
        self.detector.plane = zones.plane
        self.still.forget()
        self.known.forget()

    def new_hand(self) -> None:
        self.tracker.new_hand()

    def _fit(self, frame: np.ndarray) -> str | None:
        """The zones fitted to the frame's size (a camera giving more pixels than the
        frame they were marked on; they scale), or why they cannot be: a frame of
        another shape, on which they would lie elsewhere on the table (said at once and
        again each :data:`LOST_REMINDER` seconds, so a screen that joins later hears it;
        no card is reported until zones are marked on this camera's frame)."""
        size = (frame.shape[1], frame.shape[0])
        if size == tuple(self._zones.frame_size) and self._misfit is None:
            return None
        if size == self._misfit:
            if self._clock() - self._misfit_said < LOST_REMINDER:
                return ""
        fitted = self._marked.fitted_to(size) if self._marked.zones else ZoneMap(frame_size=size)
        if fitted is None:
            self._misfit, self._misfit_said = size, self._clock()
            mw, mh = self._marked.frame_size
            return (
                f"camera: its frames are {size[0]} x {size[1]}, of another shape than the "
                f"{mw} x {mh} frame the zones were marked on: no card is read until the "
                "zones are marked on this camera's frame (dashboard /admin/calibrate, or "
                "'courtpiece calibrate')"
            )
        self._misfit = None
        if fitted is not self._zones:
            log.info("camera: zones marked on %s x %s, frames %s x %s: zones scaled",
                     *self._marked.frame_size, *size)
            self._use(fitted)
        return None

    def process(self, frame: np.ndarray) -> list[CardSeen]:
        """Recognise one frame (of the zones' size: :meth:`poll` fits them first) and
        return the plays it completes."""
        self.last_frame = frame
        if not self.still.unchanged(frame):
            if self.still.forced:
                self.known.forget()  # a read forced to keep nothing stale: every card afresh
            self.known.prime(self.still.reference)  # this frame's thumbnail, made once
            self.last_detections = self.detector.detect(frame, known=self.known)
            self.frames_read += 1
        readings = []
        for d in self.last_detections:
            zone = self._table_zones.zone_at(d.where)  # table coordinates with a plane
            if zone is not None:
                readings.append(Reading(zone, d.card, d.confidence))
        out = []
        for ev in self.tracker.update(readings, self.zones.names()):
            if ev.kind == "played":
                out.append(
                    CardSeen(zone=ev.zone, card=ev.card, at=self._clock(), source=self.source_name)
                )
            elif self.on_removed is not None:
                self.on_removed(ev)
        return out

    def poll(self) -> list[Sighting]:
        """Read and recognise one frame. An empty source sets :attr:`finished`; a camera
        that gives no frame (unplugged, failed, not there at start) is one fault, then
        looked for again every :attr:`reopen_delay` seconds until frames come back."""
        try:
            frame = self.source.read()
        except OSError as exc:
            now = self._clock()
            if self.lost is None:
                self.lost, self._lost_since, self._lost_said = str(exc), now, now
                message = f"camera: {exc}; trying again every {self.reopen_delay:g} s"
            elif now - self._lost_said >= LOST_REMINDER:
                # a screen that joined since (or looked away) hears it again, with how long
                self._lost_said = now
                minutes = (now - self._lost_since) / 60
                message = (f"camera: still no frame, for {minutes:.0f} min ({exc}); "
                           f"trying again every {self.reopen_delay:g} s")
            else:
                return []  # said; the rounds wait reopen_delay and try again
            log.warning("%s", message)
            return [ReaderFault(source=self.source_name, message=message, at=now)]
        if frame is None:
            self.finished = True
            return []
        if self.lost is not None:
            log.info("camera: frames again after %s", self.lost)
            self.lost = None
            self._read_afresh()  # the table may have changed while the camera was away
        if self.unmarked is not None:
            # no zones to place a card by, and why (an unreadable zone map at start):
            # said again each minute like the misfit below, for a screen that joins later
            self.last_frame = frame  # the calibration page marks zones on it
            now = self._clock()
            if self._unmarked_said is not None and now - self._unmarked_said < LOST_REMINDER:
                return []
            self._unmarked_said = now
            return [ReaderFault(source=self.source_name, message=self.unmarked, at=now)]
        misfit = self._fit(frame)
        if misfit is not None:  # zones of another shape: nothing can be placed on the table
            self.last_frame = frame  # the calibration page marks zones on it
            if not misfit:
                return []  # said within the minute
            log.warning("%s", misfit)
            return [ReaderFault(source=self.source_name, message=misfit, at=self._clock())]
        try:
            out: list[Sighting] = list(self.process(frame))
        except Exception as exc:  # noqa: BLE001 - a reader bug must not end the camera's thread
            return self._unreadable(exc)
        self._polls += 1
        if self._polls % VIEW_CHECK_EVERY == 0:
            if self._view is not None:
                out += self._check_view(frame)
            out += self._check_focus(frame)
        return out

    def _read_afresh(self) -> None:
        """The next frame read whole, every card afresh: nothing kept from before."""
        self.still.forget()
        self.known.forget()

    def _unreadable(self, exc: Exception) -> list[Sighting]:
        """A frame the reader could not get through (a fault in the reader itself, not
        the camera's): logged with its trace, said on the screens at most once a minute,
        and the next frame read afresh. Before, it ended the camera's thread."""
        log.exception("camera: a frame could not be read")
        self._read_afresh()
        now = self._clock()
        if self._unreadable_said is not None and now - self._unreadable_said < LOST_REMINDER:
            return []
        self._unreadable_said = now
        message = f"camera: a frame could not be read ({type(exc).__name__}: {exc}); reading on"
        return [ReaderFault(source=self.source_name, message=message, at=now)]

    def _check_view(self, frame: np.ndarray) -> list[ReaderFault]:
        """A fault, once, when the camera is found moved since calibration (two checks
        in a row agreeing); once it is found back in place, a later move is reported
        again."""
        assert self._view is not None
        if self._moved:
            self._moved = not self._view.still(frame)
            return []
        shift = self._view.moved(frame)
        if shift is None:
            return []
        self._moved = True
        message = (
            f"camera: the view has moved about {shift.px:.0f} px since the table was "
            "calibrated, so cards may be placed on the wrong spot: calibrate again"
        )
        return [ReaderFault(source=self.source_name, message=message, at=self._clock())]

    def _check_focus(self, frame: np.ndarray) -> list[ReaderFault]:
        """A fault, once, when the view is found out of focus :data:`FOCUS_CHECKS` checks
        in a row (:func:`vision.focus.focus_check`). The reader sharpens such frames, but
        a table's small indices still read fewer cards: the table should hear why. Once a
        check finds it in focus again, a later blur is said again. A frame with no card
        outline in it (a bare cloth) decides nothing: far out of focus it has no edge to
        measure, and with a dim room's noise on it, it measures as sharp as the noise."""
        if not self.last_detections:
            return []
        check = focus_check(frame)
        if check.nothing_measured:
            return []
        if not check.out_of_focus:
            self._soft_checks, self._soft_said = 0, False
            return []
        self._soft_checks += 1
        if self._soft_said or self._soft_checks < FOCUS_CHECKS:
            return []
        self._soft_said = True
        message = (
            "camera: the view looks out of focus, so fewer cards are read: focus the "
            "camera on the table (a capture walk, 'courtpiece camera capture', checks it)"
        )
        log.warning("%s", message)
        return [ReaderFault(source=self.source_name, message=message, at=self._clock())]

    def _pause(self) -> float:
        """The frame interval; ``reopen_delay`` while the camera gives no frames."""
        return self.reopen_delay if self.lost is not None else self.poll_interval

    def _thread_name(self) -> str:
        return "camera"

    def close(self) -> None:
        """Stop the rounds and release the camera (once: Picamera2 minds a second close)."""
        self._stop_polling()
        if not self._closed:
            self._closed = True
            self.source.close()
