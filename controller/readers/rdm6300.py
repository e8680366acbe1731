"""RDM6300 125 kHz reader on a serial line: one reader, one zone.

The module talks unprompted: it repeats a frame for as long as a tag lies on it and
goes quiet when the tag leaves. So a placement is the first frame of a tag after
silence, and a removal is ``removal_silence`` seconds without its frames. Frames are
decoded by the pure :mod:`controller.readers.rdm6300_frames`; this module only reads
the port, keeps track of presence and reports sightings and faults.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from controller.readers.polling import PollingReader, SerialPort, open_idle_serial
from controller.readers.rdm6300_frames import Rdm6300Decoder, Rdm6300Error, Rdm6300Event
from controller.readers.sightings import ALL_ZONES, ReaderFault, TagSeen

DEFAULT_PORT = "/dev/serial0"
DEFAULT_BAUDRATE = 9600
#: Read time-out = idle gap. A frame takes 14.6 ms at 9600 Bd, so 50 ms of silence
#: means a frame in progress was cut off.
IDLE_GAP = 0.05
#: The most of one gap between two reads that counts towards a tag's removal silence
#: (four idle gaps: a poll loop that keeps up reads far more often).
LISTEN_STEP = 4 * IDLE_GAP


SerialFactory = Callable[[str, int], SerialPort]


def open_serial(port: str, baudrate: int) -> SerialPort:
    return open_idle_serial(port, baudrate, IDLE_GAP)


class SilencePresence:
    """One sighting per placement, for a reader that repeats itself while a tag stays.

    Times come from the caller, so this is tested with plain numbers. The silence is
    counted on time the host was listening: between two calls (the poll loop makes one
    at least every :data:`IDLE_GAP`), at most :data:`LISTEN_STEP` counts. A host that
    stalled reads the module's waiting frames all at once; the gap before them is no
    proof the tag was lifted, and without this the tag lying there counted again.
    """

    def __init__(self, removal_silence: float = 0.5) -> None:
        if removal_silence <= 0:
            raise ValueError("removal_silence must be positive")
        self.removal_silence = removal_silence
        self.current: str | None = None
        self._last_seen = 0.0
        self._listened = 0.0
        self._last_call: float | None = None

    def _listen(self, now: float) -> float:
        if self._last_call is not None:
            self._listened += min(max(now - self._last_call, 0.0), LISTEN_STEP)
        self._last_call = now
        return self._listened

    def seen(self, tag: str, now: float) -> bool:
        """Record a frame for ``tag`` at ``now``; True when it is a new placement."""
        self.expire(now)
        new = tag != self.current
        self.current = tag
        self._last_seen = self._listened
        return new

    def expire(self, now: float) -> None:
        """Forget the tag once the reader has been quiet about it for long enough."""
        listened = self._listen(now)
        if self.current is not None and listened - self._last_seen > self.removal_silence:
            self.current = None


Sighting = TagSeen | ReaderFault


class Rdm6300Reader(PollingReader):
    """One RDM6300 on a serial port, reporting tags for one zone.

    Same shape as :class:`controller.readers.pn532.Pn532Reader`: :meth:`poll` for one
    read, :meth:`sightings` as a generator, :meth:`start` for a background thread.
    """

    def __init__(
        self,
        zone: str,
        port: str = DEFAULT_PORT,
        *,
        baudrate: int = DEFAULT_BAUDRATE,
        source: str | None = None,
        serial_factory: SerialFactory = open_serial,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        removal_silence: float = 0.5,
        reopen_delay: float = 1.0,
    ) -> None:
        if zone not in ALL_ZONES:
            raise ValueError(f"unknown zone {zone!r}; expected one of {', '.join(ALL_ZONES)}")
        self.zone = zone
        self.port_name = port
        self.baudrate = baudrate
        self.source = source or f"rdm6300:{port}"
        self._serial_factory = serial_factory
        self._clock = clock
        self._monotonic = monotonic
        self.presence = SilencePresence(removal_silence)
        self.reopen_delay = reopen_delay
        self.decoder = Rdm6300Decoder()
        self._port: SerialPort | None = None
        self._init_polling()

    def open(self) -> None:
        if self._port is None:
            self._port = self._serial_factory(self.port_name, self.baudrate)

    def close(self) -> None:
        self._stop_polling()
        port, self._port = self._port, None
        if port is not None:
            port.close()

    def __enter__(self) -> Rdm6300Reader:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def poll(self) -> list[Sighting]:
        """One read (at most one idle gap long): decode, track presence, report."""
        try:
            self.open()
            assert self._port is not None
            waiting = self._port.in_waiting
            data = self._port.read(waiting if waiting > 0 else 1)
        except OSError as exc:  # unplugged USB adapter, missing device; SerialException is one
            port, self._port = self._port, None
            if port is not None:
                try:
                    port.close()
                except OSError:
                    pass
            return [self._fault(f"serial port {self.port_name}: {exc}")]
        events = self.decoder.feed(data) if data else self.decoder.flush()
        return self._handle(events)

    def _handle(self, events: list[Rdm6300Event]) -> list[Sighting]:
        out: list[Sighting] = []
        now = self._monotonic()
        for ev in events:
            if isinstance(ev, Rdm6300Error):
                out.append(self._fault(ev.describe()))
            elif self.presence.seen(ev.tag, now):
                out.append(
                    TagSeen(zone=self.zone, tag=ev.tag, at=self._clock(), source=self.source)
                )
        self.presence.expire(now)
        return out


    def _fault(self, message: str) -> ReaderFault:
        return ReaderFault(source=self.source, message=message, at=self._clock(), zone=self.zone)
