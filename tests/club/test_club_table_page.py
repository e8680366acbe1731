"""The club's page for one table is the table screen: the same page, CSS and renderer as
the table's own /table, fed from what the table published (no WebSocket to the table).

A seeded referee is brought to a phase (tests/web/phases.py); its published batches and
state go into a real scoreboard; the club app and the table's own app are served by real
uvicorns and opened side by side in a real headless Chromium. The club page must draw
the felt, the scores, the tricks and the trump badge exactly as the table screen does,
and name no card that is still hidden.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from phases import referee_in  # noqa: E402
from secrets_check import leaks, secrets_now  # noqa: E402
from webdrive import LiveServer  # noqa: E402

from controller.club.outbox import batches_of  # noqa: E402
from controller.club.scoreboard import Scoreboard  # noqa: E402
from controller.club.store import ClubStore  # noqa: E402
from controller.club.topics import StateMessage, StatusMessage  # noqa: E402
from controller.club.web import TABLE_BOOT, club_table_page, create_club_app  # noqa: E402
from controller.web.app import create_app  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
PIN = "24680"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt install chromium)"),
]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
#: A bound for the first drawing on a loaded machine (pages load three modules and two
#: language files first): a hang fails, a slow machine does not.
FIRST = 30_000

#: What both screens must show alike: the felt (names, cards, marks), the team panels,
#: the trump badge and the facts row.
SAME = """() => {
  const text = (sel) => [...document.querySelectorAll(sel)].map((e) => e.innerText.trim());
  const cards = (sel) => [...document.querySelectorAll(sel + ' [data-card]')].map((e) => e.dataset.card);
  return {felt: text('.felt .seat'), cards: cards('.felt'), badge: cards('.trumpbadge'),
          teams: text('.ts-grid > .team'), facts: text('.facts > div'), centre: text('.felt .cline')};
}"""
SHOWN = """() => document.body.innerText + ' ' + [...document.querySelectorAll('[data-card]')]
  .map((e) => e.dataset.card).join(' ')"""


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield b
        b.close()


def club_of(referee, tmp_path: Path, name: str = "t1") -> Scoreboard:
    board = Scoreboard(ClubStore(tmp_path / "club.sqlite3"))
    board.handle(f"courtpiece/tables/{name}/status", StatusMessage("online", 100.0).to_bytes())
    batches = batches_of(referee, name)
    for b in batches:
        board.handle(f"courtpiece/tables/{name}/events", b.to_bytes())
    state = referee.public_state()
    board.handle(f"courtpiece/tables/{name}/state",
                 StateMessage(name, int(state["seq"]), batches[-1].seq, 101.0, state).to_bytes())
    return board


def open_page(browser, url: str):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    return page


@pytest.mark.parametrize("phase", ["play", "hidden-pile", "revoke", "hand-over"])
def test_a_club_table_page_is_the_table_screen(browser, tmp_path, phase):
    referee = referee_in(phase)
    board = club_of(referee, tmp_path)
    club = create_club_app(board, admin_pin=PIN, state_dir=tmp_path / "club")
    table = create_app(referee, admin_pin=PIN, state_dir=tmp_path / "table")
    with LiveServer(club) as club_srv, LiveServer(table) as table_srv:
        mine = open_page(browser, f"{table_srv.url}/table")
        theirs = open_page(browser, f"{club_srv.url}/table/t1")
        seq = str(referee.public_state()["seq"])
        expect(mine.locator("body")).to_have_attribute("data-seq", seq, timeout=FIRST)
        expect(theirs.locator("body")).to_have_attribute("data-seq", str(board.tables["t1"].have), timeout=FIRST)
        expect(theirs.locator('[data-role="club-table"]')).to_contain_text("t1")
        v = referee.public_state()["view"]
        for c in v["trick"]["cards"]:  # the trick at each seat's spot, as on the table
            expect(theirs.locator(f'.felt [data-seat="{c["seat"]}"] .face[data-card="{c["card"]}"]')).to_be_visible()
        expect(theirs.locator('[data-role="score-0"]')).to_have_text(str(v["score"][0]))
        assert theirs.evaluate(SAME) == mine.evaluate(SAME)
        if phase == "revoke":  # the banner too, from the published flag
            expect(theirs.locator("#revoke")).to_contain_text(referee.setup.seats[v["pending_revoke"]["seat"]])
        assert leaks(theirs.evaluate(SHOWN), secrets_now(referee)) == []
        assert leaks(theirs.content(), secrets_now(referee)) == []
        assert theirs.errors == [] and mine.errors == []
        theirs.screenshot(path=str(tmp_path / f"club-{phase}.png"))
    board.store.close()


def test_an_offline_table_is_dimmed_as_the_table_screen_dims_it(browser, tmp_path):
    referee = referee_in("play")
    board = club_of(referee, tmp_path)
    board.handle("courtpiece/tables/t1/status", StatusMessage("offline", 200.0).to_bytes())
    with LiveServer(create_club_app(board, admin_pin=PIN, state_dir=tmp_path)) as srv:
        page = open_page(browser, f"{srv.url}/table/t1")
        expect(page.locator("body")).to_have_attribute("data-offline", "1", timeout=FIRST)
        expect(page.locator("body")).to_have_class("table-screen offline")
        expect(page.locator('.messages [data-msg="offline"]')).to_be_visible()
    board.store.close()


def test_the_page_follows_the_table_screens_own_file():
    html = club_table_page()
    assert TABLE_BOOT not in html and "/club-static/club-table.js" in html
    assert "welcome.js" not in html  # the table's address and first PIN are not the club's
    table = (Path(__file__).resolve().parents[2] / "controller" / "web" / "static" / "table.html").read_text()
    assert html.count('data-role="') == table.count('data-role="')  # every element of the screen
