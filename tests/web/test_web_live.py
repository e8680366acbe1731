"""The live stream: snapshot on connect, events with state, undo, slow clients."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))

from webdrive import BotDriver, new_match  # noqa: E402

from controller.referee.referee import Referee  # noqa: E402
from controller.web.app import create_app  # noqa: E402
from controller.web.broadcast import Broadcast  # noqa: E402


def _next(ws) -> list[dict]:
    data = json.loads(ws.receive_text())
    return data if isinstance(data, list) else [data]


def test_snapshot_then_public_events_then_snapshot_after_undo():
    referee = Referee()
    new_match(referee, "hidden-rung")
    driver = BotDriver(referee, seed=3)
    with TestClient(create_app(referee, admin_pin="1234")) as client, client.websocket_connect("/ws") as ws:
        first = _next(ws)[0]
        assert first["type"] == "state" and first["state"] == referee.public_state()
        events = driver.until(lambda evs: any(e["event"] == "trump-hidden" for e in evs))
        assert any("private_to" in e for e in events)  # the referee did make a private event
        got: list[dict] = []
        while not any(m["type"] == "event" and m["event"]["event"] == "trump-hidden" for m in got):
            got += _next(ws)
        kinds = [m["event"]["event"] for m in got if m["type"] == "event"]
        assert "trump-set-secretly" not in kinds
        assert all("private_to" not in m.get("event", {}) for m in got)
        last = got[-1]
        assert last["state"]["seq"] == referee.public_state()["seq"]
        assert "history" not in last["state"]["view"]  # history only with the snapshot or when it grows
        full = referee.public_state()
        full["view"].pop("history")
        assert last["state"] == full
        referee.command("undo", source="test")
        msg = _next(ws)[-1]
        assert msg["type"] == "state" and msg["state"] == referee.public_state()
        assert msg["recent"][-1]["event"] == "undone"


def test_a_reconnecting_client_gets_the_current_state():
    referee = Referee()
    new_match(referee, "court-piece")
    driver = BotDriver(referee, seed=4)
    with TestClient(create_app(referee, admin_pin="1234")) as client:
        with client.websocket_connect("/ws") as ws:
            _next(ws)
        driver.until(lambda evs: any(e["event"] == "trick-won" for e in evs))
        with client.websocket_connect("/ws") as ws:
            msg = _next(ws)[0]
            assert msg["type"] == "state" and msg["state"] == referee.public_state()
            assert any(e["event"] == "trick-won" for e in msg["recent"])
        assert client.get("/api/state").json() == referee.public_state()


def test_a_slow_client_is_resynced_and_does_not_hold_up_others():
    async def run() -> None:
        referee = Referee()
        new_match(referee, "court-piece")
        broadcast = Broadcast(referee, queue_size=4)
        slow, fast = _client(broadcast), _client(broadcast)
        driver = BotDriver(referee, seed=5)
        delivered = 0
        while delivered < 40:
            sent = sum(1 for ev in driver.step() if "private_to" not in ev and broadcast.publish(ev) is None)
            if sent:
                batch = await fast.next_batch()  # the fast screen keeps up: one frame per input
                assert batch is not None and len(batch) == 1
                got = json.loads(batch[0])
                assert len(got if isinstance(got, list) else [got]) == sent
                delivered += 1
        assert slow.resync and slow.queue.empty()
        assert await slow.next_batch() is None  # -> the broadcast sends it one snapshot
        assert not slow.resync

    asyncio.run(run())


def _client(broadcast: Broadcast):
    from controller.web.broadcast import Client
    c = Client(broadcast.queue_size)
    broadcast.clients.add(c)
    return c
