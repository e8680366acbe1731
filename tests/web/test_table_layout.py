"""The table screen's layout in every phase, at four screen sizes, in a real Chromium.

For each phase a seeded referee (tests/web/phases.py) is served once and the table
screen is opened at 1920×1080, 1280×720, 800×480 and a phone; on each, no two key
elements overlap, each lies inside the viewport, the page names no hidden card, and a
screenshot is kept under test-artifacts/layout/ (ignored by git) for a person to look at.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from phases import PHASES, referee_in  # noqa: E402
from secrets_check import leaks, secrets_now  # noqa: E402
from webdrive import LiveServer  # noqa: E402

from controller.referee.referee import Referee  # noqa: E402
from controller.web.app import create_app  # noqa: E402
from controller.web.welcome import Welcome  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "layout"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
SIZES = [(1920, 1080), (1280, 720), (800, 480), (390, 844)]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt install chromium)"),
]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

#: What must stay visible and apart: the bar, the team panels, the felt's seats, cards,
#: trump badge and centre lines, the match summary, each message, the facts, the strip.
KEY = [".bar", ".ts-grid > .team0", ".ts-grid > .team1", ".felt .plate", ".felt .face", ".trumpbadge",
       ".felt .cline", ".summary", ".messages .msg", ".facts", ".strip"]

LAYOUT_JS = """(keys) => {
  const els = keys.flatMap((k) => [...document.querySelectorAll(k)].map((e) => [k, e]));
  const boxes = els.map(([k, e]) => [k, e, e.getBoundingClientRect()])
    .filter(([, e, r]) => r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden');
  const W = innerWidth, H = innerHeight, out = [];
  const name = (k, e) => k + (e.closest('[data-seat]') ? `[seat ${e.closest('[data-seat]').dataset.seat}]` : '')
    + (e.dataset.msg ? `[${e.dataset.msg}]` : '');
  for (const [k, e, r] of boxes) {
    // squeezed: a line of text shorter than its own text (clipped, or spilling over)
    if (e.scrollHeight > e.clientHeight + 2 && getComputedStyle(e).overflowY !== 'visible') out.push(`clipped: ${name(k, e)}`);
    if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) out.push(`outside: ${name(k, e)} ${JSON.stringify(r)}`);
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [ka, a, ra] = boxes[i], [kb, b, rb] = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
    const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
    if (w > 1 && h > 1) out.push(`overlap: ${name(ka, a)} and ${name(kb, b)}`);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield b
        b.close()


def _pages(browser, url: str, referee: Referee, lang: str = "en", sizes: list[tuple[int, int]] = SIZES) -> list:
    pages = []
    for w, h in sizes:
        page = browser.new_page(viewport={"width": w, "height": h})
        page.errors = []
        page.on("pageerror", lambda e, page=page: page.errors.append(str(e)))
        page.on("console", lambda m, page=page: page.errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{url}/table?lang={lang}")
        expect(page.locator("body")).to_have_attribute("data-seq", str(referee.public_state()["seq"]))
        pages.append(page)
    return pages


def _check(page, name: str, referee: Referee | None) -> None:
    size = page.viewport_size
    shot = ARTIFACTS / f"{name}-{size['width']}x{size['height']}.png"
    page.screenshot(path=str(shot))
    problems = page.evaluate(LAYOUT_JS, KEY)
    assert problems == [], f"{shot.name}: {problems}"
    if referee is not None:  # offline: the browser logs each refused reconnect, as it should
        assert page.errors == [], page.errors
        # the whole page, its text and its card attributes, names no hidden card
        shown = page.evaluate("""() => document.body.innerText + ' ' + [...document.querySelectorAll('[data-card]')]
          .map((e) => e.dataset.card).join(' ')""")
        assert leaks(shown, secrets_now(referee)) == []


def _phase_facts(page, phase: str, referee: Referee) -> None:
    """What each phase must show, besides fitting."""
    v = referee.public_state()["view"]
    seats = referee.setup.seats
    messages = page.locator(".messages")
    if phase == "deal":
        expect(messages.locator('[data-msg="dealing"]')).to_contain_text(f"{v['cards_dealt']}/52")
    elif phase == "auction":
        expect(messages.locator('[data-msg="auction"] .bidcell')).to_have_count(4)
        expect(page.locator(f'.felt [data-seat="{v["auction"]["turn"]}"]')).to_have_class(lambda_cls("bidding"))
    elif phase == "play":
        for c in v["trick"]["cards"]:
            expect(page.locator(f'.felt [data-seat="{c["seat"]}"] .face[data-card="{c["card"]}"]')).to_be_visible()
        expect(page.locator(f'.felt [data-seat="{v["turn"]}"]')).to_have_class(lambda_cls("turn"))
        expect(page.locator(f'.trumpbadge [data-trump="{v["trump"]}"]')).to_be_visible()
    elif phase == "revoke":
        # no hand-streak rule in this match: no "Hands in a row: no hand streak" line
        assert v["streak"]["target"] == 0
        expect(page.locator('[data-role="streakbox"]')).to_be_hidden()
        flag = v["pending_revoke"]
        banner = page.locator("#revoke")
        expect(banner).to_contain_text(seats[flag["seat"]])
        expect(banner.locator(f'[data-card="{flag["card"]}"]')).to_be_visible()
        expect(page.locator(".facts")).to_be_visible()
    elif phase == "hidden-pile":
        expect(page.locator('.trumpbadge .face[data-card="back"]')).to_be_visible()
        expect(page.locator(".felt .pile")).to_contain_text(str(v["pile"]))
    elif phase == "play-on":
        expect(messages.locator('[data-msg="playon"]')).to_be_visible()
    elif phase == "playing-on":
        expect(messages.locator('[data-msg="playingon"]')).to_be_visible()
        team = 0 if v["tricks"][0] > v["tricks"][1] else 1
        expect(page.locator(f'[data-role="need-{team}"]')).to_have_text(" / 13")
    elif phase == "show":
        expect(messages.locator('[data-msg="showing"]')).to_be_visible()
    elif phase == "hand-over":
        last = v["last_hand"]
        expect(messages.locator('[data-msg="handover"]')).to_contain_text(f"{last['tricks'][0]}–{last['tricks'][1]}")
        # band rung's net score: a side shown at 0 after scoring 52 says what it scored
        assert v["score"] == [0, 0] and any(s["points"] == 52 for h in v["history"] for s in h["scored"])
        for team in (0, 1):
            expect(page.locator(f'[data-role="scorenote-{team}"]')).to_contain_text("scored 52")
        # a 13-0 hand is "all thirteen tricks", never "seven tricks"
        said = page.evaluate("""() => import('/static/js/render.js').then((m) => [
          m.handReason({ tricks: [13, 0], reason: 'seven tricks' }), m.handReason({ tricks: [7, 2], reason: 'seven tricks' })])""")
        assert said == ["all thirteen tricks", "seven tricks"]
    elif phase == "match-over":
        expect(page.locator(".summary")).to_be_visible()
        expect(page.locator(".felt")).to_be_hidden()


def lambda_cls(name: str):
    import re

    return re.compile(rf"(^|\s){name}(\s|$)")


@pytest.mark.parametrize("phase", list(PHASES))
def test_every_key_element_fits_and_none_overlap(browser, phase):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {ARTIFACTS}")
    referee = referee_in(phase)
    server = LiveServer(create_app(referee, admin_pin="424242"))
    with server:
        pages = _pages(browser, server.url, referee)
        for page in pages:
            _phase_facts(page, phase, referee)
            _check(page, phase, referee)
    if phase == "play":  # the server goes away: every screen says so and dims the old state
        for page in pages:
            expect(page.locator('[data-msg="offline"]')).to_be_visible(timeout=20_000)
            _check(page, "offline", None)
    for page in pages:
        page.close()


@pytest.mark.parametrize("lang", ["ur", "hi"])
def test_other_languages_fit_and_keep_the_seat_order(browser, lang):
    """Right-to-left Urdu mirrors the words, never the felt: counter-clockwise play keeps
    the seat after seat 0 on its right. (The widest and the narrowest screen: the words
    are what changes, and they are longest there.)"""
    referee = referee_in("revoke")
    with LiveServer(create_app(referee, admin_pin="424242")) as server:
        pages = _pages(browser, server.url, referee, lang, [SIZES[0], SIZES[-1]])  # the TV and the phone
        for page in pages:
            expect(page.locator("html")).to_have_attribute("lang", lang)
            one = page.locator('.felt [data-seat="1"]').bounding_box()
            three = page.locator('.felt [data-seat="3"]').bounding_box()
            assert one["x"] > three["x"]
            _check(page, f"revoke-{lang}", referee)
            page.close()


def test_the_welcome_card_takes_its_own_place(browser):
    """The QR card at first start (with the new PIN, on this loopback browser, and the
    warning that phones cannot reach 127.0.0.1: its biggest form) sits beside the table,
    never over a team panel or any other key element, at every size."""
    referee = referee_in("play")
    welcome = Welcome("127.0.0.1", "123456")
    with LiveServer(create_app(referee, admin_pin="424242", welcome=welcome)) as server:
        for page in _pages(browser, server.url, referee):
            card = page.locator(".welcome-card")
            expect(card.locator(".welcome-pin")).to_contain_text("123456")
            expect(card.locator(".welcome-warn")).to_be_visible()
            page.wait_for_function("() => document.querySelector('.welcome-card img').complete")
            size = page.viewport_size
            shot = ARTIFACTS / f"welcome-{size['width']}x{size['height']}.png"
            page.screenshot(path=str(shot))
            assert page.evaluate(LAYOUT_JS, [*KEY, ".welcome-card"]) == [], shot.name
            page.close()


def test_the_dashboard_shows_the_table_screens_card_faces_on_a_phone(browser):
    """The phone dashboard (/) draws the trick with the table screen's card faces (not
    small chips), each inside the screen's width, none over another or over a name."""
    referee = referee_in("play")
    trick = referee.public_state()["view"]["trick"]["cards"]
    assert len(trick) == 2
    with LiveServer(create_app(referee, admin_pin="424242")) as server:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"{server.url}/")
        expect(page.locator("body")).to_have_attribute("data-seq", str(referee.public_state()["seq"]))
        for c in trick:
            face = page.locator(f'.felt [data-seat="{c["seat"]}"] .face[data-card="{c["card"]}"]')
            expect(face).to_be_visible()
            expect(face.locator(".mid .rank")).to_have_text("10" if c["card"][0] == "T" else c["card"][0])
            box = face.bounding_box()
            assert box["height"] >= 60  # a card face, not a chip one line high
        expect(page.locator(".felt .slot .card")).to_have_count(0)
        page.locator(".felt").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "dashboard-390x844.png"), full_page=True)
        # the dashboard scrolls: "inside" is checked across only, below
        problems = page.evaluate(LAYOUT_JS, [".felt .name", ".felt .face", ".felt .centre"])
        assert [p for p in problems if not p.startswith("outside")] == []
        width = page.evaluate("() => innerWidth")
        for face in page.locator(".felt .face").all():
            box = face.bounding_box()
            assert 0 <= box["x"] and box["x"] + box["width"] <= width
        page.close()
