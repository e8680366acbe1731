"""The small OLED, rendered to luma's dummy device and read back pixel by pixel."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.signals.oled import (
    ALERT_BOX,
    HEIGHT,
    STREAK_BOTTOM,
    STREAK_LENGTH,
    STREAK_TOP,
    WIDTH,
    OledScreen,
    OledSummary,
    open_device,
)

REPO = Path(__file__).resolve().parents[1]
COURTS_ROWS = range(0, 21)
TRICKS_ROWS = range(36, 47)


def shown(summary: OledSummary):
    device = open_device("dummy")
    OledScreen(device).show(summary)
    assert device.image.size == (WIDTH, HEIGHT)
    return device.image.convert("1")


def lit(image, x: int, y: int) -> bool:
    return image.getpixel((x, y)) != 0


def lit_columns(image, rows: range) -> set[int]:
    return {x for x in range(WIDTH) for y in rows if lit(image, x, y)}


def region(image, box: tuple[int, int, int, int]) -> list[bool]:
    left, top, right, bottom = box
    return [lit(image, x, y) for y in range(top, bottom + 1) for x in range(left, right + 1)]


def test_no_alert_leaves_the_alert_band_dark() -> None:
    image = shown(OledSummary(courts=(2, 1), tricks=(3, 4)))
    assert not any(region(image, ALERT_BOX))
    assert any(region(image, (0, 0, WIDTH - 1, ALERT_BOX[1] - 1)))  # the rest shows something


def test_alert_is_an_inverted_band_with_dark_text() -> None:
    quiet = shown(OledSummary(courts=(2, 1)))
    loud = shown(OledSummary(courts=(2, 1), alert="REVOKE seat 2"))
    band = region(loud, ALERT_BOX)
    assert sum(band) > 0.6 * len(band)  # mostly lit: the band
    assert not all(band)  # with dark text in it
    # Everything above the band is the same picture.
    above = (0, 0, WIDTH - 1, ALERT_BOX[1] - 1)
    assert region(loud, above) == region(quiet, above)
    # Different alerts read differently.
    assert region(shown(OledSummary(alert="REVOKE seat 0")), ALERT_BOX) != band


def test_long_alert_is_cut_to_fit_inside_the_band() -> None:
    image = shown(OledSummary(alert="REVOKE at seat 3: led hearts, played spades holding hearts"))
    left, top, right, bottom = ALERT_BOX
    # The band's outer columns stay fully lit: no text ran off either edge.
    for x in (left, left + 1, right - 1, right):
        assert all(lit(image, x, y) for y in range(top, bottom + 1)), f"text reaches column {x}"


def test_streak_shows_one_filled_mark_per_hand_and_whose_run_it_is() -> None:
    for count in range(STREAK_LENGTH + 1):
        team = None if count == 0 else count % 2
        image = shown(OledSummary(streak_team=team, streak=count))
        middle = (STREAK_TOP + STREAK_BOTTOM) // 2
        # A filled mark is lit across; an empty one is lit only at its two edges.
        lit_in_marks = sum(lit(image, x, middle) for x in range(36, 112))
        empty_edges = 2 * (STREAK_LENGTH - count)
        assert lit_in_marks == count * 8 + empty_edges

    letter = (118, STREAK_TOP, WIDTH - 1, STREAK_BOTTOM)
    assert not any(region(shown(OledSummary()), letter))
    team_a = region(shown(OledSummary(streak_team=0, streak=3)), letter)
    team_b = region(shown(OledSummary(streak_team=1, streak=3)), letter)
    assert any(team_a) and any(team_b) and team_a != team_b


def test_courts_and_tricks_change_only_their_own_rows() -> None:
    base = shown(OledSummary(courts=(1, 1), tricks=(2, 2)))
    more_courts = shown(OledSummary(courts=(4, 1), tricks=(2, 2)))
    more_tricks = shown(OledSummary(courts=(1, 1), tricks=(2, 7)))
    courts_box = (0, 0, WIDTH - 1, 20)
    tricks_box = (0, TRICKS_ROWS.start, WIDTH - 1, TRICKS_ROWS.stop - 1)
    assert region(more_courts, courts_box) != region(base, courts_box)
    assert region(more_courts, tricks_box) == region(base, tricks_box)
    assert region(more_tricks, tricks_box) != region(base, tricks_box)
    assert region(more_tricks, courts_box) == region(base, courts_box)


def test_the_largest_numbers_still_fit_without_running_together() -> None:
    word = lit_columns(shown(OledSummary()), COURTS_ROWS) & set(range(32, 96))  # "courts"
    assert word
    full = shown(OledSummary(courts=(99, 99), tricks=(13, 13), streak_team=0, streak=7))
    top = lit_columns(full, COURTS_ROWS)
    # A blank column separates each team's count from the word between them.
    assert min(word) - 1 not in top and max(word) + 1 not in top
    assert top - word, "the counts are drawn"
    left, right = {x for x in top - word if x < min(word)}, {x for x in top - word if x > max(word)}
    assert left and right
    # Two-digit tricks stay on the panel.
    assert WIDTH - 1 not in lit_columns(full, TRICKS_ROWS)


def test_show_redraws_only_on_change() -> None:
    device = open_device("dummy")
    screen = OledScreen(device)
    screen.show(OledSummary(courts=(1, 0)))
    first = device.image
    screen.show(OledSummary(courts=(1, 0)))
    assert device.image is first
    screen.show(OledSummary(courts=(2, 0)))
    assert device.image is not first
    screen.clear()
    screen.show(OledSummary(courts=(2, 0)))  # after a clear the same summary is drawn again
    assert any(region(device.image.convert("1"), (0, 0, WIDTH - 1, 20)))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"streak": 8, "streak_team": 0},
        {"streak": 2},
        {"streak_team": 1},
        {"streak": 1, "streak_team": 2},
        {"courts": (-1, 0)},
    ],
)
def test_impossible_summaries_are_refused(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        OledSummary(**kwargs)


def test_unknown_panel_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown OLED kind"):
        open_device("ssd1331")


def test_importing_the_module_loads_neither_luma_nor_pillow() -> None:
    code = (
        "import sys, controller.signals.oled\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('luma', 'PIL'))\n"
        "print(loaded)\n"
        "sys.exit(1 if loaded else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
