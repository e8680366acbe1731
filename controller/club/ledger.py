"""What a table's public event stream says happened: matches, hands, courts, players.

A pure fold over one table's batches in journal order, so the scoreboard can rebuild it
from SQLite at any time. An undo at the table shows as an ``undone`` event naming the
input it took back; the referee's undo always takes back the *last* input, so the stream
minus the undone inputs' events is exactly what the table now holds, and
:func:`effective` drops them before folding.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from controller.club.topics import Batch

log = logging.getLogger(__name__)


class CourtKind(Enum):
    SEVEN = "seven"
    THIRTEEN = "thirteen"
    GOON = "goon"
    STREAK = "streak"
    REVOKE = "revoke"
    OTHER = "other"


def court_kind(reason: str) -> CourtKind:
    r = reason.lower()
    if "goon" in r:
        return CourtKind.GOON
    if r.startswith("revoke"):
        return CourtKind.REVOKE
    if "thirteen" in r:
        return CourtKind.THIRTEEN
    if "seven" in r:
        return CourtKind.SEVEN
    if "in a row" in r or "streak" in r:
        return CourtKind.STREAK
    return CourtKind.OTHER


def player_id(table: str, seat: int, name: str) -> str:
    """An unregistered player's id: the table, the seat they sat down in and their name,
    so two people of one name at two tables (or at one) stay two players. A player the
    director registered has a club id (``p12``) instead (:mod:`.store`)."""
    return f"{table}:{seat}:{name}"


@dataclass
class PlayerStats:
    name: str
    id: str = ""
    matches: int = 0
    matches_won: int = 0
    hands: int = 0
    hands_won: int = 0
    courts: dict[str, int] = field(default_factory=lambda: {k.value: 0 for k in CourtKind})
    revokes: int = 0
    trump_calls: int = 0
    trump_calls_won: int = 0
    bids_made: int = 0
    bids_broken: int = 0

    def add(self, other: PlayerStats) -> None:
        for f in ("matches", "matches_won", "hands", "hands_won", "revokes", "trump_calls", "trump_calls_won",
                  "bids_made", "bids_broken"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        for k, v in other.courts.items():
            self.courts[k] = self.courts.get(k, 0) + v

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "matches": self.matches, "matches_won": self.matches_won, "hands": self.hands,
                "hands_won": self.hands_won, "courts": dict(self.courts), "courts_total": sum(self.courts.values()),
                "revokes": self.revokes, "trump_calls": self.trump_calls, "trump_calls_won": self.trump_calls_won,
                "bids_made": self.bids_made, "bids_broken": self.bids_broken}


@dataclass
class MatchRecord:
    """One match at one table, identified by the journal seq of its ``match-setup``."""

    table: str
    seq: int
    preset: str
    seats: list[str]
    courts: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    hands_won: list[int] = field(default_factory=lambda: [0, 0])
    score: list[int] | None = None  # the final shown score, once over
    winner: int | None = None
    over: bool = False
    #: a new match began at the table before this one was over: it will never finish
    abandoned: bool = False
    reason: str = ""
    night: int = 0  # the club night the match started in
    #: each seat's player id (:func:`player_id`), moved with the player when seats swap
    ids: list[str] = field(default_factory=list)
    players: dict[str, PlayerStats] = field(default_factory=dict)  # by player id

    def __post_init__(self) -> None:
        if not self.ids:
            self.ids = [player_id(self.table, i, name) for i, name in enumerate(self.seats)]

    def team(self, t: int) -> tuple[str, str]:
        return (self.seats[t], self.seats[t + 2])

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "seq": self.seq, "preset": self.preset, "seats": list(self.seats),
                "ids": list(self.ids),
                "teams": [list(self.team(0)), list(self.team(1))], "courts": list(self.courts),
                "points": list(self.points), "hands_won": list(self.hands_won), "score": self.score,
                "winner": self.winner, "over": self.over, "abandoned": self.abandoned, "reason": self.reason,
                "night": self.night}


def team_of(seat: int) -> int:
    return seat & 1


def effective(batches: Iterable[Batch]) -> list[Batch]:
    """The batches minus every input an ``undone`` event took back (and the undo notices)."""
    items = list(batches)
    undone = {int(e["undone_seq"]) for b in items for e in b.events
              if e.get("event") == "undone" and isinstance(e.get("undone_seq"), int)}
    return [b for b in items if b.seq not in undone]


class TableLedger:
    """Folds one table's effective batches into match records."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.matches: list[MatchRecord] = []
        self._caller: int | None = None  # who called trump this hand
        self._bidder: int | None = None  # band rung: who won the auction

    @property
    def current(self) -> MatchRecord | None:
        return self.matches[-1] if self.matches else None

    def fold(self, batches: Iterable[Batch]) -> TableLedger:
        for b in effective(batches):
            for e in b.events:
                self.apply(b.seq, e)
        return self

    def apply(self, seq: int, e: dict[str, Any]) -> None:
        kind = e.get("event")
        handler = _HANDLERS.get(str(kind))
        if kind == "match-setup":
            self._setup(seq, e)
        elif handler is not None and self.current is not None and not self.current.over:
            if not _well_formed(e):
                # only a message forged with the table's password says team 7 or seat 9;
                # counted, it stopped the scoreboard rebuilding its tables at every start
                log.warning("table %s: event %s of seq %s is not what a table writes; not counted",
                            self.table, kind, seq)
                return
            try:
                handler(self, self.current, e)
            except (KeyError, TypeError, ValueError, IndexError) as err:  # one missing field
                log.warning("table %s: event %s of seq %s not counted: %s", self.table, kind, seq, err)

    def _setup(self, seq: int, e: dict[str, Any]) -> None:
        if self.current is not None and not self.current.over:
            self.current.abandoned = True
        seats = [str(s) for s in e.get("seats") or []][:4]
        seats += [f"Seat {i}" for i in range(len(seats), 4)]
        m = MatchRecord(self.table, seq, str(e.get("preset", "")), seats)
        m.players = {pid: PlayerStats(name, pid) for pid, name in zip(m.ids, seats, strict=True)}
        self.matches.append(m)
        self._caller = self._bidder = None

    def _player(self, m: MatchRecord, seat: Any) -> PlayerStats | None:
        if not isinstance(seat, int) or seat not in range(4):
            return None
        return m.players[m.ids[seat]]

    def _swap(self, m: MatchRecord, e: dict[str, Any]) -> None:
        swap = e.get("swap")
        if isinstance(swap, list) and len(swap) == 2:
            a, b = int(swap[0]), int(swap[1])
            m.seats[a], m.seats[b] = m.seats[b], m.seats[a]
            m.ids[a], m.ids[b] = m.ids[b], m.ids[a]

    def _hand_started(self, m: MatchRecord, e: dict[str, Any]) -> None:
        self._caller = self._bidder = None

    def _trump_called(self, m: MatchRecord, e: dict[str, Any]) -> None:
        seat = e.get("seat")
        self._caller = seat if isinstance(seat, int) else None
        p = self._player(m, seat)
        if p is not None:
            p.trump_calls += 1

    def _auction_won(self, m: MatchRecord, e: dict[str, Any]) -> None:
        seat = e.get("seat")
        self._bidder = seat if isinstance(seat, int) else None

    def _hand_won(self, m: MatchRecord, e: dict[str, Any]) -> None:
        team = int(e["team"])
        m.hands_won[team] += 1
        for seat in range(4):
            p = m.players[m.ids[seat]]
            p.hands += 1
            if team_of(seat) == team:
                p.hands_won += 1
        caller = self._player(m, self._caller)
        if caller is not None and self._caller is not None and team_of(self._caller) == team:
            caller.trump_calls_won += 1
        bidder = self._player(m, self._bidder)
        if bidder is not None and self._bidder is not None:
            if team_of(self._bidder) == team:
                bidder.bids_made += 1
            else:
                bidder.bids_broken += 1

    def _courts(self, m: MatchRecord, e: dict[str, Any]) -> None:
        team, n = int(e["team"]), int(e["courts"])
        m.courts[team] += n
        kind = court_kind(str(e.get("reason", ""))).value
        for seat in (team, team + 2):
            m.players[m.ids[seat]].courts[kind] += n

    def _points(self, m: MatchRecord, e: dict[str, Any]) -> None:
        m.points[int(e["team"])] += int(e["points"])

    def _revoke(self, m: MatchRecord, e: dict[str, Any]) -> None:
        p = self._player(m, e.get("seat"))
        if p is not None:
            p.revokes += 1

    def _over(self, m: MatchRecord, e: dict[str, Any]) -> None:
        m.over = True
        w = e.get("winner")
        m.winner = w if isinstance(w, int) else None
        score = e.get("score")
        m.score = [int(x) for x in score] if isinstance(score, list) else None
        m.reason = str(e.get("reason", ""))
        for seat in range(4):
            p = m.players[m.ids[seat]]
            p.matches += 1
            if m.winner is not None and team_of(seat) == m.winner:
                p.matches_won += 1


