"""The match clock: time left in a match played to an agreed time, and the call when it is up.

Why here and not in the rules: the engine never reads a clock (it is replayed, and a
replay must give the same table). It only knows that time was called (``time-up``).
The referee's side knows the time, so this clock works it out from what the journal
already holds: the match started at its ``new-match`` input's timestamp, and lasts
``match-target`` minutes when ``match-end`` is ``time``. A restart, a replay and a
second screen all get the same answer, because nothing but journaled timestamps and
the options goes into it.

When the time is up the clock records a ``time-up`` command (journaled like a button
press, with source ``clock``), so the engine ends the match by its own rule: the hand
in progress is finished, then the side with more courts wins. It does so once per
match: an admin who undoes it (to play one more hand) is not overruled, and a restart
finds the journaled call and does not make it again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.referee.actions import COMMAND
from controller.referee.matches import starts_match
from controller.referee.referee import MatchSetup, Referee
from controller.rules import Phase
from controller.rules.options import MatchEnd, Options

#: the source recorded with the clock's own ``time-up`` input
SOURCE = "clock"


def match_minutes(options: Options) -> int:
    """Minutes agreed for the match, or 0 when it is not played to a time (or no time
    was given: then time is called by hand, as before)."""
    if options.match_end is MatchEnd.TIME and options.match_target > 0:
        return options.match_target
    return 0


@dataclass(frozen=True)
class ClockReading:
    """The clock at one moment. ``left`` is never below 0."""

    minutes: int
    started_at: float
    ends_at: float
    left: float
    time_up: bool

    def to_dict(self) -> dict[str, Any]:
        """What the screens get in the public state (nothing here is secret)."""
        return {"minutes": self.minutes, "started_at": self.started_at, "ends_at": self.ends_at,
                "left": round(self.left, 1), "time_up": self.time_up}


@dataclass
class _Start:
    """Where the current match began in the journal, and whether its time was called."""

    setup: MatchSetup
    seq: int
    at: float
    called: bool = False


class MatchClock:
    """Attach one to a referee: its reading joins the public state under ``"clock"``,
    and :meth:`tick` (every half second on the service) calls time when it is up.

    ``now``: wall-clock seconds (journal timestamps are wall-clock); tests inject one.
    """

    def __init__(self, referee: Referee, *, now: Callable[[], float] = time.time) -> None:
        self.referee = referee
        self.now = now
        self._start: _Start | None = None
        referee.state_extras["clock"] = self.state

    # ---------------------------------------------------------------- reading
    def reading(self) -> ClockReading | None:
        """The clock now, or None when the match is not timed (or there is no match)."""
        m = self.referee.match
        if m is None:
            return None
        minutes = match_minutes(m.options)
        start = self._find_start()
        if not minutes or start is None:
            return None
        ends = start.at + minutes * 60
        return ClockReading(minutes, start.at, ends, max(0.0, ends - self.now()), m.time_up)

    def state(self) -> dict[str, Any] | None:
        r = self.reading()
        return r.to_dict() if r is not None else None

    # ---------------------------------------------------------------- calling time
    def tick(self) -> bool:
        """Check the clock once; True if this call recorded the time-up."""
        with self.referee._lock:  # no other input between the check and the call
            m = self.referee.match
            r = self.reading()
            start = self._start
            if r is None or start is None or m is None or r.left > 0 or r.time_up or m.phase is Phase.OVER:
                return False
            if start.called:
                return False
            start.called = True
            self.referee.command("time-up", {}, at=self.now(), source=SOURCE)
            return True

    def run(self, stop: threading.Event, interval: float = 0.5) -> None:
        while not stop.wait(interval):
            self.tick()

    # ---------------------------------------------------------------- the start
    def _find_start(self) -> _Start | None:
        """The current match's first input: found once per match (the setup object is
        the match's identity; undo and restore keep it), from the referee's events when
        it saw the match begin, else from the journal (after a restart)."""
        setup = self.referee.setup
        if setup is None:
            return None
        if self._start is not None and self._start.setup is setup:
            return self._start
        found = self._from_events(setup) or self._from_journal(setup)
        if found is not None and self._start is not None and self._start.seq == found.seq:
            found.called = found.called or self._start.called  # the same match, rebuilt by an undo
        self._start = found
        return found

    def _from_events(self, setup: MatchSetup) -> _Start | None:
        events = self.referee.events
        for i in range(len(events) - 1, -1, -1):
            e = events[i]
            if e.get("event") == "match-setup":
                called = any(self._is_call(x) for x in self.referee.entries if x.seq > e.get("seq"))
                return _Start(setup, int(e.get("seq")), float(e.get("at")), called)
        return None

    def _from_journal(self, setup: MatchSetup) -> _Start | None:
        journal = self.referee.journal
        if journal is None:
            return None
        last = self.referee.last_seq
        found: _Start | None = None
        for entry in journal.entries():
            if entry.seq > last:
                break
            if starts_match(entry):
                found = _Start(setup, entry.seq, entry.at)
            elif found is not None and self._is_call(entry):
                found.called = True
        return found

    @staticmethod
    def _is_call(entry: Any) -> bool:
        return entry.kind == COMMAND and entry.source == SOURCE and entry.payload.get("name") == "time-up"
