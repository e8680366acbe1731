"""sd_notify over a real unix datagram socket, standing in for systemd's end."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.sdnotify import Notifier

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(10)
    yield sock, str(path)
    sock.close()


def received(sock: socket.socket) -> dict[str, str]:
    data = sock.recv(4096).decode()
    return dict(line.split("=", 1) for line in data.split("\n"))


def test_ready_watchdog_status_and_stopping_reach_the_socket(
    listener: tuple[socket.socket, str],
) -> None:
    sock, path = listener
    notifier = Notifier(env={"NOTIFY_SOCKET": path})
    assert notifier.enabled
    assert notifier.ready("journal replayed, 42 inputs")
    assert received(sock) == {"READY": "1", "STATUS": "journal replayed, 42 inputs"}
    assert notifier.watchdog()
    assert received(sock) == {"WATCHDOG": "1"}
    assert notifier.status("hub on /dev/ttyACM0")
    assert received(sock) == {"STATUS": "hub on /dev/ttyACM0"}
    assert notifier.stopping()
    assert received(sock) == {"STOPPING": "1"}


def test_abstract_socket_address() -> None:
    name = f"courtpiece-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(10)
        Notifier(env={"NOTIFY_SOCKET": "@" + name}).ready()
        assert sock.recv(4096) == b"READY=1"


def test_a_child_process_finds_the_socket_in_its_environment(
    listener: tuple[socket.socket, str],
) -> None:
    sock, path = listener
    code = "from controller.sdnotify import Notifier; Notifier().ready('child')"
    env = {**os.environ, "NOTIFY_SOCKET": path, "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    assert received(sock) == {"READY": "1", "STATUS": "child"}


def test_without_systemd_every_call_is_a_no_op() -> None:
    notifier = Notifier(env={})
    assert not notifier.enabled
    assert notifier.ready() is False
    assert notifier.watchdog() is False
    assert notifier.watchdog_timeout() is None


def test_a_vanished_socket_is_an_error_not_silence(tmp_path: Path) -> None:
    notifier = Notifier(env={"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})
    with pytest.raises(OSError):
        notifier.watchdog()


def test_bad_addresses_and_values_are_refused(listener: tuple[socket.socket, str]) -> None:
    with pytest.raises(ValueError, match="unsupported"):
        Notifier(env={"NOTIFY_SOCKET": "vsock:2:1234"})
    notifier = Notifier(env={"NOTIFY_SOCKET": listener[1]})
    with pytest.raises(ValueError):
        notifier.status("two\nlines")
    with pytest.raises(ValueError):
        notifier.send()


def test_watchdog_timeout_follows_the_environment() -> None:
    me = str(os.getpid())
    assert Notifier(env={"WATCHDOG_USEC": "30000000"}).watchdog_timeout() == 30.0
    assert Notifier(env={"WATCHDOG_USEC": "5000000", "WATCHDOG_PID": me}).watchdog_timeout() == 5.0
    assert (
        Notifier(env={"WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "1"}).watchdog_timeout() is None
    )
    assert Notifier(env={"WATCHDOG_USEC": "0"}).watchdog_timeout() is None
