"""A reader's fault (the camera unplugged, the hub gone) on the table's screens, in a real
headless Chromium: the dashboard's notice line and the table screen's messages both say
it, and the table screen drops it after a while (the camera says it again each minute
while it stays away)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from webdrive import LiveServer, new_match  # noqa: E402

from controller.referee.notices import ReaderTrouble  # noqa: E402
from controller.referee.referee import Referee  # noqa: E402
from controller.web.app import create_app  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
FAULT = "camera: camera 0 gave no frame (unplugged or failed); trying again every 1 s"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


def test_a_camera_unplugged_is_said_on_the_dashboard_and_the_table_screen() -> None:
    referee = Referee()
    new_match(referee, "court-piece")
    with sync_api.sync_playwright() as p, LiveServer(create_app(referee, admin_pin="424242")) as server:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        dashboard = browser.new_page(viewport={"width": 1280, "height": 900})
        dashboard.goto(server.url + "/")
        table = browser.new_page(viewport={"width": 1280, "height": 720})
        table.goto(server.url + "/table")
        for page in (dashboard, table):  # both on the stream before the fault comes
            expect(page.locator("body")).to_have_attribute("data-live", "1", timeout=15_000)
        table.clock.install()  # the table's own time, to let the fault's time run out
        referee.notice(ReaderTrouble("camera", None, FAULT))
        expect(dashboard.locator('[data-role="notice"]')).to_be_visible(timeout=15_000)
        expect(dashboard.locator('[data-role="notice-text"]')).to_have_text(FAULT)
        shown = table.locator('[data-role="reader-fault"]')
        expect(shown).to_be_visible(timeout=15_000)
        expect(shown).to_contain_text(FAULT)
        table.clock.run_for(30_000)  # past the 20 s it stays among the messages
        expect(shown).to_have_count(0, timeout=15_000)
        browser.close()
