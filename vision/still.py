"""Frames that show nothing new, so the camera reader can skip reading them.

An overhead camera sends ten or more frames a second, and most of a game the table lies
still between two plays: reading every frame would keep a Pi's core busy for nothing.
A frame is compared with the last one that was read, on a small grey thumbnail: sensor
noise and JPEG loss average out at that size, while a card put down, taken up or swapped
for another (its pips or picture differ) changes many thumbnail pixels by a lot. A slow
drift of the light builds up against that reference until it counts as new, and a read
is forced every ``most`` frames whatever the thumbnails say, so nothing stays stale.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

#: Thumbnail size (width, height): a quarter of a 1280x960 frame each way, so a card of
#: 120 px or more is still 30 thumbnail pixels tall.
THUMB = (320, 240)


def thumbnail(frame_bgr: np.ndarray, size: tuple[int, int] = THUMB) -> np.ndarray:
    """The frame in grey at ``size``, each pixel the mean of the area it covers (to a
    grey level where the frame is a whole multiple of ``size``: it is then halved while
    it stays one, which OpenCV does three times faster than one mean of the whole
    ratio; other frames take the one mean)."""
    small = frame_bgr
    w, h = size
    while all(n % (2 * t) == 0 for n, t in zip(small.shape[1::-1], (w, h), strict=True)):
        half = (small.shape[1] // 2, small.shape[0] // 2)
        small = cv2.resize(small, half, interpolation=cv2.INTER_AREA)
    small = cv2.resize(small, size, interpolation=cv2.INTER_AREA)
    return small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)


@dataclass
class StillFrames:
    """Says whether a frame can reuse the last reading.

    ``level``: grey levels a thumbnail pixel must move to count as changed (sensor noise
    on an area mean of 16 pixels stays under 8 even at JPEG quality 75); ``least``:
    changed pixels that make the frame new (a 9 of hearts swapped for a 6 in a 150 px
    card moves 8; a hand over the table, thousands); ``most``: the longest run of
    skipped frames.
    """

    level: int = 16
    least: int = 4
    most: int = 30
    size: tuple[int, int] = THUMB
    _ref: np.ndarray | None = field(default=None, repr=False)
    _skipped: int = 0
    #: Whether the last frame is read only because ``most`` frames were skipped before it
    #: (it shows nothing new): a reader then reads every card afresh, kept reads too.
    forced: bool = False

    def unchanged(self, frame_bgr: np.ndarray) -> bool:
        """True when ``frame_bgr`` shows what the last read frame showed. False means the
        caller reads this frame: it becomes the new reference."""
        thumb = thumbnail(frame_bgr, self.size)
        still = self._ref is not None and self.changed(thumb) < self.least
        self.forced = still and self._skipped >= self.most
        if still and not self.forced:
            self._skipped += 1
            return True
        self._ref = thumb
        self._skipped = 0
        return False

    @property
    def reference(self) -> np.ndarray | None:
        """The thumbnail of the last frame read (the one :meth:`unchanged` just let
        through, until the next is)."""
        return self._ref

    def changed(self, thumb: np.ndarray) -> int:
        """Thumbnail pixels that moved by more than ``level`` since the reference."""
        if self._ref is None or thumb.shape != self._ref.shape:
            return thumb.size
        return int(np.count_nonzero(cv2.absdiff(thumb, self._ref) > self.level))

    def forget(self) -> None:
        """Read the next frame whatever it shows (new zones, a new table plane)."""
        self._ref = None
        self._skipped = 0
