"""Finding the hub again under another device name: real ptys, the real driver.

A silent or chattering pty stands for another USB serial device (a modem, an Arduino);
the virtual hub comes back from an unplug at a new path, as a Pico re-enumerated as
ttyACM2 would. No test asserts how long anything took.
"""

from __future__ import annotations

import contextlib
import os
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from controller.readers.hub import HubConfig, HubDriver
from controller.readers.hub_finder import candidate_ports, find_hub, probe
from controller.readers.hub_protocol import Hello, decode_line
from controller.readers.virtual_hub import VirtualHub
from tests.readers.test_hub_driver import WAIT, Collector, wait_until


@contextlib.contextmanager
def other_device(link: Path, says: bytes = b"") -> Iterator[int]:
    """A serial device that is not a hub: a pty at ``link`` that says ``says``."""
    master, slave = os.openpty()
    tty.setraw(slave)
    link.symlink_to(os.ttyname(slave))
    os.close(slave)
    try:
        if says:
            os.write(master, says)
        yield master
    finally:
        link.unlink()
        os.close(master)


def open_port(path: str) -> serial.Serial:
    return serial.serial_for_url(path, baudrate=115200, timeout=0.05)


def test_candidates_in_pattern_order_each_device_once(tmp_path: Path) -> None:
    for name in ("ttyACM1", "ttyACM0", "ttyACM2"):
        (tmp_path / name).touch()
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    (by_id / "usb-MicroPython_Board_in_FS_mode_e6614c-if00").symlink_to(tmp_path / "ttyACM2")
    found = candidate_ports(
        [str(by_id / "*"), str(tmp_path / "ttyACM*")], skip=[str(tmp_path / "ttyACM0")]
    )
    assert found == [str(by_id / "usb-MicroPython_Board_in_FS_mode_e6614c-if00"), str(tmp_path / "ttyACM1")]


def test_probe_takes_the_hub_and_hands_back_what_it_read(tmp_path: Path) -> None:
    with VirtualHub(link_path=tmp_path / "ttyACM3", hello_interval=None) as hub:
        found = probe(hub.port, open_port, timeout=WAIT)
        assert found is not None and found.path == hub.port
        try:
            first = found.pending.split(b"\n")[0]
            assert isinstance(decode_line(first), Hello)  # the greeting is not lost
        finally:
            found.port.close()


def test_probe_refuses_a_device_that_does_not_speak_the_protocol(tmp_path: Path) -> None:
    junk = b"AT\r\nOK\r\n$TAG 1 seat0 DEADBEEF*0000\n"  # even a line with a bad checksum
    with other_device(tmp_path / "ttyACM0", junk):
        assert probe(str(tmp_path / "ttyACM0"), open_port, timeout=0.3) is None
    assert probe(str(tmp_path / "ttyACM9"), open_port, timeout=0.3) is None  # no such port


def test_find_hub_skips_other_devices(tmp_path: Path) -> None:
    with (
        other_device(tmp_path / "ttyACM0", b"hello from an arduino\r\n"),
        VirtualHub(link_path=tmp_path / "ttyACM1", hello_interval=None) as hub,
    ):
        found = find_hub([str(tmp_path / "ttyACM*")], open_port, timeout=WAIT / 10)
        assert found is not None and found.path == hub.port
        found.port.close()


@pytest.mark.parametrize("search", [True, False])
def test_driver_finds_the_hub_back_under_another_name(tmp_path: Path, search: bool) -> None:
    hub = VirtualHub(
        link_path=tmp_path / "ttyACM0", heartbeat_interval=0.2, repeat_interval=None
    ).start()
    got = Collector()
    config = HubConfig(
        port=hub.port,
        removal_silence=None,
        heartbeat_timeout=None,
        reconnect_initial=0.01,
        reconnect_max=0.1,
        search=(str(tmp_path / "ttyACM*"),) if search else (),
        probe_timeout=0.3,
    )
    driver = HubDriver(config, got).start()
    try:
        assert hub.wait_host(WAIT)
        hub.place("seat0", "00000001")
        got.wait_seen("seat0", "00000001")
        with other_device(tmp_path / "ttyACM1", b"OK\r\n"):
            hub.unplug()
            got.wait_fault("hub disconnected")
            hub.port = str(tmp_path / "ttyACM2")  # re-enumerated under another number
            hub.place("seat1", "00000002")  # put down while it was away
            hub.replug()
            if not search:
                wait_until(lambda: driver.stats().open_failures >= 3)
                assert not hub.host_open and driver.port == str(tmp_path / "ttyACM0")
                return
            assert hub.wait_host(WAIT)
            got.wait_seen("seat1", "00000002")
        assert driver.port == str(tmp_path / "ttyACM2")
        hub.place("deal", "00000003")  # and it carries on there
        got.wait_seen("deal", "00000003")
        assert sorted(got.sightings()) == [
            ("deal", "00000003"),
            ("seat0", "00000001"),
            ("seat1", "00000002"),
        ]
    finally:
        driver.stop()
        hub.stop()
