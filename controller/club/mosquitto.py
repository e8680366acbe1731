"""Run a local Mosquitto on loopback: for tests, the bench and a one-laptop club night.

Kept in the package (not only in tests) so the bench and an organiser trying things on a
laptop start the broker exactly the way the tests do.
"""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from dataclasses import replace
from pathlib import Path

from controller.club.broker_files import BrokerSetup, write_broker_files


def mosquitto_binary() -> str | None:
    """Debian puts the broker in /usr/sbin, which an ordinary user's PATH may lack."""
    return shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    """A broker process with generated files in ``folder``; ``start``/``kill``/``stop``."""

    def __init__(self, folder: Path, *, prefix: str, tables: dict[str, str], scoreboard_password: str,
                 port: int | None = None, tls: BrokerSetup | None = None) -> None:
        """``tls``: a setup whose TLS fields (files, ``require_certificate``) the listener takes."""
        binary = mosquitto_binary()
        if binary is None:
            raise FileNotFoundError("mosquitto is not installed (Debian: apt-get install mosquitto)")
        self.binary = binary
        self.port = port or free_port()
        self.folder = folder
        self.conf = write_broker_files(folder, prefix=prefix, tables=tables,
                                       scoreboard_password=scoreboard_password,
                                       setup=replace(tls or BrokerSetup(), host="127.0.0.1", port=self.port,
                                                     user=getpass.getuser()))
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = folder / "mosquitto.log"

    def start(self, timeout: float = 10.0) -> Mosquitto:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen([self.binary, "-c", str(self.conf)], stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited ({self.proc.returncode}): {self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"mosquitto did not listen on port {self.port} within {timeout} s")

    def kill(self) -> None:
        """SIGKILL, as a power cut would: nothing is saved on the way down."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
