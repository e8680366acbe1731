"""The reader-hub line protocol: typed messages, encoding and strict decoding.

Pure code, no I/O and no clock, so the host driver, the virtual hub and the tests all
share one definition of what a good line is. The wire format is specified in
``docs/hub-protocol.md``; in short, one ASCII line per message::

    $TAG 17 seat2 04A1B2C3D4E5F6*1F3C

``$`` marks the start (so the host can resynchronise after garbage without a newline),
the body is ``TYPE SEQ FIELDS…`` separated by single spaces, and ``*XXXX`` is the
CRC-16/CCITT-FALSE of the body in upper-case hex. Every way a line can be bad has its
own exception type, so the driver can count them by kind and tests can ask for one.

Decoding is on the hot path (hub line to verdict is a few milliseconds), so it uses
``binascii.crc_hqx`` (C) and plain ``bytes`` operations, no regular expressions.
"""

from __future__ import annotations

import binascii
import enum
from dataclasses import dataclass

from controller.readers.sightings import ALL_ZONES

#: Protocol version announced in HELLO. Bump it only for incompatible changes.
PROTOCOL_VERSION = 1
#: Longest line a hub may send, start marker to checksum, without the line end.
MAX_LINE = 160
#: Sequence numbers run 0..SEQ_MODULUS-1 and then wrap to 0.
SEQ_MODULUS = 65536
#: Longest free-text detail in a FAULT line.
MAX_DETAIL = 64
#: Zone token for a fault of the hub itself rather than one reader.
HUB_ZONE_TOKEN = "-"
#: Tag ids are 4, 7 or 10-byte ISO 14443 UIDs (8 for ISO 15693): 4..10 bytes of hex.
MIN_UID_BYTES = 4
MAX_UID_BYTES = 10

START = b"$"
CHECKSUM_MARK = b"*"

_ZONES = frozenset(ALL_ZONES)
_HEX_UPPER = frozenset(b"0123456789ABCDEF")
_DIGITS = frozenset(b"0123456789")
# Printable ASCII minus the two framing characters.
_TEXT_BYTES = frozenset(range(0x20, 0x7F)) - {ord("$"), ord("*")}
_LINE_BYTES = _TEXT_BYTES | {ord("*")}
_TOKEN_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_-.")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): cheap on a Pico, C-fast here."""
    return binascii.crc_hqx(data, 0xFFFF)


# --- messages -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """Sent at hub boot (with seq 0) and again now and then: who the hub is."""

    seq: int
    firmware: str
    zones: tuple[str, ...]
    proto: int = PROTOCOL_VERSION
    heartbeat_ms: int | None = None
    repeat_ms: int | None = None


@dataclass(frozen=True, slots=True)
class TagRead:
    """A tag lies on a zone's reader. Repeated while it stays there."""

    seq: int
    zone: str
    tag: str


@dataclass(frozen=True, slots=True)
class TagGone:
    """The tag last read in a zone has left it (the hub's own debounce decided)."""

    seq: int
    zone: str
    tag: str


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """The hub is alive; sent every ``heartbeat_ms`` whatever else happens."""

    seq: int
    uptime_s: int


@dataclass(frozen=True, slots=True)
class Fault:
    """A reader (or, with ``zone`` None, the hub itself) has stopped working."""

    seq: int
    zone: str | None
    code: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Recover:
    """A reader that had a FAULT works again."""

    seq: int
    zone: str | None


@dataclass(frozen=True, slots=True)
class Zones:
    """The hub's answer to the host's ZONES command: the readers taking turns now."""

    seq: int
    zones: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Refused:
    """The hub's answer to a command it cannot carry out (ERR): nothing changed.

    ``code``: ``frame`` (the command line was damaged), ``unknown`` (a command the hub
    does not know), ``zone`` (a zone it has no reader for).
    """

    seq: int
    code: str
    detail: str = ""


HubMessage = Hello | TagRead | TagGone | Heartbeat | Fault | Recover | Zones | Refused

#: Every zone the hub has: the argument of ``ZONES`` that undoes a narrower one.
ALL_READERS = "all"


# --- errors ---------------------------------------------------------------------------


