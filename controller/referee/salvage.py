"""Read a damaged journal's inputs straight from its bytes, where SQLite would give up.

SQLite refuses a truncated or scribbled-over file ("database disk image is malformed",
"file is not a database"), and it silently drops every write-ahead-log frame after a
frame whose checksum is wrong -- a later checkpoint then throws those inputs away for
good. But each input is still a row on some page: in the main file, or in a WAL frame
(each commit rewrites the page holding the newest rows, so later frames repeat earlier
rows). This module walks every page of both files, decodes the table-leaf cells the
way the file format documents them (sqlite.org/fileformat2.html), and keeps the rows
shaped like the journal's ``inputs`` and ``meta`` tables. Rows are never updated, so
any copy of a row is as good as another.

It also answers the cheap question asked at every start-up, :func:`damage`, without
opening the file through SQLite (which would run WAL recovery and lose frames).
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.referee.journal import Entry

_MAGIC = b"SQLite format 3\x00"
_WAL_MAGIC = (0x377F0682, 0x377F0683)
_WAL_HEADER = 32
_FRAME_HEADER = 24
_TABLE_LEAF = 0x0D


@dataclass
class Salvage:
    """What could be read out of a damaged journal."""

    header: dict[str, Any] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)

    @property
    def missing(self) -> int:
        """Sequence numbers below the last one recovered that were not found."""
        return (self.entries[-1].seq - len(self.entries)) if self.entries else 0


def damage(path: Path) -> str | None:
    """Why the journal at ``path`` (and its ``-wal``) is damaged, or None if it looks whole.

    Only reads bytes: the main file's header against its length (truncation, random
    bytes), and the WAL's frame checksums (a bad frame followed by committed frames that
    SQLite would discard).
    """
    if not path.exists():
        return None
    size = path.stat().st_size
    with open(path, "rb") as f:
        data = f.read(100)
    if size:
        if len(data) < 100 or data[:16] != _MAGIC:
            return "not an SQLite file (its first bytes are wrong)"
        page_size = _page_size(data)
        if page_size is None:
            return "its header names an impossible page size"
        pages = struct.unpack_from(">I", data, 28)[0]
        if size % page_size or (pages and size < pages * page_size):
            return f"truncated: {size} bytes where {pages} pages of {page_size} were written"
    wal = Path(str(path) + "-wal")
    if wal.exists():
        return _wal_damage(wal.read_bytes())
    return None


def salvage(path: Path) -> Salvage:
    """Every journal row readable from ``path`` and its ``-wal``, inputs in sequence order."""
    pages: list[bytes] = []
    data = path.read_bytes() if path.exists() else b""
    page_size = _page_size(data) if data[:16] == _MAGIC else None
    wal = Path(str(path) + "-wal")
    frames = _wal_frames(wal.read_bytes()) if wal.exists() else []
    if page_size is None and frames:
        page_size = len(frames[0])
    if page_size is None:  # no readable header anywhere: try the common sizes
        page_size = 4096
    pages += [data[i:i + page_size] for i in range(0, len(data) - len(data) % page_size, page_size)]
    pages += frames  # later copies last, so they win
    found: dict[int, Entry] = {}
    header: dict[str, Any] = {}
    for page in pages:
        offset = 100 if page[:16] == _MAGIC else 0  # page 1, in the file or in a frame
        for rowid, values in _leaf_rows(page, offset):
            entry = _as_entry(rowid, values)
            if entry is not None:
                found[entry.seq] = entry
            elif len(values) == 2 and values[0] == "header" and isinstance(values[1], str):
                try:
                    parsed = json.loads(values[1])
                except ValueError:
                    continue
                if isinstance(parsed, dict):
                    header = parsed
    return Salvage(header, [found[k] for k in sorted(found)])


# -- the main file -----------------------------------------------------------------------


def _page_size(data: bytes) -> int | None:
    if len(data) < 100:
        return None
    size = struct.unpack_from(">H", data, 16)[0]
    size = 65536 if size == 1 else size
    return size if size >= 512 and size & (size - 1) == 0 else None


# -- the write-ahead log -----------------------------------------------------------------


def _wal_frames(wal: bytes) -> list[bytes]:
    """Every complete frame's page, checksums or not (salvage reads what is there)."""
    if len(wal) < _WAL_HEADER:
        return []
    page_size = struct.unpack_from(">I", wal, 8)[0]
    if page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        return []
    step = _FRAME_HEADER + page_size
    return [wal[i + _FRAME_HEADER:i + step] for i in range(_WAL_HEADER, len(wal) - step + 1, step)]


