"""A hub that comes back but cannot be opened is reported, not lost in the outage.

Unplugged, the device is simply absent: one "hub disconnected" fault covers that.
But a hub that reappears and cannot be opened (permission denied, the process out of
file handles) needs a person, so each such kind of failure is reported once.
"""

from __future__ import annotations

import errno
import os
import threading

import serial

from controller.readers.hub import HubConfig, HubDriver, open_failure_kind, open_serial
from controller.readers.virtual_hub import VirtualHub
from tests.readers.test_hub_driver import WAIT, Collector, wait_until


class FailingOpen:
    """``open_serial``, except that it raises ``failure`` while one is set and the
    device is there (an absent device is absent, whatever else is wrong).

    ``gate`` is held for the whole of each open: a test holds it to plug the hub back
    in, so no open that began before (and saw no failure yet) can finish on the new
    device. (Without it, under load, an open begun while the hub was unplugged once
    found the device back and opened it, and the failure was never met.)"""

    def __init__(self) -> None:
        self.failure: Exception | None = None
        self.attempts = 0
        self.gate = threading.Lock()

    def __call__(self, config: HubConfig) -> object:
        with self.gate:
            self.attempts += 1
            if self.failure is not None and os.path.exists(config.port):
                raise self.failure
            return open_serial(config)


def failure(code: int) -> serial.SerialException:
    return serial.SerialException(
        code, f"could not open port: [Errno {code}] {errno.errorcode[code]}"
    )


def test_kinds_of_open_failure() -> None:
    assert open_failure_kind(failure(errno.ENOENT)) == "absent"
    assert open_failure_kind(FileNotFoundError(errno.ENOENT, "x")) == "absent"
    assert open_failure_kind(failure(errno.EACCES)) == "EACCES"
    assert open_failure_kind(ValueError("bad URL")) == "bad URL"


def test_permission_and_file_handle_failures_after_a_disconnect_are_reported(tmp_path) -> None:  # type: ignore[no-untyped-def]
    opener = FailingOpen()
    got = Collector()
    with VirtualHub(
        link_path=tmp_path / "hub", heartbeat_interval=0.2, repeat_interval=None
    ) as hub:
        config = HubConfig(
            port=hub.port,
            removal_silence=None,
            heartbeat_timeout=None,
            reconnect_initial=0.01,
            reconnect_max=0.05,
        )
        driver = HubDriver(config, got, serial_factory=opener).start()
        try:
            assert hub.wait_host(WAIT)
            hub.unplug()
            got.wait_fault("hub disconnected")
            opener.failure = failure(errno.EACCES)
            with opener.gate:
                hub.replug()
            got.wait_fault("EACCES")
            tries = opener.attempts
            wait_until(lambda: opener.attempts >= tries + 3)
            opener.failure = failure(errno.EMFILE)
            got.wait_fault("EMFILE")
            opener.failure = None
            hub.place("seat0", "0A0B0C0D")
            got.wait_seen("seat0", "0A0B0C0D")
        finally:
            driver.stop()
    opens = [f.message for f in got.faults("cannot open")]
    assert len(opens) == 2  # each kind once, however often it was tried
    assert "EACCES" in opens[0] and "EMFILE" in opens[1]
