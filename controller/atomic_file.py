"""Replacing a small file so that a power cut leaves the old one or the new one, never half.

A Pi is switched off at the wall when the club closes. The deck maps, the admin PIN's hash
and the voice level are each rewritten whole: written to a temporary file beside the
target (created with its final mode, so a secret is never readable by others, even for a
moment), flushed to the card, renamed over the target, and the folder flushed so the
rename itself survives.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def replace_file(path: Path, text: str, *, mode: int = 0o644, encoding: str = "utf-8") -> None:
    """Make ``path`` hold ``text`` (created with ``mode``), atomically and durably."""
    replace_bytes(path, text.encode(encoding), mode=mode)


def replace_bytes(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Make ``path`` hold ``data`` (created with ``mode``), atomically and durably."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
