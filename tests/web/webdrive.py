"""Test support: drive a Referee in-process with bot players, and serve an app for real.

``feed`` maps one engine input (what ``BotTable`` proposes) onto what the referee
receives at a real table: a card sighting in a zone, or a command. The lead may reuse it.
"""

from __future__ import annotations

import random
import socket
import threading
import time
from typing import Any

import uvicorn

from controller.bots import BotTable
from controller.rules import inputs as I
from controller.rules.hand import Phase
from controller.sightings import CardSeen
from controller.table import Referee, TableEvent


def _card(c: Any) -> str:
    return c.text if hasattr(c, "text") else str(c)


def feed(referee: Referee, move: Any, at: float | None = None, source: str = "test") -> list[TableEvent]:
    """Give the referee what the table would produce for one engine input."""
    t = time.time() if at is None else at

    def seen(zone: str, card: Any) -> list[TableEvent]:
        return referee.sighting(CardSeen(zone, _card(card), t, source))

    def cmd(name: str, args: dict[str, Any] | None = None) -> list[TableEvent]:
        return referee.command(name, args or {}, at=t, source=source)

    match move:
        case I.Deal(card=c) | I.TrumpCardTurned(card=c):
            return seen("deal" if isinstance(move, I.Deal) else "trump", c)
        case I.Play(seat=s, card=c) | I.DrawCard(seat=s, card=c):
            return seen(f"seat{s}", c)
        case I.HideTrump(seat=s, card=c, suit=suit):
            if c is not None:
                return seen("trump", c)
            return cmd("hide-trump", {"seat": s, "suit": suit.name})
        case I.ShowTrump(card=c):
            return seen("trump", c)
        case I.CallTrump(seat=s, suit=suit):
            return cmd("call-trump", {"seat": s, "suit": suit.name})
        case I.CallTrumpByCard(seat=s, number=n):
            return cmd("trump-by-card", {"seat": s, "number": n})
        case I.Bid(seat=s, tricks=n):
            return cmd("bid", {"seat": s, "tricks": n})
        case I.Pass(seat=s):
            return cmd("pass", {"seat": s})
        case I.OpenChallenge(seat=s, suit=suit):
            return cmd("open-challenge", {"seat": s, "suit": suit.name})
        case I.AskTrump(seat=s):
            return cmd("ask-trump", {"seat": s})
        case I.RevealTrump(seat=s):
            return cmd("reveal-trump", {"seat": s})
        case I.CloseTrick():
            return cmd("confirm")
        case I.ApplyPenalty():
            return cmd("apply-penalty")
        case I.TakeBack(seat=s):
            return cmd("correction-made", {"seat": s})
        case I.PlayOn(play_on=p):
            return cmd("play-on", {"play_on": p})
        case I.RequestRedeal(seat=s):
            return cmd("redeal", {"seat": s})
        case I.TimeUp():
            return cmd("time-up")
        case I.EndMatch():
            return cmd("end-match")
    raise TypeError(f"no table mapping for {move!r}")


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
