"""The referee at a hand start, kept so that a restart does not replay the whole match.

A snapshot is a cache, never a record: the journal's inputs stay the truth, and a
snapshot is only "the state after every input up to ``seq``", which the same program
would rebuild exactly by replaying them. So a snapshot is used only by the very code
that made it (its ``tag`` is a digest of the rules engine and the referee sources) and a
missing, stale or unreadable one just means a longer replay. Pickle is fine here: the
bytes never leave the table's own state directory.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import marshal
import pickle
import struct
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any


@dataclass
class RefereeState:
    """Everything the referee derives from its inputs, at one point in the journal."""

    setup: Any  # MatchSetup | None
    match: Any  # Match | None, copied without its stack (``Match.copy(stack=False)``)
    zone_last: dict[str, int]
    zone_deal: int
    counters: dict[str, int]


@cache
def tag() -> str:
    """A digest of the code a snapshot depends on: another version never reads it."""
    import controller.referee.referee
    import controller.rules

    h = hashlib.sha256(sys.version.encode())  # marshal's format is the interpreter's
    files = sorted(Path(controller.rules.__file__).parent.glob("*.py"))
    for f in [*files, Path(controller.referee.referee.__file__), Path(__file__)]:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def dump(state: RefereeState) -> bytes | None:
    """The state as bytes (None if it cannot be written so: then no snapshot is kept).

    The hands' history (plain records, one per hand played in the match) travels in
    ``marshal`` form, which reads back faster than pickle: the snapshot of a long match is
    mostly history, and reading it is what a restart waits for."""
    m = state.match
    history = m.history if m is not None else []
    if m is not None:
        m = copy.copy(m)
        m.history = []
        if m.__dict__.get("_origin") is not None:
            m._origin = copy.copy(m._origin)
            m._origin.history = []
    try:
        body = pickle.dumps(dataclasses.replace(state, match=m), protocol=pickle.HIGHEST_PROTOCOL)
        records = marshal.dumps(history)
    except (ValueError, TypeError, pickle.PicklingError):
        return None
    return struct.pack(">I", len(body)) + body + records


def load(blob: bytes) -> RefereeState | None:
    """The state in ``blob``, or None if it cannot be read (then replay instead)."""
    try:
        (n,) = struct.unpack_from(">I", blob)
        state = pickle.loads(blob[4:4 + n])
        history = marshal.loads(blob[4 + n:])
    except Exception:  # any failure only costs a longer replay
        return None
    if not isinstance(state, RefereeState) or not isinstance(history, list):
        return None
    if state.match is not None:
        state.match.history = history
        if state.match.__dict__.get("_origin") is not None:
            state.match._origin.history = list(history)
    return state
