"""The welcome card on the real table screen (headless Chromium): the dashboard's QR code
and, at first start, the new admin PIN, gone after the first admin login."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from webdrive import LiveServer, new_match  # noqa: E402

from controller.referee.referee import Referee  # noqa: E402
from controller.web.app import create_app  # noqa: E402
from controller.web.welcome import Welcome  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
PIN = "424242"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


def test_the_table_screen_shows_the_qr_code_and_the_new_pin_until_the_first_login():
    referee = Referee()
    new_match(referee, "court-piece")
    app = create_app(referee, admin_pin=PIN, welcome=Welcome("0.0.0.0", PIN))
    with LiveServer(app) as server, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/table")
        card = page.locator(".welcome-card")
        expect(card).to_be_visible()
        expect(card).to_contain_text(PIN)
        expect(card.locator("img")).to_have_js_property("complete", True)
        assert card.locator("img").evaluate("i => i.naturalWidth") > 0
        # the code reads back as the address the card prints (decoded from the screen)
        import cv2
        import numpy as np

        shot = cv2.imdecode(np.frombuffer(card.locator("img").screenshot(), np.uint8), cv2.IMREAD_COLOR)
        url, _points, _ = cv2.QRCodeDetector().detectAndDecode(shot)
        assert url.startswith("http://") and url in card.inner_text()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "table-welcome.png"))
        with httpx.Client(base_url=server.url) as c:
            token = c.get("/admin/api/session").json()["csrf"]
            assert c.post("/admin/api/login", json={"pin": PIN, "csrf": token}).status_code == 200
        expect(card).to_be_hidden(timeout=15000)
        browser.close()
    assert not errors, errors
