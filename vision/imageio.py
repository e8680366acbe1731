"""Decode photos at the size the reader needs, not at the size the phone took them.

A 12-megapixel JPEG decodes to 36 MB of pixels (and more in the copies around it), only
to be scaled down to 1280 px at once. JPEG can decode at 1/2, 1/4 or 1/8 scale directly
(OpenCV's ``IMREAD_REDUCED_COLOR_*``), so the size is read from the file header first
and the largest reduction that still leaves at least the wanted long side is used.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

#: The long side the camera reader works at (frames are 1280x960).
LONG_SIDE = 1280
_REDUCED = {
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def image_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from the start of a JPEG or PNG file, or None if not found.

    The markers are walked as libjpeg walks them (bytes up to the next 0xFF passed over,
    0xFF fill bytes too, a stuffed 0xFF 0x00 no marker), so the size found is the one the
    decoder will use: a file whose markers read one way here and another there could pass
    as small and be decoded huge."""
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        if len(head) < 24 or head[12:16] != b"IHDR":  # libpng wants IHDR first
            return None
        w, h = struct.unpack(">II", head[16:24])
        return int(w), int(h)
    if head[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(head):
        if head[i] != 0xFF:
            i += 1
            continue
        marker = head[i + 1]
        if marker in _SOF:
            h, w = struct.unpack(">HH", head[i + 5 : i + 9])
            return int(w), int(h)
        if marker == 0xDA:  # the scan starts: a frame header would have come before it
            return None
        if marker in (0xD8, 0x01, 0x00) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2  # 0x00: a stuffed byte, passed over as libjpeg does
            continue
        (length,) = struct.unpack(">H", head[i + 2 : i + 4])
        i += 2 + length
    return None


def _factor(size: tuple[int, int] | None, long_side: int) -> int:
    if size is None:
        return 1
    f = 1
    while f < 8 and max(size) // (f * 2) >= long_side:
        f *= 2
    return f


def _fit(img: np.ndarray | None, long_side: int) -> np.ndarray | None:
    if img is None or max(img.shape[:2]) <= long_side:
        return img
    s = long_side / max(img.shape[:2])
    return cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)


#: Bytes read from a file's start for its size: a phone's EXIF (up to 64 KB, with its
#: thumbnail) and colour profile come before a JPEG's frame header.
HEAD_BYTES = 256 * 1024


def reduction(path: str | Path, long_side: int = LONG_SIDE) -> int | None:
    """How much smaller than its full size the picture at ``path`` is decoded (1, 2, 4 or
    8), or None if the file cannot be read."""
    try:
        with Path(path).open("rb") as f:
            head = f.read(HEAD_BYTES)
    except OSError:
        return None
    return _factor(image_size(head), long_side)


def read_image(path: str | Path, long_side: int = LONG_SIDE) -> np.ndarray | None:
    """The image at ``path`` (BGR) with its long side at most ``long_side`` pixels."""
    f = reduction(path, long_side)
    if f is None:
        return None
    return _fit(cv2.imread(str(path), _REDUCED.get(f, cv2.IMREAD_COLOR)), long_side)


def decode_image(data: bytes, long_side: int = LONG_SIDE) -> np.ndarray | None:
    """Like :func:`read_image`, from bytes in memory (an upload)."""
    f = _factor(image_size(data[:HEAD_BYTES]), long_side)
    buf = np.frombuffer(data, np.uint8)
    return _fit(cv2.imdecode(buf, _REDUCED.get(f, cv2.IMREAD_COLOR)), long_side)
