"""The night picker on the club's pages, in a real Chromium against a real uvicorn:
standings, the player list, a player's figures and the CSV link follow the chosen
night; tonight is the default; the choice stays in the address."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from clubkit import play  # noqa: E402
from webdrive import LiveServer  # noqa: E402

from controller.club.scoreboard import Scoreboard  # noqa: E402
from controller.club.standings import standings  # noqa: E402
from controller.club.store import ClubStore  # noqa: E402
from controller.club.web import create_club_app  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
FIRST = 30_000  # a bound for the first drawing on a loaded machine, not a speed goal

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt install chromium)"),
]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


def test_standings_and_players_for_the_chosen_night(tmp_path):
    store = ClubStore(tmp_path / "club.sqlite3")
    board = Scoreboard(store)
    first = store.night
    play(board, tmp_path, "t1", ["Asha", "Bilal", "Chand", "Dua"], 1)
    tonight = store.new_night("second night")
    play(board, tmp_path, "t2", ["Asha", "Emaan", "Faraz", "Gul"], 2)  # another Asha, at another table

    def teams(night: int | None) -> list[str]:
        return [r.team for r in standings(board.matches(night))]

    with sync_api.sync_playwright() as p, LiveServer(create_club_app(board, admin_pin="24680", state_dir=tmp_path)) as srv:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{srv.url}/")
        picker = page.locator('[data-role="night-picker"]')
        expect(picker).to_have_value(str(tonight), timeout=FIRST)  # tonight unless asked
        # a night named by its day shows the date once; a night with a name gets its date
        expect(picker.locator(f'option[value="{first}"]')).to_have_text(store.nights()[0]["name"])
        expect(picker.locator(f'option[value="{tonight}"]')).to_have_text(re.compile(r"^second night \(tonight\) \S+$"))
        rows = page.locator('[data-role="standings"] tr td:nth-child(2)')
        expect(rows).to_have_text(teams(tonight))
        expect(page.locator('[data-role="players"] li')).to_have_count(4)
        picker.select_option(str(first))
        expect(rows).to_have_text(teams(first))
        assert page.url.endswith(f"/?night={first}")
        expect(page.locator('a[data-night-link="/api/players.csv"]')).to_have_attribute(
            "href", f"/api/players.csv?night={first}")
        picker.select_option("all")
        expect(rows).to_have_count(4)
        # both Ashas are listed, each told apart by where she sat
        ashas = page.locator('[data-role="players"] li', has_text="Asha")
        expect(ashas).to_have_text(["Asha (table t1)", "Asha (table t2)"])
        page.goto(f"{srv.url}/?night={first}")  # the address keeps the choice
        expect(picker).to_have_value(str(first), timeout=FIRST)
        expect(rows).to_have_text(teams(first))
        page.locator('[data-role="players"] a', has_text="Asha").click()
        expect(page.locator('[data-role="player-id"]')).to_have_text("t1:0:Asha", timeout=FIRST)
        expect(page.locator('[data-role="night-picker"]')).to_have_value(str(first))
        expect(page.locator('[data-role="matches"] tr')).to_have_count(1)
        page.locator('[data-role="night-picker"]').select_option(str(tonight))
        expect(page.locator('[data-role="matches"] tr')).to_have_count(0)  # she did not play tonight
        expect(page.locator('[data-role="stats"]')).to_contain_text("0 won of 0")
        assert errors == []
        browser.close()
    store.close()


def test_a_tournament_night_shows_its_table_and_each_rounds_result(tmp_path):
    from controller.club.tournament import Director

    store = ClubStore(tmp_path / "club.sqlite3")
    board = Scoreboard(store)
    director = Director(store)
    for a, b in [("Asha", "Chand"), ("Bilal", "Dua"), ("Emaan", "Gul"), ("Faraz", "Hina")]:
        director.register(a, b)
    seated = director.next_round("round-robin", ["t1", "t2"], [])
    play(board, tmp_path, "t1", ["Asha", "Faraz", "Chand", "Hina"], 3)  # seats 0 & 2 against 1 & 3
    result = director.summary(store.night, board.matches(store.night))["rounds"][0]["tables"][0]["result"]
    said = "drawn" if result["winner"] is None else f"{result['winner']} won"
    with sync_api.sync_playwright() as p, LiveServer(create_club_app(board, admin_pin="24680", state_dir=tmp_path)) as srv:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        page = browser.new_page()
        page.goto(f"{srv.url}/")
        expect(page.locator('[data-role="counted"]')).to_contain_text("rounds' results", timeout=FIRST)
        expect(page.locator('[data-role="standings"] tr')).to_have_count(4)  # every registered team
        first = page.locator('[data-round="1"]')
        expect(first).to_contain_text(f"t1: {seated[0][1]} v {seated[0][2]} ({said} ")
        expect(first).to_contain_text(f"t2: {seated[1][1]} v {seated[1][2]} (to play)")
        browser.close()
    store.close()


def test_the_directors_page_answers_in_words(tmp_path):
    store = ClubStore(tmp_path / "club.sqlite3")
    board = Scoreboard(store)
    play(board, tmp_path, "t1", ["Asha", "Bilal", "Chand", "Dua"], 4)
    with sync_api.sync_playwright() as p, LiveServer(create_club_app(board, admin_pin="24680", state_dir=tmp_path)) as srv:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        page = browser.new_page()
        page.goto(f"{srv.url}/admin")
        msg = page.locator('[data-role="msg"]')
        page.fill('[data-role="login"] input[name="pin"]', "24680")
        page.click('[data-role="login"] button')
        expect(msg).to_have_text("Signed in.", timeout=FIRST)
        for a, b in (("Asha", "Chand"), ("Bilal", "Dua")):
            page.fill('[data-role="team"] input[name="a"]', a)
            page.fill('[data-role="team"] input[name="b"]', b)
            page.click('[data-role="team"] button')
            expect(msg).to_contain_text(f"Team {a} & {b} registered (club ids p")
        page.click('[data-role="round"] button')
        expect(msg).to_have_text("Seated: t1: Asha & Chand v Bilal & Dua.")
        page.fill('[data-role="afresh"] input[name="table"]', "t1")
        page.click('[data-role="afresh"] button')
        expect(msg).to_contain_text("count its matches twice")  # a healthy table is not taken again
        expect(msg).to_have_class("err")
        browser.close()
    store.close()


def test_a_director_who_logs_in_before_the_session_answers_is_signed_in(tmp_path):
    """On a busy Pi the page's session request can come back after the director's first
    click; the click must wait for it, not send the PIN as a plain form (a reload, and
    the PIN in the address)."""
    store = ClubStore(tmp_path / "club.sqlite3")
    board = Scoreboard(store)
    held = []
    with sync_api.sync_playwright() as p, LiveServer(create_club_app(board, admin_pin="24680", state_dir=tmp_path)) as srv:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        page = browser.new_page()
        page.route("**/admin/api/session", lambda route: held.append(route))  # held until the click is in
        page.goto(f"{srv.url}/admin")
        page.fill('[data-role="login"] input[name="pin"]', "24680")
        page.click('[data-role="login"] button')
        assert len(held) == 1
        held.pop().continue_()
        expect(page.locator('[data-role="msg"]')).to_have_text("Signed in.", timeout=FIRST)
        expect(page.locator('[data-role="tools"]')).to_be_visible()
        assert "pin=" not in page.url
        browser.close()
    store.close()
