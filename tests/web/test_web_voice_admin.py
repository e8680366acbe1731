"""The referee's voice on the admin page: volume and mute behind the PIN, live, kept.

A real Voice hears a real referee (its speech recorded instead of played), so "live"
means the next sentence is said at the new volume, or not at all when muted; "kept"
means a voice started again from the same state folder comes back the same.
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))

from test_web_admin_commands import CHROMIUM, PIN, _admin  # noqa: E402
from webdrive import LiveServer  # noqa: E402

from controller.referee.referee import Referee  # noqa: E402
from controller.signals.voice import Voice, VoiceSettings  # noqa: E402
from controller.signals.voice_settings import FILE, VoiceControl  # noqa: E402
from controller.web.app import create_app  # noqa: E402

ORIGIN = {"Origin": "http://testserver"}


class Table:
    """A referee with a voice listening; ``trump()`` makes one spoken moment."""

    def __init__(self, state_dir: Path, volume: int = 80) -> None:
        self.said: list[tuple[str, int, bool]] = []
        self.referee = Referee()
        self.voice = Voice(VoiceSettings(volume=volume), lambda: ["Asha", "Bilal", "Chand", "Dua"],
                           lambda text, s: self.said.append((text, s.volume, s.mute)))
        self.referee.subscribe(self.voice.hear)
        self.control = VoiceControl.open(self.voice, state_dir)
        self._suits = iter("SHDC")

    def trump(self) -> list[tuple[str, int, bool]]:
        """A new hand's trump called: what the voice said for it."""
        self.referee.command("new-match", {"preset": "court-piece", "knowledge": "played"})
        self.referee.command("call-trump", {"suit": next(self._suits)})
        self.said.clear()
        self.voice.drain()
        return list(self.said)


def _csrf(client: TestClient) -> str:
    return client.get("/admin/api/session").json()["csrf"]


def test_the_voice_settings_need_the_pin(tmp_path):
    table = Table(tmp_path)
    client = TestClient(create_app(table.referee, admin_pin=PIN, voice=table.control))
    assert client.get("/admin/api/voice").status_code == 401
    csrf = _csrf(client)
    assert client.post("/admin/api/voice", json={"volume": 5, "csrf": csrf}, headers=ORIGIN).status_code == 401
    _admin(client)
    assert client.post("/admin/api/voice", json={"volume": 5}, headers=ORIGIN).status_code == 403  # no CSRF
    assert table.voice.settings.volume == 80 and not (tmp_path / FILE).exists()


def test_volume_and_mute_change_the_next_sentence_and_survive_a_restart(tmp_path):
    table = Table(tmp_path)
    assert table.trump() == [("Trump is spades.", 80, False)]
    client = TestClient(create_app(table.referee, admin_pin=PIN, voice=table.control))
    _admin(client)
    csrf = _csrf(client)
    assert client.get("/admin/api/voice").json() == {"available": True, "language": "en", "volume": 80, "mute": False}
    r = client.post("/admin/api/voice", json={"volume": 35, "csrf": csrf}, headers=ORIGIN)
    assert r.status_code == 200 and r.json()["volume"] == 35 and r.json()["kept"]
    assert table.trump() == [("Trump is hearts.", 35, False)]
    r = client.post("/admin/api/voice", json={"mute": True, "csrf": csrf}, headers=ORIGIN)
    assert r.json()["mute"] is True and r.json()["volume"] == 35
    assert table.trump() == []  # muted: nothing said

    kept = tmp_path / FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert list(tmp_path.glob(".*.tmp")) == []  # replaced atomically, nothing left over
    again = Table(tmp_path, volume=90)  # the config says 90; the admin page's choice wins
    assert (again.voice.settings.volume, again.voice.settings.mute) == (35, True)


@pytest.mark.parametrize("change", [{"volume": 101}, {"volume": -1}, {"volume": "50"}, {"volume": True},
                                    {"volume": 2.5}, {"mute": "yes"}, {"mute": 1}])
def test_a_bad_value_is_refused_and_changes_nothing(tmp_path, change):
    table = Table(tmp_path)
    client = TestClient(create_app(table.referee, admin_pin=PIN, voice=table.control))
    _admin(client)
    r = client.post("/admin/api/voice", json={**change, "csrf": _csrf(client)}, headers=ORIGIN)
    assert r.status_code == 400, r.text
    assert (table.voice.settings.volume, table.voice.settings.mute) == (80, False)
    assert not (tmp_path / FILE).exists()


def test_an_unreadable_file_leaves_the_config_settings(tmp_path):
    (tmp_path / FILE).write_text("{not json", encoding="utf-8")
    table = Table(tmp_path, volume=60)
    assert (table.voice.settings.volume, table.voice.settings.mute) == (60, False)


def test_without_a_voice_the_admin_page_is_told_so(tmp_path):
    client = TestClient(create_app(Referee(), admin_pin=PIN))
    _admin(client)
    assert client.get("/admin/api/voice").json() == {"available": False}
    assert client.post("/admin/api/voice", json={"mute": True, "csrf": _csrf(client)}, headers=ORIGIN).status_code == 409


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_the_admin_page_turns_the_voice_down_and_off(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    expect = sync_api.expect
    table = Table(tmp_path)
    table.trump()
    with sync_api.sync_playwright() as p, LiveServer(create_app(table.referee, admin_pin=PIN,
                                                                voice=table.control)) as server:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/admin")
        page.fill("#pin", PIN)
        page.locator("#login button").click()
        expect(page.locator("#voice")).to_be_visible()
        expect(page.locator("#voice-volume")).to_have_value("80")
        page.locator("#voice-volume").fill("40")
        expect(page.locator("#status")).to_have_text("Voice settings saved")
        expect(page.locator("#voice-volume-out")).to_have_text("40%")
        assert table.voice.settings.volume == 40
        page.locator("#voice-mute").click()
        expect(page.locator("#voice-volume")).to_be_disabled()
        assert table.voice.settings.mute is True
        page.reload()  # what the page shows comes from the server
        expect(page.locator("#voice-mute")).to_be_checked()
        expect(page.locator("#voice-volume")).to_have_value("40")
        assert errors == []
        browser.close()
    assert Table(tmp_path).voice.settings.volume == 40  # and a restart keeps it
