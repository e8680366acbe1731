"""bench/vision_misses.py: each missed card is put in one class by what covers its
index. Detections and a one-photo set are made here (never the real photos)."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detector import Detection
from vision.synth import CardSpec, scene

MISSES = runpy.run_path(str(Path(__file__).resolve().parents[2] / "bench" / "vision_misses.py"))


def square(x: float, y: float, side: float = 100.0) -> np.ndarray:
    return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], np.float32)


def test_a_missed_card_is_classed_by_what_covers_its_index() -> None:
    kind = MISSES["kind_of_miss"]
    # boxes are in the set's 640-pixel frame; detections in the bench's 1280 one
    boxes = [
        {"card": "10C", "box": [10, 10, 30, 40]},  # centre (40, 50) at 1280
        {"card": "7H", "box": [200, 200, 220, 230]},  # centre (420, 430)
        {"card": "2S", "box": [500, 500, 520, 530]},
    ]
    dets = [
        Detection(square(0, 0), "KD", 0.9),  # over the ten's index
        Detection(square(380, 380), None, 0.0),  # over the seven's
    ]
    assert kind("TC", boxes, dets) == "other_card"
    assert kind("7H", boxes, dets) == "unread"
    assert kind("2S", boxes, dets) == "no_outline"


def test_the_bench_counts_a_read_card_by_series(tmp_path: Path, capsys) -> None:
    (tmp_path / "singles").mkdir()
    img, _ = scene([CardSpec("AS", (320, 320), 300, 5)], seed=3, size=(640, 640), glare=False)
    # a white-deck phone photo from the later development part
    cv2.imwrite(str(tmp_path / "singles" / "AS_IMG_20220921_200200_jpg.jpg"), img)
    (tmp_path / "index_boxes.json").write_text(json.dumps({}))
    assert MISSES["main"]([str(tmp_path), "--part", "dev-late"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line == (
        "vision_misses series=white right=1 no_outline=0 unread=0 other_card=0 read_not_there=0"
    )


def test_unstretched_photos_take_their_series_shape_and_boxes_follow(tmp_path: Path) -> None:
    """The set stretched every photo to 640×640; ``--unstretch`` reads each series at the
    shape it was taken at (phones 3:4 portrait, the webcam 16:9), and a box in the set's
    640-pixel frame lands on the same spot of the photo as read."""
    load = MISSES["load_frame"]
    for name, stretched, unstretched in (
        ("WIN_20240627_11_36_02_Pro.jpg", (1280, 1280), (720, 1280)),
        ("IMG_20220921_193957.jpg", (1280, 1280), (1280, 960)),
        ("KD_table.jpg", (1280, 1280), (1280, 1280)),  # a photo of no known series
    ):
        path = tmp_path / name
        cv2.imwrite(str(path), np.full((640, 640, 3), 200, np.uint8))
        assert load(path).shape[:2] == stretched
        assert load(path, True).shape[:2] == unstretched
    # a phone's own photo, never stretched square, keeps its shape
    path = tmp_path / "IMG_20260101_120000.jpg"
    cv2.imwrite(str(path), np.full((480, 640, 3), 200, np.uint8))
    assert load(path, True).shape[:2] == (960, 1280)
    kind = MISSES["kind_of_miss"]
    boxes = [{"card": "7H", "box": [320, 320, 340, 340]}]  # centre (330, 330) of 640
    # at 1280×720 that centre is (660, 371): inside this outline, not at (660, 660)
    assert kind("7H", boxes, [Detection(square(610, 321), None, 0.0)], (720, 1280)) == "unread"
    assert kind("7H", boxes, [Detection(square(610, 321), None, 0.0)]) == "no_outline"


def test_scene_cards_are_split_by_the_corners_in_view(tmp_path: Path, capsys) -> None:
    """With the set's index boxes, a scene's cards are counted apart as ``open`` (both
    corner indices boxed: a card lying apart or a pile's top card) and ``covered`` (fewer):
    the figure the issue asks of a pile's top card. Two cards lie apart and both read;
    the boxes say the king shows one corner, so it is counted as covered."""
    bench = runpy.run_path(
        str(Path(__file__).resolve().parents[2] / "bench" / "vision_accuracy.py")
    )
    scenes = tmp_path / "scenes"
    scenes.mkdir()
    img, _ = scene([CardSpec("AS", (400, 480), 300, 0), CardSpec("KH", (880, 480), 300, 0)], seed=3)
    cv2.imwrite(str(scenes / "multi_a.jpg"), img)
    cv2.imwrite(str(scenes / "multi_b.jpg"), img)
    labels = {"multi_a.jpg": ["AS", "KH", "2C"], "multi_b.jpg": ["AS", "KH"]}
    (scenes / "labels.json").write_text(json.dumps(labels))
    box = {"box": [0, 0, 10, 10]}
    boxes = {
        "multi_a.jpg": [{"card": "AS", **box}, {"card": "AS", **box}, {"card": "KH", **box}],
        "scenes/multi_b.jpg": [{"card": "10C", **box}, {"card": "KH", **box}],
    }
    (tmp_path / "index_boxes.json").write_text(json.dumps(boxes))
    assert bench["main"]([str(scenes)]) == 0
    out = capsys.readouterr().out
    assert "no index boxes" not in out
    line = out.strip().splitlines()[-1]
    # open: the first scene's ace (two boxes); covered: the kings (one box each), the
    # first scene's two of clubs (none; not in view, so not read) and the second's ace
    # (its box is not in that scene's list)
    assert "cards=5 right_pct=80.0" in line
    assert "open_cards=1 open_right_pct=100.0 open_counted_pct=100.0" in line
    assert "covered_cards=4 covered_right_pct=75.0 covered_counted_pct=75.0" in line
    # a scene the boxes leave out is named (its cards count as covered)
    del boxes["scenes/multi_b.jpg"]
    (tmp_path / "index_boxes.json").write_text(json.dumps(boxes))
    assert bench["main"]([str(scenes)]) == 0
    out = capsys.readouterr().out
    assert "no index boxes for multi_b.jpg" in out and "covered_cards=4" in out
    # without boxes, no split
    (tmp_path / "index_boxes.json").unlink()
    assert bench["main"]([str(scenes)]) == 0
    assert "open_cards" not in capsys.readouterr().out
    # a boxes file named but not there: a clear error, not a traceback
    with pytest.raises(SystemExit) as stop:
        bench["main"]([str(scenes), "--index-boxes", str(tmp_path / "none.json")])
    assert stop.value.code == 2
    assert "--index-boxes: no such file" in capsys.readouterr().err


def test_a_card_read_counts_as_placed_only_where_its_index_was_boxed(
    tmp_path: Path, capsys
) -> None:
    """The referee needs each card at its place: ``placed_pct`` counts a card read right
    only where the outline it was read in holds one of the boxes the set drew round that
    card's indices (here, boxes drawn at the cards' middles). The king's boxes are first
    drawn inside the ace, so the king, read right at its own place, is not placed."""
    bench = runpy.run_path(
        str(Path(__file__).resolve().parents[2] / "bench" / "vision_accuracy.py")
    )
    scenes = tmp_path / "scenes"
    scenes.mkdir()
    img, _ = scene([CardSpec("AS", (400, 480), 300, 0), CardSpec("KH", (880, 480), 300, 0)], seed=3)
    (scenes / "labels.json").write_text(json.dumps({"multi_a.jpg": ["AS", "KH"]}))
    # the photo stored at half size, its boxes in its pixels: the bench scales them
    small = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2))
    cv2.imwrite(str(scenes / "multi_a.jpg"), small)
    boxes = {
        "multi_a.jpg": [
            {"card": "AS", "box": [190, 230, 210, 250]},
            {"card": "AS", "box": [190, 230, 210, 250]},
            {"card": "KH", "box": [190, 230, 210, 250]},
            {"card": "KH", "box": [200, 240, 210, 250]},
        ]
    }
    (tmp_path / "index_boxes.json").write_text(json.dumps(boxes))
    assert bench["main"]([str(scenes)]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert "cards=2 right_pct=100.0" in line
    assert "placed_pct=50.0" in line
    # the king's box moved onto the king: both placed
    boxes["multi_a.jpg"][2:] = [{"card": "KH", "box": [430, 230, 450, 250]}] * 2
    (tmp_path / "index_boxes.json").write_text(json.dumps(boxes))
    assert bench["main"]([str(scenes)]) == 0
    assert "placed_pct=100.0" in capsys.readouterr().out.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("reads", "kind"),
    [
        ([(None, 0.0), ("7H", 0.62)], "handed_right"),  # one box reads it, counted
        ([("7H", 0.41), ("7S", 0.7)], "handed_weak"),  # its own read wins, if weak
        ([("7S", 0.7), (None, 0.0)], "handed_other"),
        ([(None, 0.0), (None, 0.0)], "handed_none"),
        ([], "handed_none"),  # no box of it
    ],
)
def test_a_missed_card_is_classed_by_its_index_read_handed_over(
    reads: list[tuple[str | None, float]], kind: str
) -> None:
    assert MISSES["handed_kind"](reads, "7H") == kind


def test_handed_over_a_card_the_photo_shows_its_box_reads_as_that_card(
    tmp_path: Path, capsys
) -> None:
    """A scene labelled with a card it does not show (the set has such label errors):
    the card is missed (the ace's outline covers its box), and its box, drawn round the
    index that is there, reads as the card shown (``handed_other``), counted in the
    summary line."""
    (tmp_path / "scenes").mkdir()
    img, _ = scene([CardSpec("AS", (320, 320), 300, 0)], seed=3, size=(640, 640), glare=False)
    name = "multi_IMG_20220921_200200_jpg.jpg"
    cv2.imwrite(str(tmp_path / "scenes" / name), img)
    (tmp_path / "scenes" / "labels.json").write_text(json.dumps({name: ["KD"]}))
    box = {"card": "KD", "box": [205, 160, 260, 250]}  # round the ace's top-left index
    (tmp_path / "index_boxes.json").write_text(json.dumps({f"scenes/{name}": [box]}))
    args = [str(tmp_path), "--part", "dev-late", "--scenes", "--handed", "--list"]
    assert MISSES["main"](args) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0] == f"{name} KD other_card handed_other"
    assert out[-1].endswith(
        "read_not_there=1 handed_right=0 handed_weak=0 handed_other=1 handed_none=0"
    )
