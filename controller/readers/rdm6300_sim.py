"""A simulated RDM6300 on a real pseudo-terminal.

Like the module: while a tag is placed it sends that tag's frame every ``period``
seconds, and nothing otherwise. Tests can also put raw bytes on the line (noise, broken
frames) and wait for a number of frames to have gone out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from controller.readers.pn532_sim import PtyLine
from controller.readers.rdm6300_frames import build_frame, normalize_tag


class SimulatedRdm6300:
    def __init__(self, *, period: float = 0.05) -> None:
        self.period = period
        self._line = PtyLine()
        self._lock = threading.Condition()
        self._tag: str | None = None
        self._stopping = False
        self._thread: threading.Thread | None = None
        self.frames_sent = 0

    @property
    def port(self) -> str:
        return self._line.path

    def start(self) -> SimulatedRdm6300:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="rdm6300-sim", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._line.close()

    def __enter__(self) -> SimulatedRdm6300:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def place(self, tag: str) -> None:
        """Put a tag (ten hex digits) in the field; its frames start at once."""
        with self._lock:
            self._tag = normalize_tag(tag)
            self._lock.notify_all()

    def remove(self) -> None:
        with self._lock:
            self._tag = None
            self._lock.notify_all()

    def send_raw(self, data: bytes) -> None:
        """Put arbitrary bytes on the line."""
        with self._lock:
            self._line.write(data)

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
        with self._lock:
            return self._lock.wait_for(predicate, timeout=timeout)

    def _run(self) -> None:
        with self._lock:
            while not self._stopping:
                if self._tag is None:
                    self._lock.wait()
                    continue
                self._line.write(build_frame(self._tag))
                self.frames_sent += 1
                self._lock.notify_all()
                self._lock.wait(self.period)
