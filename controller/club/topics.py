"""Topic names and the messages that travel on them: the one contract between a table
and the scoreboard.

Each table owns one topic tree, ``PREFIX/tables/NAME/``, and the broker's ACL lets the
table write only there:

- ``events``: one message per journal input that had public events (QoS 1, not retained).
  ``seq`` is the input's journal sequence and ``prev`` the previous such ``seq``, so the
  scoreboard can tell a duplicate (``seq`` already held) from a gap (``prev`` not held).
- ``state``: the public state after the latest input (retained: a late scoreboard is
  current at once); ``last`` is the newest ``events`` seq, so a lost tail shows as a gap.
- ``status``: online / offline (retained; the broker publishes "offline" as the table's
  last will when its link dies).
- ``resend``: written by the scoreboard, read by the table: "send again after seq N".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

DEFAULT_PREFIX = "courtpiece"
EVENTS, STATE, STATUS, RESEND = "events", "state", "status", "resend"
TABLE_TOPICS = (EVENTS, STATE, STATUS)
ONLINE, OFFLINE = "online", "offline"
#: Table names are broker user names and topic levels: no wildcards, slashes or spaces.
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
#: The scoreboard's own broker user; no table may take this name.
SCOREBOARD_USER = "scoreboard"


def valid_name(name: str) -> bool:
    return bool(NAME_RE.match(name)) and name != SCOREBOARD_USER


def topic(prefix: str, table: str, kind: str) -> str:
    return f"{prefix}/tables/{table}/{kind}"


def parse_topic(prefix: str, name: str) -> tuple[str, str] | None:
    """``(table, kind)`` for a topic under ``prefix``, else None."""
    parts = name.split("/")
    head = prefix.split("/")
    if len(parts) != len(head) + 3 or parts[: len(head)] != head or parts[len(head)] != "tables":
        return None
    return parts[-2], parts[-1]


def dumps(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), sort_keys=True).encode()


@dataclass(frozen=True, slots=True)
class Batch:
    """The public events of one journal input."""

    table: str
    seq: int
    prev: int
    events: list[dict[str, Any]] = field(default_factory=list)
    sent: float | None = None  # when the table handed it to the broker (latency figures)
    journal: str = ""  # the table's journal id ("" from a table before ids)

    def to_bytes(self) -> bytes:
        return dumps({"v": 1, "table": self.table, "seq": self.seq, "prev": self.prev, "events": self.events,
                      "sent": self.sent, "journal": self.journal})

    @classmethod
    def from_bytes(cls, raw: bytes) -> Batch:
        d = json.loads(raw)
        if not isinstance(d, dict) or not isinstance(d.get("events"), list):
            raise ValueError("not an events message")
        seq, prev = int(d["seq"]), int(d["prev"])
        if not 0 <= prev < seq:
            raise ValueError(f"bad sequence pair {prev} -> {seq}")
        sent = d.get("sent")
        return cls(str(d["table"]), seq, prev, [e for e in d["events"] if isinstance(e, dict)],
                   float(sent) if isinstance(sent, int | float) else None, journal_of(d))


@dataclass(frozen=True, slots=True)
class StateMessage:
    table: str
    seq: int  # the referee's last journal seq
    last: int  # the newest events message's seq
    at: float
    state: dict[str, Any]
    journal: str = ""

    def to_bytes(self) -> bytes:
        return dumps({"v": 1, "table": self.table, "seq": self.seq, "last": self.last, "at": self.at,
                      "journal": self.journal, "state": self.state})

    @classmethod
    def from_bytes(cls, raw: bytes) -> StateMessage:
        d = json.loads(raw)
        return cls(str(d["table"]), int(d["seq"]), int(d["last"]), float(d["at"]), dict(d["state"]),
                   journal_of(d))


def journal_of(d: dict[str, Any]) -> str:
    """A message's journal id: short hex, or "" (a table from before ids, or junk)."""
    j = d.get("journal")
    return j if isinstance(j, str) and _JOURNAL_ID.fullmatch(j) else ""


_JOURNAL_ID = re.compile(r"[0-9a-f]{1,64}")
#: The fixed start of a state message as :func:`dumps` writes it (keys sorted).
_STATE_HEAD = re.compile(
    rb'\{"at":(-?[0-9][0-9.eE+-]*),(?:"journal":"([0-9a-f]{0,64})",)?"last":([0-9]+),"seq":([0-9]+),"state":')


@dataclass(frozen=True, slots=True)
class StateHead:
    """A state message read only as far as the scoreboard needs at once. The table's state
    is a few kilobytes that only a page ever reads, at most once a second, while fifty busy
    tables send two hundred a second: it is kept as its JSON text, decoded when asked."""

    table: str
    seq: int
    last: int
    at: float
    state_json: bytes
    journal: str = ""

    @classmethod
    def from_bytes(cls, raw: bytes) -> StateHead:
        head = _STATE_HEAD.match(raw)
        end = raw.rfind(b',"table":')  # the last one: "table" and "v" sort after "state"
        if head is None or end < head.end():  # not written by dumps: read it whole
            s = StateMessage.from_bytes(raw)
            return cls(s.table, s.seq, s.last, s.at, dumps(s.state), s.journal)
        tail = json.loads(b"{" + raw[end + 1:])
        return cls(str(tail["table"]), int(head[4]), int(head[3]), float(head[1]), raw[head.end():end],
                   (head[2] or b"").decode())


@dataclass(frozen=True, slots=True)
class StatusMessage:
    status: str  # ONLINE or OFFLINE
    at: float | None = None  # None in a last will: the broker sends it later, the time is not known

    def to_bytes(self) -> bytes:
        return dumps({"status": self.status, "at": self.at})

    @classmethod
    def from_bytes(cls, raw: bytes) -> StatusMessage:
        d = json.loads(raw) if raw else {"status": OFFLINE}
        status = d.get("status")
        if status not in (ONLINE, OFFLINE):
            raise ValueError(f"unknown status {status!r}")
        at = d.get("at")
        return cls(status, float(at) if at is not None else None)


def resend_request(after: int) -> bytes:
    return dumps({"after": int(after)})


def parse_resend(raw: bytes) -> int:
    after = int(json.loads(raw)["after"])
    if after < 0:
        raise ValueError("negative sequence")
    return after
