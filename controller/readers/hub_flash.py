"""Putting the hub firmware on a Pico with ``mpremote``, then hearing it say HELLO.

Two jobs that a person would otherwise do by hand from firmware/README.md: build the
one ``mpremote`` command line that copies the firmware files and resets the board,
and, once it rebooted, wait for the hub's HELLO through the real hub driver. The
command line is built by a pure function so the tests check it without a Pico; the
HELLO check is tested against the virtual hub.

Why mpremote: it is MicroPython's own tool for exactly this (copy files over the
USB serial REPL, reset), maintained with MicroPython itself. It is the ``hub`` extra
of the project and ``hardware/install.sh`` puts it in the project's own environment,
so Bookworm's externally managed system Python is never touched.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import serial

from controller.readers.hub import HubConfig, HubDriver
from controller.readers.hub_protocol import Hello

#: The files the Pico runs (firmware/README.md, "Flashing"); main.py imports the rest.
FIRMWARE_FILES = (
    "hubproto.py",
    "poller.py",
    "rc522.py",
    "pn532.py",
    "config.py",
    "board.py",
    "main.py",
)


class FlashError(Exception):
    """Flashing or the check after it failed; the message says what to do."""


@dataclass(frozen=True, slots=True)
class HubAnswer:
    """What the hub said after flashing: its HELLO and the readers it reported broken."""

    port: str
    hello: Hello
    faulty: dict[str | None, str]  # zone (None: the hub itself) -> FAULT code

    def text(self) -> str:
        readers = ", ".join(self.hello.zones)
        line = f"hub at {self.port}: firmware {self.hello.firmware}, protocol {self.hello.proto}, readers {readers}"
        if self.faulty:
            broken = ", ".join(f"{zone or 'hub'} ({code})" for zone, code in self.faulty.items())
            line += f"; not answering: {broken}"
        return line


def firmware_dir() -> Path:
    """The firmware folder of this installation (a checkout or the installed package)."""
    return Path(str(resources.files("firmware")))


def find_mpremote() -> str | None:
    """mpremote from the project's own environment first, else from the PATH."""
    beside = Path(sys.executable).parent / "mpremote"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("mpremote")


def flash_command(
    mpremote: str, port: str, firmware: Path, board_config: Path | None = None
) -> list[str]:
    """The one mpremote invocation: copy the firmware, the board's config, then reset.

    mpremote interrupts the running ``main.py`` (Ctrl-C) before copying, so a hub that
    is already running is re-flashed without pressing a button. ``board_config`` is a
    config.py edited for this board, copied in place of the stock one.
    """
    files = [f for f in FIRMWARE_FILES if not (board_config is not None and f == "config.py")]
    cmd = [mpremote, "connect", port, "cp", *(str(firmware / f) for f in files), ":"]
    if board_config is not None:
        cmd += ["+", "cp", str(board_config), ":config.py"]
    return cmd + ["+", "reset"]


def check_port_free(port: str) -> None:
    """Refuse a port that is missing or held by the referee service, saying which."""
    try:
        serial.Serial(port, exclusive=True).close()
    except serial.SerialException as err:
        if "lock" in str(err):
            raise FlashError(
                f"{port} is in use, most likely by the referee service: "
                "sudo systemctl stop courtpiece, flash, then start it again"
            ) from err
        raise FlashError(f"cannot open {port}: {err}") from err


def wait_for_hello(
    port: str, timeout: float, search: Sequence[str] = (), settle: float = 0.3
) -> HubAnswer:
    """Read the hub through the real driver until its HELLO arrives; FlashError if not.

    The firmware says HELLO at boot and every 10 s; the boot one is usually lost while
    the Pico re-enumerates after its reset, so ``timeout`` should exceed 10 s. After the
    HELLO the driver listens ``settle`` s more for FAULT lines about broken readers.
    """
    config = HubConfig(
        port=port,
        source="hub-flash",
        removal_silence=None,
        heartbeat_timeout=None,
        search=tuple(search),
    )
    driver = HubDriver(config).start()
    try:
        deadline = time.monotonic() + timeout
        while driver.hello is None:
            if time.monotonic() > deadline:
                raise FlashError(
                    f"no HELLO from a hub at {driver.port} within {timeout:g} s: is the "
                    "firmware on it (courtpiece hub flash) and the USB cable a data cable?"
                )
            time.sleep(0.05)
        hello = driver.hello
        time.sleep(settle)
        faulty = dict(driver.status().faulty)
        return HubAnswer(driver.port, hello, faulty)
    finally:
        driver.stop()
