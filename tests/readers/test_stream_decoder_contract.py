"""The contract every stream decoder keeps (PN532 frames, RDM6300 frames).

A serial line hands a decoder bytes in whatever chunks it likes, drops and damages
bytes, and carries noise between frames. Whatever the protocol, a decoder must read
every intact frame exactly once with its exact content, report every damaged stretch,
never blame a good frame, never crash, and give the same answer however the bytes were
chunked. Each property below runs over every decoder in ``CASES``; what differs per
protocol (how a frame is built and damaged, which bytes are harmless filler) is in its
:class:`Case`. Protocol-specific frames and damage stay in ``test_pn532_frames.py`` and
``test_rdm6300_frames.py``.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.readers import pn532_frames as pn
from controller.readers import rdm6300_frames as rdm
from controller.readers.stream_decoder import StreamDecoder

#: inputs (frames, damaged frames, junk) per bombardment example, and examples per decoder
INPUTS_PER_EXAMPLE = 1000
EXAMPLES = 100


@dataclass(frozen=True)
class Sent:
    """One good frame as sent: its bytes, and what a decoder must read from them."""

    raw: bytes
    content: Any  # compared with Case.content of the frame read
    #: where the frame proper lies in ``raw`` (PN532: after the preamble zero, before
    #: the postamble zero); errors never start inside it
    start: int
    end: int


@dataclass(frozen=True)
class Case:
    """One decoder and what the contract needs to know about its protocol."""

    name: str
    make: Callable[[], StreamDecoder]
    frame_type: type
    error_type: type
    noise: Any  # the decoder's error kind for stray bytes
    truncated: Any  # ... and for a frame the line went idle in
    #: bytes that may sit between frames unreported
    filler: bytes
    good: Callable[[random.Random], Sent]
    content: Callable[[Any], Any]
    #: the stream bytes a read frame spans, rebuilt from what was read
    wire: Callable[[Any], bytes]
    #: a damaged copy of a frame, and whether its length changed
    damage: Callable[[random.Random, Sent], tuple[bytes, bool]]
    #: a damaged frame whose length changed is followed by an idle line (PN532's
    #: request/response link), else bytes run straight on (RDM6300 repeats itself)
    idle_after_damage: bool
    #: chance of an idle gap after any chunk, even inside a frame
    idle_anywhere: float
    #: two neighbouring damaged frames may add up to a good one (an RDM6300 frame cut
    #: to its STX, then one that lost its STX); PN532's idle line after damage forbids it
    damage_may_merge: bool


# --------------------------------------------------------------------------- PN532


def _pn532_good(rng: random.Random) -> Sent:
    r = rng.random()
    if r < 0.1:
        frame = pn.Frame(pn.FrameKind.ACK)
    elif r < 0.15:
        frame = pn.Frame(pn.FrameKind.NACK)
    elif r < 0.2:
        frame = pn.Frame(pn.FrameKind.ERROR, tfi=pn.ERROR_TFI)
    else:
        tfi = rng.choice([pn.HOST_TO_PN532, pn.PN532_TO_HOST])
        n = (
            rng.choice([1, 2, 5, 12, 20, 40])
            if rng.random() < 0.97
            else rng.randrange(254, pn.MAX_FRAME_DATA)
        )
        frame = pn.Frame(pn.FrameKind.INFO, tfi=tfi, data=rng.randbytes(n), extended=n + 1 >= 0xFF)
    raw = pn.encode(frame)
    return Sent(raw, _pn532_content(frame), 1, len(raw) - 1)


def _pn532_content(frame: pn.Frame) -> tuple[Any, ...]:
    return (frame.kind, frame.tfi, frame.data, frame.extended)


def _pn532_damage(rng: random.Random, sent: Sent) -> tuple[bytes, bool]:
    """A damaged copy of a frame and whether its length changed.

    Not every edit is damage: losing one of the two leading zeros leaves a valid frame
    (the preamble is optional), an ACK that loses its fourth byte *is* a NACK, and a
    lost zero byte cannot be seen (the sum does not change and the postamble zero slides
    into the checksum's place). So only non-zero bytes are dropped, from the start code
    on, and never from ACK/NACK; and the preamble never becomes 0xFF (with the zero
    before it that is a start code, and 00 FF 00 FF is an ACK, which has no checksum).
    """
    raw, how = sent.raw, rng.random()
    if how < 0.6 or sent.content[0] in (pn.FrameKind.ACK, pn.FrameKind.NACK):  # one byte replaced
        i = rng.randrange(len(raw))
        b = bytearray(raw)
        while True:
            b[i] = (raw[i] + rng.randrange(1, 256)) & 0xFF
            if not (i == 0 and b[i] == 0xFF):
                return bytes(b), False
    if how < 0.8:  # cut short, at least the checksum lost (the start code kept)
        return raw[: rng.randrange(3, len(raw) - 1)], True
    i = rng.choice([k for k in range(2, len(raw) - 1) if raw[k]])
    return raw[:i] + raw[i + 1 :], True


PN532 = Case(
    name="pn532",
    make=pn.FrameDecoder,
    frame_type=pn.Frame,
    error_type=pn.FrameError,
    noise=pn.FrameErrorKind.NOISE,
    truncated=pn.FrameErrorKind.TRUNCATED,
    filler=b"\x00",
    good=_pn532_good,
    content=_pn532_content,
    wire=lambda frame: pn.encode(frame)[1:-1],
    damage=_pn532_damage,
    idle_after_damage=True,
    idle_anywhere=0.0,
    damage_may_merge=False,
)

# --------------------------------------------------------------------------- RDM6300


def _rdm6300_good(rng: random.Random) -> Sent:
    tag = rng.randbytes(5).hex().upper()
    raw = rdm.build_frame(tag)
    return Sent(raw, tag, 0, len(raw))


def _rdm6300_damage(rng: random.Random, sent: Sent) -> tuple[bytes, bool]:
    """Any single-byte edit of a frame is visible: replaced, lost, added, or cut."""
    raw, how = sent.raw, rng.random()
    b = bytearray(raw)
    i = rng.randrange(len(raw))
    if how < 0.5:
        b[i] = (b[i] + rng.randrange(1, 256)) & 0xFF
        return bytes(b), False
    if how < 0.7:
        del b[i]
    elif how < 0.85:
        b.insert(rng.randrange(1, len(raw)), rng.randrange(256))
    else:
        del b[rng.randrange(1, len(raw)) :]
    return bytes(b), True


RDM6300 = Case(
    name="rdm6300",
    make=rdm.Rdm6300Decoder,
    frame_type=rdm.Rdm6300Frame,
    error_type=rdm.Rdm6300Error,
    noise=rdm.Rdm6300ErrorKind.NOISE,
    truncated=rdm.Rdm6300ErrorKind.TRUNCATED,
    filler=b"",
    good=_rdm6300_good,
    content=lambda frame: frame.tag,
    wire=lambda frame: rdm.build_frame(frame.tag),
    damage=_rdm6300_damage,
    idle_after_damage=False,
    idle_anywhere=0.02,
    damage_may_merge=True,
)

CASES = [PN532, RDM6300]
each_decoder = pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)


def decode(case: Case, data: bytes, cuts: Sequence[int] = ()) -> tuple[list[Any], StreamDecoder]:
    """Feed ``data`` cut at ``cuts`` (stream offsets), then let the line go idle."""
    dec = case.make()
    out: list[Any] = []
    prev = 0
    for c in [*sorted(set(cuts)), len(data)]:
        out += dec.feed(data[prev:c])
        prev = max(prev, c)
    return out + dec.flush(), dec


def frames_of(case: Case, events: list[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, case.frame_type)]


def errors_of(case: Case, events: list[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, case.error_type)]


def assert_counted(case: Case, dec: StreamDecoder, events: list[Any], sent_bytes: int) -> None:
    """The decoder's counters agree with what it reported."""
    assert dec.stats.frames == len(frames_of(case, events))
    assert dec.stats.bad_frames == len(errors_of(case, events))
    assert dec.stats.bytes_in == sent_bytes
    assert dec.pending == 0  # after an idle line nothing is held back


# --------------------------------------------------------------------------- properties

seeds = st.integers(0, 2**64 - 1)


@each_decoder
@settings(max_examples=200, deadline=None)
@given(seed=seeds)
def test_a_good_frame_is_read_once_with_its_content(case: Case, seed: int) -> None:
    sent = case.good(random.Random(seed))
    events, dec = decode(case, sent.raw)
    (frame,) = events
    assert case.content(frame) == sent.content
    assert (frame.start, frame.end) == (sent.start, sent.end)
    assert case.wire(frame) == sent.raw[sent.start : sent.end]
    assert_counted(case, dec, events, len(sent.raw))


@each_decoder
@settings(max_examples=100, deadline=None)
@given(seed=seeds, count=st.integers(1, 6), data=st.data())
def test_any_chunking_of_a_valid_stream_gives_the_same_reads(
    case: Case, seed: int, count: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)
    sent = [case.good(rng) for _ in range(count)]
    stream = b"".join(s.raw for s in sent)
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=30))
    whole, _ = decode(case, stream)
    events, dec = decode(case, stream, cuts)
    assert events == whole
    assert [case.content(f) for f in events] == [s.content for s in sent]
    assert_counted(case, dec, events, len(stream))
    dribble, _ = decode(case, stream, list(range(len(stream))))  # a byte at a time
    assert dribble == whole


