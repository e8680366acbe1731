"""systemd's side: READY=1 once the dashboard answers; the watchdog fed only while the
referee and the web loop both answer."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

from controller.health import Liveness, web_answers
from controller.referee.referee import Referee

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_ready_is_sent_once_the_dashboard_accepts_connections(tmp_path: Path) -> None:
    port = free_port()
    notify = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.settimeout(60)
    cfg = tmp_path / "table.toml"
    cfg.write_text(f'[table]\nstate_dir = "{tmp_path}"\n[hub]\nenabled = false\n'
                   f'[web]\nport = {port}\n')
    env = {**os.environ, "NOTIFY_SOCKET": str(notify), "WATCHDOG_USEC": "600000", "WATCHDOG_PID": "",
           "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(cfg)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO)
    try:
        messages: list[str] = []
        while not any("READY=1" in m for m in messages):
            messages.append(sock.recv(4096).decode())
        # The moment READY arrives, the kiosk may load the page: it must be served.
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/api/state")
        assert conn.getresponse().status == 200
        conn.close()
        while not any("WATCHDOG=1" in m for m in messages):
            messages.append(sock.recv(4096).decode())
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
        sock.close()
    assert proc.returncode == 0, out


def test_a_referee_lock_held_stops_the_watchdog() -> None:
    referee = Referee()
    live = Liveness(referee, None, timeout=0.2)
    assert live.check() is None
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with referee._lock:  # a reader thread wedged inside the referee
            held.set()
            release.wait(30)

    t = threading.Thread(target=hold)
    t.start()
    held.wait(30)
    try:
        problem = live.check()
        assert problem is not None and "referee" in problem
    finally:
        release.set()
        t.join(30)
    assert live.check() is None


def test_a_web_loop_that_does_not_answer_stops_the_watchdog() -> None:
    # A listening socket nobody serves: connections are accepted by the kernel, and
    # the request is never answered -- what a stuck event loop looks like from outside.
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        port = server.getsockname()[1]
        assert web_answers("127.0.0.1", port, timeout=0.3) is False
        problem = Liveness(Referee(), ("127.0.0.1", port), timeout=0.3).check()
        assert problem is not None and "dashboard" in problem
    assert web_answers("127.0.0.1", port, timeout=0.3) is False  # nothing there at all
