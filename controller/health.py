"""Whether the running service still answers, for systemd's watchdog.

The unit promises a restart when the service wedges (``WatchdogSec=``). A thread that
pings on a timer would keep pinging through a deadlocked referee lock or a stuck web
event loop, so the watchdog pings only after :meth:`Liveness.check` found both
answering: the referee's lock taken and released, and the dashboard serving
``/api/state`` (an HTTP request through the event loop that reads the referee's state).
A halted referee (full card) still answers: a restart would not cure it.
"""

from __future__ import annotations

import http.client
import threading
from typing import Protocol


class Answering(Protocol):
    def answers(self, timeout: float) -> bool: ...


class Liveness:
    """The checks behind one watchdog ping."""

    def __init__(self, referee: Answering, web: tuple[str, int] | None, timeout: float = 5.0) -> None:
        self.referee = referee
        self.web = web
        self.timeout = timeout

    def check(self) -> str | None:
        """None when everything answers, else what does not (a line for ``systemctl status``)."""
        if not self.referee.answers(self.timeout):
            return f"the referee has not answered for {self.timeout:g} s (lock held)"
        if self.web is not None and not web_answers(*self.web, timeout=self.timeout):
            return f"the dashboard has not answered for {self.timeout:g} s (event loop stuck)"
        return None


def web_answers(host: str, port: int, *, timeout: float) -> bool:
    """Whether the dashboard at ``host:port`` serves its state within ``timeout`` seconds."""
    target = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    conn = http.client.HTTPConnection(target, port, timeout=timeout)
    try:
        conn.request("GET", "/api/state", headers={"Connection": "close"})
        return conn.getresponse().status == 200
    except (TimeoutError, OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()


def wait_until_serving(host: str, port: int, stop_waiting: threading.Event, *, every: float = 0.05) -> bool:
    """Block until the dashboard answers (True) or ``stop_waiting`` is set (False)."""
    while not stop_waiting.is_set():
        if web_answers(host, port, timeout=1.0):
            return True
        stop_waiting.wait(every)
    return False
