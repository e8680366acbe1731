"""bench/vision_tilted_photos.py: photos taken from above, seen again by a camera at a
slant (the table plane's homography), read with and without the plane. Photos here are
rendered; the bench's own set is the real-photo set."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.synth import CardSpec, scene

BENCH = Path(__file__).resolve().parents[2] / "bench" / "vision_tilted_photos.py"


@pytest.fixture(scope="module")
def bench() -> dict:
    return runpy.run_path(str(BENCH), run_name="bench")


def corners(w: int, h: int) -> np.ndarray:
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32).reshape(-1, 1, 2)


def test_overhead_is_the_photo_itself(bench: dict) -> None:
    m = bench["tilted_camera"]((960, 1280, 3), 0)
    seen = cv2.perspectiveTransform(corners(1280, 960), m).reshape(-1, 2)
    assert np.allclose(seen, corners(1280, 960).reshape(-1, 2), atol=0.5)


@pytest.mark.parametrize("degrees", [30, 45])
def test_a_tilted_frame_lies_wholly_on_the_photo_and_squashes_the_far_side(
    bench: dict, degrees: int
) -> None:
    w, h = 1280, 960
    m = bench["tilted_camera"]((h, w, 3), degrees)
    back = cv2.perspectiveTransform(corners(w, h), np.linalg.inv(m)).reshape(-1, 2)
    # every corner of the frame sees the photo: no part of the frame is made up
    assert (back >= -0.5).all() and (back[:, 0] <= w + 0.5).all() and (back[:, 1] <= h + 0.5).all()

    # a 100 px square of the photo: smaller on the far side (top) than on the near side
    def size(y: float) -> float:
        sq = np.array([[590, y], [690, y], [690, y + 100], [590, y + 100]], np.float32)
        return float(cv2.contourArea(cv2.perspectiveTransform(sq.reshape(-1, 1, 2), m)))

    assert size(200) < 0.8 * size(660)
    # and squashed front to back: taller than wide no more
    sq = np.array([[590, 430], [690, 430], [690, 530], [590, 530]], np.float32)
    seen = cv2.perspectiveTransform(sq.reshape(-1, 1, 2), m).reshape(-1, 2)
    assert np.ptp(seen[:, 1]) < 0.9 * np.ptp(seen[:, 0])


def test_only_an_index_wholly_in_the_frame_is_in_view(bench: dict) -> None:
    m = bench["tilted_camera"]((960, 1280, 3), 45)
    entries = [
        {"card": "AS", "box": [300, 220, 340, 260]},  # the middle, in 640 px pixels
        {"card": "KH", "box": [0, 440, 40, 480]},  # a near corner: out of the frame
        {"card": "2C", "box": [620, 200, 660, 240]},  # across the frame's right edge
    ]
    assert bench["in_view"](entries, (640, 480), (960, 1280, 3), m) == {"AS"}


def _photo_set(root: Path) -> None:
    """Two single-card photos and one scene of two cards, with labels and index boxes
    (boxes round each card's middle: enough for a card to be counted in view)."""
    (root / "singles").mkdir(parents=True)
    (root / "scenes").mkdir()
    boxes: dict[str, list[dict]] = {}
    for k, card in enumerate(("QS", "7D")):
        frame, _ = scene([CardSpec(card, (640, 480), 420, 10 + 20 * k)], seed=k)
        cv2.imwrite(str(root / "singles" / f"{card}_{k}.png"), frame)
        boxes[f"singles/{card}_{k}.png"] = [{"card": card, "box": [600, 440, 680, 520]}]
    frame, _ = scene(
        [CardSpec("9H", (440, 480), 330, 5), CardSpec("KC", (840, 480), 330, -8)], seed=5
    )
    cv2.imwrite(str(root / "scenes" / "table.png"), frame)
    (root / "scenes" / "labels.json").write_text(json.dumps({"table.png": ["9H", "KC"]}))
    boxes["table.png"] = [
        {"card": "9H", "box": [400, 440, 480, 520]},
        {"card": "KC", "box": [800, 440, 880, 520]},
    ]
    (root / "index_boxes.json").write_text(json.dumps(boxes))


def test_a_set_is_read_at_each_angle(tmp_path: Path, bench: dict, capsys) -> None:
    _photo_set(tmp_path)
    assert bench["main"]([str(tmp_path), "--part", "all"]) == 0
    out = capsys.readouterr().out
    last = out.strip().splitlines()[-1]
    assert last.startswith("vision_tilted_photos part=all singles=2 scenes=1 cards=4 ")
    fields = dict(f.split("=") for f in last.split()[1:])
    assert fields["overhead_pct"] == "100.0"
    assert fields["deg30_cards"] == "4" and fields["deg45_cards"] == "4"
    assert float(fields["plane_deg45_pct"]) >= 75.0
    assert fields["wrong_sure"] == "0"
    assert fields["singles_deg45_cards"] == "2" and fields["singles_overhead_pct"] == "100.0"
    assert "45°: of the 4 cards whose index is in view" in out


def test_misses_are_shown_when_asked(tmp_path: Path, bench: dict, capsys) -> None:
    """``--show-misses`` names each photo's wrong reads (and cards lost at a slant): a
    photo of the queen of spades labelled the queen of hearts is read wrong at every
    angle and way."""
    _photo_set(tmp_path)
    (tmp_path / "singles" / "QS_0.png").rename(tmp_path / "singles" / "QH_0.png")
    boxes = json.loads((tmp_path / "index_boxes.json").read_text())
    boxes["singles/QH_0.png"] = [{"card": "QH", "box": [600, 440, 680, 520]}]
    (tmp_path / "index_boxes.json").write_text(json.dumps(boxes))
    assert bench["main"]([str(tmp_path), "--part", "all", "--angles", "45"]) == 0
    assert "miss " not in capsys.readouterr().out
    assert bench["main"]([str(tmp_path), "--part", "all", "--angles", "45", "--show-misses"]) == 0
    misses = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("miss ")]
    assert misses[0].startswith("miss QH_0.png 0 none: lost - wrong QS@")
    assert any(ln.startswith("miss QH_0.png 45 plane: lost - wrong QS@") for ln in misses)
    assert all(ln.startswith("miss QH_0.png ") for ln in misses)


def test_a_folder_that_is_not_the_set_is_said_so(tmp_path: Path, bench: dict, capsys) -> None:
    assert bench["main"]([str(tmp_path)]) == 2
    assert "index_boxes.json" in capsys.readouterr().out
    assert bench["main"]([str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().out


@pytest.mark.parametrize(
    "asked",
    [
        ["--every", "0"],
        ["--angles", "0"],
        ["--angles", "90"],
        ["--angles", "-30"],
        ["--angles", "45", "45"],
        ["--limit", "-1"],
    ],
)
def test_angles_and_counts_that_make_no_sense_are_refused(
    tmp_path: Path, bench: dict, capsys, asked: list[str]
) -> None:
    _photo_set(tmp_path)
    with pytest.raises(SystemExit) as stop:
        bench["main"]([str(tmp_path), *asked])
    assert stop.value.code == 2
    assert asked[0] in capsys.readouterr().err
