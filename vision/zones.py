"""Play spots in the camera view: named polygons, saved as JSON.

``courtpiece calibrate`` writes them (from printed markers or from corner coordinates
dragged on a captured frame); the camera reader loads them. A card belongs to the zone
that contains its centre.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np


@dataclass(frozen=True)
class Zone:
    name: str
    polygon: tuple[tuple[float, float], ...]  # frame pixels, any winding

    def contains(self, point: tuple[float, float]) -> bool:
        poly = np.asarray(self.polygon, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0


@dataclass
class ZoneMap:
    """All zones of one camera set-up, with the frame size they were marked on."""

    zones: list[Zone] = field(default_factory=list)
    frame_size: tuple[int, int] = (1280, 960)

    def zone_at(self, point: tuple[float, float]) -> str | None:
        for z in self.zones:
            if z.contains(point):
                return z.name
        return None

    def names(self) -> list[str]:
        return [z.name for z in self.zones]

    def to_json(self) -> dict:
        return {
            "frame_size": list(self.frame_size),
            "zones": {z.name: [[float(x), float(y)] for x, y in z.polygon] for z in self.zones},
        }

    @classmethod
    def from_json(cls, data: dict) -> ZoneMap:
        zones = [
            Zone(n, tuple((float(x), float(y)) for x, y in pts)) for n, pts in data["zones"].items()
        ]
        return cls(zones, tuple(data.get("frame_size", (1280, 960))))  # type: ignore[arg-type]

    def save(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> ZoneMap:
        return cls.from_json(json.loads(Path(path).read_text()))

    @classmethod
    def rectangles(
        cls, boxes: dict[str, tuple[float, float, float, float]], frame_size=(1280, 960)
    ) -> ZoneMap:
        """Zones from ``name -> (x, y, w, h)`` boxes, as dragged on a captured frame."""
        zones = [
            Zone(n, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))
            for n, (x, y, w, h) in boxes.items()
        ]
        return cls(zones, tuple(frame_size))  # type: ignore[arg-type]


#: Printed-marker calibration: ArUco 4x4 marker id -> zone. One marker sits at the centre
#: of each play spot on the table mat; the zone is a square around it sized from the
#: marker (a spot is ``SPOT_SCALE`` marker widths across).
MARKER_ZONES = {0: "seat0", 1: "seat1", 2: "seat2", 3: "seat3", 4: "deal", 5: "trump"}
SPOT_SCALE = 6.0


def zones_from_markers(frame_bgr: np.ndarray) -> ZoneMap:
    """Find the printed ArUco markers on the mat and make one square zone per marker."""
    aruco = cv2.aruco
    detector = aruco.ArucoDetector(
        aruco.getPredefinedDictionary(aruco.DICT_4X4_50), aruco.DetectorParameters()
    )
    found, ids, _ = detector.detectMarkers(frame_bgr)
    zones = []
    if ids is not None:
        for quad, mid in zip(found, ids.ravel(), strict=True):
            name = MARKER_ZONES.get(int(mid))
            if name is None:
                continue
            q = quad.reshape(4, 2)
            c = q.mean(axis=0)
            half = (
                SPOT_SCALE / 2 * float(np.mean(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)))
            )
            zones.append(
                Zone(
                    name,
                    (
                        (c[0] - half, c[1] - half),
                        (c[0] + half, c[1] - half),
                        (c[0] + half, c[1] + half),
                        (c[0] - half, c[1] + half),
                    ),
                )
            )
    zones.sort(key=lambda z: z.name)
    h, w = frame_bgr.shape[:2]
    return ZoneMap(zones, (w, h))


def marker_image(marker_id: int, side_px: int = 200) -> np.ndarray:
    """A printable marker for the mat (white quiet border included)."""
    aruco = cv2.aruco
    img = aruco.generateImageMarker(
        aruco.getPredefinedDictionary(aruco.DICT_4X4_50), marker_id, side_px
    )
    return cv2.copyMakeBorder(
        img, side_px // 5, side_px // 5, side_px // 5, side_px // 5, cv2.BORDER_CONSTANT, value=255
    )
