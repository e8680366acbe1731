"""The camera's zone map saved as the service's state, from the dashboard and the CLI alike.

It is written the way the project writes every state file a power cut must not spoil
(:mod:`controller.atomic_file`: whole or not at all, flushed to the card), and for the
service's user only: the map says where the table's spots are, and the empty table's
picture shows the room.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from controller.atomic_file import replace_bytes, replace_file

if TYPE_CHECKING:
    import numpy as np

    from vision.zones import ZoneMap

PRIVATE = 0o600
#: A zone box smaller than this (frame pixels) a side is a slip of the finger or a typo,
#: not a play spot: the dashboard and ``courtpiece calibrate`` refuse it alike.
MIN_SIDE = 20


def save_zone_map(zones: ZoneMap, path: Path, empty: np.ndarray | None = None) -> None:
    """Write ``zones`` to ``path`` and, when given, ``empty`` (a frame of the empty table)
    as a PNG beside it, which the map then names; without one, an older empty table's
    picture beside it is removed (each calibration replaces the whole map)."""
    import cv2

    from vision.zones import empty_beside

    if empty is not None:
        ok, png = cv2.imencode(".png", empty)
        if not ok:
            raise OSError(f"could not encode the empty table for {path.name}")
        zones.empty_path = empty_beside(path)
        replace_bytes(zones.empty_path, png.tobytes(), mode=PRIVATE)
    replace_file(path, zones.to_text(), mode=PRIVATE)
    if empty is None:
        # an older calibration's picture of the room, which the new map no longer names
        empty_beside(path).unlink(missing_ok=True)
