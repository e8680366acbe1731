"""``courtpiece calibrate``: mark the play spots in the camera view and save them.

Two ways, both ending in the same JSON zone map (``vision.zones.ZoneMap``):

* printed markers: lay the ArUco markers (``--print-markers DIR`` writes them) at the
  play spots, point the camera, and run ``courtpiece calibrate --camera 0``;
* boxes: ``--box seat0=x,y,w,h`` per spot, as dragged on a captured frame
  (``--capture frame.jpg`` saves one to drag on).

Markers also give the table's plane (a homography to a top-down view), so a camera at an
angle reads like an overhead one; with boxes, ``--table-from-seats`` takes the plane
from the four seats' spots (their centres lie on a square round the table).
``--empty FRAME`` (an image file or the camera) keeps a frame of the table as it is
during play but with no cards on it, beside the zone map: the surest reference for
finding cards on a light table.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from controller.config import add_size_option

#: The zone map's name in the state directory: where ``courtpiece run`` looks for it
#: when ``[camera] zones_file`` names no other file.
ZONES_FILE = "camera-zones.json"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "calibrate", help="mark the camera's play spots (zones) and save them"
    )
    p.add_argument(
        "--camera",
        default="0",
        help="camera index, 'picamera2', a video file or an image (with --box: the picture "
        "the boxes were read off, whose size is saved with them)",
    )
    add_size_option(p)
    p.add_argument(
        "--zones",
        dest="config",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"where the zone map is saved (default DIR/{ZONES_FILE}, which the referee reads)",
    )
    p.add_argument(
        "--state-dir",
        default=os.environ.get("STATE_DIRECTORY", "./courtpiece-state"),
        metavar="DIR",
        help="the referee's state directory (default $STATE_DIRECTORY, else "
        "./courtpiece-state; on the Pi /var/lib/courtpiece)",
    )
    p.add_argument(
        "--box",
        action="append",
        default=[],
        metavar="ZONE=X,Y,W,H",
        help="a zone as a box in frame pixels",
    )
    p.add_argument(
        "--capture", type=Path, help="save one camera frame here (to drag zones on) and stop"
    )
    p.add_argument(
        "--print-markers", type=Path, metavar="DIR", help="write printable zone markers and stop"
    )
    p.add_argument(
        "--table-from-seats",
        action="store_true",
        help="with --box: take the table's plane from the four seats' boxes",
    )
    p.add_argument(
        "--empty",
        metavar="FRAME",
        help="a frame (image file or camera) of the empty table, kept as the reference",
    )
    p.set_defaults(handler=run)


def _frame(spec: str, size: tuple[int, int] = (1280, 960)):
    from vision.imageio import read_image

    image = read_image(spec) if Path(spec).is_file() else None
    if image is not None:
        return image
    from controller.readers.camera import open_source

    source = open_source(spec, size)
    try:
        for _ in range(5):  # let exposure settle
            frame = source.read()
        return frame
    finally:
        source.close()


def _box_frame_size(camera: str, size: tuple[int, int]) -> tuple[int, int]:
    """The size of the frame ``--box`` boxes were read off: the picture ``--camera`` names
    (the frame ``--capture`` saved), else ``--size`` (the camera's frame, 1280 × 960 unless
    told). A camera is not opened for it: the referee may hold it."""
    from vision.imageio import read_image

    image = read_image(camera) if Path(camera).is_file() else None
    return (image.shape[1], image.shape[0]) if image is not None else size


def run(args: argparse.Namespace) -> int:
    import cv2

    from controller.readers.sightings import CAMERA_NEEDS
    from controller.readers.zone_file import save_zone_map
    from vision.zones import (
        MARKER_ZONES,
        ZoneMap,
        marker_image,
        plane_from_zones,
        zones_from_markers,
    )

    if args.print_markers:
        args.print_markers.mkdir(parents=True, exist_ok=True)
        for mid, zone in MARKER_ZONES.items():
            cv2.imwrite(
                str(args.print_markers / f"marker-{mid}-{zone}.png"), marker_image(mid, 400)
            )
        print(f"wrote {len(MARKER_ZONES)} markers to {args.print_markers}")
        return 0
    if args.box:
        from controller.readers.sightings import ALL_ZONES
        from controller.readers.zone_file import MIN_SIDE

        boxes = {}
        for item in args.box:
            name, _, nums = item.partition("=")
            try:
                x, y, w, h = (float(v) for v in nums.split(","))
            except ValueError:
                print(f"--box {item}: give ZONE=X,Y,W,H, four numbers in frame pixels")
                return 1
            if name not in ALL_ZONES:
                print(f"--box {item}: no zone {name!r}; zones: {', '.join(ALL_ZONES)}")
                return 1
            if name in boxes:
                print(f"--box {item}: {name} is given twice; give each spot once")
                return 1
            if w < MIN_SIDE or h < MIN_SIDE:
                print(f"--box {item}: the box is smaller than {MIN_SIDE}x{MIN_SIDE} pixels: a typo, "
                      "not a play spot")
                return 1
            boxes[name] = (x, y, w, h)
        frame_size = _box_frame_size(args.camera, args.size)
        fw, fh = frame_size
        outside = [n for n, (x, y, w, h) in boxes.items()
                   if w <= 0 or h <= 0 or x < 0 or y < 0 or x + w > fw or y + h > fh]
        if outside:
            print(f"{', '.join(outside)}: not within the {fw}x{fh} frame the boxes are read "
                  "off (--camera names the picture, else --size gives the frame)")
            return 1
        zones = ZoneMap.rectangles(boxes, frame_size)
        for a, b in zones.overlapping():
            print(f"{a} and {b} cover much of one place: a card there would count for "
                  "either; move one of them")
            return 1
        empty = None
        if args.table_from_seats:
            plane = plane_from_zones(zones)
            if plane is None:
                print("--table-from-seats needs boxes for seat0, seat1, seat2 and seat3, "
                      "in turn round the table (a square seen from the camera)")
                return 1
            zones = zones.with_plane(plane)
    else:
        try:
            frame = _frame(args.camera, args.size)
        except OSError as exc:  # no such camera (none attached, or the referee holds it)
            print(f"no frame from {args.camera}: {exc}")
            return 1
        if frame is None:
            print(f"no frame from {args.camera}")
            return 1
        if args.capture:
            cv2.imwrite(str(args.capture), frame)
            print(f"saved a {frame.shape[1]}x{frame.shape[0]} frame to {args.capture}")
            return 0
        zones = zones_from_markers(frame)
        if not zones.zones:
            print("no zone markers in view (see --print-markers)")
            return 1
        empty = None  # the markers may be lifted for play: the reference is taken apart
    if args.empty:
        empty = _frame(args.empty, args.size)
    target = args.config or Path(args.state_dir) / ZONES_FILE
    save_zone_map(zones, Path(target), empty)
    plane = " with the table's plane" if zones.plane is not None else ""
    kept = f", the empty table beside it ({zones.empty_path.name})" if empty is not None else ""
    print(f"saved zones {', '.join(zones.names())}{plane} on a {zones.frame_size[0]}x"
          f"{zones.frame_size[1]} frame to {target}{kept}")
    unmarked = [n for n in CAMERA_NEEDS if n not in zones.names()]
    if unmarked:
        # saved all the same, as the dashboard does: the deal spot may have its own RFID
        # reader; but a camera-only table sees no card laid on a spot left out
        how = "markers" if not args.box else "--box"
        print(f"NOT MARKED: {', '.join(unmarked)}. A card laid there is not seen by the camera. "
              f"Each run replaces the whole map: run again with {how} for every spot "
              f"({', '.join(CAMERA_NEEDS)}; trump too if the trump card is laid on its own spot)")
    return 0
