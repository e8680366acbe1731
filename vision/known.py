"""Reads the camera keeps from one frame to the next.

During play the table changes a card at a time: one put down, a trick gathered. Between
two frames read, most outlines are the same cards lying where they lay, under the same
light, and reading each again (its warp, both indices, its pips) is most of what a frame
costs. An outline found again within a few pixels of where it was read, over a patch of
table whose thumbnail has not changed since then, keeps that read. The test of the patch
is :mod:`vision.still`'s on the outline's box alone, against the thumbnail of the frame
the read was made in (not the last frame's, so a slow change of light adds up until it
counts), and a read is kept for at most ``most`` frames, so nothing stays stale. The
outlines fitted to a mask's blobs are kept the same way (:func:`kept_fits`): a card lying
still is neither outlined nor read again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import cv2
import numpy as np

from vision.still import THUMB, thumbnail

Read = TypeVar("Read")


@dataclass
class _Kept(Generic[Read]):
    """One outline's read: the outline (frame pixels), its box in the thumbnail, the
    thumbnail there when it was read, the read, and how many frames it has been kept."""

    quad: np.ndarray
    box: tuple[int, int, int, int]
    patch: np.ndarray
    read: Read
    kind: Hashable = "read"
    age: int = 0


@dataclass
class KnownReads(Generic[Read]):
    """The reads of the last frame read, for the next one to keep where nothing changed.

    ``level`` and ``least`` are :class:`vision.still.StillFrames`' (grey levels a
    thumbnail pixel must move, changed pixels that make the patch new: a nine swapped
    for a six in place moves several); ``near_px``: how far (frame pixels) each corner of
    an outline may lie from the one read and still be that outline (the fit of one card's
    outline moves a pixel or two with sensor noise); ``most``: the frames after the one
    it was made in that a read is kept for (as :class:`vision.still.StillFrames` skips)."""

    level: int = 16
    least: int = 4
    most: int = 30
    near_px: float = 3.0
    size: tuple[int, int] = THUMB
    _kept: list[_Kept[Read]] = field(default_factory=list, repr=False)
    _next: list[_Kept[Read]] = field(default_factory=list, repr=False)
    _thumb: np.ndarray | None = field(default=None, repr=False)
    _scale: tuple[float, float] = (1.0, 1.0)
    _frame_size: tuple[int, int] = (0, 0)
    _primed: np.ndarray | None = field(default=None, repr=False)

    def prime(self, thumb: np.ndarray | None) -> None:
        """The thumbnail of the frame about to be read, already made (by
        :class:`vision.still.StillFrames`, which the camera asks first): the next
        :meth:`start` takes it instead of making it again."""
        self._primed = thumb

    def start(self, frame_bgr: np.ndarray) -> None:
        """A new frame is being read: what is kept from now on is its reads."""
        h, w = frame_bgr.shape[:2]
        if self._thumb is not None and (w, h) != self._frame_size:
            self.forget()  # another camera mode: no box would be where it was
        self._frame_size = (w, h)
        primed, self._primed = self._primed, None
        if primed is not None and primed.shape == (self.size[1], self.size[0]):
            self._thumb = primed
        else:
            self._thumb = thumbnail(frame_bgr, self.size)
        self._scale = (self.size[0] / w, self.size[1] / h)
        self._next = []

    def finish(self) -> None:
        """The frame is read: its reads (kept ones and new ones) are the next frame's."""
        self._kept, self._next = self._next, []

    def forget(self) -> None:
        """Keep nothing (the camera moved, a new table plane, new zones)."""
        self._kept, self._next = [], []

    def recall(
        self,
        quad: np.ndarray,
        kind: Hashable = "read",
        accept: Callable[[Read], bool] | None = None,
    ) -> Read | None:
        """The read of ``quad`` kept from an earlier frame, if the same outline lies over
        an unchanged patch and the read is not too old; it is kept for the next frame.
        ``kind`` keeps apart what is kept of one outline for different uses (a card's
        read, the outlines fitted to a blob of a mask); ``accept`` may refuse one (a blob
        of another area)."""
        q = np.asarray(quad, np.float32)
        for i, k in enumerate(self._kept):
            if k.kind != kind or k.age >= self.most or not self._near(k.quad, q):
                continue
            if self._changed(k) >= self.least or (accept is not None and not accept(k.read)):
                continue
            del self._kept[i]
            self._next.append(_Kept(k.quad, k.box, k.patch, k.read, k.kind, k.age + 1))
            return k.read
        return None

    def keep(self, quad: np.ndarray, read: Read, kind: Hashable = "read") -> None:
        """What ``quad`` read as in this frame (``kind``: see :meth:`recall`). Kept again
        in the same frame (the detector's second pass, with the edge mask, reading an
        outline the first read as nothing), its last read is the one kept."""
        assert self._thumb is not None, "start() the frame first"
        q = np.asarray(quad, np.float32)
        box = self._box(q)
        x0, y0, x1, y1 = box
        patch = self._thumb[y0:y1, x0:x1].copy()
        self._next = [
            k
            for k in self._next
            if k.kind != kind or k.quad.shape != q.shape or (k.quad != q).any()
        ]
        self._next.append(_Kept(q.copy(), box, patch, read, kind))

    def _near(self, a: np.ndarray, b: np.ndarray) -> bool:
        return a.shape == b.shape and float(np.abs(a - b).max()) <= self.near_px

    def _box(self, q: np.ndarray) -> tuple[int, int, int, int]:
        """The outline's bounding box in the thumbnail, a pixel wider each way, clipped."""
        assert self._thumb is not None
        th, tw = self._thumb.shape[:2]
        sx, sy = self._scale
        x0 = int(np.floor(q[:, 0].min() * sx)) - 1
        y0 = int(np.floor(q[:, 1].min() * sy)) - 1
        x1 = int(np.ceil(q[:, 0].max() * sx)) + 2
        y1 = int(np.ceil(q[:, 1].max() * sy)) + 2
        return max(x0, 0), max(y0, 0), min(max(x1, 0), tw), min(max(y1, 0), th)

    def _changed(self, k: _Kept[Read]) -> int:
        """Thumbnail pixels in the kept read's box that moved by more than ``level``."""
        assert self._thumb is not None
        x0, y0, x1, y1 = k.box
        now = self._thumb[y0:y1, x0:x1]
        if now.shape != k.patch.shape:
            return k.patch.size or 1
        return int(np.count_nonzero(cv2.absdiff(now, k.patch) > self.level))


