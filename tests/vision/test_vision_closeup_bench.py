"""bench/vision_closeup.py, the close-ups made from single-card photos: one index corner
in view, the card's edges off the frame; read in colour and in grey."""

from __future__ import annotations

import runpy
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detector import CardDetector
from vision.locate import card_map
from vision.synth import CardSpec, scene

BENCH = Path(__file__).resolve().parents[2] / "bench" / "vision_closeup.py"


@pytest.fixture(scope="module")
def bench() -> dict:
    return runpy.run_path(str(BENCH), run_name="bench")


def card_photo(card: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A rendered photo of ``card`` and its outline as the detector reads it."""
    frame, _ = scene([CardSpec(card, (640, 480), 420, 10 + 20 * seed)], seed=seed)
    (det,) = [d for d in CardDetector().detect(frame) if d.card]
    assert det.card == card
    return frame, det.quad


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_close_up_holds_one_index_corner_and_loses_the_card_s_edges(
    bench: dict, seed: int
) -> None:
    frame, quad = card_photo("8C", seed)
    left, top, side = bench["window"](quad, frame.shape, 0.75, np.random.default_rng(seed))
    inside = [left <= x <= left + side and top <= y <= top + side for x, y in quad]
    assert not all(inside)  # the card runs off the close-up
    back = np.linalg.inv(card_map(quad.astype(np.float32), (200, 300)))
    boxes = []
    for x0, y0, x1, y1 in bench["INDEX_BOXES"]:
        pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32).reshape(-1, 1, 2)
        boxes.append(cv2.perspectiveTransform(pts, back).reshape(-1, 2))
    held = [bool(((b >= [left, top]) & (b <= [left + side, top + side])).all()) for b in boxes]
    assert held.count(True) == 1  # one index corner whole, the other out of view
    near = bench["close_up"](frame, quad, 0.75, np.random.default_rng(seed))
    assert near.shape == (1280, 1280, 3)


def test_a_card_too_small_for_a_close_up_gives_none(bench: dict) -> None:
    quad = np.array([[10, 10], [50, 10], [50, 70], [10, 70]], np.float32)  # 60 px long
    assert bench["window"](quad, (960, 1280, 3), 0.75, np.random.default_rng(0)) is None


def test_a_folder_of_cards_is_read_close_up(tmp_path: Path, bench: dict, capsys) -> None:
    for k, card in enumerate(("QS", "7D")):
        frame, _ = card_photo(card, k)
        cv2.imwrite(str(tmp_path / f"{card}_{k}.png"), frame)
    assert bench["main"]([str(tmp_path), "--show-misses"]) == 0
    out = capsys.readouterr().out
    last = out.strip().splitlines()[-1]
    assert last.startswith("vision_closeup photos=2 plain_right_pct=100.0 right_pct=")
    assert "wrong_sure=0" in last
    assert "colour right " in out and "grey   right " in out


def test_bad_arguments_are_said_so(tmp_path: Path, bench: dict, capsys) -> None:
    assert bench["main"]([str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().out
    assert bench["main"]([str(tmp_path)]) == 2
    assert "no photo" in capsys.readouterr().out
    assert bench["main"]([str(tmp_path), "--share", "1.2"]) == 2
    assert "--share" in capsys.readouterr().out
