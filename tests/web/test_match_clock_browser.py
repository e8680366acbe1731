"""Time left in a timed match, on the table screen (every size) and the admin page, in Chromium.

The referee's match clock reads an injected wall clock; the page counts down from the
seconds the server sent, so the text is checked to the minute.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_table_layout import ARGS, ARTIFACTS, CHROMIUM, KEY, LAYOUT_JS, SIZES  # noqa: E402
from webdrive import BotDriver, LiveServer, new_match  # noqa: E402

from controller.referee.match_clock import MatchClock  # noqa: E402
from controller.referee.referee import Referee  # noqa: E402
from controller.web.app import create_app  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt install chromium)"),
]
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
PIN = "424242"


def timed_referee(minutes: int, played_for: float) -> Referee:
    """A match to ``minutes`` minutes, in play, ``played_for`` seconds after it began."""
    referee = Referee()
    new_match(referee, "court-piece", options={"match-end": "time", "match-target": minutes})
    started = referee.events[0].get("at")
    BotDriver(referee, seed=5).until(lambda _e: referee.public_state()["view"]["phase"] == "play")
    MatchClock(referee, now=lambda: started + played_for)
    return referee


def test_the_table_screen_and_the_admin_page_show_time_left():
    referee = timed_referee(45, 600.5)  # 34:59.5 left: the screens say 35:00, then 34:5x
    shown = re.compile(r"^Time left 3[45]:\d\d$")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p, LiveServer(create_app(referee, admin_pin=PIN)) as server:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        for w, h in SIZES:
            page = browser.new_page(viewport={"width": w, "height": h})
            page.goto(f"{server.url}/table")
            expect(page.locator("#clock")).to_have_text(shown)
            expect(page.locator("#clock")).to_be_visible()
            assert "45 minutes" in page.locator('[data-role="limit"]').inner_text()
            page.screenshot(path=str(ARTIFACTS / f"timed-{w}x{h}.png"))
            assert page.evaluate(LAYOUT_JS, [*KEY, ".bar .clock"]) == []
            page.close()
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"{server.url}/admin")
        page.fill("#pin", PIN)
        page.locator("#login button").click()
        expect(page.locator("#clock")).to_have_text(shown)
        browser.close()


def test_time_up_shows_and_an_untimed_match_shows_no_clock():
    up = timed_referee(30, 1800)
    MatchClock(up, now=lambda: up.events[0].get("at") + 1800).tick()  # the clock calls time
    assert up.match.time_up
    untimed = Referee()
    new_match(untimed, "court-piece", options={"match-end": "hands", "match-target": 3})
    MatchClock(untimed)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        with LiveServer(create_app(up, admin_pin=PIN)) as server:
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.goto(f"{server.url}/table")
            expect(page.locator("#clock")).to_have_text("Time up")
            page.close()
        with LiveServer(create_app(untimed, admin_pin=PIN)) as server:
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.goto(f"{server.url}/table")
            expect(page.locator("body")).to_have_attribute("data-seq", str(untimed.public_state()["seq"]))
            expect(page.locator("#clock")).to_be_hidden()
            page.close()
        browser.close()
