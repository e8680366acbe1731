"""Cross-check with an independent implementation: adafruit-circuitpython-pn532.

(a) frames we build decode with Adafruit's frame reader, and frames Adafruit builds
decode with ours; (b) Adafruit's UART driver, on a plain pyserial port, talks to OUR
simulated PN532 over a real pseudo-terminal and reads our tags.
"""

from __future__ import annotations

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("adafruit_pn532")  # a test dependency (pyproject [test])

from adafruit_pn532.adafruit_pn532 import _ACK, PN532  # noqa: E402
from adafruit_pn532.uart import PN532_UART  # noqa: E402

from controller.readers.pn532_frames import (  # noqa: E402
    ACK,
    HOST_TO_PN532,
    PN532_TO_HOST,
    FrameDecoder,
    FrameKind,
    build_command,
    build_frame,
)
from controller.readers.pn532_sim import SimFault, SimulatedPn532  # noqa: E402


class _Replay(PN532):
    """Adafruit's frame logic with bytes we hand it instead of a bus.

    Built without ``__init__`` (which would talk to a chip): only the frame methods
    are used, and they need nothing but ``debug`` and the two data hooks.
    """

    def __new__(cls, incoming: bytes = b""):
        self = object.__new__(cls)
        self.debug = False
        self.incoming = incoming
        self.written = b""
        return self

    def __init__(self, *args, **kwargs):  # never talk to hardware
        pass

    def _read_data(self, count):
        return self.incoming[:count]

    def _write_data(self, framebytes):
        self.written = bytes(framebytes)


def test_our_ack_is_adafruits_ack():
    assert ACK == _ACK


@settings(max_examples=300, deadline=None)
@given(
    tfi=st.sampled_from([HOST_TO_PN532, PN532_TO_HOST]), data=st.binary(min_size=1, max_size=250)
)
def test_frames_we_build_decode_with_adafruit(tfi, data):
    raw = build_frame(tfi, data)
    body = _Replay(raw)._read_frame(len(data) + 1)
    assert bytes(body) == bytes([tfi]) + data


@settings(max_examples=300, deadline=None)
@given(
    tfi=st.sampled_from([HOST_TO_PN532, PN532_TO_HOST]), data=st.binary(min_size=1, max_size=250)
)
def test_frames_adafruit_builds_decode_with_ours(tfi, data):
    replay = _Replay()
    replay._write_frame(bytearray([tfi]) + data)
    events = FrameDecoder().feed(replay.written)
    assert len(events) == 1
    (frame,) = events
    assert (frame.kind, frame.tfi, frame.data) == (FrameKind.INFO, tfi, data)


def test_adafruit_command_frames_are_ours_byte_for_byte():
    replay = _Replay()
    replay._write_frame(bytearray([HOST_TO_PN532, 0x4A, 0x01, 0x00]))
    assert replay.written == build_command(0x4A, b"\x01\x00")


# ------------------------------------------------------------------ over the pty


@pytest.fixture
def sim():
    with SimulatedPn532() as chip:
        yield chip


@pytest.fixture
def adafruit(sim):
    port = serial.Serial(sim.port, baudrate=115200, timeout=0.1)
    try:
        yield PN532_UART(port)  # wakes the chip and configures it, as on a Pi
    finally:
        port.close()


def test_adafruit_wakes_our_simulator_and_reads_its_firmware(sim, adafruit):
    assert sim.wakeups == 1 and sim.sam_configured
    assert adafruit.firmware_version == (0x32, 0x01, 0x06, 0x07)


@pytest.mark.parametrize("uid", ["04A1B2C3", "04112233445566"])
def test_adafruit_reads_the_tag_we_place(sim, adafruit, uid):
    sim.place(uid)
    got = adafruit.read_passive_target(timeout=1)
    assert got is not None and bytes(got).hex().upper() == uid


def test_adafruit_sees_no_tag_on_an_empty_simulator(sim, adafruit):
    assert adafruit.read_passive_target(timeout=0.2) is None
    assert sim.waiting  # Adafruit leaves retries at "for ever": the command still waits
    sim.place("DEADBEEF")
    # ...and is answered now, late, as a real PN532 would; Adafruit's next command
    # flushes that stale answer before it writes, once it has arrived.
    assert sim.wait_for(lambda: sim.reads_of("DEADBEEF") == 1)
    assert bytes(adafruit.read_passive_target(timeout=1)) == bytes.fromhex("DEADBEEF")


def test_adafruit_also_rejects_the_checksums_our_simulator_breaks(sim, adafruit):
    sim.place("04A1B2C3")
    sim.inject(SimFault.BAD_DCS)
    with pytest.raises(RuntimeError, match="checksum"):
        adafruit.read_passive_target(timeout=1)
