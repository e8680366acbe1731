"""The night's standings and the players' figures, from finished match records.

Teams are pairs of players (partners sit opposite), named by both names, so the same two
people are one team whichever table and seats they had. Order: matches won, then courts,
then points (for presets scored in points), then name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from controller.club.ledger import MatchRecord, PlayerStats


def team_name(pair: Iterable[str]) -> str:
    return " & ".join(sorted(pair))


@dataclass
class TeamRow:
    team: str
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    courts: int = 0
    courts_against: int = 0
    points: int = 0

    def key(self) -> tuple[int, int, int, str]:
        return (-self.won, -self.courts, -self.points, self.team)

    def to_dict(self) -> dict[str, Any]:
        return {"team": self.team, "played": self.played, "won": self.won, "lost": self.lost, "drawn": self.drawn,
                "courts": self.courts, "courts_against": self.courts_against, "points": self.points}


def standings(matches: Iterable[MatchRecord]) -> list[TeamRow]:
    rows: dict[str, TeamRow] = {}
    for m in matches:
        if not m.over:
            continue
        for t in (0, 1):
            row = rows.setdefault(team_name(m.team(t)), TeamRow(team_name(m.team(t))))
            row.played += 1
            row.courts += m.courts[t]
            row.courts_against += m.courts[1 - t]
            row.points += m.points[t]
            if m.winner is None:
                row.drawn += 1
            elif m.winner == t:
                row.won += 1
            else:
                row.lost += 1
    return sorted(rows.values(), key=TeamRow.key)


#: A registered player's club id for a seat of a match, or None (the seat's own id stands).
Registry = Callable[[MatchRecord, int], str | None]


def seat_ids(m: MatchRecord, registry: Registry | None = None) -> list[str]:
    """Who sat at each seat: the registered player's id where the director's registry
    knows them, else the id the table's stream gives (table, seat, name)."""
    return [(registry(m, seat) if registry else None) or m.ids[seat] for seat in range(len(m.ids))]


def players(matches: Iterable[MatchRecord], registry: Registry | None = None) -> dict[str, PlayerStats]:
    """Every player's figures, by player id: two people with one name are two rows."""
    out: dict[str, PlayerStats] = {}
    for m in matches:
        for seat_id, pid in zip(m.ids, seat_ids(m, registry), strict=True):
            stats = m.players[seat_id]
            out.setdefault(pid, PlayerStats(stats.name, pid)).add(stats)
    return out
