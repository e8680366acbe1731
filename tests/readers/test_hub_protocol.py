"""The hub line codec: every message round-trips, every bad line has its own error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.readers.hub_framing import LineAssembler
from controller.readers.hub_protocol import (
    MAX_LINE,
    SEQ_MODULUS,
    BadLineKind,
    ChecksumMismatch,
    EmptyLine,
    Fault,
    Heartbeat,
    Hello,
    LineTooLong,
    MalformedMessage,
    NoStartMarker,
    NotAscii,
    Recover,
    TagGone,
    TagRead,
    TruncatedLine,
    UnknownMessage,
    crc16,
    decode_line,
    encode,
    frame,
    split_fragments,
)
from controller.readers.sightings import ALL_ZONES

MESSAGES = [
    Hello(0, "1.0.0", ALL_ZONES, heartbeat_ms=1000, repeat_ms=500),
    Hello(9, "virtual-2.1", ("seat0",)),
    TagRead(17, "seat2", "04A1B2C3D4E5F6"),
    TagRead(SEQ_MODULUS - 1, "trump", "DEADBEEF"),
    TagGone(18, "deal", "0102030405060708090A"),
    Heartbeat(3, 86400),
    Fault(4, "seat1", "noresp", "reader not responding"),
    Fault(5, None, "spi"),
    Recover(6, "seat1"),
    Recover(7, None),
]


@pytest.mark.parametrize("msg", MESSAGES, ids=lambda m: type(m).__name__)
def test_round_trip(msg: object) -> None:
    line = encode(msg)  # type: ignore[arg-type]
    assert line.endswith(b"\n") and line.startswith(b"$")
    assert decode_line(line[:-1]) == msg
    assert decode_line(line[:-1] + b"\r") == msg


def test_crc_is_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1  # the published check value


def test_known_line_decodes() -> None:
    # Written out by hand from the spec, so the encoder is not checking itself.
    body = b"TAG 17 seat2 04A1B2C3D4E5F6"
    line = b"$" + body + b"*" + f"{crc16(body):04X}".encode()
    assert decode_line(line) == TagRead(17, "seat2", "04A1B2C3D4E5F6")


def _good(body: bytes) -> bytes:
    return frame(body)[:-1]


BAD_LINES = [
    (b"", EmptyLine),
    (b"\r", EmptyLine),
    (b"HB 1 2*ABCD", NoStartMarker),
    (b"$" + b"A" * MAX_LINE, LineTooLong),
    (b"$HB 1 2\x00*ABCD", NotAscii),
    (b"$HB 1 \xff2", NotAscii),
    (b"$TAG 17 seat2 04A1", TruncatedLine),
    (b"$HB 1 2*AB", TruncatedLine),
    (b"$HB 1 2*abcd", TruncatedLine),
    (_good(b"PING 1"), UnknownMessage),
    (_good(b"TAG 1 seat9 DEADBEEF"), MalformedMessage),
    (_good(b"TAG 1 seat0 DEADBEE"), MalformedMessage),
    (_good(b"TAG 1 seat0 deadbeef"), MalformedMessage),
    (_good(b"TAG 1 seat0"), MalformedMessage),
    (_good(b"TAG 65536 seat0 DEADBEEF"), MalformedMessage),
    (_good(b"TAG -1 seat0 DEADBEEF"), MalformedMessage),
    (_good(b"HB x 2"), MalformedMessage),
    (_good(b"HELLO 0 fw=1 zones=seat0"), MalformedMessage),
    (_good(b"HELLO 0 proto=1 fw=1 zones=seat0,seat0"), MalformedMessage),
    (_good(b"FAULT 1 seat0"), MalformedMessage),
    (_good(b" HB 1 2"), MalformedMessage),
]


@pytest.mark.parametrize(("line", "error"), BAD_LINES)
def test_each_bad_kind_has_its_error(line: bytes, error: type[Exception]) -> None:
    with pytest.raises(error) as caught:
        decode_line(line)
    assert caught.value.line.rstrip(b"\r") == line.rstrip(b"\r")  # type: ignore[attr-defined]


def test_checksum_mismatch() -> None:
    good = _good(b"HB 1 2")
    wrong = f"{(crc16(b'HB 1 2') + 1) & 0xFFFF:04X}".encode()
    with pytest.raises(ChecksumMismatch) as caught:
        decode_line(good[:-4] + wrong)
    assert caught.value.kind is BadLineKind.BAD_CHECKSUM


def test_unknown_hello_keys_are_ignored() -> None:
    msg = decode_line(_good(b"HELLO 0 proto=1 fw=2.0 zones=deal,trump board=pico2"))
    assert msg == Hello(0, "2.0", ("deal", "trump"))


def test_encoder_refuses_what_decoder_would() -> None:
    with pytest.raises(MalformedMessage):
        encode(TagRead(1, "kitchen", "DEADBEEF"))
    with pytest.raises(ValueError):
        encode(Heartbeat(SEQ_MODULUS, 0))
    with pytest.raises(NotAscii):
        encode(Fault(1, "seat0", "noresp", "a*b"))


def test_split_fragments_rescues_a_message_after_junk() -> None:
    good = _good(b"HB 1 2")
    assert split_fragments(b"junk" + good) == [b"junk", good]
    assert split_fragments(good[:5] + good) == [good[:5], good]
    assert split_fragments(good) == [good]
    assert split_fragments(b"plain junk") == [b"plain junk"]


def test_assembler_bounds_an_endless_line_and_keeps_the_next_message() -> None:
    assembler = LineAssembler()
    fragments = assembler.feed(b"x" * 1000)
    assert fragments and all(len(f) <= 1000 for f in fragments)
    assert assembler.pending <= MAX_LINE
    good = frame(b"HB 1 2")
    out = assembler.feed(b"y" * 50 + good)
    assert out[-1] == good[:-1]
    assert assembler.pending == 0


@given(st.lists(st.binary(max_size=40), max_size=20), st.data())
def test_assembler_any_chunking_gives_the_same_fragments(
    chunks: list[bytes], data: st.DataObject
) -> None:
    stream = b"".join(chunks)
    whole = LineAssembler().feed(stream)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    pieced = LineAssembler()
    out: list[bytes] = []
    last = 0
    for cut in [*cuts, len(stream)]:
        out += pieced.feed(stream[last:cut])
        last = cut
    # Chunking must not matter as long as no line grows past the bound.
    if all(len(line) <= MAX_LINE for line in stream.split(b"\n")):
        assert out == whole


@given(
    st.sampled_from(ALL_ZONES),
    st.binary(min_size=4, max_size=10),
    st.integers(0, SEQ_MODULUS - 1),
)
def test_any_tag_round_trips(zone: str, uid: bytes, seq: int) -> None:
    msg = TagRead(seq, zone, uid.hex().upper())
    assert decode_line(encode(msg)[:-1]) == msg


@given(st.sampled_from(MESSAGES), st.data())
def test_any_single_byte_change_is_caught(msg: object, data: st.DataObject) -> None:
    line = encode(msg)[:-1]  # type: ignore[arg-type]
    pos = data.draw(st.integers(0, len(line) - 1))
    new = data.draw(st.integers(0, 255).filter(lambda b: b != line[pos]))
    mutated = line[:pos] + bytes([new]) + line[pos + 1 :]
    with pytest.raises(ValueError):
        decode_line(mutated)
