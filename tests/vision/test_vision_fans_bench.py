"""bench/vision_fans.py: rendered fans of three to five cards, each showing its index
corner, against the same cards laid apart."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import cv2
import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "vision_fans.py"


@pytest.fixture(scope="module")
def bench() -> dict:
    return runpy.run_path(str(BENCH), run_name="bench")


def test_a_fans_cards_lie_each_on_the_last_with_their_index_corners_in_view(
    bench: dict,
) -> None:
    """Each card lies a third of its width or so along from the last (so it covers most of
    it, not all), turned a little more, and the top card is the last: no card twice."""
    rng = np.random.default_rng(4)
    for _ in range(20):
        fan = bench["a_fan"](rng)
        assert 3 <= len(fan) <= 5 and len({s.card for s in fan}) == len(fan)
        width = fan[0].height_px / 1.4
        for below, above in zip(fan, fan[1:], strict=False):
            step = np.hypot(above.center[0] - below.center[0], above.center[1] - below.center[1])
            assert 0.3 * width <= step <= 0.45 * width + 1e-6
            assert 3 <= above.angle_deg - below.angle_deg <= 8
        for s in fan:  # the whole fan lies in the frame
            box = cv2.boxPoints((s.center, (s.height_px / 1.4, s.height_px), s.angle_deg))
            assert box.min() >= 0 and box[:, 0].max() <= 1280 and box[:, 1].max() <= 960


def test_the_bench_ends_with_its_summary_line(bench: dict, capsys) -> None:
    assert bench["main"](["--fans", "2"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    m = re.fullmatch(
        r"vision_fans fans=2 cards=(\d+) right_pct=(\S+) top_right_pct=(\S+) "
        r"wrong_counted=(\d+) wrong_sure=(\d+) apart_right_pct=(\S+) "
        r"ratio_fan_to_apart=(\S+) median_ms=(\S+) apart_median_ms=(\S+)",
        last,
    )
    assert m is not None, last
    assert 6 <= int(m[1]) <= 10
    assert float(m[3]) == 100.0  # the top card of each fan, whole, is read
    assert int(m[5]) == 0
