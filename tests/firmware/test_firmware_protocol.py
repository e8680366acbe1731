"""The firmware's encoder against the host's decoder: what the hub says, the host reads."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.readers import hub_protocol as host
from controller.readers.sightings import ALL_ZONES
from firmware import hubproto

FIRMWARE = Path(hubproto.__file__).parent


def writer() -> tuple[hubproto.LineWriter, list[bytes]]:
    lines: list[bytes] = []
    return hubproto.LineWriter(lines.append), lines


def decode(line: bytes) -> host.HubMessage:
    assert line.endswith(b"\n")
    return host.decode_line(line[:-1])


def test_same_crc_as_the_host() -> None:
    assert hubproto.crc16(b"123456789") == 0x29B1
    for data in (b"", b"TAG 0 seat0 DEADBEEF", bytes(range(256))):
        assert hubproto.crc16(data) == host.crc16(data)


@given(st.binary(max_size=200))
def test_crc_agrees_on_any_bytes(data: bytes) -> None:
    assert hubproto.crc16(data) == host.crc16(data)


def test_every_message_kind_round_trips_with_running_sequence() -> None:
    w, lines = writer()
    w.hello("1.0.0", list(ALL_ZONES), 1000, 500)
    w.tag("seat1", bytes.fromhex("04a1b2c3d4e5f6"))
    w.gone("seat1", "04A1B2C3D4E5F6")
    w.heartbeat(42)
    w.fault("trump", "noresp", "reader not responding")
    w.fault(None, "spi")
    w.recover("trump")
    assert [decode(line) for line in lines] == [
        host.Hello(0, "1.0.0", ALL_ZONES, heartbeat_ms=1000, repeat_ms=500),
        host.TagRead(1, "seat1", "04A1B2C3D4E5F6"),
        host.TagGone(2, "seat1", "04A1B2C3D4E5F6"),
        host.Heartbeat(3, 42),
        host.Fault(4, "trump", "noresp", "reader not responding"),
        host.Fault(5, None, "spi"),
        host.Recover(6, "trump"),
    ]


def test_byte_identical_to_the_host_encoder() -> None:
    w, lines = writer()
    w.tag("deal", b"\xde\xad\xbe\xef")
    assert lines == [host.encode(host.TagRead(0, "deal", "DEADBEEF"))]


def test_sequence_wraps_like_the_host_expects() -> None:
    lines: list[bytes] = []
    w = hubproto.LineWriter(lines.append, seq=65535)
    w.heartbeat(1)
    w.heartbeat(2)
    assert [decode(line).seq for line in lines] == [65535, 0]


@given(st.text(max_size=200))
def test_any_fault_detail_still_gives_a_good_line(detail: str) -> None:
    w, lines = writer()
    w.fault("seat0", "io", detail)
    msg = decode(lines[0])
    assert isinstance(msg, host.Fault) and len(msg.detail) <= host.MAX_DETAIL


@given(
    st.sampled_from(ALL_ZONES),
    st.binary(min_size=4, max_size=10),
    st.integers(0, 65535),
)
def test_any_tag_read_round_trips(zone: str, uid: bytes, seq: int) -> None:
    lines: list[bytes] = []
    hubproto.LineWriter(lines.append, seq=seq).tag(zone, uid)
    assert decode(lines[0]) == host.TagRead(seq, zone, uid.hex().upper())


MODULES = ["hubproto.py", "poller.py", "rc522.py", "pn532.py", "config.py", "board.py", "main.py"]


@pytest.mark.parametrize("name", MODULES)
def test_firmware_stays_in_the_micropython_subset(name: str) -> None:
    """No dataclasses, typing, f-string '=', walrus, match or annotations on the Pico."""
    source = (FIRMWARE / name).read_text()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names]
            module = getattr(node, "module", None) or ""
            assert not {"dataclasses", "typing", "enum", "abc"} & {module, *names}, name
            assert node.level == 0 if isinstance(node, ast.ImportFrom) else True, name
        assert not isinstance(node, ast.NamedExpr | ast.Match | ast.AnnAssign), name
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None and all(a.annotation is None for a in node.args.args), name
        if isinstance(node, ast.JoinedStr):
            text = ast.get_source_segment(source, node) or ""
            assert not re.search(r"=\s*(![rsa])?(:[^{}]*)?}", text), f"{name}: {text}"


@pytest.mark.parametrize("name", ["hubproto.py", "poller.py", "rc522.py", "pn532.py", "config.py"])
def test_plain_modules_do_not_touch_machine(name: str) -> None:
    tree = ast.parse((FIRMWARE / name).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert all(a.name not in {"machine", "rp2", "time", "utime"} for a in node.names)
        if isinstance(node, ast.ImportFrom):
            assert node.module not in {"machine", "rp2", "time", "utime"}
