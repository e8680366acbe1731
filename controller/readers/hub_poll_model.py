"""The hub's reader turns and debounce, replayed over a record of what lay on the table.

Why a model at all: a real hub sees a card only if it lies on a reader through one of
that reader's turns (field on, hold, read, field off: about 25 ms), and the readers
take turns one at a time. A card slid over the deal spot faster than a round of turns
is missed, which is what the ``ZONES`` command is for. The virtual hub uses this model
when it is given a turn length, so the simulator and ``bench/dealing.py`` miss cards
exactly as a hub would.

Pure: times are given, never read. Placing and lifting are recorded as stays
(tag, from, until); :meth:`PollModel.run` then plays every turn that has ended by
``now``, in order, over that record, so a late caller (a busy thread) gets the same
readings as a punctual one. A tag is read in a turn if it lay there for the whole
turn. The debounce is the firmware's (``firmware/poller.py``): a new tag is TAG at
once (GONE first for one it replaces), a lying one is TAG again every ``repeat``,
and GONE after ``gone_misses`` turns without it. A zone not polled keeps its state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Reading(Enum):
    TAG = "TAG"
    GONE = "GONE"


@dataclass(frozen=True, slots=True)
class Report:
    """A line the hub sends after a turn."""

    kind: Reading
    zone: str
    tag: str


@dataclass(slots=True)
class _Stay:
    tag: str
    since: float
    until: float | None = None


@dataclass(slots=True)
class _Belief:
    """What the hub believes lies on one reader (its debounce state)."""

    tag: str | None = None
    misses: int = 0
    last_sent: float = 0.0


@dataclass(slots=True)
class PollModel:
    zones: tuple[str, ...]
    turn: float
    repeat: float | None = 0.5
    gone_misses: int = 3
    polled: tuple[str, ...] = ()
    turns_run: int = 0
    _stays: dict[str, list[_Stay]] = field(default_factory=dict)
    _beliefs: dict[str, _Belief] = field(default_factory=dict)
    _next_turn: float = 0.0
    _index: int = 0

    def __post_init__(self) -> None:
        if self.turn <= 0:
            raise ValueError("a reader's turn takes some time")
        self.polled = self.polled or self.zones
        self._stays = {z: [] for z in self.zones}
        self._beliefs = {z: _Belief() for z in self.zones}

    # --- the table --------------------------------------------------------------------

    def place(self, zone: str, tag: str, at: float) -> None:
        """``tag`` is put on ``zone`` at ``at``, replacing whatever lay there."""
        self.remove(zone, at)
        self._stays[zone].append(_Stay(tag, at))

    def remove(self, zone: str, at: float) -> None:
        stays = self._stays[zone]
        if stays and stays[-1].until is None:
            stays[-1].until = at

    # --- the hub ----------------------------------------------------------------------

    def restart(self, at: float) -> None:
        """The hub booted: every reader polled, nothing believed, turns from ``at``."""
        self.polled = self.zones
        self._beliefs = {z: _Belief() for z in self.zones}
        self._next_turn = at
        self._index = 0

    def idle(self, at: float) -> None:
        """No turns were taken before ``at`` (the hub was not running)."""
        self._next_turn = max(self._next_turn, at)

    def choose(self, zones: tuple[str, ...]) -> None:
        """Poll only these readers from the next turn (the ZONES command)."""
        self.polled = tuple(z for z in self.zones if z in zones)
        self._index = 0

    @property
    def next_turn_end(self) -> float:
        return self._next_turn + self.turn

    def lying(self, zone: str, start: float, end: float) -> str | None:
        """The tag that lay on ``zone`` from ``start`` to ``end``, if one did."""
        for stay in self._stays[zone]:
            if stay.since <= start and (stay.until is None or stay.until >= end):
                return stay.tag
        return None

    def run(self, now: float) -> list[Report]:
        """Every turn ending by ``now``, in order: the lines they make."""
        out: list[Report] = []
        while self._next_turn + self.turn <= now:
            start = self._next_turn
            end = start + self.turn
            zone = self.polled[self._index % len(self.polled)]
            self._index = (self._index + 1) % len(self.polled)
            self._next_turn = end
            self.turns_run += 1
            self._seen(zone, self.lying(zone, start, end), end, out)
        self._forget(self._next_turn)
        return out

    def _seen(self, zone: str, tag: str | None, at: float, out: list[Report]) -> None:
        belief = self._beliefs[zone]
        if tag is None:
            if belief.tag is not None:
                belief.misses += 1
                if belief.misses >= self.gone_misses:
                    out.append(Report(Reading.GONE, zone, belief.tag))
                    belief.tag, belief.misses = None, 0
            return
        if tag == belief.tag:
            belief.misses = 0
            if self.repeat is not None and at - belief.last_sent >= self.repeat:
                out.append(Report(Reading.TAG, zone, tag))
                belief.last_sent = at
            return
        if belief.tag is not None:
            out.append(Report(Reading.GONE, zone, belief.tag))
        belief.tag, belief.misses, belief.last_sent = tag, 0, at
        out.append(Report(Reading.TAG, zone, tag))

    def _forget(self, before: float) -> None:
        """Drop stays that ended before any turn still to come could start."""
        for zone, stays in self._stays.items():
            if any(s.until is not None and s.until < before for s in stays):
                self._stays[zone] = [s for s in stays if s.until is None or s.until >= before]
