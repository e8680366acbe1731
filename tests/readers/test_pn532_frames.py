"""The PN532 frame codec: known frames, round trips and PN532-specific damage.

What every stream decoder must do (chunking, noise, split frames, a bombardment of
damaged input) is checked once for all of them in ``test_stream_decoder_contract.py``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.readers.pn532_frames import (
    ACK,
    ERROR_FRAME,
    HOST_TO_PN532,
    MAX_FRAME_DATA,
    NACK,
    PN532_TO_HOST,
    WAKEUP,
    Frame,
    FrameDecoder,
    FrameError,
    FrameErrorKind,
    FrameKind,
    build_command,
    build_frame,
    encode,
)

# --------------------------------------------------------------------- known frames


def test_get_firmware_version_command_matches_the_manual():
    # UM0701-02 §7.2.2 example: 00 00 FF 02 FE D4 02 2A 00
    assert build_command(0x02) == bytes.fromhex("0000FF02FED4022A00")


def test_in_list_passive_target_command_matches_known_bytes():
    # The frame a microcontroller sent in the NXP community thread on this command.
    assert build_command(0x4A, b"\x01\x00") == bytes.fromhex("0000FF04FCD44A0100E100")


def test_decodes_ack_nack_error_and_info():
    frames = FrameDecoder().feed(
        ACK + NACK + ERROR_FRAME + bytes.fromhex("0000FF06FAD50332010607E800")
    )
    assert [f.kind for f in frames] == [
        FrameKind.ACK,
        FrameKind.NACK,
        FrameKind.ERROR,
        FrameKind.INFO,
    ]
    info = frames[3]
    assert isinstance(info, Frame)
    assert (info.tfi, info.data) == (PN532_TO_HOST, bytes.fromhex("0332010607"))


def test_wakeup_bytes_are_filler_for_a_listening_chip_but_noise_for_a_host():
    frame = build_command(0x14, b"\x01\x14\x00")
    chip_side = FrameDecoder(filler=b"\x00\x55").feed(WAKEUP + frame)
    assert [type(e) for e in chip_side] == [Frame]
    host_side = FrameDecoder().feed(WAKEUP + frame)
    assert [type(e) for e in host_side] == [FrameError, Frame]
    assert host_side[0].kind is FrameErrorKind.NOISE


def test_extended_frame_round_trip():
    data = bytes(range(256)) + b"\x01\x02"
    raw = build_frame(PN532_TO_HOST, data)
    assert raw[3:5] == b"\xff\xff"
    (frame,) = FrameDecoder().feed(raw)
    assert frame.extended and frame.data == data
    assert encode(frame) == raw


def test_oversized_frame_is_refused_when_built():
    with pytest.raises(ValueError):
        build_frame(HOST_TO_PN532, bytes(MAX_FRAME_DATA))


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        (bytes.fromhex("0000FF03FED4022A00"), FrameErrorKind.BAD_LCS),
        (bytes.fromhex("0000FF02FED4022B00"), FrameErrorKind.BAD_DCS),
        (bytes.fromhex("0000FF02FEAA022A00"), FrameErrorKind.BAD_TFI),
        (bytes.fromhex("0000FFFFFF7F8100"), FrameErrorKind.BAD_LENGTH),  # 0x7F81 bytes
    ],
)
def test_each_kind_of_damage_is_named(raw, kind):
    dec = FrameDecoder()
    events = dec.feed(raw) + dec.flush()
    assert kind in [e.kind for e in events if isinstance(e, FrameError)]
    assert dec.stats.errors[kind] >= 1
    assert not [e for e in events if isinstance(e, Frame)]


def test_incomplete_frame_waits_then_is_truncated_when_the_line_goes_idle():
    raw = build_command(0x4A, b"\x01\x00")
    dec = FrameDecoder()
    assert dec.feed(raw[:7]) == []
    assert dec.pending == 6  # from the start code on; the preamble zero is not kept
    (err,) = dec.flush()
    assert err.kind is FrameErrorKind.TRUNCATED and (err.start, err.end) == (1, 7)


def test_good_frame_behind_a_bad_header_is_still_found_after_idle():
    # A bogus header promising 0x80 bytes swallows the good frame until the line idles.
    bogus = bytes.fromhex("00FF8080D5")
    good = build_frame(PN532_TO_HOST, b"\x4b\x00")
    dec = FrameDecoder()
    assert [e for e in dec.feed(bogus + good) if isinstance(e, Frame)] == []
    later = dec.flush()
    assert [e.kind for e in later] == [FrameErrorKind.TRUNCATED, FrameKind.INFO]
    assert later[1].data == b"\x4b\x00"


# ------------------------------------------------------------------ round trips

payloads = st.binary(min_size=0, max_size=300)


@settings(max_examples=300, deadline=None)
@given(tfi=st.sampled_from([HOST_TO_PN532, PN532_TO_HOST]), data=payloads)
def test_round_trip_any_payload(tfi, data):
    if len(data) + 1 > MAX_FRAME_DATA:
        with pytest.raises(ValueError):
            build_frame(tfi, data)
        return
    raw = build_frame(tfi, data)
    dec = FrameDecoder()
    events = dec.feed(raw) + dec.flush()
    assert len(events) == 1
    (frame,) = events
    assert (frame.kind, frame.tfi, frame.data) == (FrameKind.INFO, tfi, data)
    assert encode(frame) == raw
    assert frame.extended == (len(data) + 1 >= 0xFF)
