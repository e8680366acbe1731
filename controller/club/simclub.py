"""Simulated club tables: a journaled referee, four bots and a publisher per table.

The bots feed the referee directly (a sighting per card, a command per call, exactly
what :mod:`controller.referee.actions` says a table produces) instead of through the virtual
reader hub, so tests and the bench can run many tables at full speed in one process.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.club.link import BrokerLink
from controller.club.publisher import TablePublisher
from controller.club.topics import DEFAULT_PREFIX
from controller.readers.sightings import CardSeen
from controller.referee.actions import SIGHTING, table_input
from controller.referee.journal import Journal
from controller.referee.referee import Referee
from controller.referee.table_events import TableEvent
from controller.rules.hand import Phase
from controller.sim.bots import BotTable


@dataclass
class SimMatch:
    seats: list[str]
    preset: str = "court-piece"
    options: dict[str, Any] = field(default_factory=dict)
    variants: list[str] = field(default_factory=list)
    first_dealer: int = 0
    knowledge: str = "dealt"


def short_match(seats: list[str], hands: int = 2, preset: str = "court-piece") -> SimMatch:
    """A match that ends after ``hands`` hands: lean tests."""
    return SimMatch(seats, preset, {"match-end": "hands", "match-target": hands})


class SimTable:
    def __init__(self, name: str, state_dir: Path, link: BrokerLink | None, *, prefix: str = DEFAULT_PREFIX,
                 seed: int = 1, revoke_rate: float = 0.02, journaled: bool = True) -> None:
        self.name = name
        self.state_dir = Path(state_dir)
        self.state_dir.mkdir(parents=True, exist_ok=True)
        # journaled=False: the referee numbers inputs in memory (the bench's many tables
        # would otherwise measure the disk's fsyncs, not the broker)
        self.journal = Journal.open(self.state_dir / "journal.sqlite3") if journaled else None
        self.referee = Referee(self.journal)
        self.referee.restore()
        self.rng = random.Random(seed)
        self.revoke_rate = revoke_rate
        self.bots: BotTable | None = None
        # the published-up-to mark only means something beside a journal; without one a
        # restart begins at input 1 anyway, and fifty marks fsynced at every broker
        # acknowledgement would measure the disk again
        marks = self.state_dir if journaled else None
        self.publisher = TablePublisher(self.referee, link, name, prefix=prefix, state_dir=marks) \
            if link is not None else None

    def start(self) -> SimTable:
        if self.publisher is not None:
            self.publisher.start()
        return self

    def close(self) -> None:
        if self.publisher is not None:
            self.publisher.stop()
        if self.journal is not None:
            self.journal.close()

    @property
    def over(self) -> bool:
        m = self.referee.match
        return m is None or m.phase is Phase.OVER

    def new_match(self, match: SimMatch) -> None:
        self.referee.command("new-match", {"preset": match.preset, "variants": match.variants,
                                           "options": match.options, "seats": match.seats,
                                           "first_dealer": match.first_dealer, "knowledge": match.knowledge},
                              source="sim-admin")
        assert self.referee.match is not None, "the referee refused the simulated match"
        self.bots = BotTable(self.referee.match, self.rng, revoke_rate=self.revoke_rate)

    def step(self) -> list[TableEvent]:
        """One thing happens at the table (a card or a call)."""
        assert self.bots is not None, "start a match first"
        self.bots.match = self.referee.match  # an undo rebuilds the match object
        kind, payload = table_input(self.bots.next_input())
        if kind == SIGHTING:
            return self.referee.sighting(CardSeen(payload["zone"], payload["card"], time.time(), "sim"))
        name = payload.pop("name")
        return self.referee.command(name, payload, source="sim")

    def undo(self) -> list[TableEvent]:
        return self.referee.command("undo", source="sim")

    def play(self, steps: int | None = None, limit: int = 50_000) -> int:
        """Play until the match is over (or ``steps`` inputs); return how many were taken."""
        n = 0
        while not self.over and n < limit and (steps is None or n < steps):
            self.step()
            n += 1
        return n
