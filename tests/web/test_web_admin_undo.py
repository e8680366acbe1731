"""An admin command waits for the referee in a worker thread, never on the event loop.

An undo rebuilds the hand under the referee's lock; a reader thread may hold that lock
for a moment too. If the admin route waited on the event loop, the table screen, the
WebSocket stream and every other request would stop with it (and the watchdog with
them). Here the lock is held on purpose while an undo is posted.
"""

from __future__ import annotations

import threading
from typing import Any

from fastapi.testclient import TestClient

from controller.referee.referee import Referee
from controller.web.app import create_app

PIN = "271828"


def test_an_undo_waiting_for_the_referee_leaves_the_web_answering(tmp_path: Any) -> None:
    referee = Referee()
    referee.command("new-match", {"preset": "court-piece"}, source="test")
    entered = threading.Event()
    command = referee.command

    def waiting_command(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        return command(*args, **kwargs)  # blocks on the lock the test holds

    referee.command = waiting_command  # type: ignore[method-assign]
    with TestClient(create_app(referee, admin_pin=PIN, state_dir=tmp_path)) as client:
        token = client.post("/admin/api/login", json={
            "pin": PIN, "csrf": client.get("/admin/api/session").json()["csrf"]}).json()["csrf"]
        posted: list[int] = []
        answered: list[int] = []
        with referee._lock:  # a reader in the middle of a sighting, say
            undo = threading.Thread(target=lambda: posted.append(client.post(
                "/admin/api/command", json={"name": "undo"}, headers={"X-CSRF-Token": token}).status_code))
            undo.start()
            assert entered.wait(60)
            other = threading.Thread(target=lambda: answered.append(client.get("/admin/api/session").status_code))
            other.start()
            other.join(60)  # a generous bound so a regression fails instead of hanging
            assert answered == [200], "the event loop was blocked by the waiting undo"
        undo.join(60)
        assert posted == [200]