#: A blob is the one fitted before if its area is within this share of that one's (its
#: box within ``near_px`` of that one's, its patch unchanged).
AREA_SHARE = 0.02


def kept_fits(
    known: KnownReads, to_frame: Callable[[np.ndarray], np.ndarray]
) -> Callable[[str, np.ndarray, float, Callable[[], list[np.ndarray]]], list[np.ndarray]]:
    """Outline fits kept in ``known`` beside its reads (:data:`vision.locate.Fits`): a
    blob of a mask whose box (``to_frame`` takes the finder's input pixels to the camera
    frame's) and area are those of one fitted in an earlier frame, over an unchanged
    patch, gets that blob's outlines again without their fit (the blob's own sides
    fitted by least squares, its cuts along image edges: most of finding a card). Its
    outlines are then those the kept read was made of, so the read is kept too."""

    def fits(
        kind: str, contour: np.ndarray, scale: float, fit: Callable[[], list[np.ndarray]]
    ) -> list[np.ndarray]:
        x, y, w, h = cv2.boundingRect(contour)
        box = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32) / scale
        key = to_frame(box)
        area = float(cv2.contourArea(contour))

        def same_blob(kept: tuple[float, list[np.ndarray]]) -> bool:
            return abs(kept[0] - area) <= AREA_SHARE * max(area, 1.0)

        hit = known.recall(key, ("fit", kind), same_blob)
        if hit is not None:
            return [q.copy() for q in hit[1]]
        quads = fit()
        known.keep(key, (area, [q.copy() for q in quads]), ("fit", kind))
        return quads

    return fits
