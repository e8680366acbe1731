"""The club server's SQLite: every table's batches, the tables' last known state, nights,
and the tournament's teams and rounds.

Batches are the source of truth (keyed by table and journal seq, so a duplicate is a
no-op by construction); match records and statistics are folded from them
(:mod:`.ledger`), never stored twice. One connection behind a lock: the scoreboard's
broker thread writes, the web thread reads.

Batches and states are *staged* in memory and written by :meth:`ClubStore.flush`, one
transaction for everything that came in since the last flush. Fifty tables send about a
thousand batches a second at full speed; a commit per batch made SQLite the scoreboard's
main cost, and only the latest state of a table is worth writing. What a crash loses
before a flush is only what the tables still hold: the scoreboard restarts from the
``have`` on disk, and the tables' retained ``last`` shows the gap, which is asked again.
Every read flushes first, so a reader never sees less than was handed in.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.club.topics import Batch

#: 1: players known by name only; 2: registered players have a club id (``p12``), kept
#: with their team (``teams.id_a``/``id_b``), and old teams get theirs on first opening;
#: 3: each table row names the journal its batches came from (``tables.journal``).
SCHEMA = 3
PLAYER_ID = re.compile(r"^p[1-9][0-9]*$")
#: Between a table's name and the number of an archived chain of its (``NAME~2``).
ARCHIVE = "~"

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS nights (id INTEGER PRIMARY KEY, name TEXT NOT NULL, started REAL NOT NULL)",
    """CREATE TABLE IF NOT EXISTS batches (tbl TEXT NOT NULL, seq INTEGER NOT NULL, prev INTEGER NOT NULL,
        received REAL NOT NULL, night INTEGER NOT NULL, events TEXT NOT NULL, PRIMARY KEY (tbl, seq))""",
    """CREATE TABLE IF NOT EXISTS tables (name TEXT PRIMARY KEY, have INTEGER NOT NULL DEFAULT 0,
        last INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'unknown', status_at REAL,
        state TEXT, state_at REAL, journal TEXT NOT NULL DEFAULT '')""",
    """CREATE TABLE IF NOT EXISTS teams (night INTEGER NOT NULL, name TEXT NOT NULL, player_a TEXT NOT NULL,
        player_b TEXT NOT NULL, id_a TEXT NOT NULL DEFAULT '', id_b TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (night, name))""",
    "CREATE TABLE IF NOT EXISTS players (num INTEGER PRIMARY KEY, name TEXT NOT NULL, registered REAL NOT NULL)",
    """CREATE TABLE IF NOT EXISTS rounds (night INTEGER NOT NULL, number INTEGER NOT NULL, tbl TEXT NOT NULL,
        team_a TEXT NOT NULL, team_b TEXT NOT NULL, PRIMARY KEY (night, number, tbl))""",
)


@dataclass
class TableRow:
    name: str
    have: int = 0
    last: int = 0
    status: str = "unknown"
    status_at: float | None = None
    state_json: bytes | None = None  # the table's public state, as JSON text
    state_at: float | None = None
    journal: str = ""  # the journal the held batches came from ("" before ids)


class ClubStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._lock = threading.RLock()
        # staged writes, behind their own small lock so a message is never held up by a
        # flush in progress: (table, seq, prev, received, night, events) and table -> state
        self._stage_lock = threading.Lock()
        self._staged: list[tuple[str, int, int, float, int, list[dict[str, Any]]]] = []
        self._states: dict[str, tuple[int, bytes, float]] = {}
        self._known: set[str] = set()  # table rows known to exist
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            for stmt in _SCHEMA:
                self._conn.execute(stmt)
            self._migrate()
            if self._meta("night") is None:
                self.new_night(time.strftime("%Y-%m-%d"))
            self._night = int(self._meta("night") or 0)  # read once: every batch asks

    def close(self) -> None:
        with self._lock:
            self.flush()
            self._conn.close()

    def _migrate(self) -> None:
        """Bring an older club file up to :data:`SCHEMA`, keeping every row it holds."""
        if int(self._meta("schema") or 1) >= SCHEMA:
            return
        self._conn.execute("BEGIN")
        try:
            if "journal" not in {row[1] for row in self._conn.execute("PRAGMA table_info(tables)")}:
                self._conn.execute("ALTER TABLE tables ADD COLUMN journal TEXT NOT NULL DEFAULT ''")
            columns = {row[1] for row in self._conn.execute("PRAGMA table_info(teams)")}
            for col in ("id_a", "id_b"):
                if col not in columns:
                    self._conn.execute(f"ALTER TABLE teams ADD COLUMN {col} TEXT NOT NULL DEFAULT ''")
            for night, name, a, b in self._conn.execute(
                    "SELECT night, name, player_a, player_b FROM teams WHERE id_a='' OR id_b=''").fetchall():
                self._conn.execute("UPDATE teams SET id_a=?, id_b=? WHERE night=? AND name=?",
                                   (self._new_player(a), self._new_player(b), night, name))
            self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise

    # ---------------------------------------------------------------- meta and nights
    def _meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def new_night(self, name: str) -> int:
        with self._lock:
            cur = self._conn.execute("INSERT INTO nights (name, started) VALUES (?, ?)", (name, time.time()))
            night = int(cur.lastrowid or 0)
            self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('night', ?)", (str(night),))
            self._night = night
            return night

    @property
    def night(self) -> int:
        return self._night

    def nights(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._conn.execute("SELECT id, name, started FROM nights ORDER BY id").fetchall()
        return [{"id": r[0], "name": r[1], "started": r[2]} for r in rows]

    # ---------------------------------------------------------------- batches
    def add_batch(self, b: Batch, received: float, night: int) -> None:
        """Stage ``b``; the next :meth:`flush` stores it and moves the table's ``have`` to
        it. A batch already held is a no-op then (keyed by table and seq)."""
        with self._stage_lock:
            self._staged.append((b.table, b.seq, b.prev, received, night, b.events))

    def flush(self) -> int:
        """Write everything staged in one transaction; returns how many batches it wrote."""
        with self._lock:
            with self._stage_lock:
                staged, self._staged = self._staged, []
                states, self._states = self._states, {}
            if not staged and not states:
                return 0
            have: dict[str, int] = {}
            for table, seq, *_ in staged:
                have[table] = max(seq, have.get(table, 0))
            self._conn.execute("BEGIN")
            try:
                self._conn.executemany(
                    "INSERT OR IGNORE INTO batches (tbl, seq, prev, received, night, events) VALUES (?,?,?,?,?,?)",
                    [(t, q, p, r, n, json.dumps(e, separators=(",", ":"))) for t, q, p, r, n, e in staged])
                for name in have.keys() | states.keys():
                    self._ensure(name)
                self._conn.executemany("UPDATE tables SET have=MAX(have, ?) WHERE name=?",
                                       [(seq, name) for name, seq in have.items()])
                self._conn.executemany("UPDATE tables SET last=?, state=?, state_at=? WHERE name=?",
                                       [(last, state.decode(), at, name) for name, (last, state, at) in states.items()])
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                self._known.clear()  # rows made in the rolled-back transaction are gone
                with self._stage_lock:  # kept for the next try, older than what came since
                    self._staged[:0] = staged
                    for name, state in states.items():
                        self._states.setdefault(name, state)
                raise
            return len(staged)

    def batches(self, table: str) -> list[tuple[Batch, int]]:
        """A table's batches in journal order, each with the night it arrived in."""
        with self._lock:
            self.flush()
            rows = self._conn.execute("SELECT seq, prev, night, events FROM batches WHERE tbl=? ORDER BY seq",
                                      (table,)).fetchall()
        return [(Batch(table, r[0], r[1], json.loads(r[3])), r[2]) for r in rows]

    def batch_count(self, table: str | None = None) -> int:
        with self._lock:
            self.flush()
            if table is None:
                return int(self._conn.execute("SELECT COUNT(*) FROM batches").fetchone()[0])
            return int(self._conn.execute("SELECT COUNT(*) FROM batches WHERE tbl=?", (table,)).fetchone()[0])

    # ---------------------------------------------------------------- tables
    def _ensure(self, name: str) -> None:
        if name not in self._known:
            self._conn.execute("INSERT OR IGNORE INTO tables (name) VALUES (?)", (name,))
            self._known.add(name)

    def table_rows(self) -> list[TableRow]:
        with self._lock:
            self.flush()
            rows = self._conn.execute(
                "SELECT name, have, last, status, status_at, state, state_at, journal FROM tables ORDER BY name"
            ).fetchall()
        return [TableRow(r[0], r[1], r[2], r[3], r[4], r[5].encode() if r[5] else None, r[6], r[7]) for r in rows]

    def set_state(self, name: str, last: int, state_json: bytes, at: float) -> None:
        """Stage a table's latest state (its JSON text): a newer one before the flush replaces it."""
        with self._stage_lock:
            self._states[name] = (last, state_json, at)

    def set_status(self, name: str, status: str, at: float | None) -> None:
        with self._lock:
            self._ensure(name)
            self._conn.execute("UPDATE tables SET status=?, status_at=? WHERE name=?", (status, at, name))

    def set_journal(self, name: str, journal: str) -> None:
        with self._lock:
            self._ensure(name)
            self._conn.execute("UPDATE tables SET journal=? WHERE name=?", (journal, name))

    def take_back(self, name: str, upto: int) -> int:
        """Forget a table's batches after ``upto`` (what its own journal never reached);
        returns the seq now held."""
        with self._lock:
            self.flush()
            self._conn.execute("BEGIN")
            self._conn.execute("DELETE FROM batches WHERE tbl=? AND seq>?", (name, upto))
            have = self._conn.execute("SELECT COALESCE(MAX(seq), 0) FROM batches WHERE tbl=?", (name,)).fetchone()[0]
            self._conn.execute("UPDATE tables SET have=?, last=MIN(last, ?) WHERE name=?", (have, have, name))
            self._conn.execute("COMMIT")
            return int(have)

    def archive_table(self, name: str) -> str:
        """Keep a table's batches under a new name (``NAME~2``, ``NAME~3``…) and start it
        afresh: for a table whose journal began again (a new SD card, a wiped state)."""
        with self._lock:
            self.flush()
            n = 2
            while self._conn.execute("SELECT 1 FROM batches WHERE tbl=? LIMIT 1",
                                     (f"{name}{ARCHIVE}{n}",)).fetchone():
                n += 1
            old = f"{name}{ARCHIVE}{n}"
            self._conn.execute("BEGIN")
            self._conn.execute("UPDATE batches SET tbl=? WHERE tbl=?", (old, name))
            self._conn.execute("UPDATE tables SET name=?, last=have, status='offline', state=NULL WHERE name=?",
                               (old, name))
            self._conn.execute("COMMIT")
            self._known.discard(name)
            return old

    # ---------------------------------------------------------------- tournament
    def _new_player(self, name: str) -> str:
        cur = self._conn.execute("INSERT INTO players (name, registered) VALUES (?, ?)", (name, time.time()))
        return f"p{cur.lastrowid}"

    def player(self, pid: str) -> str | None:
        """A registered player's name, or None."""
        if not PLAYER_ID.match(pid):
            return None
        with self._lock:
            row = self._conn.execute("SELECT name FROM players WHERE num=?", (int(pid[1:]),)).fetchone()
        return str(row[0]) if row else None

    def add_team(self, night: int, name: str, a: str, b: str, id_a: str = "", id_b: str = "") -> tuple[str, str]:
        """Register a team; a player without an id is registered anew. Returns the ids."""
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                id_a, id_b = id_a or self._new_player(a), id_b or self._new_player(b)
                self._conn.execute("INSERT OR REPLACE INTO teams VALUES (?,?,?,?,?,?)", (night, name, a, b, id_a, id_b))
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            return id_a, id_b

    def members(self) -> dict[tuple[int, str], list[tuple[str, str]]]:
        """Every night's teams: (night, team) -> [(name, player id), (name, player id)]."""
        with self._lock:
            rows = self._conn.execute("SELECT night, name, player_a, id_a, player_b, id_b FROM teams").fetchall()
        return {(r[0], r[1]): [(r[2], r[3]), (r[4], r[5])] for r in rows}

    def seatings(self) -> list[tuple[int, str, str, str]]:
        """Every round of every night: (night, table, team A, team B)."""
        with self._lock:
            return [tuple(r) for r in self._conn.execute(  # type: ignore[misc]
                "SELECT night, tbl, team_a, team_b FROM rounds ORDER BY night, number, tbl")]

    def teams(self, night: int) -> list[tuple[str, str, str]]:
        with self._lock:
            return [tuple(r) for r in self._conn.execute(  # type: ignore[misc]
                "SELECT name, player_a, player_b FROM teams WHERE night=? ORDER BY name", (night,))]

    def set_round(self, night: int, number: int, pairs: list[tuple[str, str, str]]) -> None:
        """``pairs``: (table, team A, team B) for round ``number``; replaces that round."""
        with self._lock:
            self._conn.execute("DELETE FROM rounds WHERE night=? AND number=?", (night, number))
            self._conn.executemany("INSERT INTO rounds VALUES (?,?,?,?,?)",
                                   [(night, number, t, a, b) for t, a, b in pairs])

    def rounds(self, night: int) -> dict[int, list[tuple[str, str, str]]]:
        out: dict[int, list[tuple[str, str, str]]] = {}
        with self._lock:
            for n, t, a, b in self._conn.execute(
                    "SELECT number, tbl, team_a, team_b FROM rounds WHERE night=? ORDER BY number, tbl", (night,)):
                out.setdefault(n, []).append((t, a, b))
        return out
