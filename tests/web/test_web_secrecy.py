"""Hidden stays hidden: hidden-rung and band-rung hands played through the web app.

Every public page, JSON response and WebSocket message is checked against what is
secret at that moment of the game (from the bots' true hands and the engine's hidden
trump), including notices caused by undoing a hidden trump or a deal.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).parent))

from secrets_check import (  # noqa: E402
    Secrets,
    kept_trumps,
    leaks,
    old_hand_secrets,
    secret_for,
    secrets_now,
)
from webdrive import BotDriver, LiveServer, new_match  # noqa: E402

from controller.referee.referee import Referee  # noqa: E402
from controller.web.app import create_app  # noqa: E402

PAGES = ["/", "/table", "/admin", "/api/state", "/api/events", "/api/presets", "/api/languages",
         "/static/js/render.js", "/static/js/page.js", "/static/i18n/en.json"]


class Collector(threading.Thread):
    """A phone on the stream: keeps every message it gets."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.ws = connect(url.replace("http", "ws") + "/ws")
        self.messages: list[str] = []
        self.last_seq = 0

    def run(self) -> None:
        try:
            for raw in self.ws:
                self.messages.append(str(raw))
                self.last_seq = max(self.last_seq, max(_seqs(raw)))
        except Exception:
            pass

    def wait_for(self, seq: int) -> None:
        deadline = time.monotonic() + 30
        while self.last_seq < seq:
            assert time.monotonic() < deadline, f"stream stuck at seq {self.last_seq}, referee at {seq}"
            time.sleep(0.005)


def _msgs(raw: str) -> list[dict]:
    import json
    data = json.loads(raw)
    return data if isinstance(data, list) else [data]


def _seqs(raw: str) -> list[int]:
    return [m["state"]["seq"] if "state" in m else m["event"]["seq"] for m in _msgs(raw)]


def _check_message(raw: str, at: dict[int, Secrets], old: dict[int, Secrets]) -> list[str]:
    problems = []
    for m in _msgs(raw):
        if "state" in m:
            state_secrets = at[m["state"]["seq"]]
            problems += [f"state@{state_secrets.seq}: {x}" for x in leaks(m["state"], state_secrets)]
        if m["type"] == "event":
            ev = m["event"]
            problems += [f"{ev['event']}@{ev['seq']}: {x}" for x in leaks(ev, secret_for(ev, at, old))]
        else:
            problems += [f"recent {ev['event']}@{ev['seq']}: {x}" for ev in m["recent"]
                         for x in leaks(ev, secret_for(ev, at, old))]
    return problems


#: A table that keeps a hidden trump down after the hand, where a revoke's court ends
#: hands early (before anyone asks for the trump): those hands' suits stay secret.
KEEP_DOWN = {"reveal-at-hand-end": False, "revoke-penalty": "court"}


@pytest.mark.parametrize("preset,knowledge,seed,options", [
    ("hidden-rung", "dealt", 3, {}), ("band-rung", "dealt", 5, {}), ("hidden-rung", "played", 8, {}),
    ("band-rung", "played", 2, {}), ("hidden-rung", "played", 5, KEEP_DOWN),
])
def test_no_hidden_card_reaches_a_public_page_or_stream(preset, knowledge, seed, options):
    referee = Referee()
    new_match(referee, preset, knowledge=knowledge, options=options)
    driver = BotDriver(referee, seed=seed, revoke_rate=0.15 if options else 0.08)
    at = {referee.public_state()["seq"]: secrets_now(referee, driver.bots)}
    old: dict[int, Secrets] = {}
    with LiveServer(create_app(referee, admin_pin="424242")) as server, httpx.Client(base_url=server.url) as http:
        phone = Collector(server.url)
        phone.start()
        hands = hidden_seen = undos = 0
        while hands < 3 and not driver.over:
            before = at[referee.public_state()["seq"]]
            events = driver.step()
            kinds = {e["event"] for e in events}
            secret = secrets_now(referee, driver.bots)
            secret.kept = kept_trumps(before, events)
            at[secret.seq] = secret
            if (was := old_hand_secrets(before, events)) is not None:
                old[secret.seq] = was
            hidden_seen += secret.suit is not None
            if ("trump-hidden" in kinds or "deal-complete" in kinds) and undos < 4:
                # undoing a hidden trump or a dealt card must not name it in the notice
                referee.command("undo", source="test")
                undos += 1
                undone = secrets_now(referee, driver.bots)
                undone.kept = secret.kept
                at[undone.seq] = undone
            if "hand-won" in kinds or "trump-hidden" in kinds or "revoke-flagged" in kinds:
                hands += "hand-won" in kinds
                now = secrets_now(referee, driver.bots)
                now.kept = secret.kept
                for path in PAGES:
                    r = http.get(path)
                    assert r.status_code == 200, path
                    if path == "/api/events":  # each event against the moment it happened
                        for ev in r.json():
                            assert not leaks(ev, secret_for(ev, at, old)), ev
                    else:
                        assert not leaks(r.text, now), (path, leaks(r.text, now))
        phone.wait_for(referee.public_state()["seq"])
        late = Collector(server.url)  # a screen joining late gets the snapshot with recent events
        late.start()
        late.wait_for(referee.public_state()["seq"])
        problems = [p for raw in phone.messages + late.messages for p in _check_message(raw, at, old)]
        phone.ws.close()
        late.ws.close()
    assert hidden_seen, "the bots never hid a trump: this run tested nothing"
    if options:
        assert secret.kept, ("no hand ended with its trump kept down: this run tested nothing", hands)
    assert undos, "no undo happened"
    assert sum(len(_msgs(raw)) for raw in phone.messages) > 50
    assert problems == []


def test_the_check_catches_a_leak():
    """The checker itself: a seat's private view must be reported as a leak."""
    referee = Referee()
    new_match(referee, "hidden-rung")
    driver = BotDriver(referee, seed=3)
    driver.until(lambda evs: any(e["event"] == "trump-hidden" for e in evs))
    secret = secrets_now(referee, driver.bots)
    caller = referee.match.hand.caller
    private = referee.seat_state(caller)
    found = leaks(private, secret)
    assert secret.suit and f"trump suit {secret.suit}" in found
    assert set(private["view"]["my_hand"]) - set(found) == set()
    private_event = next(e for e in referee.events if "private_to" in e)
    assert leaks(private_event, secret)
    assert not leaks(referee.public_state(), secret)
