"""The journal as the outbox: which public events to send next, and what is safe.

The referee keeps every table event in journal order; this class reads its *public*
events (``Referee.public_events``, the same path the web uses, then the web's own last
check ``public_event``) grouped by journal sequence, and tracks three marks:

- ``cursor``: the last seq handed to the broker client on this connection;
- ``in_flight``: seqs handed over but not yet acknowledged by the broker (QoS 1 PUBACK);
- ``mark``: everything up to here was acknowledged, so it is saved to disk
  (:class:`MarkFile`) and a restarted table starts sending after it.

On every new connection the cursor goes back to the mark, so whatever the broker had not
acknowledged is sent again; the scoreboard drops a seq it already holds. No paho here:
the publisher drives this from one thread, and tests drive it directly.
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from pathlib import Path

from controller.atomic_file import replace_file
from controller.club.topics import Batch
from controller.referee.referee import Referee
from controller.referee.table_events import TableEvent
from controller.web.redact import public_event

MARK_FILE = "club-published.json"


class MarkFile:
    """The "published up to seq" mark, kept beside the journal; written atomically so a
    pulled plug leaves the old mark (a few events sent twice) rather than a broken file."""

    def __init__(self, path: Path, key: str) -> None:
        self.path = path
        self.key = key  # broker and table: a different broker starts from zero

    def load(self) -> int:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return 0
        if not isinstance(data, dict) or data.get("key") != self.key:
            return 0
        mark = data.get("published_upto")
        return mark if isinstance(mark, int) and mark >= 0 else 0

    def save(self, mark: int) -> None:
        replace_file(self.path, json.dumps({"key": self.key, "published_upto": mark}))


@dataclass
class Outbox:
    table: str
    referee: Referee
    mark: int = 0
    cursor: int = 0
    in_flight: dict[int, int] = field(default_factory=dict)  # seq -> prev, in send order
    _seqs: list[int] = field(default_factory=list)  # every public batch seq read so far
    _events: dict[int, list[TableEvent]] = field(default_factory=dict)
    _read: int = 0  # the referee's events are read up to here
    _base: int | None = None  # the live referee holds every event after this seq
    _filled: bool = False

    def __post_init__(self) -> None:
        self.cursor = self.mark

    # ------------------------------------------------------------- reading the journal's events
    def refresh(self) -> None:
        """Take in the public events the referee made since the last call."""
        live = self.referee.public_events(self._read)
        if self._base is None:
            # A restarted referee starts from a snapshot (a hand start) and holds only the
            # events after it; older ones are in the journal, replayed when asked for.
            self._base = live[0].seq - 1 if live else self.referee.last_seq
            self._read = self._base
        self._take(live)

    def _take(self, events: list[TableEvent]) -> None:
        for e in events:
            seq = e.seq
            if seq <= self._read:
                continue
            if e.notice:  # not journaled, not replayable: not part of the stream
                continue
            shown = public_event(e)
            if shown is None:
                continue
            if not self._seqs or self._seqs[-1] != seq:
                self._seqs.append(seq)
                self._events[seq] = []
            self._events[seq].append(shown)
        if self._seqs:
            self._read = max(self._read, self._seqs[-1])

    @property
    def last(self) -> int:
        """The newest batch seq known (what a state message points at)."""
        return self._seqs[-1] if self._seqs else 0

    def prev_of(self, seq: int) -> int:
        i = bisect.bisect_left(self._seqs, seq)
        return self._seqs[i - 1] if i > 0 else 0

    # ------------------------------------------------------------- sending
    def backfill(self) -> None:
        """Read the public events before the live referee's first from the journal, by
        replaying it through a referee of our own (the journal is the outbox)."""
        journal = self.referee.journal
        if self._filled or not self._base or journal is None:
            return
        self._filled = True
        side = Referee()
        side.replay(e for e in journal.entries() if e.seq <= self._base)
        live_seqs, live_events, read = self._seqs, self._events, self._read
        self._seqs, self._events, self._read = [], {}, 0
        self._take([e for e in side.public_events(0) if e.seq <= self._base])
        self._seqs += [s for s in live_seqs if s > self._base]
        self._events.update(live_events)
        self._read = max(read, self._read)

    def pending(self, limit: int) -> list[Batch]:
        """Up to ``limit`` batches after the cursor, in order."""
        if self._base and self.cursor < self._base:
            self.backfill()
        i = bisect.bisect_right(self._seqs, self.cursor)
        out = []
        for seq in self._seqs[i: i + limit]:
            out.append(Batch(self.table, seq, self.prev_of(seq), list(self._events[seq]),
                             journal=self.referee.journal_id))
        return out

    def handed(self, batch: Batch) -> None:
        """The broker client took ``batch``: it is in flight until acknowledged."""
        self.cursor = batch.seq
        self.in_flight[batch.seq] = batch.prev

    def acked(self, seq: int) -> bool:
        """The broker acknowledged ``seq``; True when the mark moved."""
        if self.in_flight.pop(seq, None) is None:
            return False
        before = self.mark
        if self.in_flight:
            first = next(iter(self.in_flight))
            self.mark = max(self.mark, self.in_flight[first])
        else:
            self.mark = max(self.mark, self.cursor)
        return self.mark != before

    def rewind(self, after: int | None = None) -> None:
        """Send again: from the mark on a new connection, or after ``after`` when the
        scoreboard asks (it found a gap)."""
        if after is None:
            self.in_flight.clear()
            self.cursor = self.mark
        else:
            self.cursor = min(self.cursor, max(after, 0))
            # whatever is re-sent is in flight again; order stays ascending
            self.in_flight = {s: p for s, p in self.in_flight.items() if s <= self.cursor}


def batches_of(referee: Referee, table: str) -> list[Batch]:
    """Every batch a referee's journal gives (for tests and audits)."""
    box = Outbox(table, referee)
    box.refresh()
    return box.pending(len(box._seqs) + 1)

