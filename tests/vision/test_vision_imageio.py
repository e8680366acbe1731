"""Photos are decoded at the size the reader needs (memory on a Pi), never larger."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.imageio import decode_image, image_size, read_image, reduction


def test_a_big_jpeg_is_decoded_reduced_to_the_readers_size(tmp_path: Path) -> None:
    img = np.zeros((1950, 2600, 3), np.uint8)
    img[:, :1300] = (30, 160, 40)
    path = tmp_path / "big.jpg"
    cv2.imwrite(str(path), img)
    assert image_size(path.read_bytes()) == (2600, 1950)
    small = read_image(path)
    assert small is not None and small.shape == (960, 1280, 3)
    assert abs(int(small[480, 300, 1]) - 160) < 8  # the picture, not noise
    assert decode_image(path.read_bytes()).shape == (960, 1280, 3)


def test_small_images_and_pngs_are_left_at_their_size(tmp_path: Path) -> None:
    img = np.full((300, 400, 3), 200, np.uint8)
    cv2.imwrite(str(tmp_path / "s.png"), img)
    assert image_size((tmp_path / "s.png").read_bytes()) == (400, 300)
    assert read_image(tmp_path / "s.png").shape == (300, 400, 3)
    assert image_size(b"not an image") is None
    assert read_image(tmp_path / "missing.jpg") is None


def test_a_phone_photo_with_a_long_exif_block_is_still_decoded_reduced(tmp_path: Path) -> None:
    """A phone's EXIF (up to 64 KB) and colour profile before the frame header: read from
    the first 64 KB only, the size was not found and the 12 megapixels were decoded whole."""
    img = np.zeros((3000, 4000, 3), np.uint8)
    img[:, :2000] = (30, 160, 40)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    jpeg = buf.tobytes()
    exif = b"\xff\xe1" + (65535).to_bytes(2, "big") + b"Exif\x00\x00" + bytes(65527)
    icc = b"\xff\xe2" + (20002).to_bytes(2, "big") + bytes(20000)
    path = tmp_path / "phone.jpg"
    path.write_bytes(jpeg[:2] + exif + icc + jpeg[2:])
    assert image_size(path.read_bytes()[:65536]) is None  # past the first 64 KB
    assert reduction(path) == 2  # 4000 -> 2000, the least above 1280
    small = read_image(path)
    assert small is not None and small.shape == (960, 1280, 3)
    assert abs(int(small[480, 300, 1]) - 160) < 8


def test_the_size_is_the_one_the_decoder_will_use(tmp_path: Path) -> None:
    """A file built to read one way to a careless marker walk and another to libjpeg: a
    stuffed 0xFF 0x00 right after the start, whose next two bytes a walk that took it for
    a marker jumped by, onto a small frame header hidden in an APP1 block; libjpeg passes
    the stuffed bytes over and finds the real header, 20000 x 20000 (an outside attack:
    664 bytes that passed as 640 x 480 and took the referee to 2.4 GB). Also a PNG whose
    first chunk is no IHDR has no size."""
    import struct

    ok, buf = cv2.imencode(".jpg", np.zeros((16, 16, 3), np.uint8))
    assert ok
    jpeg = buf.tobytes()
    sof = jpeg.index(b"\xff\xc0")
    real = bytearray(jpeg[sof:])
    real[5:9] = struct.pack(">HH", 20000, 20000)
    fake = b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", 480, 640) + bytes(12)
    app1 = b"\xff\xe1" + struct.pack(">H", 10 + len(fake) + 2) + bytes(10) + fake
    crafted = jpeg[:2] + b"\xff\x00\x00\x10" + app1 + jpeg[2:sof] + bytes(real)
    assert image_size(crafted) == (20000, 20000)
    png = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    assert image_size(png) == (8, 8)
    assert image_size(png[:12] + b"tEXt" + png[16:]) is None
