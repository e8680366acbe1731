"""Whether the camera has moved since the table was calibrated.

A knocked tripod or a nudged shelf moves every play spot, the table plane and the empty
table's capture off the table they were measured on: cards are then read on the wrong
seat's spot, or on none, and the referee rules on plays it placed wrongly. The frame is
compared with the empty table captured at calibration by phase correlation (the shift
that lines the two up best), small and in grey, so it costs about a millisecond; the
cards lying on the table are too little of the frame to move the peak. A table too
plain to line up decides nothing, nor does one measurement alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Width (pixels) the two pictures are compared at.
LOOK_WIDTH = 320
#: A shift of at least this many frame pixels is a moved camera (a still one measures
#: within about 3 px with cards and noise on rendered tables).
MOVED_PX = 10.0
#: A peak weaker than this is no measurement (a table too plain to line up, or hidden
#: under a spread of cards: at 0.05 such a frame once measured a knock of (24, -16) px
#: as (103, -188); at 0.08 a knock goes unmeasured on 4 of 16 rendered tables).
LEAST_RESPONSE = 0.08
#: The pictures are softened first (sigma, pixels at LOOK_WIDTH): sensor noise and JPEG
#: blocks line up with nothing, and left sharp they make a peak of their own.
BLUR = 1.0
#: A capture whose softened picture changes by less than this (mean grey levels a pixel
#: across and down) has too little texture to line up: a frame of noise on a plain
#: colour peaks as high as a grained cloth does, anywhere. (Rendered cloths and woods
#: measure 12-35; a plain colour with a camera's noise, 1.5.)
LEAST_TEXTURE = 5.0
#: Two measurements this close (frame pixels) agree.
AGREE_PX = 4.0


@dataclass(frozen=True)
class Shift:
    """How far the frame lies from the capture (frame pixels), and how sure (the phase
    correlation's peak, 0-1)."""

    dx: float
    dy: float
    response: float

    @property
    def px(self) -> float:
        return float(np.hypot(self.dx, self.dy))

    def near(self, other: Shift) -> bool:
        return float(np.hypot(self.dx - other.dx, self.dy - other.dy)) <= AGREE_PX


def _small(frame_bgr: np.ndarray) -> tuple[np.ndarray, float]:
    grey = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    scale = LOOK_WIDTH / grey.shape[1]
    size = (LOOK_WIDTH, max(1, round(grey.shape[0] * scale)))
    small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    return cv2.GaussianBlur(small, (0, 0), BLUR), scale


class ViewCheck:
    """The empty table's capture, ready to tell a moved camera from a still one."""

    def __init__(self, empty_bgr: np.ndarray) -> None:
        self._reference, self._scale = _small(empty_bgr)
        self._aspect = empty_bgr.shape[0] / empty_bgr.shape[1]
        h, w = self._reference.shape
        self._window = cv2.createHanningWindow((w, h), cv2.CV_32F)
        ref = self._reference
        texture = float(
            np.abs(cv2.Sobel(ref, cv2.CV_32F, 1, 0)).mean()
            + np.abs(cv2.Sobel(ref, cv2.CV_32F, 0, 1)).mean()
        )
        #: Whether the capture can be lined up at all (:data:`LEAST_TEXTURE`).
        self.measurable = texture >= LEAST_TEXTURE
        #: The last measurement that said "moved", waiting for a second to agree.
        self._pending: Shift | None = None

    def shift(self, frame_bgr: np.ndarray) -> Shift | None:
        """How far ``frame_bgr`` lies from the capture, or None where it cannot be
        measured (a capture too plain, another shape of frame, or a peak too weak to
        trust)."""
        if not self.measurable:
            return None
        if abs(frame_bgr.shape[0] / frame_bgr.shape[1] - self._aspect) > 0.01:
            return None
        small, _ = _small(frame_bgr)
        if small.shape != self._reference.shape:
            return None
        (dx, dy), response = cv2.phaseCorrelate(self._reference, small, self._window)
        if response < LEAST_RESPONSE:
            return None
        return Shift(dx / self._scale, dy / self._scale, float(response))

    def moved(self, frame_bgr: np.ndarray) -> Shift | None:
        """The shift, where this frame and the one checked before it both measure the
        camera moved by about the same (a hand or a passing shadow can pull one
        measurement, not two in a row); else None."""
        s = self.shift(frame_bgr)
        if s is None or s.px < MOVED_PX:
            self._pending = None
            return None
        agreed = self._pending is not None and s.near(self._pending)
        self._pending = s
        return s if agreed else None

    def still(self, frame_bgr: np.ndarray) -> bool:
        """Whether this frame measures the camera where it was calibrated."""
        s = self.shift(frame_bgr)
        return s is not None and s.px < MOVED_PX