@each_decoder
@settings(max_examples=100, deadline=None)
@given(seed=seeds)
def test_a_frame_split_anywhere_is_read_once(case: Case, seed: int) -> None:
    rng = random.Random(seed)
    before, sent, after = case.good(rng), case.good(rng), case.good(rng)
    stream = before.raw + sent.raw + after.raw
    for cut in range(len(before.raw), len(before.raw) + len(sent.raw) + 1):
        events, dec = decode(case, stream, [cut])
        assert [case.content(f) for f in events] == [before.content, sent.content, after.content]
        assert_counted(case, dec, events, len(stream))


@each_decoder
@settings(max_examples=100, deadline=None)
@given(seed=seeds)
def test_a_frame_cut_by_an_idle_line_waits_then_is_reported_truncated(
    case: Case, seed: int
) -> None:
    sent = case.good(random.Random(seed))
    marker = len(case.make().START)
    for cut in range(sent.start + marker, sent.end):
        dec = case.make()
        assert frames_of(case, dec.feed(sent.raw[:cut])) == []
        assert dec.pending > 0  # held: more bytes may come
        events = dec.flush()
        assert frames_of(case, events) == []
        first = events[0]
        assert (first.kind, first.start) == (case.truncated, sent.start)


@each_decoder
@settings(max_examples=100, deadline=None)
@given(seed=seeds, count=st.integers(1, 5), data=st.data())
def test_garbage_between_frames_is_skipped_and_reported(
    case: Case, seed: int, count: int, data: st.DataObject
) -> None:
    """Junk that cannot open a frame: every frame read, each junk run one noise report
    covering exactly its non-filler bytes."""
    rng = random.Random(seed)
    marker = set(case.make().START)
    junk_bytes = st.integers(0, 255).filter(lambda b: b not in marker and b not in case.filler)
    stream, expected, noise = b"", [], []
    for _ in range(count):
        junk = bytes(data.draw(st.lists(junk_bytes, min_size=1, max_size=20)))
        noise.append((len(stream), len(stream) + len(junk)))
        sent = case.good(rng)
        stream += junk + sent.raw
        expected.append(sent.content)
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=10))
    events, dec = decode(case, stream, cuts)
    assert [case.content(f) for f in frames_of(case, events)] == expected
    assert [(e.kind, e.start, e.end, e.detail) for e in errors_of(case, events)] == [
        (case.noise, a, b, f"{b - a} stray byte(s)") for a, b in noise
    ]
    assert_counted(case, dec, events, len(stream))


