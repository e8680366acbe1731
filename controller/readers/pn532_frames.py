"""PN532 host-link frames: building them and decoding a byte stream into them.

Pure code, no I/O and no clock, so the frame rules can be tested in bulk (hundreds of
thousands of random and damaged inputs) without a serial port, and the same decoder
serves both the driver (frames from the PN532) and the simulator (frames from a host).

Frame layout (PN532 user manual UM0701-02, section 6.2.1)::

    normal    00 | 00 FF | LEN | LCS | TFI PD0 … PDn | DCS | 00
    extended  00 | 00 FF | FF FF | LENM LENL | LCS | TFI PD0 … PDn | DCS | 00
    ACK       00 | 00 FF | 00 FF | 00
    NACK      00 | 00 FF | FF 00 | 00
    error     00 | 00 FF | 01 FF | 7F | 81 | 00     (application-level error)

LEN counts TFI plus data; LEN + LCS = 0 and TFI + PD… + DCS = 0 (mod 256). TFI is D4
from host to PN532 and D5 back. The leading preamble and trailing postamble are plain
zeros and the decoder treats them, like any other "filler" byte between frames, as
nothing at all.

Why a streaming decoder that backtracks: a UART line can drop, flip or add bytes, and
the start code ``00 FF`` also occurs inside ordinary data. When a candidate frame fails
its checks the decoder reports it and resumes scanning one byte after its start code,
so a good frame hiding behind a bad one is still found. A candidate that is merely
incomplete is kept until more bytes arrive or the caller says the line went idle
(:meth:`FrameDecoder.flush`), which is how a truncated frame is told from a slow one.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum

from controller.readers.stream_decoder import StreamDecoder

PREAMBLE = 0x00
POSTAMBLE = 0x00
START_CODE = b"\x00\xff"
HOST_TO_PN532 = 0xD4
PN532_TO_HOST = 0xD5
ERROR_TFI = 0x7F

ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"

#: HSU wake-up: the PN532 sleeps until it sees a falling edge on its RX line followed
#: by a long enough quiet preamble. 0x55 gives the edges, the zeros the delay (the
#: manual asks for about 2 ms; 14 zero bytes at 115200 Bd are ≈1.2 ms, plus the
#: following frame's own preamble — the same sequence the common libraries use).
WAKEUP = b"\x55\x55" + b"\x00" * 14

#: Largest TFI+data the PN532 firmware handles (265 byte buffer: TFI, 264 data bytes).
MAX_FRAME_DATA = 265


class Command(int, Enum):
    """PN532 command codes this project uses (the response code is the command + 1)."""

    DIAGNOSE = 0x00
    GET_FIRMWARE_VERSION = 0x02
    GET_GENERAL_STATUS = 0x04
    SAM_CONFIGURATION = 0x14
    POWER_DOWN = 0x16
    RF_CONFIGURATION = 0x32
    IN_LIST_PASSIVE_TARGET = 0x4A
    IN_RELEASE = 0x52


class FrameKind(Enum):
    ACK = "ack"
    NACK = "nack"
    ERROR = "error"  # the PN532's "syntax error" frame (TFI 7F)
    INFO = "info"  # a normal or extended information frame


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame. ``data`` excludes the TFI; ``start``/``end`` are stream offsets
    of the start code and one past the DCS (for ACK/NACK: past the two code bytes)."""

    kind: FrameKind
    tfi: int | None = None
    data: bytes = b""
    extended: bool = False
    start: int = 0
    end: int = 0


class FrameErrorKind(Enum):
    NOISE = "noise"  # bytes outside any frame that are not preamble/postamble filler
    BAD_LCS = "bad length checksum"
    BAD_LENGTH = "bad length"  # zero, or beyond what a PN532 can send
    BAD_TFI = "bad frame identifier"
    BAD_DCS = "bad data checksum"
    TRUNCATED = "truncated"  # the line went idle in the middle of a frame


@dataclass(frozen=True, slots=True)
class FrameError:
    """A stretch of the stream that is not a good frame (stream offsets, end exclusive)."""

    kind: FrameErrorKind
    start: int
    end: int
    detail: str = ""

    def describe(self) -> str:
        extra = f": {self.detail}" if self.detail else ""
        return f"PN532 frame error ({self.kind.value}) at bytes {self.start}-{self.end}{extra}"


@dataclass
class DecoderStats:
    """Running counts; ``errors`` by kind, so a dashboard can show a flaky cable."""

    frames: int = 0
    errors: Counter[FrameErrorKind] = field(default_factory=Counter)
    bytes_in: int = 0

    @property
    def bad_frames(self) -> int:
        return sum(self.errors.values())


# --------------------------------------------------------------------------- building


def checksum(data: bytes | bytearray) -> int:
    """The byte that makes ``sum(data) + checksum`` a multiple of 256."""
    return -sum(data) & 0xFF


def build_frame(tfi: int, data: bytes | bytearray) -> bytes:
    """An information frame carrying ``tfi`` + ``data``; extended when it needs to be."""
    body = bytes([tfi]) + bytes(data)
    length = len(body)
    if length > MAX_FRAME_DATA:
        raise ValueError(f"frame data too long: {length} > {MAX_FRAME_DATA}")
    if length < 0xFF:
        header = bytes([PREAMBLE, 0x00, 0xFF, length, -length & 0xFF])
    else:
        lenm, lenl = length >> 8, length & 0xFF
        header = bytes([PREAMBLE, 0x00, 0xFF, 0xFF, 0xFF, lenm, lenl, -(lenm + lenl) & 0xFF])
    return header + body + bytes([checksum(body), POSTAMBLE])


