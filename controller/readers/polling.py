"""The loop and thread every polled reader shares (PN532, RDM6300, the camera).

A reader supplies ``poll()`` (one round: sightings and faults) and keeps ``_port`` None
while its port is lost (a serial reader) or sets ``finished`` when its source runs dry
(a recording); this class runs the rounds until stopped, waits between them (longer
before trying a lost port again), and offers the same ``sightings`` / ``start`` / stop
shape as the hub driver.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Protocol

from controller.readers.sightings import CardSeen, ReaderFault, TagSeen

Sighting = TagSeen | CardSeen | ReaderFault


class SerialPort(Protocol):
    """What a polled reader needs from its port; pyserial's ``Serial`` has it all."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def close(self) -> None: ...


def open_idle_serial(port: str, baudrate: int, idle_gap: float) -> SerialPort:
    """Open ``port`` with pyserial (any URL it knows), 8N1, with the reader's idle gap as
    the read time-out: that much silence is how a decoder tells a cut-off frame."""
    import serial

    return serial.serial_for_url(port, baudrate=baudrate, timeout=idle_gap)


class PollingReader:
    zone: str
    reopen_delay: float = 1.0
    poll_interval: float = 0.0
    #: the source ran dry (a recording's last frame): the rounds stop
    finished: bool = False
    _port: object | None

    def _init_polling(self) -> None:
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def poll(self) -> list[Sighting]:
        raise NotImplementedError

    def _pause(self) -> float:
        """Seconds to wait after a round: ``reopen_delay`` while the port is lost."""
        return self.reopen_delay if self._port is None else self.poll_interval

    def _thread_name(self) -> str:
        return f"{type(self).__name__.lower()}-{self.zone}"

    def close(self) -> None:
        self._stop_polling()

    def _stop_polling(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
            self._thread = None

    def sightings(self, stop: threading.Event | None = None) -> Iterator[Sighting]:
        """Poll for ever (or until ``stop`` is set), yielding sightings and faults."""
        stop = stop or self._stop
        try:
            while not stop.is_set() and not self.finished:
                yield from self.poll()
                pause = self._pause()
                if pause:
                    stop.wait(pause)
        finally:
            if stop is self._stop:
                self.close()

    def start(self, on_sighting: Callable[[Sighting], None]) -> None:
        """Poll in a background thread, handing each sighting to ``on_sighting``."""
        if self._thread is not None:
            raise RuntimeError("reader already started")
        self._stop.clear()

        def run() -> None:
            for s in self.sightings(self._stop):
                on_sighting(s)

        self._thread = threading.Thread(target=run, name=self._thread_name(), daemon=True)
        self._thread.start()