@each_decoder
@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=2000), cuts=st.lists(st.integers(0, 2000), max_size=20))
def test_random_bytes_are_all_accounted_for_whatever_the_chunking(
    case: Case, data: bytes, cuts: list[int]
) -> None:
    whole, _ = decode(case, data)
    events, dec = decode(case, data, cuts)
    assert events == whole
    covered = bytearray(len(data))
    for e in events:
        covered[e.start : e.end] = b"\x01" * (min(e.end, len(data)) - e.start)
    for i, b in enumerate(data):
        assert b in case.filler or covered[i], f"byte {i} ({b:#04x}) neither read nor reported"
    for f in frames_of(case, events):
        assert case.wire(f) == data[f.start : f.end], "a frame read that was not sent"
    assert_counted(case, dec, events, len(data))


@each_decoder
@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=300))
def test_random_bytes_a_byte_at_a_time_give_the_same_reports(case: Case, data: bytes) -> None:
    whole, _ = decode(case, data)
    dribble, _ = decode(case, data, list(range(len(data))))
    assert dribble == whole


# --------------------------------------------------------------------------- bombardment
# A long stream of inputs, each a good frame, a damaged frame or junk, fed in random
# chunks. One drawn seed drives a fast generator: hypothesis picks and reports the
# seed; the stream itself is far too big for hypothesis to build byte by byte.