class BadLineKind(enum.Enum):
    """Why a line was refused; the driver keeps one counter per kind."""

    EMPTY = "empty"
    NO_START = "no start marker"
    TOO_LONG = "too long"
    NOT_ASCII = "not printable ascii"
    TRUNCATED = "truncated or no checksum"
    BAD_CHECKSUM = "checksum mismatch"
    UNKNOWN_TYPE = "unknown message type"
    MALFORMED = "malformed fields"


class HubLineError(ValueError):
    """A line from the hub that is not a good message. ``kind`` says which way."""

    kind: BadLineKind = BadLineKind.MALFORMED

    def __init__(self, message: str, line: bytes) -> None:
        super().__init__(message)
        self.line = line


class EmptyLine(HubLineError):
    kind = BadLineKind.EMPTY


class NoStartMarker(HubLineError):
    kind = BadLineKind.NO_START


class LineTooLong(HubLineError):
    kind = BadLineKind.TOO_LONG


class NotAscii(HubLineError):
    kind = BadLineKind.NOT_ASCII


class TruncatedLine(HubLineError):
    kind = BadLineKind.TRUNCATED


class ChecksumMismatch(HubLineError):
    kind = BadLineKind.BAD_CHECKSUM


class UnknownMessage(HubLineError):
    kind = BadLineKind.UNKNOWN_TYPE


class MalformedMessage(HubLineError):
    kind = BadLineKind.MALFORMED


# --- encoding -------------------------------------------------------------------------


def _check_seq(seq: int) -> None:
    if not 0 <= seq < SEQ_MODULUS:
        raise ValueError(f"sequence number out of range: {seq}")


def _zone_token(zone: str | None) -> str:
    return HUB_ZONE_TOKEN if zone is None else zone


def message_body(msg: HubMessage) -> str:
    """The text between ``$`` and ``*`` for a message."""
    _check_seq(msg.seq)
    if isinstance(msg, TagRead):
        return f"TAG {msg.seq} {msg.zone} {msg.tag}"
    if isinstance(msg, TagGone):
        return f"GONE {msg.seq} {msg.zone} {msg.tag}"
    if isinstance(msg, Heartbeat):
        return f"HB {msg.seq} {msg.uptime_s}"
    if isinstance(msg, Fault):
        body = f"FAULT {msg.seq} {_zone_token(msg.zone)} {msg.code}"
        return f"{body} {msg.detail}" if msg.detail else body
    if isinstance(msg, Recover):
        return f"RECOVER {msg.seq} {_zone_token(msg.zone)}"
    if isinstance(msg, Zones):
        return f"ZONES {msg.seq} " + ",".join(msg.zones)
    if isinstance(msg, Refused):
        body = f"ERR {msg.seq} {msg.code}"
        return f"{body} {msg.detail}" if msg.detail else body
    if isinstance(msg, Hello):
        parts = [f"HELLO {msg.seq}", f"proto={msg.proto}", f"fw={msg.firmware}"]
        parts.append("zones=" + ",".join(msg.zones))
        if msg.heartbeat_ms is not None:
            parts.append(f"hb={msg.heartbeat_ms}")
        if msg.repeat_ms is not None:
            parts.append(f"repeat={msg.repeat_ms}")
        return " ".join(parts)
    raise TypeError(f"not a hub message: {msg!r}")


def frame(body: bytes) -> bytes:
    """Wrap a body as a full line: start marker, checksum and line end."""
    return b"$" + body + b"*%04X\n" % crc16(body)


def zones_command(zones: tuple[str, ...] | None) -> bytes:
    """The host's command line asking the hub to poll only ``zones`` (None: all of them).

    Framed like the hub's lines but without a sequence number: ``$ZONES deal*XXXX``.
    """
    if zones is not None:
        if not zones or not _ZONES.issuperset(zones) or len(set(zones)) != len(zones):
            raise ValueError(f"not a list of zones: {zones!r}")
    return frame(("ZONES " + (ALL_READERS if zones is None else ",".join(zones))).encode("ascii"))


def encode(msg: HubMessage) -> bytes:
    """One complete line (with ``\\n``) for a message. Refuses what decode would refuse."""
    line = frame(message_body(msg).encode("ascii"))
    decode_line(line[:-1])  # the encoder never emits a line the decoder refuses
    return line


