"""Played mode, hand over: the table screen and the admin page both ask the suspected
seat to show its cards, in a real headless Chromium, and the request goes away once the
seat has shown (issue 16)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from webdrive import LiveServer  # noqa: E402

from controller.readers.sightings import CardSeen  # noqa: E402
from controller.referee.journal import import_log  # noqa: E402
from controller.referee.referee import Referee  # noqa: E402
from controller.web.app import create_app  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
# The example a newcomer reads: Dua discards in trick 1 while holding spades, his side
# takes seven tricks, and the hand ends before he ever plays a spade.
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "court-piece-played.log.jsonl"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


def test_the_table_and_the_admin_ask_the_suspect_to_show() -> None:
    with EXAMPLE.open(encoding="utf-8") as f:
        log = import_log(f)
    *before, last = log.entries
    assert last.payload == {"zone": "seat3", "card": "4S"}
    referee = Referee()
    referee.replay(before)
    assert referee.public_state()["view"]["phase"] == "show"
    with sync_api.sync_playwright() as p, LiveServer(create_app(referee, admin_pin="424242")) as server:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        table = browser.new_page(viewport={"width": 1280, "height": 720})
        table.goto(server.url + "/table")
        admin = browser.new_page(viewport={"width": 1280, "height": 900})
        admin.goto(server.url + "/admin")
        admin.fill("#pin", "424242")
        admin.locator("#login button").click()
        for page in (table, admin):
            banner = page.locator('[data-role="showing"]')
            expect(banner).to_be_visible()
            expect(banner).to_contain_text("Dua: show your cards")
            expect(banner).to_contain_text("Spades")
            expect(banner).to_contain_text("trick 1")
        expect(admin.locator('[data-cmd="skip-showing"]')).to_be_visible()
        referee.sighting(CardSeen("seat3", "4S", last.at, "test"))  # the first card he shows: a spade
        for page in (table, admin):
            expect(page.locator('[data-role="showing"]')).to_be_hidden()
        browser.close()
