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


class Rdm6300Decoder:
    """Streaming decoder: ``feed(bytes)`` → frames and errors in stream order."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._base = 0
        self._quiet_end = 0
        self._noise: list[int] | None = None
        self.stats = Rdm6300Stats()

    @property
    def pending(self) -> int:
        return len(self._buf)

    def feed(self, data: bytes | bytearray) -> list[Rdm6300Event]:
        self.stats.bytes_in += len(data)
        self._buf += data
        out: list[Rdm6300Event] = []
        self._scan(out, final=False)
        return out

    def flush(self) -> list[Rdm6300Event]:
        """The line went idle: an unfinished frame will never finish."""
        out: list[Rdm6300Event] = []
        self._scan(out, final=True)
        self._close_noise(out)
        return out

    def _scan(self, out: list[Rdm6300Event], *, final: bool) -> None:
        buf = self._buf
        pos = 0
        while True:
            i = buf.find(STX, pos)
            if i < 0:
                self._outside(pos, len(buf))
                pos = len(buf)
                break
            self._outside(pos, i)
            self._close_noise(out)
            result = self._parse_at(i, final)
            if result is None:
                pos = i
                break
            if isinstance(result, Rdm6300Frame):
                self.stats.frames += 1
                out.append(result)
                pos = i + FRAME_LENGTH
            else:
                self.stats.errors[result.kind] += 1
                out.append(result)
                self._quiet_end = max(self._quiet_end, result.end)
                pos = i + 1
        del buf[:pos]
        self._base += pos

    def _outside(self, a: int, b: int) -> None:
        a = max(a, self._quiet_end - self._base)
        if a >= b:
            return
        if self._noise is None:
            self._noise = [self._base + a, self._base + b]
        else:
            self._noise[1] = self._base + b

    def _close_noise(self, out: list[Rdm6300Event]) -> None:
        if self._noise is not None:
            start, end = self._noise
            self._noise = None
            self.stats.errors[Rdm6300ErrorKind.NOISE] += 1
            out.append(
                Rdm6300Error(Rdm6300ErrorKind.NOISE, start, end, f"{end - start} stray byte(s)")
            )

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
        want = 0
        for byte in bytes.fromhex(text):
            want ^= byte
        if sent != want:
            return Rdm6300Error(
                Rdm6300ErrorKind.BAD_CHECKSUM,
                base + i,
                base + i + FRAME_LENGTH,
                f"{sent:02X} != {want:02X}",
            )
        return Rdm6300Frame(tag=text, start=base + i, end=base + i + FRAME_LENGTH)
