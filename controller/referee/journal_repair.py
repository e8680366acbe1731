"""Open the table's journal at start-up, even when the file is damaged.

A damaged journal used to end start-up with an uncaught ``sqlite3.DatabaseError``, and
systemd restarted the service into the same error, over and over, taking the kiosk down
with it. Instead: the damaged files are moved aside untouched (for whoever wants to look
at them), every input that can be read is recovered from their bytes
(:mod:`controller.referee.salvage`) into a fresh journal, and the table starts in a clearly
shown "journal damaged" state. Errors that are not damage (an unwritable directory)
still raise :class:`JournalError`: moving files would not cure them.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.referee.journal import Journal, JournalError
from controller.referee.salvage import damage, salvage

#: SQLite's names for a file that is not (or no longer) a sound database
_DAMAGE_CODES = ("SQLITE_CORRUPT", "SQLITE_NOTADB")


@dataclass(frozen=True)
class Damage:
    """What was wrong with the journal, and what was saved from it."""

    reason: str
    recovered: int
    missing: int
    kept_at: Path

    @property
    def message(self) -> str:
        lost = f" ({self.missing} could not be read)" if self.missing else ""
        return (f"journal damaged: {self.recovered} inputs recovered{lost}, file kept at {self.kept_at} "
                f"-- {self.reason}")


def open_journal(path: Path, header: Mapping[str, Any] | None = None) -> tuple[Journal, Damage | None]:
    """The journal at ``path`` for appending, rebuilt from what can be read if it is damaged.

    Only cheap checks run here (the header, the write-ahead log's checksums), so start-up
    does not read every match ever played; a damaged page met later while replaying
    raises ``sqlite3.DatabaseError``, and the caller hands it to :func:`repair`.
    """
    reason = damage(path)
    if reason is None:
        try:
            return Journal.open(path, header), None
        except JournalError as exc:
            if not is_damage(exc.__cause__):
                raise
            reason = str(exc.__cause__)
    return repair(path, reason, header)


def repair(path: Path, reason: str, header: Mapping[str, Any] | None = None) -> tuple[Journal, Damage]:
    """Move the damaged journal aside and start a new one from every input it still holds."""
    kept = move_aside(path)
    rescued = salvage(kept / path.name)
    journal = Journal.open(path, rescued.header or header)
    journal.import_entries(rescued.entries)
    return journal, Damage(reason, len(rescued.entries), rescued.missing, kept / path.name)


def move_aside(path: Path) -> Path:
    """Move the journal and its -wal/-shm into ``damaged-<time>/`` beside it, bytes untouched."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    folder = path.parent / f"damaged-{stamp}"
    n = 1
    while folder.exists():
        n += 1
        folder = path.parent / f"damaged-{stamp}-{n}"
    folder.mkdir()
    for suffix in ("", "-wal", "-shm"):
        part = Path(str(path) + suffix)
        if part.exists():
            part.rename(folder / part.name)
    return folder


def is_damage(exc: BaseException | None) -> bool:
    """Whether SQLite's error says the file's bytes are bad (not that it cannot write)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    name = getattr(exc, "sqlite_errorname", None) or ""
    if name:
        return name.startswith(_DAMAGE_CODES)
    return not isinstance(exc, sqlite3.OperationalError)
