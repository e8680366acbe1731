"""RDM6300 (125 kHz, EM4100) frames: building them and decoding a byte stream.

Pure code, no I/O, no clock. The module sends, at 9600 Bd 8N1, for as long as a tag is
in its field::

    STX 0x02 | 10 ASCII hex: 2 version/customer + 8 tag | 2 ASCII hex checksum | ETX 0x03

The checksum is the XOR of the five data bytes the ten characters spell. Hex digits are
upper case on the wire; the decoder insists on it, so that any single damaged byte is
caught (a lower-case digit would otherwise slip through as the same value).

Why streaming with backtracking: the frame start (0x02) can never occur where a hex
digit belongs, so when a frame is cut short by the next one the decoder reports the
broken one and resumes at the byte after its STX, where it finds the good one.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum

from controller.readers.stream_decoder import StreamDecoder

STX = 0x02
ETX = 0x03
FRAME_LENGTH = 14
DATA_CHARS = 10
_HEX = frozenset(b"0123456789ABCDEF")


class Rdm6300ErrorKind(Enum):
    NOISE = "noise"  # bytes outside any frame
    BAD_CHAR = "bad character"  # not an upper-case hex digit where one belongs
    NO_ETX = "missing ETX"
    BAD_CHECKSUM = "bad checksum"
    TRUNCATED = "truncated"  # the line went idle in the middle of a frame


@dataclass(frozen=True, slots=True)
class Rdm6300Frame:
    """A good frame. ``tag`` is the ten hex digits (version byte + 32-bit id)."""

    tag: str
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Rdm6300Error:
    kind: Rdm6300ErrorKind
    start: int
    end: int
    detail: str = ""

    def describe(self) -> str:
        extra = f": {self.detail}" if self.detail else ""
        return f"RDM6300 frame error ({self.kind.value}) at bytes {self.start}-{self.end}{extra}"


Rdm6300Event = Rdm6300Frame | Rdm6300Error


@dataclass
class Rdm6300Stats:
    frames: int = 0
    errors: Counter[Rdm6300ErrorKind] = field(default_factory=Counter)
    bytes_in: int = 0

    @property
    def bad_frames(self) -> int:
        return sum(self.errors.values())


def normalize_tag(tag: str) -> str:
    """Ten hex digits, upper case; raises ValueError otherwise."""
    text = tag.strip().upper()
    if len(text) != DATA_CHARS or not set(text.encode()) <= _HEX:
        raise ValueError(f"an RDM6300 tag id is {DATA_CHARS} hex digits, not {tag!r}")
    return text


def tag_checksum(tag: str) -> int:
    value = 0
    for byte in bytes.fromhex(normalize_tag(tag)):
        value ^= byte
    return value


def build_frame(tag: str) -> bytes:
    """The 14 bytes the module sends for ``tag`` (ten hex digits)."""
    text = normalize_tag(tag)
    return bytes([STX]) + text.encode() + f"{tag_checksum(text):02X}".encode() + bytes([ETX])


class Rdm6300Decoder(StreamDecoder):
    """Streaming decoder: ``feed(bytes)`` → frames and errors in stream order."""

    START = bytes([STX])

    def __init__(self) -> None:
        super().__init__()
        self.stats = Rdm6300Stats()

    def _is_frame(self, result: Rdm6300Event) -> bool:
        return isinstance(result, Rdm6300Frame)

    def _noise_error(self, start: int, end: int, count: int) -> Rdm6300Error:
        return Rdm6300Error(Rdm6300ErrorKind.NOISE, start, end, f"{count} stray byte(s)")

    def _parse_at(self, i: int, final: bool) -> Rdm6300Event | None:
        buf, base = self._buf, self._base
        have = len(buf) - i
        # Check the digits that have arrived, so a broken frame is reported at once.
        for k in range(1, min(have, FRAME_LENGTH - 1)):
            if buf[i + k] not in _HEX:
                return Rdm6300Error(
                    Rdm6300ErrorKind.BAD_CHAR,
                    base + i,
                    base + i + k,
                    f"byte {buf[i + k]:#04x} at position {k}",
                )
        if have < FRAME_LENGTH:
            if not final:
                return None
            return Rdm6300Error(
                Rdm6300ErrorKind.TRUNCATED, base + i, base + len(buf), f"{have} byte(s)"
            )
        if buf[i + FRAME_LENGTH - 1] != ETX:
            return Rdm6300Error(Rdm6300ErrorKind.NO_ETX, base + i, base + i + FRAME_LENGTH - 1)
        text = bytes(buf[i + 1 : i + 1 + DATA_CHARS]).decode("ascii")
        sent = int(bytes(buf[i + 11 : i + 13]), 16)
        want = tag_checksum(text)
        if sent != want:
            return Rdm6300Error(
                Rdm6300ErrorKind.BAD_CHECKSUM,
                base + i,
                base + i + FRAME_LENGTH,
                f"{sent:02X} != {want:02X}",
            )
        return Rdm6300Frame(tag=text, start=base + i, end=base + i + FRAME_LENGTH)
