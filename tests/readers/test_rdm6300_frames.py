"""The RDM6300 frame parser: known frames, damage, and a garbage bombardment."""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass

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


def test_repeated_frames_byte_by_byte():
    raw = build_frame("0102030405") * 3
    dec = Rdm6300Decoder()
    frames = [e for b in raw for e in dec.feed(bytes([b]))]
    assert [f.tag for f in frames] == ["0102030405"] * 3
    assert dec.stats.bad_frames == 0


# ------------------------------------------------------------------ bombardment

INPUTS_PER_EXAMPLE = 1000
EXAMPLES = 100
_seen_inputs: list[int] = []


@dataclass
class Piece:
    raw: bytes
    tag: str | None  # the tag of an intact frame
    damaged: bool


def _mutate(rng: random.Random, raw: bytes) -> bytes:
    """Any single-byte edit of a frame is visible: replaced, lost, added, or cut."""
    how = rng.random()
    b = bytearray(raw)
    i = rng.randrange(len(raw))
    if how < 0.5:
        b[i] = (b[i] + rng.randrange(1, 256)) & 0xFF
    elif how < 0.7:
        del b[i]
    elif how < 0.85:
        b.insert(rng.randrange(1, len(raw)), rng.randrange(256))
    else:
        del b[rng.randrange(1, len(raw)) :]
    return bytes(b)


def _make_stream(rng: random.Random, n: int) -> list[Piece]:
    pieces = []
    for _ in range(n):
        tag = rng.randbytes(5).hex().upper()
        raw = build_frame(tag)
        r = rng.random()
        if r < 0.5:
            pieces.append(Piece(raw, tag, False))
        elif r < 0.85:
            pieces.append(Piece(_mutate(rng, raw), None, True))
        else:
            pieces.append(Piece(rng.randbytes(rng.randrange(1, 40)), None, True))
    return pieces


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**64 - 1))
def _bombard(seed):
    rng = random.Random(seed)
    pieces = _make_stream(rng, INPUTS_PER_EXAMPLE)
    _seen_inputs.append(len(pieces))
    dec = Rdm6300Decoder()
    stream = b"".join(p.raw for p in pieces)
    events = []
    pos = 0
    while pos < len(stream):
        k = rng.randrange(1, 80)
        events += dec.feed(stream[pos : pos + k])
        pos += k
        if rng.random() < 0.02:
            events += dec.flush()  # an idle gap can fall anywhere
    events += dec.flush()

    frames = {e.start: e for e in events if isinstance(e, Rdm6300Frame)}
    errors = sorted((e for e in events if isinstance(e, Rdm6300Error)), key=lambda e: e.start)
    starts = [e.start for e in errors]
    reach, furthest = [], -1
    for e in errors:
        furthest = max(furthest, e.end)
        reach.append(furthest)

    offset = 0
    for p in pieces:
        a, b = offset, offset + len(p.raw)
        offset = b
        k = bisect.bisect_left(starts, b) - 1
        if p.tag is not None:
            got = frames.get(a)
            if got is None or got.tag != p.tag:
                # Only an idle gap falling inside the frame may cut it.
                assert any(e.kind is Rdm6300ErrorKind.TRUNCATED and e.start == a for e in errors), (
                    f"good frame at {a} lost"
                )
            else:
                j = bisect.bisect_left(starts, a)
                assert j == len(starts) or starts[j] >= b, f"good frame at {a} blamed"
        else:
            assert p.damaged
            if k >= 0 and reach[k] > a:
                continue  # reported
            # Or two neighbouring damages made one good frame between them (a frame
            # cut to its STX, then a frame that lost its STX): then that frame reaches
            # outside this piece. A frame wholly inside a damaged piece is a bug.
            merged = [f for f in frames.values() if f.start < b and f.end > a]
            assert merged and all(f.start < a or f.end > b for f in merged), (
                f"damage at {a}-{b} not reported"
            )

    assert dec.stats.frames == len(frames)
    assert dec.stats.bad_frames == len(errors)


def test_bombardment_of_at_least_100000_inputs():
    _seen_inputs.clear()
    _bombard()
    assert sum(_seen_inputs) >= 100_000


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=1500), cuts=st.lists(st.integers(0, 1500), max_size=20))
def test_random_bytes_are_all_accounted_for_whatever_the_chunking(data, cuts):
    whole = Rdm6300Decoder()
    expected = whole.feed(data) + whole.flush()
    dec = Rdm6300Decoder()
    got = []
    prev = 0
    for c in sorted(set(cuts)) + [len(data)]:
        got += dec.feed(data[prev:c])
        prev = max(prev, c)
    got += dec.flush()
    assert got == expected
    covered = bytearray(len(data))
    for e in got:
        covered[e.start : e.end] = b"\x01" * (e.end - e.start)
    assert all(covered), "some byte neither read nor reported"
    for e in got:
        if isinstance(e, Rdm6300Frame):
            assert data[e.start : e.end] == build_frame(e.tag)


@settings(max_examples=200, deadline=None)
@given(tag=st.binary(min_size=5, max_size=5))
def test_round_trip(tag):
    text = tag.hex().upper()
    raw = build_frame(text)
    assert raw[0] == STX and raw[-1] == ETX and len(raw) == 14
    (frame,) = Rdm6300Decoder().feed(raw)
    assert frame.tag == text
