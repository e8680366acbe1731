"""Photos are decoded at the size the reader needs (memory on a Pi), never larger."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.imageio import decode_image, image_size, read_image


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