def _well_formed(e: dict[str, Any]) -> bool:
    """The fields the handlers count by are what the referee writes: a team is 0 or 1, a
    seat 0 to 3, a number a number; a swap two seats."""
    if e.get("event") in ("hand-won", "courts-scored", "points-scored") and e.get("team") not in (0, 1):
        return False
    if e.get("winner") not in (None, 0, 1):
        return False
    for key in ("courts", "points"):
        if key in e and (not isinstance(e[key], int) or isinstance(e[key], bool) or abs(e[key]) > 10_000):
            return False
    swap = e.get("swap")
    if swap is not None and not (isinstance(swap, list) and len(swap) == 2 and all(v in (0, 1, 2, 3) for v in swap)):
        return False
    score = e.get("score")
    return score is None or (isinstance(score, list) and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in score))


_HANDLERS = {
    "partnerships-drawn": TableLedger._swap,
    "hand-started": TableLedger._hand_started,
    "trump-called": TableLedger._trump_called,
    "trump-hidden": TableLedger._trump_called,
    "auction-won": TableLedger._auction_won,
    "hand-won": TableLedger._hand_won,
    "courts-scored": TableLedger._courts,
    "points-scored": TableLedger._points,
    "revoke-flagged": TableLedger._revoke,
    "match-over": TableLedger._over,
}
