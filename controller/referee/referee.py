"""The referee: card sightings and commands in, table events out.

Every input is appended to the journal *before* it is acted on; the state is whatever
replaying the journal's inputs through the rules engine gives, so a restart, an undo
and an audit all come from one path (``_process``). Table events are typed
(``controller.referee.table_events``): each carries the journal sequence number of the
input that caused it and its audience, decided where it is made; ``sees`` is the one test
of who may read it. A seat-private engine event -- a seat's face-down card, the proof of
its revoke -- is the admin's as well.
"""

from __future__ import annotations

import bisect
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from controller.readers.sightings import DEAL_ZONE, TRUMP_ZONE, CardSeen, seat_of_zone
from controller.referee import snapshots
from controller.referee.actions import (
    COMMAND,
    SIGHTING,
    CommandError,
    sighting_input,
    to_engine_input,
    zones_in_use,
)
from controller.referee.journal import Entry, Journal, JournalError
from controller.referee.notices import (
    CommandRefused,
    DuplicateRead,
    Ignored,
    InputHeld,
    InputRefused,
    JournalDamaged,
    JournalFailed,
    JournalResumed,
    MatchSetUp,
    Notice,
    OtherDeckTag,
    Refused,
    Undone,
    UnknownTag,
)
from controller.referee.table_events import PUBLIC, Body, TableEvent, events_for, sees
from controller.rules import ImpossibleInput, Match, OptionError, Phase, preset
from controller.rules.cards import Card
from controller.rules.options import PRESETS

log = logging.getLogger(__name__)

Subscriber = Callable[[TableEvent], None]

#: how a tag of another deck was journaled before ``other_card``: "deck 'blue' (7H)"
_OLD_DECK_NOTE = re.compile(r"^(deck '.*') \((\w{2,3})\)$")
#: what a command that changed nothing answers: undo passes over such a command
NO_CHANGE = frozenset({"command-refused", "ignored"})
#: inputs held in memory while the journal cannot write (a few minutes of play); more are refused
MAX_HELD = 2000
#: table events after which the referee keeps a snapshot to come back to (undo, restart)
BASE_EVENTS = frozenset({"match-setup", "hand-started"})
#: earlier snapshots kept in memory for undo; deeper undos rebuild from the journal
OLDER_BASES = 2


@dataclass
class MatchSetup:
    """What the table chose when the match started (the header of a table log)."""

    preset: str = "court-piece"
    variants: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[str] = field(default_factory=lambda: ["Seat 0", "Seat 1", "Seat 2", "Seat 3"])
    first_dealer: int = 0
    knowledge: str = "dealt"

    @classmethod
    def from_args(cls, args: dict[str, Any]) -> MatchSetup:
        s = cls()
        s.preset = str(args.get("preset", s.preset))
        s.variants = [str(v) for v in args.get("variants", [])]
        s.options = dict(args.get("options", {}))
        seats = args.get("seats") or s.seats
        if len(seats) != 4:
            raise CommandError("a match needs four seat names")
        s.seats = [str(n)[:24] or f"Seat {i}" for i, n in enumerate(seats)]
        s.first_dealer = int(args.get("first_dealer", 0))
        s.knowledge = str(args.get("knowledge", "dealt"))
        return s

    def to_dict(self) -> dict[str, Any]:
        return {"preset": self.preset, "variants": list(self.variants), "options": dict(self.options),
                "seats": list(self.seats), "first_dealer": self.first_dealer, "knowledge": self.knowledge}

    def build(self) -> Match:
        opts = preset(self.preset, *self.variants, **self.options)
        return Match(opts, first_dealer=self.first_dealer, knowledge=self.knowledge, seat_names=self.seats)


def zone_label(zone: str, seats: list[str] | None = None) -> str:
    """A reader zone the way the table says it: "Bilal's spot", "the deal spot"."""
    seat = seat_of_zone(zone)
    if seat is not None:
        return f"{seats[seat]}'s spot" if seats else f"seat {seat}'s spot"
    return {DEAL_ZONE: "the deal spot", TRUMP_ZONE: "the trump spot"}.get(zone, f"zone {zone!r}")


