"""The table plane: a homography from the camera frame to a top-down view of the table.

A camera on a shelf or a tripod sees the table at an angle: far cards are small and
squashed, their outlines far from the card's 5:7 shape. Warping each frame to a
top-down view of the table first makes every card the same size and shape wherever it
lies, so the finder and reader work as they do under an overhead camera.

The homography comes from calibration: from the printed ArUco markers (each is a square
of known, equal size on the table, so their corners pin the plane down), or from the
four seats' play spots as marked (their centres lie on a square round the table's
middle). It is saved with the zones (``vision.zones.ZoneMap``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.warp import warp_perspective

#: Long side (pixels) of the top-down view: the resolution the reader gets.
VIEW_SIZE = 1280
#: Rounds of fitting the plane to all markers at once (each a true square of one size).
ITERATIONS = 10


@dataclass(frozen=True)
class TablePlane:
    """Frame pixels → table-view pixels (``homography``), and the view's (width, height)."""

    homography: np.ndarray
    size: tuple[int, int]

    def rectify(
        self, frame_bgr: np.ndarray, fill: tuple[float, ...] | None = None
    ) -> np.ndarray:
        """The frame as seen from straight above the table. Where the view reaches past
        the frame: ``fill``, a plain colour, or else the frame's edge drawn out."""
        border = cv2.BORDER_REPLICATE if fill is None else cv2.BORDER_CONSTANT
        return warp_perspective(
            frame_bgr, self.homography, self.size, border, keep_maps=True, fill=fill or (0,)
        )

    def scaled(self, long_side: int) -> TablePlane:
        """The same plane with a view of ``long_side`` pixels (never enlarged)."""
        s = min(1.0, long_side / max(self.size))
        if s == 1.0:
            return self
        scale = np.diag([s, s, 1.0])
        return TablePlane(
            scale @ self.homography, (round(self.size[0] * s), round(self.size[1] * s))
        )

    def to_table(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_frame(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        inv = np.linalg.inv(self.homography)
        return cv2.perspectiveTransform(pts, inv).reshape(-1, 2)

    def to_json(self) -> dict:
        return {"homography": self.homography.tolist(), "size": list(self.size)}

    @classmethod
    def from_json(cls, data: dict) -> TablePlane:
        h = np.asarray(data["homography"], np.float64).reshape(3, 3)
        return cls(h, (int(data["size"][0]), int(data["size"][1])))


def _fit_view(h0: np.ndarray, frame_size: tuple[int, int], region: np.ndarray) -> TablePlane:
    """Scale and shift ``h0`` (frame → table units) so ``region`` (table units, Nx2),
    clipped to what the frame shows, fills a view of :data:`VIEW_SIZE` long side."""
    w, h = frame_size
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32).reshape(-1, 1, 2)
    seen = cv2.perspectiveTransform(corners, h0).reshape(-1, 2)
    lo = np.maximum(region.min(axis=0), seen.min(axis=0))
    hi = np.minimum(region.max(axis=0), seen.max(axis=0))
    extent = np.maximum(hi - lo, 1.0)
    s = VIEW_SIZE / float(extent.max())
    shift = np.array([[s, 0, -s * lo[0]], [0, s, -s * lo[1]], [0, 0, 1]], np.float64)
    size = (int(round(extent[0] * s)), int(round(extent[1] * s)))
    return TablePlane(shift @ h0, size)


def _winding(pts: np.ndarray) -> float:
    x, y = pts[:, 0], pts[:, 1]
    return float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def plane_from_square(
    frame_pts: np.ndarray, frame_size: tuple[int, int], margin: float = 0.75
) -> TablePlane:
    """The plane from four frame points that lie on a square on the table, in order
    round it (the seats' spot centres, seat0..seat3). The view shows the square and
    ``margin`` of its side beyond it on every side (the cards lie round the spots)."""
    pts = np.asarray(frame_pts, np.float32).reshape(4, 2)
    side = float(np.mean(np.linalg.norm(pts - np.roll(pts, 1, axis=0), axis=1)))
    r = side / np.sqrt(2)
    # a diamond: the first point (seat 0) at the bottom of the view, the rest round it
    square = np.array([[0, r], [-r, 0], [0, -r], [r, 0]], np.float32)
    if (_winding(pts) > 0) != (_winding(square) > 0):
        square = square[[0, 3, 2, 1]].copy()  # same turning sense: the view is not mirrored
    h0 = cv2.getPerspectiveTransform(pts, square)
    m = r + margin * side
    region = np.array([[-m, -m], [m, m]], np.float32)
    return _fit_view(h0.astype(np.float64), frame_size, region)


def plane_from_markers(
    markers: dict[int, np.ndarray], frame_size: tuple[int, int], reach: float = 4.0
) -> TablePlane | None:
    """The plane from printed markers (id → 4x2 corners, as ArUco finds them): every
    marker is a square of the same size on the table.

    A first plane comes from the seats' markers 0–3 when all four are in view (they lie
    on a square round the table, a long baseline), else from the largest marker alone.
    Then, in rounds, each marker is replaced by the true square nearest its mapped
    corners and the plane is fitted to all of them. The view covers the markers and
    ``reach`` marker widths round them (a play spot is several marker widths across).
    """
    if not markers:
        return None
    quads = [np.asarray(q, np.float32).reshape(4, 2) for q in markers.values()]
    if all(i in markers for i in range(4)):
        centres = np.array([np.asarray(markers[i]).reshape(4, 2).mean(axis=0) for i in range(4)])
        h0 = plane_from_square(centres, frame_size).homography
    else:
        big = max(quads, key=lambda q: cv2.contourArea(q))
        side = float(np.mean(np.linalg.norm(big - np.roll(big, 1, axis=0), axis=1)))
        unit = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
        h0 = cv2.getPerspectiveTransform(big, unit).astype(np.float64)
    mapped = [cv2.perspectiveTransform(q.reshape(-1, 1, 2), h0).reshape(4, 2) for q in quads]
    side = float(np.mean([np.linalg.norm(m - np.roll(m, 1, axis=0), axis=1) for m in mapped]))
    unit = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    for _ in range(ITERATIONS if len(quads) >= 2 else 0):
        src, dst = [], []
        for q in quads:
            m = cv2.perspectiveTransform(q.reshape(-1, 1, 2), h0).reshape(4, 2)
            sim, _ = cv2.estimateAffinePartial2D(unit, m)
            if sim is None:
                continue
            rot = sim[:, :2] / max(float(np.hypot(sim[0, 0], sim[1, 0])), 1e-6)
            # a true square of the printed size, turned and placed as the marker lies
            src.append(q)
            dst.append((unit - unit.mean(axis=0)) @ rot.T + m.mean(axis=0))
        h1, _ = cv2.findHomography(np.concatenate(src), np.concatenate(dst).astype(np.float32))
        if h1 is None:
            break
        h0 = h1
    pts = np.concatenate(
        [cv2.perspectiveTransform(q.reshape(-1, 1, 2), h0).reshape(4, 2) for q in quads]
    )
    r = reach * side
    region = np.array([pts.min(axis=0) - r, pts.max(axis=0) + r], np.float32)
    return _fit_view(h0, frame_size, region)