def _wal_damage(wal: bytes) -> str | None:
    """A WAL whose checksum chain breaks before a later committed frame of the same log."""
    if len(wal) < _WAL_HEADER:
        return None
    magic, _version, page_size, _ckpt, salt1, salt2 = struct.unpack_from(">6I", wal, 0)
    if magic not in _WAL_MAGIC:
        return "its write-ahead log has a bad header"
    order = ">" if magic & 1 else "<"
    s0, s1 = _checksum(wal[:24], order, 0, 0)
    if (s0, s1) != struct.unpack_from(">2I", wal, 24):
        return "its write-ahead log has a bad header checksum"
    step = _FRAME_HEADER + page_size
    broken_at = None
    for n, i in enumerate(range(_WAL_HEADER, len(wal) - step + 1, step)):
        _page, commit, f_salt1, f_salt2, c0, c1 = struct.unpack_from(">6I", wal, i)
        if (f_salt1, f_salt2) != (salt1, salt2):
            if broken_at is None:
                return None  # an older log's leftovers: the end of this one
            continue
        if broken_at is None:
            s0, s1 = _checksum(wal[i:i + 8], order, s0, s1)
            s0, s1 = _checksum(wal[i + _FRAME_HEADER:i + step], order, s0, s1)
            if (s0, s1) != (c0, c1):
                broken_at = n
        elif commit:
            return f"its write-ahead log breaks at frame {broken_at + 1}; later commits would be lost"
    return None


def _checksum(data: bytes, order: str, s0: int, s1: int) -> tuple[int, int]:
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


# -- b-tree pages and records ------------------------------------------------------------


def _varint(buf: bytes, i: int) -> tuple[int, int]:
    value = 0
    for k in range(9):
        if i + k >= len(buf):
            raise ValueError("varint runs off the page")
        b = buf[i + k]
        if k == 8:
            return (value << 8) | b, i + 9
        value = (value << 7) | (b & 0x7F)
        if b < 0x80:
            return value, i + k + 1
    raise AssertionError("unreachable")


def _leaf_rows(page: bytes, offset: int) -> Iterator[tuple[int, list[Any]]]:
    """(rowid, column values) of each whole cell of a table-leaf page; damaged cells skipped."""
    if len(page) < offset + 8 or page[offset] != _TABLE_LEAF:
        return
    cells = struct.unpack_from(">H", page, offset + 3)[0]
    usable = len(page)
    for k in range(cells):
        at = offset + 8 + 2 * k
        if at + 2 > usable:
            return
        cell = struct.unpack_from(">H", page, at)[0]
        try:
            size, i = _varint(page, cell)
            rowid, i = _varint(page, i)
            if size > usable - 35 or i + size > usable:
                continue  # spills to overflow pages: the journal's rows never do
            yield rowid, _record(page[i:i + size])
        except (ValueError, struct.error, UnicodeDecodeError):
            continue


def _record(body: bytes) -> list[Any]:
    header_size, i = _varint(body, 0)
    types = []
    while i < header_size:
        t, i = _varint(body, i)
        types.append(t)
    values: list[Any] = []
    j = header_size
    for t in types:
        if t == 0:
            values.append(None)
        elif 1 <= t <= 6:
            n = (1, 2, 3, 4, 6, 8)[t - 1]
            values.append(int.from_bytes(body[j:j + n], "big", signed=True))
            j += n
        elif t == 7:
            values.append(struct.unpack_from(">d", body, j)[0])
            j += 8
        elif t in (8, 9):
            values.append(t - 8)
        elif t >= 12:
            n = (t - 12) // 2
            raw = body[j:j + n]
            if len(raw) != n:
                raise ValueError("record runs off the cell")
            values.append(raw.decode("utf-8") if t & 1 else raw)
            j += n
        else:
            raise ValueError(f"reserved serial type {t}")
    return values


def _as_entry(rowid: int, values: list[Any]) -> Entry | None:
    """An ``inputs`` row: (seq alias, at, source, kind, payload JSON object)."""
    if len(values) != 5 or values[0] is not None or rowid < 1:
        return None
    at, source, kind, payload = values[1:]
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
        return None
    if not (isinstance(source, str) and source and isinstance(kind, str) and kind and isinstance(payload, str)):
        return None
    try:
        parsed = json.loads(payload)
    except ValueError:
        return None
    return Entry(rowid, float(at), source, kind, parsed) if isinstance(parsed, dict) else None
