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

from vision.imageio import read_image
from vision.plane import TablePlane, plane_from_markers, plane_from_square

#: Zones may touch and overlap a little (boxes dragged up to each other), not more.
MOST_OVERLAP = 0.25


@dataclass(frozen=True)
class Zone:
    name: str
    polygon: tuple[tuple[float, float], ...]  # frame pixels, any winding

    def contains(self, point: tuple[float, float]) -> bool:
        poly = np.asarray(self.polygon, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0


@dataclass
class ZoneMap:
    """All zones of one camera set-up, with the frame size they were marked on.

    ``plane`` (from calibration, optional) maps the frame to a top-down view of the
    table; with it, cards are found in that view and zones are looked up in table
    coordinates (:meth:`in_table`), so an oblique camera works like an overhead one.
    """

    zones: list[Zone] = field(default_factory=list)
    frame_size: tuple[int, int] = (1280, 960)
    plane: TablePlane | None = None
    #: A frame of the empty table captured at calibration (a file beside the zone map),
    #: the surest reference for telling cards from a light table.
    empty_path: Path | None = None

    def empty_table(self) -> np.ndarray | None:
        if self.empty_path is None or not self.empty_path.exists():
            return None
        empty = read_image(self.empty_path, max(self.frame_size))
        if empty is not None and (empty.shape[1], empty.shape[0]) != tuple(self.frame_size):
            # captured at the size the zones were marked on; the camera now gives more
            empty = cv2.resize(empty, tuple(self.frame_size), interpolation=cv2.INTER_LINEAR)
        return empty

    def zone_at(self, point: tuple[float, float]) -> str | None:
        """The zone holding ``point``; where two boxes overlap a little (dragged by hand
        up to each other), the one whose middle is nearer, not whichever was listed first."""
        holding = [z for z in self.zones if z.contains(point)]
        if len(holding) <= 1:
            return holding[0].name if holding else None
        return min(holding, key=lambda z: float(np.hypot(*(np.mean(z.polygon, axis=0) - point)))).name

    def overlapping(self, most: float = MOST_OVERLAP) -> list[tuple[str, str]]:
        """Pairs of zones sharing more than ``most`` of the smaller one: two play spots
        marked on one place, where a card would count for whichever is nearer by a hair."""
        pairs = []
        for i, a in enumerate(self.zones):
            pa = np.asarray(a.polygon, np.float32)
            for b in self.zones[i + 1:]:
                pb = np.asarray(b.polygon, np.float32)
                shared, _ = cv2.intersectConvexConvex(pa, pb)
                smaller = min(abs(cv2.contourArea(pa)), abs(cv2.contourArea(pb)))
                if smaller > 0 and shared > most * smaller:
                    pairs.append((a.name, b.name))
        return pairs

    def names(self) -> list[str]:
        return [z.name for z in self.zones]

    def in_table(self) -> ZoneMap:
        """The same zones in table-view coordinates (itself when there is no plane)."""
        if self.plane is None:
            return self
        zones = [
            Zone(z.name, tuple((float(x), float(y)) for x, y in self.plane.to_table(z.polygon)))
            for z in self.zones
        ]
        return ZoneMap(zones, self.plane.size, None)

    def fitted_to(self, frame_size: tuple[int, int]) -> ZoneMap | None:
        """The same zones for a camera giving frames of ``frame_size``: scaled where the
        frame has the shape they were marked on (a camera set to more pixels, zones
        marked on a 1280 x 960 frame), None where it has another shape (the camera crops
        its sensor otherwise, and the zones would lie elsewhere on the table)."""
        w, h = frame_size
        mw, mh = self.frame_size
        if (w, h) == (mw, mh):
            return self
        if abs(w * mh - h * mw) > 0.01 * mw * mh:
            return None
        sx, sy = w / mw, h / mh
        zones = [Zone(z.name, tuple((x * sx, y * sy) for x, y in z.polygon)) for z in self.zones]
        plane = None
        if self.plane is not None:
            # new frame pixels -> the frame marked -> the table view
            back = np.diag([1 / sx, 1 / sy, 1.0])
            plane = TablePlane(self.plane.homography @ back, self.plane.size)
        return ZoneMap(zones, (w, h), plane, self.empty_path)

    def with_plane(self, plane: TablePlane | None) -> ZoneMap:
        return ZoneMap(list(self.zones), self.frame_size, plane, self.empty_path)

    def to_json(self) -> dict:
        data: dict = {
            "frame_size": list(self.frame_size),
            "zones": {z.name: [[float(x), float(y)] for x, y in z.polygon] for z in self.zones},
        }
        if self.plane is not None:
            data["table"] = self.plane.to_json()
            data["table_zones"] = self.in_table().to_json()["zones"]
        if self.empty_path is not None:
            data["empty_table"] = self.empty_path.name
        return data

    @classmethod
    def from_json(cls, data: object) -> ZoneMap:
        """The zone map of ``data``, or a ValueError naming what is wrong with it: the
        file is hand-edited at times, and a NaN corner or an empty list must not reach
        the reader (or the zones page) as a crash."""
        if not isinstance(data, dict):
            raise ValueError("a zone map is an object with 'zones' and 'frame_size'")
        size = _pixel_size(data.get("frame_size", [1280, 960]), "frame_size")
        raw = data.get("zones")
        if not isinstance(raw, dict) or not raw:
            raise ValueError("'zones' must name at least one zone: {name: [[x, y], ...]}")
        zones = []
        for name, pts in raw.items():
            if (not isinstance(pts, list) or len(pts) < 3
                    or not all(isinstance(p, list) and len(p) == 2 and all(_finite(v) for v in p)
                               for p in pts)):
                raise ValueError(f"zone {name!r}: a zone is three or more [x, y] corners, in numbers")
            zones.append(Zone(str(name), tuple((float(x), float(y)) for x, y in pts)))
        plane = None
        if data.get("table") is not None:
            table = data["table"]
            if not isinstance(table, dict):
                raise ValueError("'table' must be {homography: 3x3, size: [w, h]}")
            h = table.get("homography")
            if (not isinstance(h, list) or len(h) != 3
                    or not all(isinstance(r, list) and len(r) == 3 and all(_finite(v) for v in r) for r in h)
                    or abs(np.linalg.det(np.asarray(h, np.float64))) < 1e-12):
                raise ValueError("'table': the homography must be 3 rows of 3 numbers, invertible")
            plane = TablePlane(np.asarray(h, np.float64), _pixel_size(table.get("size"), "table size"))
        return cls(zones, size, plane)

    def to_text(self) -> str:
        return json.dumps(self.to_json(), indent=2) + "\n"

    def save(self, path: str | Path) -> None:
        """A plain write (tests, benches); the service saves its own through
        ``controller.readers.zone_file``, atomically and for its user only."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(self.to_text())

    @classmethod
    def load(cls, path: str | Path) -> ZoneMap:
        try:
            data = json.loads(Path(path).read_text())
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{Path(path).name} is not JSON: {exc}") from None
        zones = cls.from_json(data)
        if data.get("empty_table"):
            zones.empty_path = Path(path).parent / Path(str(data["empty_table"])).name  # beside it, only
        return zones

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


def empty_beside(path: str | Path) -> Path:
    """Where the empty table's picture is kept: beside the zone map, named after it."""
    return Path(path).with_name(Path(path).stem + "-empty.png")


def _finite(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and bool(np.isfinite(v))


def _pixel_size(v: object, what: str) -> tuple[int, int]:
    if (not isinstance(v, list) or len(v) != 2 or not all(_finite(x) for x in v)
            or not all(1 <= x <= 100_000 for x in v)):  # type: ignore[operator]
        raise ValueError(f"'{what}' must be [width, height] in pixels")
    return int(v[0]), int(v[1])  # type: ignore[arg-type]


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
    quads: dict[int, np.ndarray] = {}
    if ids is not None:
        for quad, mid in zip(found, ids.ravel(), strict=True):
            name = MARKER_ZONES.get(int(mid))
            if name is None:
                continue
            q = quad.reshape(4, 2)
            quads[int(mid)] = q
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
    return ZoneMap(zones, (w, h), plane_from_markers(quads, (w, h)) if quads else None)


def plane_from_zones(zones: ZoneMap) -> TablePlane | None:
    """The table plane from the four seats' spots as marked (boxes dragged on a frame):
    their centres lie on a square round the middle of the table. None without all four,
    or where they make no such square seen at a slant: a crossed shape (two seats'
    boxes swapped) or three nearly in a line, whose plane would put the seats' cards
    outside every zone, without a word."""
    by_name = {z.name: z for z in zones.zones}
    seats = [by_name.get(f"seat{i}") for i in range(4)]
    if any(z is None for z in seats):
        return None
    centres = np.array([np.mean(z.polygon, axis=0) for z in seats], np.float32)  # type: ignore[union-attr]
    if abs(cv2.contourArea(centres)) < 1.0 or not _round_the_table(centres):
        return None
    return plane_from_square(centres, zones.frame_size)


#: The least turn (sine of the angle) at each corner of the seats' square as a camera
#: sees it: at 45° from vertical its corners are still some 60-120°; three seats in a
#: line make a corner of about 180°.
SEAT_CORNER_SINE = 0.25


def _round_the_table(centres: np.ndarray) -> bool:
    """Whether four points, in order, make a convex corner at each, turning one way."""
    edges = np.roll(centres, -1, axis=0) - centres
    nxt = np.roll(edges, -1, axis=0)
    cross = edges[:, 0] * nxt[:, 1] - edges[:, 1] * nxt[:, 0]
    sines = cross / np.maximum(np.linalg.norm(edges, axis=1) * np.linalg.norm(nxt, axis=1), 1e-9)
    return bool(np.all(sines > SEAT_CORNER_SINE) or np.all(sines < -SEAT_CORNER_SINE))


def marker_image(marker_id: int, side_px: int = 200) -> np.ndarray:
    """A printable marker for the mat (white quiet border included)."""
    aruco = cv2.aruco
    img = aruco.generateImageMarker(
        aruco.getPredefinedDictionary(aruco.DICT_4X4_50), marker_id, side_px
    )
    return cv2.copyMakeBorder(
        img, side_px // 5, side_px // 5, side_px // 5, side_px // 5, cv2.BORDER_CONSTANT, value=255
    )
