"""The running referee: readers in, referee in the middle, subscribers out.

``TableService`` turns reader events into referee inputs (tag -> card through the deck
map, reader zone -> table zone through the config) and reader faults into notices. It
owns no game state: that is the referee's, rebuilt from the journal on start.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass

from controller.config import Config
from controller.decks.deckmap import DeckMap, LookupKind
from controller.readers.sightings import CardSeen, ReaderFault, TagSeen
from controller.referee.journal_repair import Damage, is_damage, open_journal, repair
from controller.referee.notices import ReaderTrouble
from controller.referee.referee import Referee

log = logging.getLogger(__name__)


@dataclass
class TableService:
    config: Config
    referee: Referee
    decks: DeckMap | None
    #: what start-up found wrong with the journal (None: it was whole)
    damage: Damage | None = None

    @classmethod
    def open(cls, config: Config, decks: DeckMap | None) -> TableService:
        """Open the journal (rebuilt from what can be read if it is damaged) and replay it."""
        config.state_dir.mkdir(parents=True, exist_ok=True)
        path = config.state_dir / "journal.sqlite3"
        journal, damage = open_journal(path)
        journal.keep_matches = config.table.keep_matches
        referee = Referee(journal)
        try:
            replayed = referee.restore()
        except sqlite3.DatabaseError as exc:  # a damaged page that only reading it found
            journal.close()
            if not is_damage(exc):
                raise
            journal, damage = repair(path, str(exc))
            journal.keep_matches = config.table.keep_matches
            referee = Referee(journal)
            replayed = referee.restore()
        if replayed:
            log.info("resumed from the journal: %d inputs replayed", replayed)
        if damage is not None:
            log.error(damage.message)
            referee.journal_damaged(damage.message)
        return cls(config, referee, decks, damage)

    def start_default_match(self) -> None:
        """A fresh table starts the configured match, so a Pi is ready after boot."""
        if self.referee.match is None:
            m = self.config.match
            self.referee.command("new-match", {
                "preset": m.preset, "variants": m.variants, "options": m.options, "seats": m.seats,
                "first_dealer": m.first_dealer, "knowledge": m.knowledge,
            }, source="config")

    def on_reader_event(self, event: TagSeen | ReaderFault | CardSeen) -> None:
        """Called from reader threads; the referee is thread-safe."""
        if isinstance(event, ReaderFault):
            self.referee.notice(ReaderTrouble(event.source, event.zone, event.message))
            return
        zone = self.config.zones.get(event.zone)
        if zone is None:
            self.referee.notice(ReaderTrouble(event.source, event.zone,
                                              f"reader zone {event.zone!r} is not mapped to a table zone"))
            return
        if isinstance(event, CardSeen):  # camera and other card-level readers
            self.referee.sighting(CardSeen(zone, event.card, event.at, event.source))
            return
        blank = CardSeen(zone, "", event.at, event.source)
        if self.decks is None:
            self.referee.sighting(blank, tag=event.tag)
            return
        found = self.decks.lookup(event.tag)
        if found.kind is LookupKind.KNOWN and found.card:
            self.referee.sighting(CardSeen(zone, found.card, event.at, event.source), tag=found.tag)
        elif found.kind is LookupKind.OTHER_DECK:
            self.referee.sighting(blank, tag=found.tag, note=f"deck {found.deck!r}", other_card=found.card)
        else:
            self.referee.sighting(blank, tag=found.tag)

    def close(self) -> None:
        if self.referee.journal is not None:
            self.referee.journal.close()
