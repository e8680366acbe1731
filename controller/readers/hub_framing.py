"""Cutting the serial byte stream into candidate message fragments.

Serial reads return arbitrary chunks: half a line, three lines, a line and a bit. This
class keeps the unfinished tail between reads and hands back whole fragments (one
``$``-started message candidate each, or a piece of junk). It never grows without
bound: a run of bytes with no line end is cut once it is longer than any good line
could be, keeping only what might still be the start of a good message.
"""

from __future__ import annotations

from controller.readers.hub_protocol import MAX_LINE, split_fragments


class LineAssembler:
    """Bytes in, fragments out; pure and single-threaded."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self._max = max_line
        self._pending = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """Add received bytes; return every fragment completed by them, in order."""
        out: list[bytes] = []
        self._pending += data
        if b"\n" in data:
            *lines, tail = bytes(self._pending).split(b"\n")
            self._pending = bytearray(tail)
            for line in lines:
                out.extend(split_fragments(line))
        if len(self._pending) > self._max:
            out.extend(self._cut_overlong())
        return out

    def _cut_overlong(self) -> list[bytes]:
        """Give up on the overlong unfinished line, keeping a possible message start.

        Everything before the last ``$`` is returned as junk; if what follows that
        ``$`` is itself already too long (or there is none) it goes too.
        """
        pending = bytes(self._pending)
        start = pending.rfind(b"$")
        if 0 < start and len(pending) - start <= self._max:
            self._pending = bytearray(pending[start:])
            return split_fragments(pending[:start])
        self._pending.clear()
        return split_fragments(pending)

    def flush(self) -> list[bytes]:
        """The unfinished tail as fragments (the link dropped mid-line)."""
        if not self._pending:
            return []
        pending = bytes(self._pending)
        self._pending.clear()
        return split_fragments(pending)

    @property
    def pending(self) -> int:
        """Bytes held that do not yet end in a line end."""
        return len(self._pending)