# --- decoding -------------------------------------------------------------------------


def decode_line(line: bytes) -> HubMessage:
    """Decode one line (without ``\\n``; a trailing ``\\r`` is tolerated).

    Raises a :class:`HubLineError` subclass naming exactly what is wrong.
    """
    if line.endswith(b"\r"):
        line = line[:-1]
    if not line:
        raise EmptyLine("empty line", line)
    if len(line) > MAX_LINE:
        raise LineTooLong(f"line of {len(line)} bytes (max {MAX_LINE})", line)
    if line[0] != 0x24:  # "$"
        raise NoStartMarker("line does not start with '$'", line)
    star = line.rfind(CHECKSUM_MARK)
    if star < 0 or len(line) - star != 5:
        if not _LINE_BYTES.issuperset(line[1:]):
            raise NotAscii("line holds non-printable or framing bytes", line)
        raise TruncatedLine("no '*XXXX' checksum at the end", line)
    body = line[1:star]
    if not _TEXT_BYTES.issuperset(body):
        raise NotAscii("body holds non-printable or framing bytes", line)
    crc_text = line[star + 1 :]
    if not _HEX_UPPER.issuperset(crc_text):
        raise TruncatedLine("checksum is not four upper-case hex digits", line)
    if int(crc_text, 16) != crc16(body):
        raise ChecksumMismatch(f"checksum {crc_text.decode()} does not match", line)
    return _decode_body(body.decode("ascii"), line)


def _seq(text: str, line: bytes) -> int:
    if not text or len(text) > 5 or not _DIGITS.issuperset(text.encode()):
        raise MalformedMessage(f"bad sequence number {text!r}", line)
    value = int(text)
    if value >= SEQ_MODULUS:
        raise MalformedMessage(f"sequence number {value} out of range", line)
    return value


def _zone(text: str, line: bytes) -> str:
    if text not in _ZONES:
        raise MalformedMessage(f"unknown zone {text!r}", line)
    return text


def _fault_zone(text: str, line: bytes) -> str | None:
    return None if text == HUB_ZONE_TOKEN else _zone(text, line)


def _tag(text: str, line: bytes) -> str:
    n = len(text)
    if n % 2 or not MIN_UID_BYTES * 2 <= n <= MAX_UID_BYTES * 2:
        raise MalformedMessage(f"tag id of {n} hex digits", line)
    if not _HEX_UPPER.issuperset(text.encode()):
        raise MalformedMessage(f"tag id {text!r} is not upper-case hex", line)
    return text


def _token(text: str, what: str, line: bytes) -> str:
    if not text or len(text) > 32 or not _TOKEN_BYTES.issuperset(text.lower().encode()):
        raise MalformedMessage(f"bad {what} {text!r}", line)
    return text


def _uint(text: str, what: str, line: bytes) -> int:
    if not text or len(text) > 10 or not _DIGITS.issuperset(text.encode()):
        raise MalformedMessage(f"bad {what} {text!r}", line)
    return int(text)


def _arity(parts: list[str], n: int, line: bytes) -> None:
    if len(parts) != n:
        raise MalformedMessage(f"{parts[0]} takes {n - 1} fields, got {len(parts) - 1}", line)


