"""bench/vision_white_board.py: rendered cards on a board as white as their stock, in
colour, in grey and under tube lights, against the same cards on a dark table."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import numpy as np
import pytest

from vision.synth import CardSpec, scene

BENCH = Path(__file__).resolve().parents[2] / "bench" / "vision_white_board.py"


@pytest.fixture(scope="module")
def bench() -> dict:
    return runpy.run_path(str(BENCH), run_name="bench")


def test_the_camera_kinds_do_what_they_say(bench: dict) -> None:
    frame, _ = scene([CardSpec("9H", (640, 480), 300, 20)], seed=2, table_colour=bench["BOARD"])
    rng = np.random.default_rng(0)
    grey = bench["grey"](frame, rng)
    assert np.array_equal(grey[..., 0], grey[..., 2]) and not np.array_equal(grey, frame)
    striped = bench["striped_grey"](frame, rng)
    assert np.array_equal(striped[..., 0], striped[..., 1])
    assert striped.mean() > grey.mean()  # the tube lights' bands are brighter
    assert bench["as_is"](frame, rng) is frame


def test_the_layouts_draw_one_or_four_cards_never_one_twice(bench: dict) -> None:
    made = bench["layouts"](6, 3)
    assert [len(specs) for specs in made] == [1, 4, 1, 4, 1, 4]
    for specs in made:
        assert len({s.card for s in specs}) == len(specs)
    assert all(200 <= s.height_px <= 340 for specs in made for s in specs)
    small = bench["layouts"](6, 3, (200.0, 240.0))
    assert all(200 <= s.height_px <= 240 for specs in small for s in specs)
    assert [s.card for specs in small for s in specs] == [s.card for specs in made for s in specs]


def test_the_bench_ends_with_its_summary_line(bench: dict, capsys) -> None:
    assert bench["main"](["--frames", "2"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    m = re.fullmatch(
        r"vision_white_board frames=2 cards=5 board_pct=(\S+) board_grey_pct=(\S+) "
        r"striped_grey_pct=(\S+) dark_pct=(\S+) ratio_board_to_dark=(\S+) "
        r"wrong_counted=(\d+) wrong_sure=(\d+)",
        last,
    )
    assert m is not None, last
    assert float(m[4]) == 100.0  # five cards lying apart on a dark table are all read
    assert int(m[7]) == 0
