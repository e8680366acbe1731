"""The RDM6300 frame parser: known frames and RDM6300-specific damage.

What every stream decoder must do (chunking, noise, split frames, a bombardment of
damaged input) is checked once for all of them in ``test_stream_decoder_contract.py``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.readers.rdm6300_frames import (
    ETX,
    STX,
    Rdm6300Decoder,
    Rdm6300Error,
    Rdm6300ErrorKind,
    Rdm6300Frame,
    build_frame,
    normalize_tag,
    tag_checksum,
)


def test_known_frame():
    # The card in the RDM630 datasheet's example: 62 E3 08 6C ED, checksum
    # 62^E3=81, ^08=89, ^6C=E5, ^ED=08.
    raw = build_frame("62E3086CED")
    assert raw == b"\x0262E3086CED08\x03"
    (frame,) = Rdm6300Decoder().feed(raw)
    assert isinstance(frame, Rdm6300Frame) and frame.tag == "62E3086CED"
    assert (frame.start, frame.end) == (0, 14)


def test_checksum_is_xor_of_the_five_bytes():
    assert tag_checksum("FFFFFFFFFF") == 0xFF
    assert tag_checksum("0102040810") == 0x1F


def test_tag_ids_are_normalized_and_checked():
    assert normalize_tag(" 0a001c7f3e ") == "0A001C7F3E"
    for bad in ["0A001C7F3", "0A001C7F3EE", "0A001C7F3G"]:
        with pytest.raises(ValueError):
            normalize_tag(bad)


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        (b"\x0262E3086CED09\x03", Rdm6300ErrorKind.BAD_CHECKSUM),
        (b"\x0262E3086CED08\x04", Rdm6300ErrorKind.NO_ETX),
        (b"\x0262e3086CED08\x03", Rdm6300ErrorKind.BAD_CHAR),  # lower case is not the wire format
        (b"\x020A001C7", Rdm6300ErrorKind.TRUNCATED),
        (b"hello", Rdm6300ErrorKind.NOISE),
    ],
)
def test_each_kind_of_damage_is_named(raw, kind):
    dec = Rdm6300Decoder()
    events = dec.feed(raw) + dec.flush()
    assert kind in [e.kind for e in events if isinstance(e, Rdm6300Error)]
    assert dec.stats.errors[kind] >= 1
    assert not [e for e in events if isinstance(e, Rdm6300Frame)]


def test_cut_frame_followed_by_a_good_one():
    good = build_frame("0102030405")
    dec = Rdm6300Decoder()
    events = dec.feed(good[:6] + good)
    assert [type(e) for e in events] == [Rdm6300Error, Rdm6300Frame]
    assert events[0].kind is Rdm6300ErrorKind.BAD_CHAR and events[1].tag == "0102030405"


@settings(max_examples=200, deadline=None)
@given(tag=st.binary(min_size=5, max_size=5))
def test_round_trip(tag):
    text = tag.hex().upper()
    raw = build_frame(text)
    assert raw[0] == STX and raw[-1] == ETX and len(raw) == 14
    (frame,) = Rdm6300Decoder().feed(raw)
    assert frame.tag == text
