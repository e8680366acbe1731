"""bench/vision_degraded.py, the organiser's check of how a deck's photos hold up when
spoiled: it reads a folder of single-card photos named by their card (rendered here),
plain and spoiled, and says what it cannot read."""

from __future__ import annotations

import runpy
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.synth import CardSpec, scene

BENCH = Path(__file__).resolve().parents[2] / "bench" / "vision_degraded.py"


@pytest.fixture(scope="module")
def bench() -> dict:
    return runpy.run_path(str(BENCH), run_name="bench")


def test_spoiled_kinds_change_the_frame_as_they_say(bench: dict) -> None:
    frame, _ = scene([CardSpec("9H", (640, 480), 300, 20)], seed=2)
    rng = np.random.default_rng(0)
    kinds = bench["KINDS"]
    grey = kinds["grey"](frame, rng)
    assert np.array_equal(grey[..., 0], grey[..., 2]) and not np.array_equal(frame, grey)
    assert kinds["dim"](frame, rng).mean() == pytest.approx(0.55 * frame.mean(), rel=0.02)
    assert kinds["washed"](frame, rng).mean() > frame.mean()
    assert kinds["hazed"](frame, rng).min() >= 110 > frame.min()
    blur = kinds["blur"](frame, rng)
    assert cv2.Laplacian(blur, cv2.CV_32F).var() < 0.5 * cv2.Laplacian(frame, cv2.CV_32F).var()
    for kind, spoil in kinds.items():
        out = spoil(frame, rng)
        assert out.shape == frame.shape and out.dtype == np.uint8, kind


def test_a_folder_of_cards_is_read_plain_and_spoiled(tmp_path: Path, bench: dict, capsys) -> None:
    for k, card in enumerate(("QS", "7D")):
        frame, _ = scene([CardSpec(card, (640, 480), 320, 15 * k)], seed=k)
        cv2.imwrite(str(tmp_path / f"{card}_{k}.png"), frame)
    cv2.imwrite(str(tmp_path / "notes.png"), np.zeros((8, 8, 3), np.uint8))  # no card named
    assert bench["main"]([str(tmp_path), "--only", "grey", "--show-misses"]) == 0
    out = capsys.readouterr().out
    assert "1 photos not named by their card left out (first: notes.png)" in out
    assert "plain   right 2/2 (100.0%)" in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("vision_degraded photos=2 plain_right_pct=100.0 ")
    assert " worst=grey " in last and "wrong_sure=0" in last


def test_a_folder_with_no_card_named_is_said_so(tmp_path: Path, bench: dict, capsys) -> None:
    cv2.imwrite(str(tmp_path / "table.png"), np.zeros((8, 8, 3), np.uint8))
    assert bench["main"]([str(tmp_path)]) == 2
    assert "no photo" in capsys.readouterr().out
    assert bench["main"]([str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().out


def test_the_held_out_part_is_not_read_and_its_photos_are_pointed_out(
    tmp_path: Path, bench: dict, capsys
) -> None:
    frame, _ = scene([CardSpec("KH", (640, 480), 320, 5)], seed=4)
    # named as a photo of the real-photo set's held-out part (bench/photo_split.py)
    cv2.imwrite(str(tmp_path / "KH_IMG_20220921_203000_jpg.jpg"), frame)
    with pytest.raises(SystemExit):
        bench["main"]([str(tmp_path), "--part", "held"])
    capsys.readouterr()
    assert bench["main"]([str(tmp_path), "--only", "jpeg"]) == 0
    assert "--part dev leaves them out" in capsys.readouterr().out
    assert bench["main"]([str(tmp_path), "--part", "dev", "--only", "jpeg"]) == 2
    assert "no photo in the dev part of" in capsys.readouterr().out


def test_a_folder_of_labelled_scenes_is_read_plain_and_spoiled(
    tmp_path: Path, bench: dict, capsys
) -> None:
    """A folder with a labels.json is read as scenes: the labelled cards counted, and a
    labelled card that is not in view is counted as missed, per kind."""
    import json

    frame, _ = scene(
        [CardSpec("QS", (400, 480), 320, 10), CardSpec("7D", (880, 480), 320, -15)], seed=1
    )
    cv2.imwrite(str(tmp_path / "table.png"), frame)
    (tmp_path / "labels.json").write_text(json.dumps({"table.png": ["QS", "7D", "2C"]}))
    assert bench["main"]([str(tmp_path), "--only", "hazed", "--show-misses"]) == 0
    out = capsys.readouterr().out
    assert "plain   counted 2/3 (66.7%)  wrong counted 0" in out
    assert "table.png: missed ['2C'], wrong []" in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("vision_degraded_scenes scenes=1 cards=3 plain_counted_pct=66.7 ")
    assert " worst=hazed worst_counted_pct=66.7 " in last and last.endswith("wrong_sure=0")
    (tmp_path / "labels.json").write_text(json.dumps({"table.png": "QS"}))
    assert bench["main"]([str(tmp_path)]) == 2
    assert "should be a list of cards" in capsys.readouterr().out