def _decode_body(body: str, line: bytes) -> HubMessage:
    kind, _, rest = body.partition(" ")
    if kind == "TAG" or kind == "GONE":
        parts = body.split(" ")
        _arity(parts, 4, line)
        cls = TagRead if kind == "TAG" else TagGone
        return cls(_seq(parts[1], line), _zone(parts[2], line), _tag(parts[3], line))
    if kind == "HB":
        parts = body.split(" ")
        _arity(parts, 3, line)
        return Heartbeat(_seq(parts[1], line), _uint(parts[2], "uptime", line))
    if kind == "FAULT":
        parts = body.split(" ", 4)
        if len(parts) < 4:
            raise MalformedMessage("FAULT takes seq, zone, code and optional detail", line)
        detail = parts[4] if len(parts) == 5 else ""
        if len(detail) > MAX_DETAIL or (len(parts) == 5 and not detail.strip()):
            raise MalformedMessage("bad FAULT detail", line)
        return Fault(
            _seq(parts[1], line),
            _fault_zone(parts[2], line),
            _token(parts[3], "fault code", line),
            detail,
        )
    if kind == "RECOVER":
        parts = body.split(" ")
        _arity(parts, 3, line)
        return Recover(_seq(parts[1], line), _fault_zone(parts[2], line))
    if kind == "HELLO":
        return _decode_hello(body.split(" "), line)
    if kind == "ZONES":
        parts = body.split(" ")
        _arity(parts, 3, line)
        zones = tuple(_zone(z, line) for z in parts[2].split(","))
        if len(set(zones)) != len(zones):
            raise MalformedMessage("ZONES names a zone twice", line)
        return Zones(_seq(parts[1], line), zones)
    if kind == "ERR":
        parts = body.split(" ", 3)
        if len(parts) < 3:
            raise MalformedMessage("ERR takes seq, code and optional detail", line)
        detail = parts[3] if len(parts) == 4 else ""
        if len(detail) > MAX_DETAIL or (len(parts) == 4 and not detail.strip()):
            raise MalformedMessage("bad ERR detail", line)
        return Refused(_seq(parts[1], line), _token(parts[2], "error code", line), detail)
    if not kind:
        raise MalformedMessage("empty message type", line)
    raise UnknownMessage(f"unknown message type {kind[:16]!r}", line)


def _decode_hello(parts: list[str], line: bytes) -> Hello:
    if len(parts) < 2:
        raise MalformedMessage("HELLO without sequence number", line)
    seq = _seq(parts[1], line)
    fields: dict[str, str] = {}
    for item in parts[2:]:
        key, eq, value = item.partition("=")
        if not eq or not key or key in fields:
            raise MalformedMessage(f"bad HELLO field {item!r}", line)
        fields[key] = value
    for required in ("proto", "fw", "zones"):
        if required not in fields:
            raise MalformedMessage(f"HELLO without {required}=", line)
    zones = tuple(_zone(z, line) for z in fields["zones"].split(",")) if fields["zones"] else ()
    if len(set(zones)) != len(zones):
        raise MalformedMessage("HELLO names a zone twice", line)
    hb = fields.get("hb")
    repeat = fields.get("repeat")
    # Unknown keys are ignored on purpose: a newer hub may announce more.
    return Hello(
        seq=seq,
        firmware=_token(fields["fw"], "firmware version", line),
        zones=zones,
        proto=_uint(fields["proto"], "protocol version", line),
        heartbeat_ms=None if hb is None else _uint(hb, "heartbeat interval", line),
        repeat_ms=None if repeat is None else _uint(repeat, "repeat interval", line),
    )


def decode_command(line: bytes) -> list[str]:
    """The words of one command line from the host (``ZONES deal``), as the firmware reads it.

    A framed line's checksum must hold (``ChecksumMismatch``, ``TruncatedLine``); a bare
    line without ``$`` is taken as typed (a person at a terminal). For the virtual hub.
    """
    line = line.strip()
    if not line.startswith(START):
        return line.decode("ascii", "replace").split(" ")
    star = line.rfind(CHECKSUM_MARK)
    if star < 0 or len(line) - star != 5 or not _HEX_UPPER.issuperset(line[star + 1 :]):
        raise TruncatedLine("no '*XXXX' checksum at the end", line)
    body = line[1:star]
    if int(line[star + 1 :], 16) != crc16(body):
        raise ChecksumMismatch("checksum does not match", line)
    return body.decode("ascii", "replace").split(" ")


def split_fragments(line: bytes) -> list[bytes]:
    """Cut one received line at every ``$`` so a message glued to junk is still read.

    A hub that reset mid-line, or noise without a line end, leaves junk in front of the
    next message; the junk becomes its own (bad) fragment and the message survives.
    A line with no ``$`` at all is a single fragment (it will fail as NO_START).
    """
    if line.endswith(b"\r"):
        line = line[:-1]
    if line.count(b"$") <= 1 and (not line or line[0] == 0x24 or b"$" not in line):
        return [line]
    head, *rest = line.split(b"$")
    fragments = [head] if head else []
    fragments.extend(b"$" + part for part in rest)
    return fragments
