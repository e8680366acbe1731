"""Helpers for the club tests: links, a raw listener, waiting without fixed sleeps."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.club.link import BrokerLink, make_client
from controller.club.mosquitto import Mosquitto, mosquitto_binary
from controller.club.outbox import batches_of
from controller.club.scoreboard import Scoreboard
from controller.club.simclub import SimTable, short_match
from controller.club.topics import SCOREBOARD_USER

TABLES = {"t1": "pw-one-secret", "t2": "pw-two-secret", "t3": "pw-three-secret"}
SCOREBOARD_PW = "pw-board"


def need_mosquitto() -> None:
    if mosquitto_binary() is None:
        pytest.skip("mosquitto is not installed: `sh .ci/setup` installs it (as root, from Debian)")


def table_link(broker: Mosquitto, name: str, port: int | None = None) -> BrokerLink:
    return BrokerLink(port=port or broker.port, username=name, password=TABLES[name], keepalive=5)


def board_link(broker: Mosquitto) -> BrokerLink:
    return BrokerLink(port=broker.port, username=SCOREBOARD_USER, password=SCOREBOARD_PW, keepalive=5)


def wait_for(pred: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Poll until ``pred`` holds; the timeout only turns a hang into a failure."""
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.01)


class Asked:
    """Stands in for the scoreboard's broker client where no broker runs: keeps what the
    scoreboard publishes (its resend requests)."""

    def __init__(self) -> None:
        self.topics: list[tuple[str, bytes]] = []

    def publish(self, topic: str, payload: bytes, qos: int = 0) -> None:
        self.topics.append((topic, payload))


class Listener:
    """A raw subscriber that keeps every message (topic, payload) it gets."""

    def __init__(self, broker: Mosquitto, pattern: str = "courtpiece/tables/#") -> None:
        self.messages: list[tuple[str, bytes]] = []
        self._lock = threading.Lock()
        self.ready = threading.Event()
        self.client = make_client(board_link(broker), f"listener-{id(self)}", persistent=False)
        self.client.on_connect = lambda c, *_a: (c.subscribe(pattern, qos=1), None)[1]
        self.client.on_subscribe = lambda *_a: self.ready.set()
        self.client.on_message = self._got
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert self.ready.wait(10), "the listener could not subscribe"

    def _got(self, _c: object, _u: object, msg: object) -> None:
        with self._lock:
            self.messages.append((msg.topic, bytes(msg.payload)))  # type: ignore[attr-defined]

    def taken(self) -> list[tuple[str, bytes]]:
        with self._lock:
            return list(self.messages)

    def state_seq(self, table: str) -> int:
        seqs = [json.loads(p)["seq"] for t, p in self.taken() if t.endswith(f"/{table}/state")]
        return max(seqs, default=0)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def journal_matches(table: str, referee_entries: list) -> list:
    """The matches a table's own journal holds, from the engine's own tally (not from
    events): each ``new-match`` closes the match before it."""
    from controller.club.ledger import MatchRecord, PlayerStats
    from controller.referee.referee import Referee
    from controller.rules.events import RevokeFlagged
    from controller.rules.hand import Phase
    from controller.rules.options import Scoring

    ref = Referee()
    out: list[MatchRecord] = []

    def close() -> None:
        m, setup = ref.match, ref.setup
        if m is None or setup is None:
            return
        rec = MatchRecord(table, 0, setup.preset, list(setup.seats))
        score = list(m.tally.score)
        if m.options.scoring is Scoring.COURTS:
            rec.courts = score
        else:
            rec.points = score
        rec.over = m.phase is Phase.OVER
        rec.winner = m.winner
        rec.hands_won = [sum(1 for h in m.history if h["winner"] == t) for t in (0, 1)]
        rec.players = {pid: PlayerStats(name, pid) for pid, name in zip(rec.ids, rec.seats, strict=True)}
        for e in m.events:
            if isinstance(e, RevokeFlagged):
                rec.players[rec.ids[e.seat]].revokes += 1
        out.append(rec)

    for entry in referee_entries:
        if entry.kind == "command" and entry.payload.get("name") == "new-match":
            close()
        ref.replay([entry])
    close()
    return out


def play(board: Scoreboard, folder: Path, table: str, seats: list[str], seed: int) -> None:
    """A one-hand match at a simulated table, its batches handed straight to ``board``
    as the broker would deliver them (no broker needed)."""
    t = SimTable(table, folder / f"{table}-{seed}", None, seed=seed)
    t.new_match(short_match(seats, hands=1))
    t.play()
    for b in batches_of(t.referee, table):
        board.handle(f"courtpiece/tables/{table}/events", b.to_bytes())
    t.close()
