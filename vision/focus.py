"""Tell a frame seen out of focus, and give its edges back some of their step.

A camera out of focus over a table (a fixed-focus webcam set for arm's length, a lens
misted at one side) spreads every edge over several pixels. A table's cards are small in
the frame, so the strokes of their corner indices fade towards the stock and run into
their pips: the reader finds the cards and cannot read them.

How soft a frame is comes from how much its strongest edges lose when it is blurred
once more: a sharp edge, one or two pixels across, loses most of its step between
neighbouring pixels; an edge already spread loses little (the "blur effect" measure of
Crété-Roffet, Dolmière, Ladret and Nicolas, 2007). It is measured along every eighth row
at the frame's full width, so it costs a fraction of a millisecond; edges across the
rows are enough, because a lens out of focus blurs every way alike. An edge is known by
its climb over three pixels, not by its step over one: blurred, a pale edge (red ink on
pale wood) steps only a few levels from pixel to pixel, and a frame of such edges would
have none left to measure, and pass for sharp. A dim room's sensor noise on a frame out
of focus makes the noise's own steps the strongest, and the frame measures sharp; so it
is measured at half size too (:func:`focus_check`), where the noise is halved and the
blur still shows.

A soft frame is read through an unsharp mask: the frame, plus twice its difference from a
blurred copy. Sharp frames are read as they are: sharpened, their grain and JPEG blocks
grow into ink, and the development photos read worse.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.levels import percentile

#: The frame's rows measured: one in this many, each at full width.
ROW_STEP = 8
#: The least climb over three pixels that makes an edge (grey levels). It is taken over
#: three pixels, not one, because a blurred edge still climbs: a red pip on pale wood,
#: out of focus, steps 2-4 levels from one pixel to the next and 8 or more over three
#: (measured over one pixel, most such frames had no edge left and read as sharp).
#: Below it, a bare table would be measured on its grain and its levels' rounding.
EDGE_LEAST = 8
#: The least step between neighbouring pixels measured at an edge (grey levels): a
#: step of one or two is mostly the rounding of the levels.
STEP_LEAST = 2
#: Blur added to measure how much an edge still loses (pixels, along the row).
REBLUR_SIGMA = 1.0
#: The share of the measured rows' steps taken as the frame's edges: its strongest.
EDGE_SHARE = 5.0
#: A frame whose edges keep this much of their step when blurred once more is out of
#: focus, and is read sharpened (:class:`vision.detector.CardDetector`). Blurred by
#: 3.2 px, every development photo keeps 0.957 or more. Plain, enlarged from 640 px, most
#: keep under 0.9 (1 of the 140 development scenes and 18 of the 390 singles pass 0.95,
#: and read as before or better); sharpened all alike, the plain photos read worse
#: (every second development scene 90.5 -> 82.0 % counted, 7 -> 10 wrong counted, one
#: of them sure). 0.93 until the forty-fifth round, when an edge was a step over one
#: pixel.
SOFT_FROM = 0.95
#: The same, measured on the frame at half size (:func:`focus_check`), where each pixel
#: is the mean of four: a little sensor noise (3 levels) on a frame out of focus makes
#: its own steps the strongest at full size, and the frame measures sharp (every second
#: development scene blurred by 3.2 px: 0.71 to 0.88); at half size the noise is halved
#: and the blur still shows (0.865 or more; with noise of 6 levels, 0.76 to 0.92). Plain,
#: 2 of the 140 development scenes pass 0.86 at half size or 0.95 whole, and 59 of the
#: 390 singles (close-ups enlarged from 640 px, many of them soft); none with noise
#: alone. Such a frame is read sharpened, its noise with it: every second development
#: scene blurred, with noise of 3 levels, counts 55.6 % as seen, 77.5 % sharpened.
HALF_SOFT_FROM = 0.86
#: Width of the unsharp mask's blur, as a share of the frame's long side (3.2 px at
#: 1280): about the spread of the blur it undoes.
UNSHARP_SIGMA = 0.0025
#: How much of the frame's difference from its blurred copy is added back.
UNSHARP_AMOUNT = 2.0


def softness(frame_bgr: np.ndarray) -> float:
    """How much of their step the frame's strongest edges keep when blurred once more:
    near 1 for a frame out of focus, well below for a sharp one (0 for a frame with no
    edge at all, which is not soft: it has nothing to sharpen)."""
    rows = frame_bgr[::ROW_STEP]
    return _kept(rows if rows.ndim == 2 else cv2.cvtColor(rows, cv2.COLOR_BGR2GRAY))


def _kept(grey: np.ndarray) -> float:
    """:func:`softness` of the grey rows given (the rows measured, already picked)."""
    if grey.shape[1] < 4:
        return 0.0
    # each step from pixel x to x + 1 (x from 1 to the width less 3), and the climb over
    # the three steps around it, from x - 1 to x + 2
    step = cv2.absdiff(grey[:, 2:-1], grey[:, 1:-2])
    climb = cv2.absdiff(grey[:, 3:], grey[:, :-3])
    size = 2 * int(np.ceil(2.5 * REBLUR_SIGMA)) + 1
    reblurred = cv2.GaussianBlur(
        grey, (size, 1), sigmaX=REBLUR_SIGMA, sigmaY=0, borderType=cv2.BORDER_REPLICATE
    )
    kept = cv2.absdiff(reblurred[:, 2:-1], reblurred[:, 1:-2])
    strong = step > max(percentile(step, 100.0 - EDGE_SHARE), STEP_LEAST)
    edges = (strong & (climb >= EDGE_LEAST)).view(np.uint8)
    before = cv2.sumElems(cv2.bitwise_and(step, step, mask=edges))[0]
    if before == 0:
        return 0.0
    after = cv2.sumElems(cv2.bitwise_and(kept, kept, mask=edges))[0]
    return float(after / before)


def sharpened(image: np.ndarray) -> np.ndarray:
    """``image`` through an unsharp mask sized to its long side (:data:`UNSHARP_SIGMA`)."""
    sigma = UNSHARP_SIGMA * max(image.shape[:2])
    blurred = cv2.GaussianBlur(image, (0, 0), sigma)
    return cv2.addWeighted(image, 1.0 + UNSHARP_AMOUNT, blurred, -UNSHARP_AMOUNT, 0.0)


@dataclass(frozen=True)
class FocusCheck:
    """How soft a frame looks, whole and at half size: whether the detector reads it
    sharpened, and whether the capture walk and the camera reader's view check say the
    camera is out of focus."""

    whole: float
    half: float

    @property
    def out_of_focus(self) -> bool:
        return self.whole >= SOFT_FROM or self.half >= HALF_SOFT_FROM

    @property
    def nothing_measured(self) -> bool:
        """No edge to measure either way (a bare cloth far out of focus)."""
        return self.whole == 0.0 and self.half == 0.0

    def said(self) -> str:
        """The figures, for the organiser: what was measured, and from where it is soft."""
        return (
            f"its edges keep {self.whole:.2f} of their step when blurred again, "
            f"{self.half:.2f} at half size; soft from {SOFT_FROM:.2f}, or "
            f"{HALF_SOFT_FROM:.2f} at half size"
        )


def focus_check(frame_bgr: np.ndarray) -> FocusCheck:
    """:func:`softness` of the frame and of its copy at half size (:data:`HALF_SOFT_FROM`:
    sensor noise hides a blur at full size). The half size is made of the rows measured
    only: each of its pixels the mean of a two-by-two block, the top rows of the blocks
    one in every :data:`ROW_STEP` of the half (every second of them in the frame), so
    the check costs about what the whole frame's does."""
    h, w = frame_bgr.shape[:2]
    tops = np.arange(0, h - 1, 2 * ROW_STEP)
    if len(tops) == 0 or w < 2:
        return FocusCheck(softness(frame_bgr), 0.0)
    rows = frame_bgr[np.stack([tops, tops + 1], axis=1).ravel()]
    grey = rows if rows.ndim == 2 else cv2.cvtColor(rows, cv2.COLOR_BGR2GRAY)
    half = cv2.resize(grey, (w // 2, len(tops)), interpolation=cv2.INTER_AREA)
    return FocusCheck(softness(frame_bgr), _kept(half))
