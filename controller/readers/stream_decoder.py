"""The streaming part every serial frame decoder shares (PN532 frames, RDM6300 frames).

Bytes arrive in arbitrary chunks. The decoder finds each start marker, asks the
protocol to parse a frame there, holds back an unfinished one until more bytes (or an
idle line) come, reports a bad frame and then looks for a real one starting inside it,
and folds the bytes between frames into one "noise" error per run. Only parsing a
single frame is protocol-specific.
"""

from __future__ import annotations

from typing import Any


class StreamDecoder:
    #: The bytes that open a frame.
    START: bytes = b""
    #: Bytes that may sit between frames without counting as noise.
    filler: bytes = b""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._base = 0  # stream offset of _buf[0]
        self._quiet_end = 0  # bytes before this offset were already reported in a bad frame
        self._noise: list[int] | None = None  # [start, end, count] of the open noise run
        self.stats: Any = None  # set by the protocol: bytes_in, frames, errors[kind]

    # -- what a protocol supplies
    def _parse_at(self, i: int, final: bool) -> Any | None:
        """A frame or an error starting at buf[i]; None: wait for more bytes."""
        raise NotImplementedError

    def _is_frame(self, result: Any) -> bool:
        raise NotImplementedError

    def _noise_error(self, start: int, end: int, count: int) -> Any:
        raise NotImplementedError

    def _hold_back(self, end: int) -> int:
        """Where to stop when no start marker follows (a start marker may be cut in two)."""
        return end

    # -- the shared machinery
    @property
    def offset(self) -> int:
        """Stream offset of the next byte to be fed."""
        return self._base + len(self._buf)

    @property
    def pending(self) -> int:
        """Bytes held back, waiting for more (an incomplete frame)."""
        return len(self._buf)

    def feed(self, data: bytes | bytearray) -> list[Any]:
        self.stats.bytes_in += len(data)
        self._buf += data
        out: list[Any] = []
        self._scan(out, final=False)
        return out

    def flush(self) -> list[Any]:
        """The line went idle: anything incomplete now will never complete."""
        out: list[Any] = []
        self._scan(out, final=True)
        self._close_noise(out)
        return out

    def _scan(self, out: list[Any], *, final: bool) -> None:
        buf = self._buf
        pos = 0
        while True:
            i = buf.find(self.START, pos)
            if i < 0:
                end = len(buf) if final else max(pos, self._hold_back(len(buf)))
                self._outside(pos, end)
                pos = end
                break
            self._outside(pos, i)
            self._close_noise(out)
            result = self._parse_at(i, final)
            if result is None:
                pos = i
                break
            out.append(result)
            if self._is_frame(result):
                self.stats.frames += 1
                pos = result.end - self._base
            else:
                self.stats.errors[result.kind] += 1
                self._quiet_end = max(self._quiet_end, result.end)
                pos = i + 1  # backtrack: a real frame may start inside the bad one
        del buf[:pos]
        self._base += pos

    def _outside(self, a: int, b: int) -> None:
        """Account for buf[a:b], which lies outside every frame."""
        a = max(a, self._quiet_end - self._base)
        if a >= b:
            return
        filler = self.filler
        chunk = bytes(self._buf[a:b])
        core = chunk.strip(filler) if filler else chunk
        if not core:
            return
        first = a + (len(chunk) - len(chunk.lstrip(filler)) if filler else 0)
        last = first + len(core)
        count = len(core.translate(None, filler)) if filler else len(core)
        if self._noise is None:
            self._noise = [self._base + first, self._base + last, count]
        else:
            self._noise[1] = self._base + last
            self._noise[2] += count

    def _close_noise(self, out: list[Any]) -> None:
        if self._noise is not None:
            start, end, count = self._noise
            self._noise = None
            err = self._noise_error(start, end, count)
            self.stats.errors[err.kind] += 1
            out.append(err)
