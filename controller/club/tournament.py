"""A club night's tournament: teams registered, rounds paired, teams moved to tables.

Pairing is pure and tested on known examples: a round robin by the circle method (the
first team stays, the others turn one place a round, as in the Berger tables) and a
Swiss pairing (top team against the best-placed team it has not met, backtracking when
the bottom of the list cannot be paired). The movement puts round pairs on the club's
tables in order, so between rounds the teams move the way the circle turns. Results need
no entry: each table's referee reports its matches, and a round's result is the finished
match at which its two teams met.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from controller.club.ledger import MatchRecord
from controller.club.standings import Registry, TeamRow, standings, team_name
from controller.club.store import PLAYER_ID, ClubStore

Pair = tuple[str, str]
ROUND_ROBIN, SWISS = "round-robin", "swiss"


def round_robin(teams: Sequence[str]) -> list[list[Pair]]:
    """Every round of a round robin; with an odd count, one team sits out each round."""
    if len(teams) < 2:
        raise ValueError("a round robin needs two teams or more")
    p: list[str | None] = list(teams) + ([None] if len(teams) % 2 else [])
    n = len(p)
    rounds = []
    for _ in range(n - 1):
        pairs = [(p[i], p[n - 1 - i]) for i in range(n // 2)]
        rounds.append([(a, b) for a, b in pairs if a is not None and b is not None])
        p = [p[0], p[-1], *p[1:-1]]
    return rounds


def swiss(ranked: Sequence[str], played: Iterable[Pair]) -> list[Pair]:
    """Pair teams in ranking order, never twice the same pair; with an odd count the
    lowest-ranked team sits out. Raises ValueError if no such pairing exists."""
    met = {frozenset(p) for p in played}
    order = list(ranked)
    if len(order) % 2:
        order = order[:-1]

    def pair(rest: list[str]) -> list[Pair] | None:
        if not rest:
            return []
        top, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            if frozenset((top, other)) in met:
                continue
            tail = pair(others[:i] + others[i + 1:])
            if tail is not None:
                return [(top, other), *tail]
        return None

    result = pair(order)
    if result is None:
        raise ValueError("every remaining pairing has been played: the Swiss rounds are over")
    return result


def seat_round(pairs: Sequence[Pair], tables: Sequence[str]) -> list[tuple[str, str, str]]:
    """The movement: the round's pairs onto the tables, in order."""
    if len(pairs) > len(tables):
        raise ValueError(f"{len(pairs)} matches need {len(pairs)} tables; the club has {len(tables)} "
                         "(a table counts once it has connected to the club's broker)")
    return [(t, a, b) for t, (a, b) in zip(sorted(tables), pairs, strict=False)]


class Director:
    """The tournament director's actions, kept in the club's SQLite."""

    def __init__(self, store: ClubStore) -> None:
        self.store = store

    def register(self, a: str, b: str) -> str:
        """A team of two players, each given by name (registered anew) or by the club id
        of a player registered on an earlier night (``p12``), whose figures go on."""
        (a, id_a), (b, id_b) = self._who(a), self._who(b)
        if not a or not b or (id_a or a) == (id_b or b):
            raise ValueError("a team is two different players")
        name = team_name((a, b))
        self.store.add_team(self.store.night, name, a, b, id_a, id_b)
        return name

    def _who(self, given: str) -> tuple[str, str]:
        given = given.strip()[:24]
        if PLAYER_ID.match(given):
            name = self.store.player(given)
            if name is None:
                raise ValueError(f"no registered player {given}")
            return name, given
        return given, ""

    def registry(self) -> Registry:
        """A registered player's id for a seat: the name of a member of a team the
        movement put at that table that night. Two registered players of one name at one
        table on one night are told apart by neither: both keep the table's seat id."""
        members = self.store.members()
        known: dict[tuple[int, str, str], str | None] = {}
        for night, table, team_a, team_b in self.store.seatings():
            for team in (team_a, team_b):
                for name, pid in members.get((night, team), []):
                    key = (night, table, name)
                    known[key] = pid if known.get(key, pid) == pid else None
        return lambda m, seat: known.get((m.night, m.table, m.seats[seat]))

    def teams(self, night: int) -> list[str]:
        return [name for name, _a, _b in self.store.teams(night)]

    def next_round(self, method: str, tables: Sequence[str], matches: Sequence[MatchRecord]) -> list[tuple[str, str, str]]:
        night = self.store.night
        teams = self.teams(night)
        rounds = self.store.rounds(night)
        number = max(rounds, default=0) + 1
        if method == ROUND_ROBIN:
            schedule = round_robin(teams)
            if number > len(schedule):
                raise ValueError("the round robin is complete")
            pairs = schedule[number - 1]
        elif method == SWISS:
            rows = {r.team: r for r in standings(matches)}
            ranked = sorted(teams, key=lambda t: rows[t].key() if t in rows else (0, 0, 0, t))
            played = [(a, b) for seated in rounds.values() for _t, a, b in seated]
            pairs = swiss(ranked, played)
        else:
            raise ValueError(f"unknown pairing {method!r}: use {ROUND_ROBIN} or {SWISS}")
        seated = seat_round(pairs, tables)
        self.store.set_round(night, number, seated)
        return seated

    def summary(self, night: int, matches: Sequence[MatchRecord] = ()) -> dict[str, Any]:
        """The night's teams and rounds, each pairing with its result once played."""
        teams = self.store.teams(night)
        rounds = self.store.rounds(night)
        members = self.store.members()
        return {"teams": [{"team": n, "players": [a, b], "ids": [pid for _name, pid in members.get((night, n), [])]}
                          for n, a, b in teams],
                "rounds": [{"number": n, "tables": [{"table": t, "teams": [a, b],
                                                     "result": _result((a, b), round_result((a, b), matches))}
                                                    for t, a, b in seated]}
                           for n, seated in sorted(rounds.items())]}

    def standings(self, night: int, matches: Sequence[MatchRecord]) -> list[TeamRow]:
        """The tournament's table: every registered team, counting only the rounds'
        results (a friendly or a rematch between rounds does not count)."""
        results = [m for seated in self.store.rounds(night).values() for _t, a, b in seated
                   if (m := round_result((a, b), matches)) is not None]
        rows = {r.team: r for r in standings(results)}
        for name in self.teams(night):
            rows.setdefault(name, TeamRow(name))
        return sorted(rows.values(), key=TeamRow.key)


def _result(pair: Pair, m: MatchRecord | None) -> dict[str, Any] | None:
    """A pairing's result as the pages show it: who won (None: drawn) and the courts, in
    the pairing's order."""
    if m is None:
        return None
    first = 0 if team_name(m.team(0)) == pair[0] else 1
    return {"table": m.table, "winner": None if m.winner is None else pair[0 if m.winner == first else 1],
            "courts": [m.courts[first], m.courts[1 - first]]}


def round_result(pair: Pair, matches: Iterable[MatchRecord]) -> MatchRecord | None:
    """The finished match where these two teams met (the latest, if they met twice)."""
    want = {pair[0], pair[1]}
    found = [m for m in matches if m.over and {team_name(m.team(0)), team_name(m.team(1))} == want]
    return found[-1] if found else None
