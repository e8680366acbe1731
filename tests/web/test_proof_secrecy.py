"""A revoke's proving card is as secret as any card in a hand (issue 10, items 6-8).

Scripted hands through the referee with real sightings: the public (state, events, the
WebSocket, what the table screen renders from) learns who revoked, the card played and
the suit not followed; the proving card goes to the offender's seat and the admin, and
becomes public once it is played or the hand ends. The secrecy check itself must report
a proof that reaches the public too early.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "service"))

from secrets_check import leaks, secrets_now  # noqa: E402
from tablekit import STORY_HANDS, deal_sightings, see  # noqa: E402

from controller.referee.referee import Referee  # noqa: E402
from controller.signals.narrate import describe  # noqa: E402
from controller.web.app import create_app  # noqa: E402

PIN = "424242"
NAMES = ["Asha", "Bilal", "Chand", "Dua"]


def dealt(preset: str, *, call: str | None = None, hide: str | None = None) -> Referee:
    """STORY_HANDS dealt over the deal spot, dealer 0 (Bilal, seat 1, calls and leads;
    in band rung he wins the auction with 9 first)."""
    r = Referee()
    r.command("new-match", {"preset": preset, "seats": NAMES, "first_dealer": 0, "knowledge": "dealt"})
    order = deal_sightings(STORY_HANDS)
    for c in order[:20]:
        see(r, "deal", c)
    if preset == "band-rung":
        r.command("bid", {"tricks": 9})
        for _ in range(3):
            r.command("pass")
        assert r.match.hand.caller == 1
    if hide:
        see(r, "trump", hide)  # the caller's face-down card, laid on the trump spot
    if call:
        r.command("call-trump", {"suit": call})
    for c in order[20:]:
        see(r, "deal", c)
    return r


def plays(r: Referee, *moves: str) -> list[dict]:
    """``"1:2S"``: the 2 of spades lands on seat 1's spot."""
    out: list[dict] = []
    for m in moves:
        seat, c = m.split(":")
        out += see(r, f"seat{seat}", c)
    return out


def public_surfaces(r: Referee) -> dict[str, object]:
    """Everything the public can read: state, event list, the WebSocket's first frame."""
    with TestClient(create_app(r, admin_pin=PIN)) as client, client.websocket_connect("/ws") as ws:
        return {"state": client.get("/api/state").json(), "events": client.get("/api/events").json(),
                "ws": json.loads(ws.receive_text())}


def admin_state(r: Referee) -> dict:
    with TestClient(create_app(r, admin_pin=PIN)) as client:
        csrf = client.get("/admin/api/session").json()["csrf"]
        assert client.post("/admin/api/login", json={"pin": PIN, "csrf": csrf}).status_code == 200
        return client.get("/admin/api/state").json()


@pytest.mark.parametrize("preset", ["hidden-rung", "band-rung"])
def test_a_hidden_trump_that_proves_a_revoke_stays_hidden(preset):
    """Item 6: Bilal's only diamond is his face-down trump, the 8D. A diamond is led and he
    discards face down: that is flagged, but nothing public names the 8D while the trump
    is hidden -- his seat and the admin see the proof."""
    r = dealt(preset, hide="8D")
    plays(r, "1:2S", "2:AS", "3:9S", "0:6S")  # Chand wins and leads a diamond
    out = plays(r, "2:KD", "3:6D", "0:2D", "1:2H")  # (not an ace after an ace: band rung)
    flag = next(e for e in out if e["event"] == "revoke-flagged")
    assert (flag["seat"], flag["rule"], flag["suit"], flag["proof"]) == (1, "face-down-not-void", "D", None)
    view = r.public_state()["view"]
    assert view["trump_hidden"] and view["pending_revoke"]["seat"] == 1
    secret = secrets_now(r)
    assert "8D" in secret.cards and secret.suit == "D"
    surfaces = public_surfaces(r)
    assert "8D" not in json.dumps(surfaces)
    assert {name: leaks(value, secret) for name, value in surfaces.items()} == {"state": [], "events": [], "ws": []}
    assert r.seat_state(1)["view"]["pending_revoke"]["proof"] == "8D"
    assert admin_state(r)["view"]["pending_revoke"]["proof"] == "8D"
    assert [e["private_to"] for e in r.events if e["event"] == "revoke-proof"] == [1]


