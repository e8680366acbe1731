"""A simulated table: four bots, a real deck of tagged cards, and a virtual reader hub.

The bots decide what happens at the table (``BotTable``); this module makes it happen
physically: a dealt or played card is *placed on the virtual hub's reader* for its zone,
so the sighting travels the real path (pty, hub protocol, driver, deck map, referee);
spoken things (trump call, bids, confirm) are commands, as buttons or the admin page
would send them. Switches inject the troubles a real table has.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.decks.deckmap import DECK_ORDER, Deck
from controller.readers.virtual_hub import VirtualHub
from controller.referee.actions import COMMAND, SIGHTING, table_input
from controller.referee.referee import Referee
from controller.rules import Phase
from controller.sim.bots import BotTable

log = logging.getLogger(__name__)


def simulated_deck(name: str = "sim") -> Deck:
    """A deck whose tags are made up but fixed, so logs from two runs compare."""
    return Deck(name, {card: f"5100{i:04X}" for i, card in enumerate(DECK_ORDER)})


@dataclass
class SimSettings:
    preset: str = "court-piece"
    knowledge: str = "dealt"
    variants: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[str] = field(default_factory=lambda: ["Asha", "Bilal", "Chetan", "Dua"])
    speed: float = 1.0
    revoke_rate: float = 0.0
    misread_rate: float = 0.0
    duplicate_rate: float = 0.0
    garbage_rate: float = 0.0
    unplug_every: float = 0.0
    seed: int | None = None
    matches: int = 1
    #: seconds a person takes for a card at speed 1 (dealing is quicker)
    play_seconds: float = 1.2
    deal_seconds: float = 0.15
    wait_timeout: float = 10.0


class SimulatedTable:
    def __init__(self, referee: Referee, hub: VirtualHub, deck: Deck, settings: SimSettings,
                 *, say: Callable[[str], None] | None = None) -> None:
        self.referee = referee
        self.hub = hub
        self.deck = deck
        self.s = settings
        self.rng = random.Random(settings.seed)
        self.say = say or (lambda text: None)
        self.table: BotTable | None = None
        self._setup: object = None  # the match setup the bots sit at (a new one: a new match)
        self.matches_done = 0
        self.actions = 0
        self.injected: dict[str, int] = {"misreads": 0, "duplicates": 0, "garbage": 0, "unplugs": 0}
        self.placed = 0  # cards put on a reader: each must reach the referee exactly once

    # ------------------------------------------------------------ running
    def run(self, stop: threading.Event) -> None:
        unplugger = None
        if self.s.unplug_every > 0:
            unplugger = threading.Thread(target=self._unplug_loop, args=(stop,), daemon=True, name="sim-unplug")
            unplugger.start()
        while not stop.is_set() and self.matches_done < self.s.matches:
            if self.referee.match is None or self.referee.match.phase is Phase.OVER:
                if self.referee.match is not None:
                    self.matches_done += 1
                    if self.matches_done >= self.s.matches:
                        break
                    self._pause(3.0, stop)
                self._new_match()
                continue
            self.step()
            self._pause(self._delay(), stop)

    def _new_match(self) -> None:
        s = self.s
        self.referee.command("new-match", {"preset": s.preset, "variants": s.variants, "options": s.options,
                                           "seats": s.seats, "first_dealer": self.rng.randrange(4),
                                           "knowledge": s.knowledge}, source="sim-admin")
        assert self.referee.match is not None, "the referee refused the simulated match"
        self.table = BotTable(self.referee.match, self.rng, revoke_rate=s.revoke_rate)
        self._setup = self.referee.setup

    def _delay(self) -> float:
        m = self.referee.match
        base = self.s.deal_seconds if m is not None and m.phase is Phase.DEAL else self.s.play_seconds
        return base / max(self.s.speed, 1e-6)

    @staticmethod
    def _pause(seconds: float, stop: threading.Event) -> None:
        if seconds > 0:
            stop.wait(seconds)

    def _unplug_loop(self, stop: threading.Event) -> None:
        while not stop.wait(self.s.unplug_every):
            self.hub.unplug()
            self.injected["unplugs"] += 1
            self.say("[sim] the reader hub's cable is pulled")
            stop.wait(min(0.5, self.s.unplug_every / 4))
            self.hub.replug()
            self.say("[sim] the reader hub is plugged back in")

    # ------------------------------------------------------------ one action
    def step(self) -> None:
        if self.table is None:  # a match resumed from the journal: the bots sit down mid-hand
            assert self.referee.match is not None
            self.table = BotTable(self.referee.match, self.rng, revoke_rate=self.s.revoke_rate)
            self.table.take_over()
            self.say("[sim] resuming the match in progress")
        elif self.referee.setup is not self._setup and self.referee.match is not None:
            # a match started from outside (the dashboard, a club director), perhaps mid-deal:
            # the bots' cards are the old match's, so they sit down at the new one afresh,
            # once a card still on its way through the hub has come (it is the new deal's)
            self._settle()
            self.table = BotTable(self.referee.match, self.rng, revoke_rate=self.s.revoke_rate)
            self.table.take_over()
            self.say("[sim] a new match was started at the table: the bots sit down at it")
        self._setup = self.referee.setup
        self.table.match = self.referee.match  # undo rebuilds the match object (same setup)
        move = self.table.next_input()
        self.actions += 1
        if self.s.garbage_rate and self.rng.random() < self.s.garbage_rate:
            self._garbage()
        kind, payload = table_input(move)
        if kind == COMMAND:
            name = payload.pop("name")
            self.referee.command(name, payload, source="sim-button")
            return
        zone, card = payload["zone"], payload["card"]
        if self.s.misread_rate and self.rng.random() < self.s.misread_rate:
            self._misread(zone, card)
        self._place(zone, card)
        if self.s.duplicate_rate and self.rng.random() < self.s.duplicate_rate:
            self.hub.read_again(zone, times=self.rng.randint(2, 9))
            self.injected["duplicates"] += 1

    def _settle(self, quiet: float = 0.3, most: float = 3.0) -> None:
        """Wait until the table has been quiet for ``quiet`` seconds (at most ``most``): a
        card put on a reader before a command cut in is read by then."""
        end = time.monotonic() + most
        seen, since = self.referee.last_seq, time.monotonic()
        while time.monotonic() < end and time.monotonic() - since < quiet:
            time.sleep(0.01)
            if self.referee.last_seq != seen:
                seen, since = self.referee.last_seq, time.monotonic()

    def _place(self, zone: str, card: str) -> None:
        before = self.referee.last_seq
        if zone in self.hub.lying():
            self.hub.remove(zone)
        self.hub.place(zone, self.deck.tag_of(card))
        self.placed += 1
        self._wait_after(before, card)

    def _wait_after(self, seq: int, card: str) -> bool:
        """Wait until the referee has taken ``card``'s sighting (journaled after ``seq``).
        Any input after ``seq`` is not enough: a hub plugged back in reads every card
        lying on it again, and taking such a read for this card's let the next card
        replace it on its reader before it was seen (on a slow machine)."""
        deadline = time.monotonic() + self.s.wait_timeout
        while time.monotonic() < deadline:
            if self.referee.halted or self._seen_since(seq, card):
                return True
            time.sleep(0.002)
        log.warning("the referee did not see a simulated card within %.0f s", self.s.wait_timeout)
        return False

    def _seen_since(self, seq: int, card: str) -> bool:
        if self.referee.last_seq <= seq:
            return False
        # Not ``referee.entries``: an input that starts a hand empties that list (the undo
        # base moves on), so the card that ended a hand was never found there and the bots
        # sat ``wait_timeout`` seconds with the last trick lying on the readers.
        journal = self.referee.journal
        entries = journal.entries(after=seq) if journal is not None else self.referee.entries
        return any(
            e.seq > seq and e.kind == SIGHTING and e.payload.get("card") == card for e in entries
        )

    def _misread(self, zone: str, card: str) -> None:
        """A wrong card is read (a neighbour's card, a reflection); the table undoes it."""
        wrong = self.rng.choice([c for c in DECK_ORDER if c != card])
        self.injected["misreads"] += 1
        self.say(f"[sim] misread: {wrong} seen instead of {card}")
        self._place(zone, wrong)
        self.referee.command("undo", source="sim-button")

    def _garbage(self) -> None:
        self.injected["garbage"] += 1
        pick = self.rng.randrange(3)
        if pick == 0:
            self.hub.inject_garbage(bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 40))))
        elif pick == 1:
            self.hub.inject_truncated()
        else:
            self.hub.inject_bad_checksum()
