"""The real dashboard server in a child process on loopback, for attacks from a test.

Why a child process: the attacks are measured from outside, as the Pi would feel them:
its peak memory (``VmHWM``), bytes it wrote (``/proc/PID/io``), its open files, and
its log (stderr). The child runs :func:`controller.runtime.serve_web`, the very path
``courtpiece run`` takes, with limits the test chooses (lowered to keep tests small).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
PIN = "271828"

CHILD = r"""
import json, resource, sys, threading
opts = json.loads(sys.argv[1])
if opts.get("nofile"):
    resource.setrlimit(resource.RLIMIT_NOFILE, (opts["nofile"], opts["nofile"]))
from controller.referee.referee import Referee
from controller.runtime import serve_web
from controller.web.app import create_app
from controller.web.server import WebLimits
app = create_app(Referee(), admin_pin=opts["pin"])
limits = WebLimits(**{k: tuple(v) if isinstance(v, list) else v for k, v in opts["limits"].items()})
serve_web(app, "127.0.0.1", opts["port"], threading.Event(), limits)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_status(pid: int, key: str) -> int:
    """A ``/proc/PID/status`` figure in kB (``VmHWM``: peak resident memory)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


def bytes_written(pid: int) -> int:
    """Bytes the process has passed to write() so far (files, including spooled uploads)."""
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise KeyError("wchar")


class GuardedServer:
    """``with GuardedServer(limits={...}) as srv:`` then ``srv.url``, ``srv.pid``, ``srv.log()``."""

    def __init__(self, tmp: Path, *, limits: dict[str, Any] | None = None, nofile: int | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / f"server-{self.port}.log"
        self._opts = {"port": self.port, "pin": PIN, "limits": limits or {}, "nofile": nofile}
        self._proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> GuardedServer:
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in __exit__
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self._proc = subprocess.Popen([sys.executable, "-c", CHILD, json.dumps(self._opts)], cwd=REPO,
                                      stdout=self._log, stderr=subprocess.STDOUT, env=env)
        for _ in range(300):  # up to ~30 s on a busy machine
            if self._proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def __exit__(self, *exc: object) -> None:
        assert self._proc is not None
        self._proc.terminate()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._log.close()

    @property
    def pid(self) -> int:
        assert self._proc is not None
        return self._proc.pid

    def open_files(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")
