"""The journal: every input the referee receives, durably, in order.

The referee never stores derived state. It appends each input (a card sighting or a
command, as a JSON-able dict) here *before* acting on it, and rebuilds the table by
replaying the entries through the pure rules engine. So the journal has one job: once
:meth:`Journal.append` returns, that input survives a crash, a ``SIGKILL`` or a pulled
plug, and it comes back from :meth:`Journal.entries` exactly as it went in.

Why SQLite (standard library) rather than a hand-rolled append-only file: a
half-written record after a power cut is SQLite's problem, not ours, and WAL mode with
``synchronous=FULL`` fsyncs the log on every commit, which is the durability promise
we need at a few inputs per second.

Failure is loud. When a write fails (read-only file system, full SD card, file taken
away), :meth:`Journal.append` raises :class:`JournalError` and the journal refuses every
later append until it is reopened or :meth:`Journal.resume` finds it can write again: a
referee that cannot record plays must stop taking them instead of silently refereeing
from memory. The file's identity (device and inode) is checked around every append, so
a state directory deleted or replaced under a running service is a failure too, and
one no retry can cure: SQLite would go on writing into the deleted file.

The same inputs travel as a *table log* (JSON lines, see :func:`export_log` and
:func:`import_log`), which is what ``courtpiece replay`` reads.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

#: Version of the SQLite layout. Bumped when the tables change shape.
SCHEMA_VERSION = 1
#: Version of the JSON-lines table log framing (the header line's ``version``).
LOG_VERSION = 1

_HEADER_TYPE = "header"
_ENTRY_TYPE = "input"
_RESERVED_HEADER_KEYS = frozenset({"type", "version"})
_BATCH = 512

_SCHEMA: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS inputs (
        seq     INTEGER PRIMARY KEY AUTOINCREMENT,
        at      REAL    NOT NULL,
        source  TEXT    NOT NULL,
        kind    TEXT    NOT NULL,
        payload TEXT    NOT NULL
    )""",
    # A cache, not a record: the referee's state after input ``seq`` (controller.referee.snapshots).
    """CREATE TABLE IF NOT EXISTS snapshots (
        seq   INTEGER PRIMARY KEY,
        tag   TEXT NOT NULL,
        state BLOB NOT NULL
    )""",
)
#: snapshots kept (the newest); older ones are deleted as new ones are saved
_SNAPSHOTS_KEPT = 3
#: An index, not a record: the input that started each match (a new-match the referee took).
_MATCHES = """CREATE TABLE IF NOT EXISTS matches (
    seq INTEGER PRIMARY KEY,
    at  REAL NOT NULL
)"""


class JournalError(Exception):
    """The journal cannot record inputs (or cannot be opened); the referee must stop."""


class JournalMoved(JournalError):
    """The journal file was deleted or replaced while open: writing on would lose inputs."""


def file_identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of ``path``, or None when nothing is there."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


@dataclass(frozen=True, slots=True)
class Entry:
    """One recorded input: its place in the journal, when and where it came from, what it said."""

    seq: int
    at: float
    source: str
    kind: str
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableLog:
    """A table log read back from JSON lines: the match header and the inputs in order."""

    header: dict[str, Any]
    entries: list[Entry] = field(default_factory=list)


