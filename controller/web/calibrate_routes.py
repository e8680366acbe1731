"""Camera zones from the dashboard: show a frame, drag a box per play spot, save.

Why here and not only in ``courtpiece calibrate``: the organiser sets the table up with
a phone in hand, not a terminal. The page draws on a frame from the running camera
reader, or on a photo the organiser uploads when no camera is attached; the boxes are
saved as a :class:`vision.zones.ZoneMap` in the very file the service loads its zones
from, and handed to the running reader when there is one (``on_zones``).

Every route is admin-only; the two POSTs also pass the Origin and CSRF checks of
:class:`controller.web.admin_routes.Gate`, like every other state change.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from controller.readers.sightings import ALL_ZONES, CAMERA_NEEDS
from controller.readers.zone_file import MIN_SIDE
from controller.web.admin_routes import Gate
from controller.web.public_routes import page

if TYPE_CHECKING:  # numpy and OpenCV (through vision) load on first use: a table without
    import numpy as np  # a camera never pays their memory (bench/memory.py)

    from vision.zones import ZoneMap

FrameGetter = Callable[[], "np.ndarray | None"]
ZonesHook = Callable[["ZoneMap"], None]

#: Uploaded photos: a phone JPEG is a few MB; anything much bigger is a mistake.
MAX_UPLOAD_BYTES = 12 * 1024 * 1024
MAX_SIDE = 4096
ZONES_FILE = "camera-zones.json"
NO_STORE = {"Cache-Control": "no-store"}


class FrameStore:
    """The photo uploaded for drawing on (in memory: it is only a drawing surface)."""

    def __init__(self) -> None:
        self._frame: np.ndarray | None = None
        self._lock = threading.Lock()

    def put(self, frame: np.ndarray) -> None:
        with self._lock:
            self._frame = frame

    def get(self) -> np.ndarray | None:
        with self._lock:
            return self._frame


_DECODING = threading.Lock()


def decode_image(data: bytes) -> np.ndarray:
    """A BGR frame from uploaded bytes, or a 400 that says what was wrong."""
    import cv2
    import numpy as np

    from vision.imageio import image_size

    if not data:
        raise HTTPException(400, "no image in the upload")
    if len(data) > MAX_UPLOAD_BYTES:
        raise HTTPException(413, f"the image is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB")
    # the size from the header before a pixel is decoded: a small compressed file can
    # declare a picture of gigabytes (a PNG of 16000 x 16000 in 0.75 MB), which would be
    # allocated whole before its size could be refused. (The whole upload is searched:
    # a phone's EXIF and colour profile can put a JPEG's frame header past 64 KB.)
    size = image_size(data)
    if size is None:
        raise HTTPException(400, "not an image the dashboard takes: save the photo as JPEG or PNG")
    if max(size) > MAX_SIDE or min(size) < MIN_SIDE:
        w, h = size
        raise HTTPException(400, f"the image is {w}×{h}; use one between {MIN_SIDE} and {MAX_SIDE} pixels a side")
    # one decode at a time: a picture within the size limit can still take far more than
    # its file while it decodes (a 4096 x 4096 progressive JPEG about 150 MB), and four
    # uploads at once took the process from 170 to 816 MB
    with _DECODING:
        frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        raise HTTPException(400, "not an image OpenCV can read (use JPEG or PNG)")
    h, w = frame.shape[:2]
    if w > MAX_SIDE or h > MAX_SIDE or w < MIN_SIDE or h < MIN_SIDE:
        raise HTTPException(400, f"the image is {w}×{h}; use one between {MIN_SIDE} and {MAX_SIDE} pixels a side")
    return frame


def encode_jpeg(frame: np.ndarray) -> bytes:
    import cv2

    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise HTTPException(500, "could not encode the frame as JPEG")
    return buf.tobytes()


def _number(v: Any) -> bool:
    """A JSON number that can be a pixel count: not a bool, not NaN or infinite (Python's
    JSON reads both)."""
    return isinstance(v, int | float) and not isinstance(v, bool) and (isinstance(v, int) or math.isfinite(v))


def validate(body: Any) -> tuple[dict[str, tuple[float, float, float, float]], tuple[int, int]]:
    """``{zones: {name: [x, y, w, h]}, frame_size: [w, h]}`` checked, or a 400 saying why."""
    if not isinstance(body, dict):
        raise HTTPException(400, "send {zones: {name: [x, y, w, h]}, frame_size: [w, h]}")
    size = body.get("frame_size")
    if (not isinstance(size, list) or len(size) != 2
            or not all(_number(v) for v in size)):
        raise HTTPException(400, "frame_size must be [width, height] in pixels")
    fw, fh = int(size[0]), int(size[1])
    if not (MIN_SIDE <= fw <= MAX_SIDE and MIN_SIDE <= fh <= MAX_SIDE):
        raise HTTPException(400, f"frame_size {fw}×{fh} is not a camera frame size")
    zones = body.get("zones")
    if not isinstance(zones, dict) or not zones:
        raise HTTPException(400, "mark at least one zone")
    boxes: dict[str, tuple[float, float, float, float]] = {}
    for name, box in zones.items():
        if name not in ALL_ZONES:
            raise HTTPException(400, f"unknown zone {name!r}: the zones are {', '.join(ALL_ZONES)}")
        if (not isinstance(box, list) or len(box) != 4
                or not all(_number(v) and (isinstance(v, float) or abs(v) <= 4 * MAX_SIDE) for v in box)):
            # (an integer of hundreds of digits is no pixel, and no float either)
            raise HTTPException(400, f"{name}: a box is [x, y, width, height] in frame pixels")
        x, y, w, h = (float(v) for v in box)
        if w < MIN_SIDE or h < MIN_SIDE:
            raise HTTPException(400, f"{name}: the box is smaller than {MIN_SIDE}×{MIN_SIDE} pixels")
        if x < 0 or y < 0 or x + w > fw or y + h > fh:
            raise HTTPException(400, f"{name}: the box goes outside the {fw}×{fh} frame")
        boxes[name] = (round(x, 1), round(y, 1), round(w, 1), round(h, 1))
    return boxes, (fw, fh)


def save_or_500(zones: ZoneMap, path: Path, empty: np.ndarray | None) -> None:
    from controller.readers.zone_file import save_zone_map

    try:
        save_zone_map(zones, path, empty)
    except OSError:
        raise HTTPException(500, f"could not save the zones to {path.name}") from None


def boxes_of(zones: ZoneMap) -> dict[str, list[float]]:
    """Each zone's bounding box (marker zones are squares, dragged ones are boxes already)."""
    out = {}
    for z in zones.zones:
        xs = [p[0] for p in z.polygon]
        ys = [p[1] for p in z.polygon]
        out[z.name] = [round(min(xs), 1), round(min(ys), 1), round(max(xs) - min(xs), 1), round(max(ys) - min(ys), 1)]
    return out