def test_a_proof_in_hand_is_private_until_played_then_public():
    """Item 7: Chand trumps a heart while holding hearts. The table learns that he held a
    heart, not which; the QH becomes public when he plays it."""
    r = dealt("court-piece", call="S")
    out = plays(r, "1:2H", "2:AC")
    flag = next(e for e in out if e["event"] == "revoke-flagged")
    assert (flag["seat"], flag["card"], flag["suit"], flag["proof"]) == (2, "AC", "H", None)
    assert "QH" not in flag["detail"] and flag["detail"] == "did not follow hearts"
    assert "QH" not in json.dumps(public_surfaces(r))
    assert not leaks(r.public_state(), secrets_now(r)) and not leaks(r.public_events(), secrets_now(r))
    spoken = [describe(e, NAMES) or "" for e in r.public_events()]  # voice, terminal
    assert "!! REVOKE by Chand: did not follow hearts" in spoken and not any("QH" in line for line in spoken)
    mine = r.seat_state(2)["view"]
    assert mine["pending_revoke"]["proof"] == "QH" and mine["revokes"][0]["proof"] == "QH"
    assert r.seat_state(0)["view"]["pending_revoke"]["proof"] is None  # another seat: no
    assert admin_state(r)["view"]["revokes"][0]["proof"] == "QH"
    plays(r, "3:9H", "0:8H")
    r.command("confirm")  # the flag stands (court piece flags only); Dua's 9H wins
    out = plays(r, "3:TH", "0:7H", "1:3H", "2:QH")  # the proving card, face up
    shown = [e for e in out if e["event"] == "proof-shown"]
    assert [(e["seat"], e["card"], e["trick"], e["reason"]) for e in shown] == [(2, "QH", 1, "played")]
    assert r.public_state()["view"]["revokes"][0]["proof"] == "QH"
    assert describe(shown[0], NAMES) == "the proof of Chand's revoke in trick 1: QH"


def test_a_proof_never_played_is_shown_when_the_hand_ends():
    """Item 7: the hand ends on a penalty while the proving card is still in Dua's hand;
    only then does the table see it."""
    r = dealt("court-piece", call="S")
    out = plays(r, "1:8D", "2:AD", "3:JC")  # Dua discards a club holding four diamonds
    assert [e["suit"] for e in out if e["event"] == "revoke-flagged"] == ["D"]
    assert "6D" not in json.dumps([dict(e) for e in r.public_events()])
    out = r.command("apply-penalty")
    kinds = [e["event"] for e in out]
    shown = [e for e in out if e["event"] == "proof-shown"]
    assert [(e["seat"], e["card"], e["reason"]) for e in shown] == [(3, "6D", "the hand is over")]
    assert kinds.index("proof-shown") < kinds.index("hand-won")
    assert all("private_to" not in e for e in shown)


def test_the_check_reports_a_proof_that_reached_the_public():
    """Item 8: the checker holds a proof to the rule of every hidden card. Fed what only
    the admin and the offender may see -- or a flag carrying the proof the old way --
    it must report the card; fed the public state, nothing."""
    r = dealt("hidden-rung", hide="8D")
    plays(r, "1:2S", "2:AS", "3:9S", "0:6S", "2:AD", "3:6D", "0:2D", "1:2H")
    secret = secrets_now(r)
    assert "8D" in leaks(admin_state(r), secret)
    assert "8D" in leaks(r.seat_state(1)["view"]["pending_revoke"], secret)
    assert "8D" in leaks(next(e for e in r.events if e["event"] == "revoke-proof"), secret)
    flag = next(e for e in r.public_events() if e["event"] == "revoke-flagged")
    assert "8D" in leaks({**flag, "proof": "8D"}, secret)
    assert leaks(r.public_state(), secret) == [] and leaks(r.public_events(), secret) == []
