"""Tell systemd how the service is doing: ready, alive, stopping.

The referee unit is ``Type=notify`` with a watchdog: systemd waits for ``READY=1``
before starting the kiosk (so the table screen never shows a connection error), and
restarts the service if ``WATCHDOG=1`` stops arriving (a wedged reader loop is worse
than a restart, because the journal brings the table back exactly).

The protocol is one datagram of ``KEY=value`` lines to the unix socket named in
``$NOTIFY_SOCKET``, so this is a dozen lines of socket code rather than a dependency.
Outside systemd (a laptop, tests) there is no socket and every call is a no-op.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class Notifier:
    """A sender for ``$NOTIFY_SOCKET`` (or an explicit address), disabled when there is none."""

    def __init__(self, address: str | None = None, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        self.address = address if address is not None else env.get("NOTIFY_SOCKET") or None
        self._env = env
        if self.address is not None and not self.address.startswith(("/", "@")):
            raise ValueError(f"unsupported NOTIFY_SOCKET address {self.address!r}")

    @property
    def enabled(self) -> bool:
        """Whether anyone is listening (the service runs under systemd)."""
        return self.address is not None

    def send(self, **fields: str | int) -> bool:
        """Send one state update, e.g. ``send(READY=1, STATUS="readers up")``.

        Returns False when disabled. A socket error is raised: under systemd a lost
        ``READY`` or ``WATCHDOG`` means the service is about to be killed, so it must
        not pass quietly.
        """
        if self.address is None:
            return False
        if not fields:
            raise ValueError("nothing to send")
        for key, value in fields.items():
            if "\n" in str(value):
                raise ValueError(f"{key}: values are single lines")
        message = "\n".join(f"{key}={value}" for key, value in fields.items()).encode()
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(message, target)
        return True

    def ready(self, status: str | None = None) -> bool:
        """Startup is done: the journal is replayed, readers and the web server are up."""
        return self.send(READY=1, **({"STATUS": status} if status else {}))

    def watchdog(self) -> bool:
        """Still alive; send at least every :meth:`watchdog_timeout` / 2 seconds."""
        return self.send(WATCHDOG=1)

    def status(self, text: str) -> bool:
        """A one-line status shown by ``systemctl status``."""
        return self.send(STATUS=text)

    def stopping(self) -> bool:
        """Shutdown has begun (so systemd does not count the exit as a crash in progress)."""
        return self.send(STOPPING=1)

    def watchdog_timeout(self) -> float | None:
        """The unit's ``WatchdogSec`` in seconds if it applies to this process, else None."""
        usec = self._env.get("WATCHDOG_USEC")
        if not usec:
            return None
        pid = self._env.get("WATCHDOG_PID")
        if pid and int(pid) != os.getpid():
            return None  # meant for the process that started us, not for us
        seconds = int(usec) / 1_000_000
        return seconds if seconds > 0 else None
