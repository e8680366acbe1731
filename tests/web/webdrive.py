"""Test support: drive a Referee in-process with bot players, and serve an app for real.

``feed`` gives the referee what a real table produces for one engine input (what
``BotTable`` proposes): a card sighting in a zone, or a command (``controller.referee.actions``).
"""

from __future__ import annotations

import random
import socket
import threading
import time
from typing import Any

import uvicorn

from controller.readers.sightings import CardSeen
from controller.referee.actions import SIGHTING, table_input
from controller.referee.referee import Referee, TableEvent
from controller.rules.hand import Phase
from controller.sim.bots import BotTable


def feed(referee: Referee, move: Any, at: float | None = None, source: str = "test") -> list[TableEvent]:
    """Give the referee what the table would produce for one engine input."""
    t = time.time() if at is None else at
    kind, payload = table_input(move)
    if kind == SIGHTING:
        return referee.sighting(CardSeen(payload["zone"], payload["card"], t, source))
    name = payload.pop("name")
    return referee.command(name, payload, at=t, source=source)


class BotDriver:
    """Bots playing through a referee: ``step()`` feeds the next input."""

    def __init__(self, referee: Referee, seed: int = 1, *, revoke_rate: float = 0.0) -> None:
        assert referee.match is not None, "start a match first"
        self.referee = referee
        self.bots = BotTable(referee.match, random.Random(seed), revoke_rate=revoke_rate)

    @property
    def over(self) -> bool:
        m = self.referee.match
        return m is None or m.phase is Phase.OVER

    def step(self) -> list[TableEvent]:
        self.bots.match = self.referee.match  # undo rebuilds the match object
        return feed(self.referee, self.bots.next_input())

    def until(self, pred: Any, limit: int = 20_000) -> list[TableEvent]:
        """Step until ``pred(events_of_this_step)`` is true; return that step's events."""
        for _ in range(limit):
            if self.over:
                break
            events = self.step()
            if pred(events):
                return events
        raise AssertionError("the bots never got there")


def new_match(referee: Referee, preset: str = "court-piece", **args: Any) -> list[TableEvent]:
    payload = {"preset": preset, "seats": ["Asha", "Bilal", "Chand", "Dua"], "first_dealer": 0, **args}
    return referee.command("new-match", payload, source="test")


class LiveServer:
    """A real uvicorn serving ``app`` on a free local port, in a thread."""

    def __init__(self, app: Any) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()
