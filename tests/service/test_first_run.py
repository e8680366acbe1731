"""A first run on a laptop (issue 13): the simulator explains itself, says plainly when
its port is taken, and leaves no temporary folders behind; pages answer HEAD."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.cli import build_parser
from controller.referee.referee import Referee
from controller.web.app import create_app

CLI = [sys.executable, "-m", "controller.cli"]


def test_every_simulate_switch_says_what_it_does() -> None:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    simulate = sub.choices["simulate"]
    bare = [a.option_strings for a in simulate._actions if a.option_strings and a.dest != "help" and not a.help]
    assert bare == []
    text = " ".join(simulate.format_help().split())
    assert "(default: 8000)" in text and "(default: 1.0)" in text


def test_a_busy_port_is_one_line_before_anything_starts(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        out = subprocess.run(CLI + ["simulate", "--port", str(port), "--state-dir", str(tmp_path / "state")],
                             capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and f"127.0.0.1:{port}" in lines[0] and "--port" in lines[0]
    assert not (tmp_path / "state").exists()  # nothing was started


def test_a_run_without_a_state_dir_leaves_no_folder_behind(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    out = subprocess.run(CLI + ["simulate", "--no-web", "--quiet", "--speed", "2000", "--hands", "1", "--seed", "5"],
                         capture_output=True, text=True, timeout=240, env=env)
    assert out.returncode == 0, out.stderr
    assert list(tmp_path.iterdir()) == []


def test_pages_answer_head_like_get(tmp_path: Path) -> None:
    app = create_app(Referee(), admin_pin="4321", state_dir=tmp_path)
    with TestClient(app) as c:
        for path in ("/", "/table"):
            got, head = c.get(path), c.head(path)
            assert head.status_code == got.status_code == 200
            assert head.headers["content-type"] == got.headers["content-type"]
            assert head.content == b""


@pytest.mark.parametrize("web", [False, True], ids=["terminal", "dashboard"])
def test_a_run_stopped_by_sigterm_leaves_no_folder_behind(tmp_path: Path, web: bool) -> None:
    """A terminal closing or `timeout` sends SIGTERM, not Ctrl-C: the run still cleans up."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    extra = ["--port", str(port)] if web else ["--no-web"]
    proc = subprocess.Popen(CLI + ["simulate", "--speed", "1", "--seed", "5", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # bounded by the process: it prints this line at start
            if line.startswith("simulated table:"):
                break
        assert any(tmp_path.iterdir())  # the journal folder exists while it runs
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert list(tmp_path.iterdir()) == []