def build_command(command: int, params: bytes | bytearray = b"") -> bytes:
    """A host-to-PN532 frame for ``command`` with its parameters."""
    return build_frame(HOST_TO_PN532, bytes([command & 0xFF]) + bytes(params))


def build_response(command: int, payload: bytes | bytearray = b"") -> bytes:
    """A PN532-to-host frame answering ``command`` (response code = command + 1)."""
    return build_frame(PN532_TO_HOST, bytes([(command + 1) & 0xFF]) + bytes(payload))


def encode(frame: Frame) -> bytes:
    """The canonical bytes of a decoded frame (with preamble and postamble)."""
    if frame.kind is FrameKind.ACK:
        return ACK
    if frame.kind is FrameKind.NACK:
        return NACK
    if frame.kind is FrameKind.ERROR:
        return ERROR_FRAME
    assert frame.tfi is not None
    body = bytes([frame.tfi]) + frame.data
    if frame.extended:
        n = len(body)
        lenm, lenl = n >> 8, n & 0xFF
        header = bytes([PREAMBLE, 0x00, 0xFF, 0xFF, 0xFF, lenm, lenl, -(lenm + lenl) & 0xFF])
        return header + body + bytes([checksum(body), POSTAMBLE])
    return build_frame(frame.tfi, frame.data)


# --------------------------------------------------------------------------- decoding

_VALID_TFI = (HOST_TO_PN532, PN532_TO_HOST, ERROR_TFI)
_NEED_MORE = None

Event = Frame | FrameError


class FrameDecoder(StreamDecoder):
    """Streaming decoder: ``feed(bytes)`` → frames and errors, in stream order.

    ``filler`` lists the bytes that may sit between frames without being noise: zeros
    (preamble/postamble) on the PN532's side; a simulator listening to a host also
    passes 0x55, the wake-up byte.
    """

    START = START_CODE

    def __init__(self, *, filler: bytes = b"\x00", max_length: int = MAX_FRAME_DATA) -> None:
        super().__init__()
        self.filler = bytes(filler)
        self._max_length = max_length
        self.stats = DecoderStats()

    def _hold_back(self, end: int) -> int:
        # Keep a trailing zero: it may be the first half of a start code.
        return end - 1 if end and self._buf[end - 1] == 0x00 else end

    def _is_frame(self, result: Event) -> bool:
        return isinstance(result, Frame)

    def _noise_error(self, start: int, end: int, count: int) -> FrameError:
        return FrameError(FrameErrorKind.NOISE, start, end, f"{count} stray byte(s)")

    def _parse_at(self, i: int, final: bool) -> Event | None:
        buf, base = self._buf, self._base
        have = len(buf) - i

        def need(n: int) -> bool:
            return have >= n

        def truncated() -> FrameError | None:
            if not final:
                return _NEED_MORE
            return FrameError(
                FrameErrorKind.TRUNCATED, base + i, base + len(buf), f"{have} byte(s)"
            )

        if not need(4):
            return truncated()
        a, b = buf[i + 2], buf[i + 3]
        if a == 0x00 and b == 0xFF:
            return Frame(FrameKind.ACK, start=base + i, end=base + i + 4)
        if a == 0xFF and b == 0x00:
            return Frame(FrameKind.NACK, start=base + i, end=base + i + 4)
        extended = a == 0xFF and b == 0xFF
        if extended:
            if not need(7):
                return truncated()
            lenm, lenl, lcs = buf[i + 4], buf[i + 5], buf[i + 6]
            if (lenm + lenl + lcs) & 0xFF:
                return FrameError(FrameErrorKind.BAD_LCS, base + i, base + i + 7, "extended")
            length = (lenm << 8) | lenl
            header = 7
        else:
            if (a + b) & 0xFF:
                return FrameError(
                    FrameErrorKind.BAD_LCS, base + i, base + i + 4, f"LEN={a:#04x} LCS={b:#04x}"
                )
            length = a
            header = 4
        if length == 0 or length > self._max_length:
            return FrameError(
                FrameErrorKind.BAD_LENGTH, base + i, base + i + header, f"LEN={length}"
            )
        if not need(header + 1):
            return truncated()
        tfi = buf[i + header]
        if tfi not in _VALID_TFI or (tfi == ERROR_TFI and length != 1):
            return FrameError(
                FrameErrorKind.BAD_TFI, base + i, base + i + header + 1, f"TFI={tfi:#04x}"
            )
        total = header + length + 1
        if not need(total):
            return truncated()
        body_start = i + header
        if sum(buf[body_start : i + total]) & 0xFF:
            return FrameError(FrameErrorKind.BAD_DCS, base + i, base + i + total, f"LEN={length}")
        end = base + i + total
        if tfi == ERROR_TFI:
            return Frame(FrameKind.ERROR, tfi=tfi, start=base + i, end=end)
        data = bytes(buf[body_start + 1 : body_start + length])
        return Frame(FrameKind.INFO, tfi=tfi, data=data, extended=extended, start=base + i, end=end)