def _dumps(value: Any) -> str:
    """Canonical JSON: sorted keys, no NaN, so equal payloads are equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _describe(exc: sqlite3.Error) -> str:
    name = getattr(exc, "sqlite_errorname", None)
    return f"{exc} ({name})" if name else str(exc)


def _check_fields(kind: str, payload: Mapping[str, Any], at: float, source: str) -> str:
    """Validate one input and return its payload text; raise before anything is written."""
    if not isinstance(kind, str) or not kind:
        raise ValueError(f"kind must be a non-empty string, not {kind!r}")
    if not isinstance(source, str) or not source:
        raise ValueError(f"source must be a non-empty string, not {source!r}")
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
        raise ValueError(f"at must be a finite number of seconds, not {at!r}")
    if not isinstance(payload, Mapping):
        raise TypeError(f"payload must be a dict, not {type(payload).__name__}")
    return _dumps(dict(payload))


class Journal:
    """An open journal file. Thread-safe: readers and the web thread may share it."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        # Use Journal.open(); the constructor only wires an already prepared connection.
        self.path = path
        self._conn: sqlite3.Connection | None = conn
        self._lock = threading.Lock()
        self._failure: str | None = None
        self._moved = False
        self._identity = file_identity(path)
        #: matches kept when a new one starts (0: every match); older inputs are deleted
        self.keep_matches = 0

    # -- opening -------------------------------------------------------------------

    @classmethod
    def open_readonly(cls, path: str | Path) -> Journal:
        """Open an existing journal for reading only (``courtpiece export``).

        SQLite's read-only mode never checkpoints, truncates or deletes the write-ahead
        log, so reading a journal (the live one, or a copy on read-only media) never
        changes it. Appending to the result raises :class:`JournalError`.
        """
        path = Path(path)
        if not path.is_file():
            raise JournalError(f"no journal at {path}")
        uri = "file:" + _uri_path(path) + "?mode=ro"
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA query_only = 1")
            conn.execute("SELECT COUNT(*) FROM meta").fetchone()
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read journal {path}: {_describe(exc)}") from exc
        journal = cls(path, conn)
        journal._failure = "opened read-only"
        return journal

    @classmethod
    def open(
        cls,
        path: str | Path,
        header: Mapping[str, Any] | None = None,
        *,
        max_bytes: int | None = None,
    ) -> Journal:
        """Open (creating if missing) the journal at ``path`` for appending.

        ``header`` is the match header (preset, players, …), stored the first time one is
        given; a journal that already holds a different header is refused, so two
        matches never share one file. ``max_bytes`` caps the file size: the SD card is shared with the
        OS, and hitting the cap fails exactly like a full disk (loudly).

        Raises :class:`JournalError` if the file cannot be opened *for writing*: SQLite
        would quietly open a write-protected file read-only, so a real write is tried
        here rather than at the first play.
        """
        path = Path(path)
        header_text = None if header is None else _dumps(_check_header(header))
        try:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open journal {path}: {_describe(exc)}") from exc
        try:
            cls._prepare(conn, path, header_text, max_bytes)
        except JournalError:
            conn.close()
            raise
        except sqlite3.Error as exc:
            conn.close()
            raise JournalError(f"cannot open journal {path} for writing: {_describe(exc)}") from exc
        return cls(path, conn)

    @staticmethod
    def _prepare(
        conn: sqlite3.Connection, path: Path, header_text: str | None, max_bytes: int | None
    ) -> None:
        conn.execute("PRAGMA busy_timeout = 5000")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise JournalError(f"journal {path}: WAL mode unavailable here (got {mode!r})")
        conn.execute("PRAGMA synchronous = FULL")
        if max_bytes is not None:
            _cap(conn, max_bytes)
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in (*_SCHEMA, _MATCHES):
                conn.execute(statement)
            version = _meta(conn, "schema_version")
            if version is None:
                _set_meta(conn, "schema_version", str(SCHEMA_VERSION))
            elif int(version) > SCHEMA_VERSION:
                raise JournalError(
                    f"journal {path} has schema {version}; this program reads up to {SCHEMA_VERSION}"
                )
            stored = _meta(conn, "header")
            if header_text is not None:
                if stored is None:
                    _set_meta(conn, "header", header_text)
                elif json.loads(stored) != json.loads(header_text):
                    raise JournalError(f"journal {path} belongs to another match (header differs)")
            if _meta(conn, "journal_id") is None:  # born now (or before there were ids)
                _set_meta(conn, "journal_id", secrets.token_hex(8))
            # A real write, so a file SQLite opened read-only fails now, not at the first play.
            _set_meta(conn, "opened", str(int(_meta(conn, "opened") or 0) + 1))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    # -- writing -------------------------------------------------------------------

    def append(self, kind: str, payload: Mapping[str, Any], at: float, source: str) -> int:
        """Record one input durably and return its sequence number (1, 2, 3, …).

        When this returns, the entry is committed and fsynced. A bad argument raises
        ``ValueError``/``TypeError`` and leaves the journal usable; a failed write raises
        :class:`JournalError` and leaves it refusing appends until reopened.
        """
        text = _check_fields(kind, payload, at, source)
        with self._lock:
            conn = self._writable()
            self._check_identity(conn)
            try:
                conn.execute("BEGIN IMMEDIATE")
                cur = conn.execute(
                    "INSERT INTO inputs (at, source, kind, payload) VALUES (?, ?, ?, ?)",
                    (float(at), source, kind, text),
                )
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._fail(conn, f"journal {self.path} cannot record input: {_describe(exc)}")
                raise JournalError(self._failure) from exc
            # Checked again after the commit: a file swapped during it took the input away.
            self._check_identity(conn)
            seq = cur.lastrowid
            assert seq is not None
            return seq

    def _check_identity(self, conn: sqlite3.Connection) -> None:
        now = file_identity(self.path)
        if now is not None and now == self._identity:
            return
        what = "was deleted" if now is None else "was replaced by another file"
        self._moved = True
        self._fail(conn, f"journal {self.path} {what} while the referee was running "
                         "(state directory removed or swapped?); restart the service")
        raise JournalMoved(self._failure)

    def resume(self) -> bool:
        """Try appending again after a failed write; True if the journal takes appends now.

        A full card or a read-only remount can pass (space freed, card fixed), so the
        referee calls this from time to time while halted. The file must still be the one
        that was opened: a journal deleted or replaced never resumes.
        """
        with self._lock:
            if self._conn is None or self._moved:
                return False
            if self._failure is None:
                return True
            if file_identity(self.path) != self._identity:
                return False
            try:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
            except sqlite3.Error:
                return False
            self._failure = None
            return True

    def set_max_bytes(self, max_bytes: int) -> None:
        """Change the size cap of :meth:`open` (room given back: a later resume can write)."""
        with self._lock:
            _cap(self._open_conn(), max_bytes)

    @property
    def retryable(self) -> bool:
        """Whether :meth:`resume` may cure the failure (False once the file was taken away)."""
        return self._failure is not None and not self._moved

    def import_entries(self, entries: Iterable[Entry]) -> int:
        """Write entries with their own sequence numbers (a journal rebuilt from a damaged
        one keeps the numbers its table log and events used); returns how many."""
        rows = [(e.seq, float(e.at), e.source, e.kind, _dumps(e.payload)) for e in entries]
        with self._lock:
            conn = self._writable()
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany("INSERT INTO inputs (seq, at, source, kind, payload) VALUES (?, ?, ?, ?, ?)", rows)
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._fail(conn, f"journal {self.path} cannot import inputs: {_describe(exc)}")
                raise JournalError(self._failure) from exc
        return len(rows)

    def save_snapshot(self, seq: int, tag: str, state: bytes) -> bool:
        """Keep the referee's state after input ``seq`` (a cache: see controller.referee.snapshots).

        A snapshot that cannot be written is skipped, never a failure: the inputs are safe,
        and a restart only replays more of them.
        """
        with self._lock:
            if self._conn is None or self._failure is not None:
                return False
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT OR REPLACE INTO snapshots (seq, tag, state) VALUES (?, ?, ?)", (seq, tag, state))
                conn.execute("DELETE FROM snapshots WHERE seq NOT IN"
                             " (SELECT seq FROM snapshots ORDER BY seq DESC LIMIT ?)", (_SNAPSHOTS_KEPT,))
                conn.execute("COMMIT")
                # Fold the log into the file once a hand: it stays one hand long, so the
                # start-up check of its checksums (controller.referee.salvage) stays quick.
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                return False
        return True

    def mark_match(self, seq: int, at: float) -> None:
        """Input ``seq`` started a match: index it, and drop the inputs of matches beyond
        ``keep_matches`` (the table's retention setting). Best effort, like snapshots."""
        with self._lock:
            if self._conn is None or self._failure is not None:
                return
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT OR IGNORE INTO matches (seq, at) VALUES (?, ?)", (seq, float(at)))
                if self.keep_matches > 0:
                    row = conn.execute("SELECT seq FROM matches ORDER BY seq DESC LIMIT 1 OFFSET ?",
                                       (self.keep_matches - 1,)).fetchone()
                    if row is not None:
                        for table in ("inputs", "snapshots", "matches"):
                            conn.execute(f"DELETE FROM {table} WHERE seq < ?", (row[0],))
                conn.execute("COMMIT")
            except sqlite3.Error:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")

    def snapshot_before(self, tag: str, seq: int) -> tuple[int, bytes] | None:
        """(seq, state) of the newest snapshot with this ``tag`` older than input ``seq``."""
        with self._lock:
            row = self._open_conn().execute(
                "SELECT seq, state FROM snapshots WHERE tag = ? AND seq < ? ORDER BY seq DESC LIMIT 1",
                (tag, seq)).fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    def latest_snapshot(self, tag: str) -> tuple[int, bytes] | None:
        """(seq, state) of the newest snapshot made by code with this ``tag``, if any."""
        with self._lock:
            try:
                row = self._open_conn().execute(
                    "SELECT seq, state FROM snapshots WHERE tag = ? AND seq <= (SELECT MAX(seq) FROM inputs)"
                    " ORDER BY seq DESC LIMIT 1", (tag,)).fetchone()
            except sqlite3.OperationalError:
                return None  # a journal from before snapshots (opened read-only)
        return None if row is None else (int(row[0]), bytes(row[1]))

    def _writable(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError(f"journal {self.path} is closed")
        if self._failure is not None:
            raise JournalError(f"journal refuses appends after a failed write: {self._failure}")
        return self._conn

    def _fail(self, conn: sqlite3.Connection, reason: str) -> None:
        self._failure = reason
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # The write already failed; the rollback is best effort.

    @property
    def failed(self) -> str | None:
        """Why the journal stopped taking appends, or None while it is healthy."""
        return self._failure

    # -- reading -------------------------------------------------------------------

    @property
    def journal_id(self) -> str:
        """This journal's own name, drawn at random when the file was made: the club's
        scoreboard tells a table's journal from a new one (a replaced SD card, a spare Pi
        under the same table name) by it, whatever their input numbers say."""
        with self._lock:
            conn = self._open_conn()
            return _meta(conn, "journal_id") or ""

    @property
    def header(self) -> dict[str, Any]:
        """The match header stored with this journal ({} if none was given)."""
        with self._lock:
            conn = self._open_conn()
            return json.loads(_meta(conn, "header") or "{}")

    def entries(self, after: int = 0) -> Iterator[Entry]:
        """Every entry with a sequence number above ``after``, in order.

        Reads in batches and holds no read transaction between them, so appending while
        iterating (the referee replays, then carries on) never blocks.
        """
        last = after
        while True:
            with self._lock:
                rows = (
                    self._open_conn()
                    .execute(
                        "SELECT seq, at, source, kind, payload FROM inputs"
                        " WHERE seq > ? ORDER BY seq LIMIT ?",
                        (last, _BATCH),
                    )
                    .fetchall()
                )
            for seq, at, source, kind, payload in rows:
                yield Entry(seq, at, source, kind, json.loads(payload))
            if len(rows) < _BATCH:
                return
            last = rows[-1][0]

    def last_seq(self) -> int:
        """The highest sequence number recorded so far (0 for an empty journal)."""
        with self._lock:
            row = self._open_conn().execute("SELECT MAX(seq) FROM inputs").fetchone()
        return int(row[0] or 0)

    def _open_conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError(f"journal {self.path} is closed")
        return self._conn

    # -- closing -------------------------------------------------------------------

    def close(self) -> None:
        """Close the file. Idempotent; appends after this raise :class:`JournalError`."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _cap(conn: sqlite3.Connection, max_bytes: int) -> None:
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {max(1, int(max_bytes) // page_size)}")


def _uri_path(path: Path) -> str:
    """``path`` quoted for an SQLite ``file:`` URI (``?`` and ``#`` would end the path)."""
    from urllib.parse import quote

    return quote(str(path.absolute()), safe="/")


def _meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def _set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def _check_header(header: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(header, Mapping):
        raise TypeError(f"header must be a dict, not {type(header).__name__}")
    clash = _RESERVED_HEADER_KEYS & set(header)
    if clash:
        raise ValueError(f"header keys {sorted(clash)} are reserved by the log framing")
    return dict(header)


# -- the table log (JSON lines) ---------------------------------------------------------


def export_log(journal: Journal, file: TextIO) -> int:
    """Write ``journal`` as a table log to ``file``; return the number of entries written.

    Line 1: ``{"type": "header", "version": 1, ...match header fields}``. Then one line
    per entry: ``{"type": "input", "seq": n, "at": t, "source": s, "kind": k,
    "payload": {...}}``. One JSON object per line keeps the log greppable and lets a
    truncated file still yield every complete line.
    """
    file.write(_dumps({**journal.header, "type": _HEADER_TYPE, "version": LOG_VERSION}) + "\n")
    return write_entries(journal.entries(), file)


def write_entries(entries: Iterable[Entry], file: TextIO) -> int:
    """Write entry lines (no header) to ``file``; return how many were written."""
    count = 0
    for entry in entries:
        line = {
            "type": _ENTRY_TYPE,
            "seq": entry.seq,
            "at": entry.at,
            "source": entry.source,
            "kind": entry.kind,
            "payload": entry.payload,
        }
        file.write(_dumps(line) + "\n")
        count += 1
    return count


#: The source of a log line written by hand without one.
HAND_WRITTEN = "hand-written"


class LogFormatError(ValueError):
    """A table log line that does not follow the framing; the message names the line."""


def import_log(file: TextIO | Iterable[str]) -> TableLog:
    """Read a table log written by :func:`export_log` (or by hand).

    Blank lines are skipped. ``seq``, ``at`` and ``source`` may be left out of hand-written
    entry lines: ``seq`` is then numbered on from the previous entry, ``at`` repeats the
    previous entry's time (0 for the first), ``source`` is "hand-written". When present,
    ``seq`` must increase. Anything
    else malformed raises :class:`LogFormatError` naming the line, because a replay from
    a quietly skipped line would referee a different game.
    """
    header: dict[str, Any] | None = None
    entries: list[Entry] = []
    last_seq, last_at = 0, 0.0
    for number, raw in enumerate(file, start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise LogFormatError(f"line {number}: not JSON ({exc.msg})") from exc
        if not isinstance(line, dict):
            raise LogFormatError(f"line {number}: expected a JSON object")
        if header is None:
            header = _read_header(line, number)
            continue
        entry = _read_entry(line, number, last_seq, last_at)
        entries.append(entry)
        last_seq, last_at = entry.seq, entry.at
    if header is None:
        raise LogFormatError("empty log: the first line must be the header")
    return TableLog(header, entries)


def _read_header(line: dict[str, Any], number: int) -> dict[str, Any]:
    if line.get("type") != _HEADER_TYPE:
        raise LogFormatError(f"line {number}: the first line must have type 'header'")
    version = line.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version > LOG_VERSION:
        raise LogFormatError(f"line {number}: unsupported log version {version!r}")
    return {k: v for k, v in line.items() if k not in _RESERVED_HEADER_KEYS}


def _read_entry(line: dict[str, Any], number: int, last_seq: int, last_at: float) -> Entry:
    if line.get("type") != _ENTRY_TYPE:
        raise LogFormatError(f"line {number}: expected type 'input', got {line.get('type')!r}")
    seq = line.get("seq", last_seq + 1)
    if not isinstance(seq, int) or isinstance(seq, bool) or seq <= last_seq:
        raise LogFormatError(f"line {number}: seq {seq!r} does not follow {last_seq}")
    at, source = line.get("at", last_at), line.get("source", HAND_WRITTEN)
    try:
        _check_fields(line.get("kind"), line.get("payload"), at, source)
    except (TypeError, ValueError) as exc:
        raise LogFormatError(f"line {number}: {exc}") from exc
    return Entry(seq, float(at), source, line["kind"], dict(line["payload"]))
