"""Finding the reader hub again when it comes back under another device name.

A Pico that is unplugged and plugged back, or re-enumerated after a reset, may come
back as ``/dev/ttyACM1`` instead of ``/dev/ttyACM0``. The udev rule
(hardware/99-courtpiece-hub.rules) gives it the stable name ``/dev/courtpiece-hub``;
this module is the fallback when that name is not there (no rule installed, a config
naming ``/dev/ttyACM0``): when the driver cannot reopen the hub's port it looks at the
other serial ports and takes the first that speaks the hub protocol.

Why "speaks the protocol" and not "answers HELLO": the hub talks unasked (the host's
one command, ZONES, is not a question, and older firmware reads none). The hub sends a heartbeat every second (and HELLO when it boots
and every 10 s), each line with a CRC-16, so one good line within ``timeout`` seconds
tells the hub from a modem, an Arduino or a PN532 adapter, which say nothing in it.
The bytes read while probing are handed back so no line is lost to the probe.
"""

from __future__ import annotations

import glob
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import serial

from controller.readers.hub_framing import LineAssembler
from controller.readers.hub_protocol import HubLineError, decode_line

log = logging.getLogger(__name__)

#: Where a hub may turn up on a Pi: the udev rule's name, then every USB CDC serial
#: port (a Pico is always one). Not /dev/serial/by-id/*: that also lists USB-serial
#: adapters (ttyUSB), which may be a PN532 or RDM6300 in use, and a probe reading one
#: for 2.5 s would steal its answers.
DEFAULT_SEARCH = ("/dev/courtpiece-hub", "/dev/ttyACM*")

PortOpener = Callable[[str], Any]


@dataclass(frozen=True, slots=True)
class FoundHub:
    """A port that spoke the hub protocol, still open, and what was read from it."""

    path: str
    port: Any
    pending: bytes


def candidate_ports(patterns: Iterable[str], skip: Iterable[str] = ()) -> list[str]:
    """Paths matching ``patterns`` in order, each device once (links resolved).

    ``skip``: paths already tried; a link to one of them is skipped too.
    """
    seen = {os.path.realpath(p) for p in skip}
    out: list[str] = []
    for pattern in patterns:
        for path in sorted(glob.glob(pattern)):
            real = os.path.realpath(path)
            if real not in seen:
                seen.add(real)
                out.append(path)
    return out


def speaks_hub_protocol(assembler: LineAssembler, data: bytes) -> bool:
    """Whether ``data`` completes at least one good hub line."""
    for fragment in assembler.feed(data):
        try:
            decode_line(fragment)
        except HubLineError:
            continue
        return True
    return False


def probe(
    path: str,
    open_port: PortOpener,
    timeout: float,
    stop: threading.Event | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> FoundHub | None:
    """Open ``path`` and listen up to ``timeout`` s for a good line; the open port or None.

    ``open_port`` must give a port whose ``read`` returns after a short time-out even
    when nothing arrives (the driver's ``poll_interval``).
    """
    try:
        port = open_port(path)
    except (serial.SerialException, OSError, ValueError):
        return None
    assembler = LineAssembler()
    data = bytearray()
    deadline = clock() + timeout
    try:
        while clock() < deadline and not (stop is not None and stop.is_set()):
            chunk = port.read(max(1, port.in_waiting or 0))
            if chunk:
                data += chunk
                if speaks_hub_protocol(assembler, chunk):
                    return FoundHub(path, port, bytes(data))
    except (serial.SerialException, OSError):
        pass
    try:
        port.close()
    except Exception:  # noqa: BLE001 - a port that failed mid-probe may be gone already
        pass
    return None


def find_hub(
    patterns: Iterable[str],
    open_port: PortOpener,
    *,
    skip: Iterable[str] = (),
    timeout: float = 2.5,
    stop: threading.Event | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> FoundHub | None:
    """Probe every candidate port in turn; the first that speaks the protocol, or None."""
    for path in candidate_ports(patterns, skip):
        if stop is not None and stop.is_set():
            return None
        found = probe(path, open_port, timeout, stop, clock)
        if found is not None:
            log.warning("reader hub found at %s", path)
            return found
    return None