def _seq_of(event: TableEvent) -> int:
    return event.seq


class Referee:
    """Thread-safe: readers, buttons and the web may call it from their own threads."""

    def __init__(self, journal: Journal | None = None) -> None:
        self.journal = journal
        #: Names the journal these inputs belong to (see ``Journal.journal_id``); a referee
        #: with no journal file draws one for its life.
        self.journal_id = journal.journal_id if journal is not None else secrets.token_hex(8)
        self.subscribers: list[Subscriber] = []
        self.events: list[TableEvent] = []
        self.entries: list[Entry] = []  # effective inputs (undo removes from here)
        self.setup: MatchSetup | None = None
        self.match: Match | None = None
        self.halted: str | None = None
        #: inputs that arrived while the journal could not write, for when it can again
        self._held: list[Entry] = []
        #: inputs refused (not held) during the current halt
        self.refused = 0
        #: start-up found the journal damaged (what was saved, where the file is kept)
        self.damaged: str | None = None
        self.counters: dict[str, int] = {"unknown_tags": 0, "duplicates": 0, "impossible": 0, "other_deck": 0}
        #: the card that came to rest last on each zone, this deal: read again, it is a
        #: reader repeat; any other card already seen is the engine's to judge
        self._zone_last: dict[str, int] = {}
        self._zone_deal = -1
        #: the card lying last on each seat's spot when the previous hand ended: read again
        #: before anything of the next hand happened, it is still that card lying there
        self._zone_ended: dict[str, int] = {}
        self._seq = 0
        self._lock = threading.RLock()
        # Undo and restart come back to the last hand start instead of replaying history:
        # ``entries`` holds only the inputs since ``_base`` (the state after input
        # ``_base_seq``). Without a journal (``courtpiece replay``) nothing is cut.
        self._keep_bases = journal is not None
        self._base: snapshots.RefereeState | None = None
        self._base_seq = 0
        self._older: list[tuple[snapshots.RefereeState | None, int, list[Entry]]] = []
        self._saved_seq = 0
        #: more of the public state, each from a part beside the referee that knows what the
        #: engine may not (the match clock: controller.referee.match_clock); nothing secret
        self.state_extras: dict[str, Callable[[], Any]] = {}

    # ---------------------------------------------------------------- subscribers
    def subscribe(self, fn: Subscriber) -> Callable[[], None]:
        with self._lock:
            self.subscribers.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self.subscribers:
                    self.subscribers.remove(fn)

        return unsubscribe

    def _publish(self, events: list[TableEvent]) -> None:
        for e in events:
            for fn in list(self.subscribers):
                try:
                    fn(e)
                except Exception:  # a broken screen must not stop the referee
                    log.exception("table event subscriber failed")

    def notice(self, what: Notice) -> list[TableEvent]:
        """Publish something the table should know that is not an input (a reader fault).

        Notices are not journaled and do not change the state, so they are not part of
        the replayable event stream.
        """
        with self._lock:
            out = events_for(self._seq, time.time(), what, notice=True)
        self._publish(out)
        return out

    # ---------------------------------------------------------------- inputs
    def restore(self) -> int:
        """Rebuild from the journal after a restart; returns how many inputs were replayed.

        Starts from the newest snapshot this code made (a hand start) when there is one,
        so a restart costs the current hand, not every hand the table has played.
        """
        if self.journal is None:
            return 0
        n = 0
        with self._lock:
            after = self._load_snapshot()
            for entry in self.journal.entries(after=after):
                self._process(entry)
                n += 1
        return n

    def replay(self, entries: Iterable[Entry]) -> list[TableEvent]:
        """Run inputs without a journal (``courtpiece replay``); returns all table events."""
        with self._lock:
            for entry in entries:
                self._process(entry)
            return list(self.events)

    def sighting(self, seen: CardSeen, *, tag: str | None = None, note: str | None = None,
                 other_card: str | None = None) -> list[TableEvent]:
        """A card (or, with ``card`` empty, an unknown tag) seen in a zone. ``note``: the
        other deck a tag belongs to, ``other_card`` which of its cards (the admin's only)."""
        payload: dict[str, Any] = {"zone": seen.zone, "card": seen.card or None}
        if tag:
            payload["tag"] = tag
        if note:
            payload["note"] = note
        if other_card:
            payload["other_card"] = other_card
        return self._take(SIGHTING, payload, seen.at, seen.source)

    def command(self, name: str, args: dict[str, Any] | None = None, *, at: float | None = None,
                source: str = "admin") -> list[TableEvent]:
        payload = {"name": name, **(args or {})}
        return self._take(COMMAND, payload, time.time() if at is None else at, source)

    def _take(self, kind: str, payload: dict[str, Any], at: float, source: str) -> list[TableEvent]:
        with self._lock:
            if self.halted and not self._resume_journal():
                return self._hold(Entry(0, at, source, kind, payload))
            if self.journal is not None:
                try:
                    seq = self.journal.append(kind, payload, at, source)
                except JournalError as err:
                    return self._journal_failed(err, Entry(0, at, source, kind, payload))
            else:
                seq = self._seq + 1
            out = self._process(Entry(seq, at, source, kind, payload))
            # Published under the lock so every subscriber sees inputs in journal order,
            # whichever thread (reader, button, web) brought them.
            self._publish(out)
        return out

    # ---------------------------------------------------------------- a journal that fails
    def _journal_failed(self, err: JournalError, entry: Entry) -> list[TableEvent]:
        """Halt: nothing is refereed that is not journaled. The input is held if a retry may
        still record it (a full card), refused if not (the journal file was taken away)."""
        self.halted = f"the journal cannot be written ({err}); the referee has stopped taking plays"
        out = self._event(self._seq, entry.at, JournalFailed(self.halted))
        self.events.extend(out)
        self._publish(out)
        log.critical(self.halted)
        return [*out, *self._hold(entry, publish_refusal=False)]

    def _hold(self, entry: Entry, *, publish_refusal: bool = True) -> list[TableEvent]:
        """While halted: keep the input for the journal's recovery, or refuse it loudly."""
        j = self.journal
        if j is not None and j.retryable and len(self._held) < MAX_HELD:
            self._held.append(entry)
            out = self._event(self._seq, entry.at, InputHeld(len(self._held)))
        else:
            self.refused += 1
            out = self._event(self._seq, entry.at, InputRefused(self.refused, self.halted or ""))
            if not publish_refusal:
                return out
        self._publish(out)
        return out

    def journal_damaged(self, message: str) -> None:
        """Start-up rebuilt the journal from a damaged file: say so now, and in every state."""
        with self._lock:
            self.damaged = message
            out = self._event(self._seq, time.time(), JournalDamaged(message))
            self.events.extend(out)
        self._publish(out)

    def answers(self, timeout: float) -> bool:
        """Whether the referee's lock can be taken within ``timeout`` seconds (the
        watchdog asks: a deadlocked referee must stop the pings and get its restart)."""
        if not self._lock.acquire(timeout=timeout):
            return False
        self._lock.release()
        return True

    def retry_journal(self) -> bool:
        """Try the halted journal again (called every few seconds); True once it writes."""
        with self._lock:
            return self._resume_journal()

    def _resume_journal(self) -> bool:
        """Record and referee the held inputs, in order, if the journal writes again."""
        j = self.journal
        if not self.halted:
            return True
        if j is None or not j.retryable or not j.resume():
            return False
        recorded = 0
        while self._held:
            e = self._held[0]
            try:
                seq = j.append(e.kind, e.payload, e.at, e.source)
            except JournalError:
                return False  # still failing: stay halted, keep the rest held
            self._held.pop(0)
            recorded += 1
            self._publish(self._process(Entry(seq, e.at, e.source, e.kind, e.payload)))
        self.halted = None
        resumed = JournalResumed(recorded, self.refused)
        out = self._event(self._seq, time.time(), resumed)
        self.refused = 0
        self.events.extend(out)
        self._publish(out)
        log.warning(resumed.message())
        return True

    # ---------------------------------------------------------------- the one path
    def _process(self, entry: Entry) -> list[TableEvent]:
        self._seq = entry.seq
        out: list[TableEvent] = []
        p = entry.payload
        if entry.kind == COMMAND and p.get("name") == "undo":
            out += self._undo(entry)
        else:
            self.entries.append(entry)
            out += self._apply(entry)
            if entry.kind == COMMAND and out and all(e.kind in NO_CHANGE for e in out):
                # a command refused or with nothing to do changed nothing: still journaled
                # (a replay refuses it again), but no undo's to take back
                self.entries.pop()
            if self._keep_bases and any(e.kind in BASE_EVENTS for e in out):
                if self.journal is not None and entry.seq > self._saved_seq and out[0].kind == "match-setup":
                    self.journal.mark_match(entry.seq, entry.at)  # and the table's retention applies
                self._new_base(entry.seq)
        self.events.extend(out)
        return out

    def _event(self, seq: int, at: float, body: Body) -> list[TableEvent]:
        return events_for(seq, at, body)

    def _apply(self, entry: Entry) -> list[TableEvent]:
        p = entry.payload
        if entry.kind == COMMAND and p.get("name") == "new-match":
            return self._new_match(entry)
        if self.match is None:
            return self._event(entry.seq, entry.at, Ignored("no match in progress: start one"))
        if entry.kind == SIGHTING:
            return self._apply_sighting(entry)
        if entry.kind == COMMAND:
            return self._apply_command(entry)
        return self._event(entry.seq, entry.at, Ignored(f"unknown input kind {entry.kind!r}"))

    def _new_match(self, entry: Entry) -> list[TableEvent]:
        args = {k: v for k, v in entry.payload.items() if k != "name"}
        try:
            setup = MatchSetup.from_args(args)
            if setup.preset not in PRESETS:
                raise OptionError(f"unknown preset {setup.preset!r}")
            match = setup.build()
        except (CommandError, OptionError, ValueError, TypeError) as err:
            return self._event(entry.seq, entry.at, CommandRefused("new-match", str(err)))
        self.setup, self.match = setup, match
        self._zone_last, self._zone_deal = {}, -1
        out = self._event(entry.seq, entry.at, MatchSetUp(setup.to_dict()))
        out += self._engine_events(entry, match.events)
        return out

    def _engine_events(self, entry: Entry, events: list[Any]) -> list[TableEvent]:
        return [te for e in events for te in self._event(entry.seq, entry.at, e)]

    def _run(self, entry: Entry, move: Any, what: dict[str, str]) -> list[TableEvent]:
        assert self.match is not None
        try:
            events = self.match.apply(move)
        except ImpossibleInput as err:
            self.counters["impossible"] += 1
            return self._event(entry.seq, entry.at, Refused.from_error(err, **what))
        return self._engine_events(entry, events)

    def _apply_sighting(self, entry: Entry) -> list[TableEvent]:
        m = self.match
        assert m is not None
        zone = str(entry.payload.get("zone"))
        text = entry.payload.get("card")
        where = zone_label(zone, self.setup.seats if self.setup else None)
        if not text:
            note = entry.payload.get("note")
            tag = entry.payload.get("tag", "?")
            if note:
                self.counters["other_deck"] += 1
                deck, card = str(note), entry.payload.get("other_card")
                if card is None and (old := _OLD_DECK_NOTE.match(deck)):  # journaled before other_card
                    deck, card = old.group(1), old.group(2)
                return self._event(entry.seq, entry.at, OtherDeckTag(zone, where, str(tag), deck, card))
            self.counters["unknown_tags"] += 1
            return self._event(entry.seq, entry.at, UnknownTag(zone, where, str(tag)))
        try:
            c = Card.parse(str(text))
        except ValueError as err:
            return self._event(entry.seq, entry.at, Refused("BadCard", str(err), str(err), zone=zone))
        if self._zone_deal != m.deals_started:
            self._zone_ended = {
                z: v for z, v in self._zone_last.items() if seat_of_zone(z) is not None
            }
            self._zone_last, self._zone_deal = {}, m.deals_started
        repeat = self._zone_last.get(zone) == c and not self._taken_back(zone, c)
        if repeat or self._still_lying(zone, c):
            self.counters["duplicates"] += 1
            return self._event(entry.seq, entry.at, DuplicateRead(zone, where))
        move = self._sighting_move(zone, c)
        if move is None:
            sentence = f"a card at {where} means nothing now"
            return self._event(entry.seq, entry.at, Refused("UnexpectedZone", sentence, sentence, zone=zone))
        out = self._run(entry, move, {"zone": zone})
        if not (out and out[0].kind == "impossible"):
            self._zone_last[zone] = c
        return out

    def _still_lying(self, zone: str, c: int) -> bool:
        """A card of the hand just ended, read again on its spot before the next hand began
        (its reader missed it a while, the host was not reading, or the service restarted):
        the same card still lying there, not a card played after the hand ended."""
        m = self.match
        assert m is not None
        return (
            self._zone_ended.get(zone) == c
            and not m.hand.started
            and m.phase in (Phase.DEAL, Phase.CALL)
        )

    def _taken_back(self, zone: str, c: int) -> bool:
        """A card taken back into a hand may land again on the same spot."""
        m = self.match
        assert m is not None
        seat = seat_of_zone(zone)
        return seat is not None and c in m.hand.holdings[seat] and c not in m.hand.played

    def _sighting_move(self, zone: str, c: Card) -> Any | None:
        assert self.match is not None
        return sighting_input(self.match, zone, c)

    def _apply_command(self, entry: Entry) -> list[TableEvent]:
        m = self.match
        assert m is not None
        name = str(entry.payload.get("name"))
        args = {k: v for k, v in entry.payload.items() if k != "name"}
        try:
            move = to_engine_input(m, name, args)
        except (CommandError, ValueError, TypeError) as err:
            return self._event(entry.seq, entry.at, CommandRefused(name, str(err)))
        if move is None:
            return self._event(entry.seq, entry.at, Ignored(f"nothing to {name} now", name))
        return self._run(entry, move, {"command": name})

    def _undo(self, entry: Entry) -> list[TableEvent]:
        if not self.entries and not self._reach_back(entry.seq):
            return self._event(entry.seq, entry.at, Ignored("nothing to undo", "undo"))
        undone = self.entries.pop()
        kept = list(self.entries)
        counters = dict(self.counters)  # reader statistics count what arrived, undone or not
        self.entries = []
        self._set_state(self._base)  # the last hand start, not the first input ever
        for e in kept:  # rebuild silently: the state is the replay of what remains
            self.entries.append(e)
            self._apply(e)
        self.counters = counters
        if undone.kind == SIGHTING:
            where = zone_label(str(undone.payload.get("zone")), self.setup.seats if self.setup else None)
            note = Undone(undone.seq, where=where, card=undone.payload.get("card") or None)
        else:
            note = Undone(undone.seq, command=str(undone.payload.get("name")))
        return self._event(entry.seq, entry.at, note)

    # ---------------------------------------------------------------- snapshots
    def _state(self) -> snapshots.RefereeState:
        return snapshots.RefereeState(self.setup, self.match.copy(stack=False) if self.match else None,
                                      dict(self._zone_last), self._zone_deal, dict(self.counters))

    def _set_state(self, state: snapshots.RefereeState | None) -> None:
        """Become ``state`` (a copy of it: the snapshot stays as it was), or a fresh referee."""
        if state is None:
            self.setup, self.match, self._zone_last, self._zone_deal = None, None, {}, -1
            self._zone_ended = {}
            return
        self.setup, self.match = state.setup, state.match.copy() if state.match else None
        self._zone_last, self._zone_deal, self.counters = dict(state.zone_last), state.zone_deal, dict(state.counters)
        # made again from zone_last by the next sighting (zone_deal is the ended hand's)
        self._zone_ended = {}

    def _new_base(self, seq: int) -> None:
        """A hand (or match) started with input ``seq``: undo and restart come back here."""
        state = self._state()
        self._older.append((self._base, self._base_seq, self.entries))
        del self._older[:-OLDER_BASES]
        self._base, self._base_seq, self.entries = state, seq, []
        blob = snapshots.dump(state) if self.journal is not None and seq > self._saved_seq else None
        if blob is not None and self.journal is not None:
            self._saved_seq = seq
            self.journal.save_snapshot(seq, snapshots.tag(), blob)

    def _load_snapshot(self) -> int:
        """Start from the newest usable snapshot in the journal; its seq (0: from the start)."""
        assert self.journal is not None
        found = self.journal.latest_snapshot(snapshots.tag())
        state = snapshots.load(found[1]) if found else None
        if found is None or state is None:
            return 0
        self._set_state(state)
        self._base, self._base_seq, self._seq = state, found[0], found[0]
        self._saved_seq = found[0]
        return found[0]

    def _reach_back(self, before: int) -> bool:
        """Undo found no input since the last hand start: step back to an earlier one (in
        memory, else rebuilt from an older snapshot in the journal, else from its first
        input, up to input ``before``). False: there is nothing left to undo."""
        limit = self._base_seq
        while True:
            while not self.entries and self._older:
                self._base, self._base_seq, self.entries = self._older.pop()
            if self.entries:
                return True
            if self._base_seq == 0 or self.journal is None or limit == 0:
                return False
            limit = self._rebuild_before(before, limit)

    def _rebuild_before(self, before: int, limit: int) -> int:
        """Replay the journal up to input ``before`` from the newest snapshot older than
        input ``limit`` (or from the first input); returns that snapshot's seq."""
        assert self.journal is not None
        scratch = Referee(self.journal)  # reads the journal; never appends, never saves
        scratch._saved_seq = before
        found = self.journal.snapshot_before(snapshots.tag(), limit)
        state = snapshots.load(found[1]) if found else None
        start = found[0] if found and state is not None else 0
        if state is not None:
            scratch._set_state(state)
            scratch._base, scratch._base_seq = state, start
        for e in self.journal.entries(after=start):
            if e.seq >= before:
                break
            scratch._process(e)
        self._base, self._base_seq, self.entries, self._older = (
            scratch._base, scratch._base_seq, scratch.entries, scratch._older)
        return start

    # ---------------------------------------------------------------- state
    @property
    def last_seq(self) -> int:
        """Sequence number of the last input taken (journaled), 0 before any."""
        return self._seq

    def zones_in_use(self) -> tuple[str, ...] | None:
        """The zones whose cards mean something now (None: all), for a hub's polling."""
        with self._lock:
            return zones_in_use(self.match)

    def public_state(self) -> dict[str, Any]:
        with self._lock:
            return {
                "setup": self.setup.to_dict() if self.setup else None,
                "view": self.match.public_view() if self.match else None,
                "halted": self.halted,
                "journal_damaged": self.damaged,
                "seq": self._seq,
                "counters": dict(self.counters),
                **{key: part() for key, part in self.state_extras.items()},
            }

    def seat_state(self, seat: int) -> dict[str, Any]:
        with self._lock:
            return {"setup": self.setup.to_dict() if self.setup else None,
                    "view": self.match.seat_view(seat) if self.match else None}

    def public_events(self, after: int = 0, newest: int | None = None) -> list[TableEvent]:
        """The public events after journal seq ``after`` (only the ``newest`` of them if given).

        The club's publisher asks at every input and the web at every page load, while
        the list grows all night: events are kept in journal order (a seq never goes
        down), so the first one wanted is found by bisection instead of a walk from the
        night's first event."""
        with self._lock:
            start = bisect.bisect_right(self.events, after, key=_seq_of)
            if newest is None:
                return [e for e in self.events[start:] if sees(PUBLIC, e)]
            out: list[TableEvent] = []
            for i in range(len(self.events) - 1, start - 1, -1):
                if len(out) >= newest:
                    break
                if sees(PUBLIC, self.events[i]):
                    out.append(self.events[i])
            out.reverse()
            return out

    def admin_state(self) -> dict[str, Any]:
        """The public state with every revoke proof filled in: for the admin page only
        (behind the PIN), which must still see what proves a flag."""
        with self._lock:
            state = self.public_state()
            state["view"] = self.match.admin_view() if self.match else None
            return state
