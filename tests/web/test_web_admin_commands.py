"""The admin page offers only the commands the referee would accept now, each saying
what it will do, and starts a new match from a typed form.

``/admin/api/commands`` is checked against the referee itself: in a phase, every
candidate command is run on a fresh referee brought to the same moment, and it is
accepted exactly when the endpoint listed it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))

from phases import referee_in  # noqa: E402
from secrets_check import leaks, secrets_now  # noqa: E402
from webdrive import LiveServer  # noqa: E402

from controller.web.app import create_app  # noqa: E402
from controller.web.commands_now import CANDIDATES, commands_now  # noqa: E402

PIN = "424242"
REFUSED = {"command-refused", "impossible", "ignored"}
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "layout"


def _admin(client: TestClient) -> None:
    csrf = client.get("/admin/api/session").json()["csrf"]
    r = client.post("/admin/api/login", json={"pin": PIN, "csrf": csrf}, headers={"Origin": "http://testserver"})
    assert r.status_code == 200, r.text


def test_the_commands_need_the_pin():
    client = TestClient(create_app(referee_in("revoke"), admin_pin=PIN))
    assert client.get("/admin/api/commands").status_code == 401
    _admin(client)
    names = [c["name"] for c in client.get("/admin/api/commands").json()["commands"]]
    assert "correction-made" in names and "apply-penalty" in names


@pytest.mark.parametrize("phase", ["auction", "revoke", "play-on", "show", "match-over"])
def test_listed_exactly_when_the_referee_accepts(phase):
    listed = {(c["name"], tuple(sorted(c["args"].items()))) for c in commands_now(referee_in(phase))}
    for name, args, _, _ in CANDIDATES:
        if name == "confirm" and phase == "play-on":
            continue  # there "confirm" means stop and score, offered as play-on false
        referee = referee_in(phase)
        events = referee.command(name, dict(args), source="test")
        accepted = not any(e["event"] in REFUSED for e in events)
        assert accepted == ((name, tuple(sorted(args.items()))) in listed), (phase, name, args, events)


def test_each_command_says_what_it_will_do_and_no_hidden_card():
    referee = referee_in("revoke")
    seats = referee.setup.seats
    flag = referee.public_state()["view"]["pending_revoke"]
    says = {c["name"]: c["says"] for c in commands_now(referee)}
    assert says["correction-made"] == f"{seats[flag['seat']]} took the card back: play goes on"
    rank = flag["card"][0].replace("T", "10")
    assert says["undo"] == f"Undo: take back {seats[flag['seat']]}'s {rank}{'♠♥♦♣'['SHDC'.index(flag['card'][1])]}"
    # dealing: the last card read is still in a hand, so undo does not name it
    dealing = referee_in("deal")
    undo = next(c for c in commands_now(dealing) if c["name"] == "undo")
    assert undo["says"] == "Undo: take back the last card dealt"
    assert leaks(commands_now(dealing), secrets_now(dealing)) == []


def test_presets_come_with_a_typed_option_schema():
    client = TestClient(create_app(referee_in("play"), admin_pin=PIN))
    options = {o["name"]: o for o in client.get("/api/presets").json()["options"]}
    assert options["play-on"]["kind"] == "bool"
    assert options["hand-streak"]["kind"] == "int"
    assert options["direction"]["kind"] == "choice" and "clockwise" in options["direction"]["choices"]
    assert options["trump-calls"]["kind"] == "choices" and "hidden" in options["trump-calls"]["choices"]


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_the_admin_page_on_a_phone_offers_what_is_valid_and_starts_a_typed_match():
    sync_api = pytest.importorskip("playwright.sync_api")
    expect = sync_api.expect
    referee = referee_in("revoke")
    seats = referee.setup.seats
    flag = referee.public_state()["view"]["pending_revoke"]
    with sync_api.sync_playwright() as p, LiveServer(create_app(referee, admin_pin=PIN)) as server:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/admin")
        page.fill("#pin", PIN)
        page.locator("#login button").click()
        buttons = page.locator("#commands button")
        expect(buttons.first).to_be_visible()
        offered = sorted(buttons.evaluate_all("(bs) => bs.map((b) => b.dataset.cmd)"))
        assert offered == sorted(c["name"] for c in commands_now(referee) if c["name"] != "new-match")
        # the new-match form starts from the table as it is: names, next dealer, preset
        expect(page.locator(".seatname").first).to_have_value(seats[0])
        expect(page.locator("#first-dealer option")).to_have_text(seats)
        expect(page.locator("#preset")).to_have_value(referee.setup.preset)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "admin-revoke-390x844.png"), full_page=True)
        # the ruling, by its sentence; the list follows the table
        page.get_by_role("button", name=f"{seats[flag['seat']]} took the card back").click()
        expect(page.locator('#commands [data-cmd="correction-made"]')).to_have_count(0)
        # a new match: the dealer by name, one option changed in the typed form
        page.locator("#options-box summary").click()
        page.locator('[data-option="hand-streak"]').fill("5")
        page.select_option("#first-dealer", label=seats[2])
        page.locator("#newmatch button[type=submit]").click()
        expect(page.locator("#status")).to_have_text("Done")
        assert referee.setup.options == {"hand-streak": 5}
        assert referee.setup.first_dealer == 2 and list(referee.setup.seats) == list(seats)
        assert errors == []
        browser.close()


def test_the_organisers_pin_gets_in_while_other_pins_are_being_checked():
    """Many phones guessing at once fill the PIN checks (more get 429, marked busy); the
    admin page asks again by itself, so the organiser's right PIN gets in once a check is
    free, instead of 'too many wrong PINs' and another tap (8-20 taps in an attack)."""
    import threading

    sync_api = pytest.importorskip("playwright.sync_api")
    expect = sync_api.expect
    referee = referee_in("revoke")
    app = create_app(referee, admin_pin=PIN)
    gate = app.state.gate
    with sync_api.sync_playwright() as p, LiveServer(app) as server:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(server.url + "/admin")
        gate._checking = 99  # every check taken by others...
        threading.Timer(2.5, lambda: setattr(gate, "_checking", 0)).start()  # ...for 2.5 s
        page.fill("#pin", PIN)
        page.locator("#login button").click()
        expect(page.locator("#commands button").first).to_be_visible(timeout=15_000)
        assert gate.limiter.retry_after("127.0.0.1") == 0  # no wrong PIN counted
        browser.close()