@dataclass
class Piece:
    raw: bytes
    good: Sent | None  # the frame it carries intact, or None if damaged or junk
    idle_after: bool


def _junk(rng: random.Random, case: Case) -> bytes:
    junk = bytearray(rng.randbytes(rng.randrange(1, 40)))
    while all(b in case.filler for b in junk):  # junk that is all filler is no damage
        junk[rng.randrange(len(junk))] = rng.randrange(256)
    return bytes(junk)


def _make_stream(rng: random.Random, case: Case) -> list[Piece]:
    pieces = []
    for _ in range(INPUTS_PER_EXAMPLE):
        r = rng.random()
        sent = case.good(rng)
        if r < 0.5:
            pieces.append(Piece(sent.raw, sent, rng.random() < 0.1))
        elif r < 0.85:
            bad, length_changed = case.damage(rng, sent)
            pieces.append(Piece(bad, None, case.idle_after_damage and length_changed))
        else:
            pieces.append(Piece(_junk(rng, case), None, case.idle_after_damage))
    return pieces


def _feed_chunked(
    rng: random.Random, case: Case, pieces: list[Piece]
) -> tuple[list[Any], StreamDecoder]:
    dec = case.make()
    events: list[Any] = []
    pending = bytearray()
    for piece in pieces:
        pending += piece.raw
        while len(pending) > 64 or (piece.idle_after and pending):
            k = rng.randrange(1, 65)
            events += dec.feed(bytes(pending[:k]))
            del pending[:k]
            if rng.random() < case.idle_anywhere:
                events += dec.flush()  # an idle gap can fall anywhere
        if piece.idle_after:
            events += dec.flush()
    return events + dec.feed(bytes(pending)) + dec.flush(), dec


def _check_bombardment(case: Case, seed: int) -> int:
    rng = random.Random(seed)
    pieces = _make_stream(rng, case)
    events, dec = _feed_chunked(rng, case, pieces)
    frames = {f.start: f for f in frames_of(case, events)}
    errors = sorted(errors_of(case, events), key=lambda e: e.start)
    starts = [e.start for e in errors]
    reach, furthest = [], -1  # reach[k]: the furthest end among errors[0..k]
    for e in errors:
        furthest = max(furthest, e.end)
        reach.append(furthest)

    offset = 0
    for p in pieces:
        a, b = offset, offset + len(p.raw)
        offset = b
        if p.good is not None:
            got = frames.get(a + p.good.start)
            if got is None or case.content(got) != p.good.content:
                # Only an idle gap falling inside the frame may cut it.
                assert case.idle_anywhere and any(
                    e.kind == case.truncated and e.start == a + p.good.start for e in errors
                ), f"good frame at {a} lost"
                continue
            # No error starts inside a good frame (the filler around it may begin junk).
            j = bisect.bisect_left(starts, a + p.good.start)
            assert j == len(starts) or starts[j] >= a + p.good.end, f"good frame at {a} blamed"
            continue
        # A damaged input is reported: some error covers part of it (one noise run may
        # cover two neighbouring damaged inputs)...
        k = bisect.bisect_left(starts, b) - 1  # the last error starting before b
        if k >= 0 and reach[k] > a:
            continue
        # ...or two neighbouring damages made one good frame between them: that frame
        # then reaches outside this input. A frame wholly inside a damaged input is a bug.
        merged = [f for f in frames.values() if f.start < b and f.end > a]
        assert case.damage_may_merge and merged and all(f.start < a or f.end > b for f in merged), (
            f"damage at {a}-{b} not reported"
        )

    assert_counted(case, dec, events, offset)
    return len(pieces)


@each_decoder
def test_a_bombardment_of_at_least_100000_inputs(case: Case) -> None:
    seen: list[int] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(seed=seeds)
    def bombard(seed: int) -> None:
        seen.append(_check_bombardment(case, seed))

    bombard()
    assert sum(seen) >= 100_000