def calibrate_router(gate: Gate, *, zones_file: Path | None, camera_frame: FrameGetter | None,
                     on_zones: ZonesHook | None) -> APIRouter:
    """Routes for ``/admin/calibrate``; ``zones_file`` None means nowhere to save (503)."""
    r = APIRouter()
    uploaded = FrameStore()

    def current_frame(source: str) -> np.ndarray | None:
        live = camera_frame() if camera_frame is not None and source in ("auto", "camera") else None
        if live is not None:
            return live
        return uploaded.get() if source in ("auto", "upload") else None

    @r.get("/admin/calibrate", include_in_schema=False)
    def calibrate_page() -> FileResponse:
        return page("calibrate.html")

    @r.get("/admin/api/calibrate/zones")
    def get_zones(request: Request) -> JSONResponse:
        gate.require_admin(request)
        saved: dict[str, Any] = {"zones": {}, "frame_size": None}
        if zones_file is not None and zones_file.exists():
            try:
                from vision.zones import ZoneMap

                zm = ZoneMap.load(zones_file)
                saved = {"zones": boxes_of(zm), "frame_size": list(zm.frame_size)}
            except (ValueError, KeyError, TypeError, OSError):
                saved["error"] = f"{zones_file.name} is unreadable; saving replaces it"
        return JSONResponse({**saved, "names": list(ALL_ZONES), "required": list(CAMERA_NEEDS),
                             "min_side": MIN_SIDE, "camera": camera_frame is not None,
                             "applies": "now" if on_zones is not None else "restart",
                             "file": str(zones_file) if zones_file else None}, headers=NO_STORE)

    @r.get("/admin/api/calibrate/frame")
    def get_frame(request: Request, source: str = "auto") -> Response:
        gate.require_admin(request)
        if source not in ("auto", "camera", "upload"):
            raise HTTPException(400, "source is auto, camera or upload")
        frame = current_frame(source)
        if frame is None:
            raise HTTPException(404, "no camera frame yet: upload a photo of the table")
        return Response(encode_jpeg(frame), media_type="image/jpeg", headers=NO_STORE)

    @r.post("/admin/api/calibrate/frame")
    async def upload_frame(request: Request) -> JSONResponse:
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > MAX_UPLOAD_BYTES + 64 * 1024:
            raise HTTPException(413, f"the image is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB")
        gate.before_upload(request)
        if not request.headers.get("content-type", "").startswith("multipart/form-data"):
            gate.check_post(request, None)
            raise HTTPException(400, "upload the photo as multipart/form-data (field 'image')")
        try:
            form = await request.form(max_files=1, max_fields=4)
        except Exception:  # noqa: BLE001 - any malformed multipart is the client's fault
            raise HTTPException(400, "unreadable upload") from None
        token = form.get("csrf")
        gate.check_post(request, token if isinstance(token, str) else None)
        gate.require_admin(request)
        image = form.get("image")
        if not isinstance(image, UploadFile):
            raise HTTPException(400, "no image in the upload (field 'image')")
        data = await image.read(MAX_UPLOAD_BYTES + 1)
        frame = await run_in_threadpool(decode_image, data)
        uploaded.put(frame)
        h, w = frame.shape[:2]
        return JSONResponse({"frame_size": [w, h]})

    @r.post("/admin/api/calibrate/zones")
    async def save_zones(request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deep
            body = None
        token = body.get("csrf") if isinstance(body, dict) else None
        gate.check_post(request, token if isinstance(token, str) else None)
        gate.require_admin(request)
        if zones_file is None:
            raise HTTPException(503, "this server has no state directory to save zones in")
        boxes, size = validate(body)
        for flag in ("table_from_seats", "empty_table"):
            if not isinstance(body.get(flag, False), bool):  # "no" is no yes
                raise HTTPException(400, f"{flag} is true or false")
        from vision.zones import ZoneMap, plane_from_zones

        zones = ZoneMap.rectangles(boxes, size)
        for a, b in zones.overlapping():
            raise HTTPException(400, f"{a} and {b} cover much of one place: a card there would "
                                     "count for either; move one of them")
        if body.get("table_from_seats"):
            # an oblique camera: the four seats' spots lie on a square round the table
            plane = plane_from_zones(zones)
            if plane is None:
                raise HTTPException(400, "the table's plane needs the boxes of seat0 to seat3, "
                                         "in turn round the table (a square seen from the camera)")
            zones = zones.with_plane(plane)
        empty = None
        if body.get("empty_table"):
            # the table as it is now, with no cards on it: the reference on a light table
            empty = current_frame("auto")
            if empty is None:
                raise HTTPException(400, "no frame of the empty table to keep")
            if (empty.shape[1], empty.shape[0]) != tuple(size):
                # the reader compares it with its frames pixel for pixel
                raise HTTPException(400, f"the empty table's frame is {empty.shape[1]}×{empty.shape[0]}, "
                                         f"the zones' frame {size[0]}×{size[1]}: they must be one size")
        await run_in_threadpool(save_or_500, zones, zones_file, empty)
        if on_zones is not None:
            on_zones(zones)
        return JSONResponse({"zones": {n: list(b) for n, b in boxes.items()}, "frame_size": list(size),
                             "missing": [n for n in CAMERA_NEEDS if n not in boxes],
                             "applied": on_zones is not None, "file": str(zones_file)})

    return r
