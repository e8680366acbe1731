"""The table screen sounds an alarm as a revoke event arrives, in a real headless Chromium.

The page's oscillators are counted (an init script wraps ``OscillatorNode.start``), and
Chromium runs with the kiosk's ``--autoplay-policy=no-user-gesture-required``. A match
is replayed up to a few inputs before its first revoke; those inputs arrive live and
make no sound, the revoke does, and a screen muted with ``?sound=off`` stays silent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from phases import referee_in  # noqa: E402
from test_table_layout import ARGS, CHROMIUM  # noqa: E402
from webdrive import LiveServer  # noqa: E402

from controller.readers.sightings import CardSeen  # noqa: E402
from controller.referee.actions import SIGHTING  # noqa: E402
from controller.referee.journal import Entry  # noqa: E402
from controller.referee.referee import Referee  # noqa: E402
from controller.web.app import create_app  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt install chromium)"),
]
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

COUNT_STARTS = """
window.__beeps = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) { window.__beeps += 1; return start.apply(this, args); };
"""
#: inputs before the revoke that arrive while the screen watches
LIVE = 4


def give(referee: Referee, entry: Entry) -> list:
    """One recorded input, again, as the table would give it."""
    p = entry.payload
    if entry.kind == SIGHTING:
        return referee.sighting(CardSeen(p["zone"], p.get("card") or "", entry.at, entry.source), tag=p.get("tag"))
    return referee.command(p["name"], {k: v for k, v in p.items() if k != "name"}, at=entry.at, source=entry.source)


def before_the_revoke() -> tuple[Referee, list[Entry]]:
    """A referee a few inputs before a revoke, and those inputs (the revoke's last)."""
    whole = referee_in("revoke")
    entries = list(whole.entries)
    referee = Referee()
    referee.replay(entries[:-LIVE])
    return referee, entries[-LIVE:]


def beeps(page) -> int:
    return page.evaluate("() => window.__beeps")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                              args=[*ARGS, "--autoplay-policy=no-user-gesture-required"])
        yield b
        b.close()


def _watch(browser, url: str, referee: Referee):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.add_init_script(COUNT_STARTS)
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-seq", str(referee.last_seq))
    return page


def test_a_revoke_sounds_the_alarm_and_other_events_do_not(browser):
    referee, live = before_the_revoke()
    with LiveServer(create_app(referee, admin_pin="424242")) as server:
        page = _watch(browser, f"{server.url}/table", referee)
        assert beeps(page) == 0  # a screen that connects hears nothing
        for entry in live[:-1]:
            events = give(referee, entry)
            assert not any(e.get("event") == "revoke-flagged" for e in events)
            expect(page.locator("body")).to_have_attribute("data-seq", str(referee.last_seq))
        assert beeps(page) == 0
        events = give(referee, live[-1])
        assert any(e.get("event") == "revoke-flagged" for e in events)
        expect(page.locator("#revoke")).to_be_visible()
        page.wait_for_function("() => window.__beeps > 0")
        assert beeps(page) == 3  # three short beeps
        # reloaded with the revoke still standing: the row is there, the sound is not again
        page.reload()
        expect(page.locator("#revoke")).to_be_visible()
        assert beeps(page) == 0
        page.close()


def test_a_muted_screen_stays_silent(browser):
    referee, live = before_the_revoke()
    with LiveServer(create_app(referee, admin_pin="424242")) as server:
        page = _watch(browser, f"{server.url}/table?sound=off", referee)
        expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
        for entry in live:
            give(referee, entry)
        expect(page.locator("#revoke")).to_be_visible()
        expect(page.locator("body")).to_have_attribute("data-seq", str(referee.last_seq))
        assert beeps(page) == 0
        page.locator("#sound").click()  # sound on again, kept by this browser
        expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
        page.close()
