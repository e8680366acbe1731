"""Property: whatever junk shares the line, every good line is read and every bad one counted.

The stream is good hub lines (consecutive sequence numbers) with bad material between
them, fed to the tracker in random chunks as a serial port would deliver it. Each run
of ``test_every_bad_line_counted_every_good_line_read`` pushes 150-300 segments (lines) through
60 examples: well over 10,000 lines per test run, in a few seconds.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.readers.hub import HubConfig, HubDriver
from controller.readers.hub_protocol import (
    MAX_LINE,
    Heartbeat,
    HubMessage,
    TagGone,
    TagRead,
    crc16,
    encode,
)
from controller.readers.hub_tracker import HubTracker
from controller.readers.sightings import ALL_ZONES, TagSeen
from controller.readers.virtual_hub import VirtualHub

TAGS = ["04A1B2C3D4E5F6", "DEADBEEF", "0102030405060708090A", "CAFEBABE"]


@dataclass(frozen=True)
class Good:
    """A good hub line; its sequence number is given when the stream is built."""

    kind: str
    zone: str
    tag: str
    glued_junk: bytes = b""  # a cut-off line stuck in front of it, without a line end

    def message(self, seq: int) -> HubMessage:
        if self.kind == "TAG":
            return TagRead(seq, self.zone, self.tag)
        if self.kind == "GONE":
            return TagGone(seq, self.zone, self.tag)
        return Heartbeat(seq, seq)


@dataclass(frozen=True)
class Bad:
    """Bytes that make exactly ``count`` bad fragments (or, if ``count`` None, at least one)."""

    data: bytes
    count: int | None = 1


good_lines = st.builds(
    Good,
    kind=st.sampled_from(["TAG", "TAG", "GONE", "HB"]),
    zone=st.sampled_from(ALL_ZONES),
    tag=st.sampled_from(TAGS),
)
sample_lines = st.builds(
    lambda seq, zone, tag: encode(TagRead(seq, zone, tag)),
    st.integers(0, 65535),
    st.sampled_from(ALL_ZONES),
    st.sampled_from(TAGS),
)
# Junk with no line end and no start marker, short enough not to be cut: one bad line.
plain_junk = st.binary(max_size=MAX_LINE).map(
    lambda b: Bad(b.replace(b"\n", b"").replace(b"$", b"").replace(b"\r", b"") + b"\n")
)
truncated = st.tuples(sample_lines, st.data()).map(
    lambda t: Bad(t[0][: t[1].draw(st.integers(1, len(t[0]) - 2))] + b"\n")
)
glued = st.tuples(good_lines, sample_lines, st.data()).map(
    lambda t: Good(t[0].kind, t[0].zone, t[0].tag, t[1][: t[2].draw(st.integers(1, len(t[1]) - 2))])
)


def _wrong_checksum(line: bytes) -> bytes:
    body = line[1:-6]
    return b"$" + body + b"*%04X\n" % ((crc16(body) + 1) & 0xFFFF)


bad_checksum = sample_lines.map(lambda line: Bad(_wrong_checksum(line)))
mutated = st.tuples(sample_lines, st.data()).map(
    lambda t: Bad(
        _mutate(t[0], t[1].draw(st.integers(0, len(t[0]) - 2)), t[1].draw(st.integers(0, 255)))
    )
)
# Anything at all, line ends and start markers included: at least one bad fragment.
raw_bytes = st.binary(min_size=1, max_size=300).map(lambda b: Bad(b, None))


def _mutate(line: bytes, pos: int, value: int) -> bytes:
    if value == line[pos] or value in b"\n$":
        value = 0x7E if line[pos] != 0x7E else 0x21
    return line[:pos] + bytes([value]) + line[pos + 1 :]


def _plan(segments: list[Good | Bad]) -> tuple[list[bytes | Good], int, int]:
    """What goes on the wire, in order (raw bytes, or a good line whose sequence number
    the sender gives), with the exact and the minimum number of bad fragments it makes."""
    plan: list[bytes | Good] = []
    exact = 0
    at_least = 0
    prev_bad_open = False  # the previous raw segment left its line unfinished
    for seg in segments:
        if isinstance(seg, Good):
            if seg.glued_junk:
                exact += 1
                plan.append(seg.glued_junk)
            plan.append(seg)
            prev_bad_open = False
        elif seg.count is None:
            # Two runs of arbitrary bytes may merge into one bad fragment.
            at_least += 0 if prev_bad_open else 1
            plan.append(seg.data)
            prev_bad_open = not seg.data.endswith(b"\n")
        else:
            if prev_bad_open:
                plan.append(b"\n")
                prev_bad_open = False
            exact += seg.count
            plan.append(seg.data)
    if prev_bad_open:
        plan.append(b"\n")  # end the last line, or it is still waiting for more bytes
    return plan, exact, at_least


def _build(segments: list[Good | Bad]) -> tuple[bytes, list[HubMessage], int, int]:
    """The stream with sequence numbers from 0, its good messages, and the bad counts."""
    plan, exact, at_least = _plan(segments)
    stream = bytearray()
    good: list[HubMessage] = []
    for item in plan:
        if isinstance(item, Good):
            good.append(item.message(len(good)))
            stream += encode(good[-1])
        else:
            stream += item
    return bytes(stream), good, exact, at_least


def _expected_sightings(messages: list[HubMessage]) -> list[tuple[str, str]]:
    """The debounce rule, stated the simple way: a zone's tag counts when it changes."""
    lying: dict[str, str] = {}
    seen = []
    for msg in messages:
        if isinstance(msg, TagRead) and lying.get(msg.zone) != msg.tag:
            lying[msg.zone] = msg.tag
            seen.append((msg.zone, msg.tag))
        elif isinstance(msg, TagGone) and lying.get(msg.zone) == msg.tag:
            del lying[msg.zone]
    return seen


def _feed_in_chunks(stream: bytes, cuts: list[int]) -> tuple[HubTracker, list]:  # type: ignore[type-arg]
    tracker = HubTracker(removal_silence=None, heartbeat_timeout=None)
    tracker.on_connected(0.0)
    events = []
    last = 0
    for cut in [*sorted(cuts), len(stream)]:
        events += tracker.feed(stream[last:cut], 0.0, 0.0)
        last = cut
    return tracker, events


constrained_bad = st.one_of(plain_junk, truncated, bad_checksum, mutated)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(good_lines, good_lines, glued, constrained_bad), min_size=150, max_size=300),
    st.lists(st.integers(0, 100_000), max_size=40),
)
def test_every_bad_line_counted_every_good_line_read(
    segments: list[Good | Bad], cuts: list[int]
) -> None:
    stream, good, exact, _ = _build(segments)
    tracker, events = _feed_in_chunks(stream, [c % (len(stream) + 1) for c in cuts])
    stats = tracker.stats
    assert stats.lines_ok == len(good)
    assert stats.bad_lines == exact
    assert stats.seq_gaps == 0 and stats.seq_rewinds == 0
    assert stats.tag_reads == sum(isinstance(m, TagRead) for m in good)
    assert stats.heartbeats == sum(isinstance(m, Heartbeat) for m in good)
    seen = [(e.zone, e.tag) for e in events if isinstance(e, TagSeen)]
    assert seen == _expected_sightings(good)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.one_of(good_lines, raw_bytes, constrained_bad), min_size=50, max_size=150),
    st.lists(st.integers(0, 100_000), max_size=40),
)
def test_random_bytes_never_cost_a_good_line(segments: list[Good | Bad], cuts: list[int]) -> None:
    stream, good, exact, at_least = _build(segments)
    tracker, events = _feed_in_chunks(stream, [c % (len(stream) + 1) for c in cuts])
    stats = tracker.stats
    assert stats.lines_ok == len(good)
    assert stats.bad_lines >= exact + at_least
    assert stats.seq_gaps == 0 and stats.seq_rewinds == 0
    seen = [(e.zone, e.tag) for e in events if isinstance(e, TagSeen)]
    assert seen == _expected_sightings(good)


SENTINEL = TagRead(0, "trump", "5E5E5E5E")  # a tag the segments never use


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.lists(st.one_of(good_lines, glued, constrained_bad, raw_bytes), min_size=40, max_size=120),
    st.integers(25, 40),
)
def test_the_same_through_the_real_driver_on_a_pty(segments: list[Good | Bad], repeat: int) -> None:
    """The segments, repeated, through VirtualHub -> pty -> pyserial -> HubDriver:
    5 examples x 1,000-4,800 lines each, so over 10,000 lines on a real serial line."""
    plan, exact, at_least = _plan(segments * repeat)
    good = [item.message(0) for item in plan if isinstance(item, Good)]
    events: list = []  # type: ignore[type-arg]
    arrived = threading.Event()

    def collect(event: object) -> None:
        events.append(event)
        if isinstance(event, TagSeen) and event.tag == SENTINEL.tag:
            arrived.set()

    with VirtualHub(heartbeat_interval=3600, repeat_interval=None, hello_interval=None) as hub:
        config = HubConfig(
            port=hub.port,
            removal_silence=None,
            heartbeat_timeout=None,
            bad_line_report_interval=3600,
        )
        with HubDriver(config, collect) as driver:
            assert hub.wait_host(10)
            for item in plan:
                if isinstance(item, Good):
                    hub.send(item.message)
                else:
                    hub.inject_garbage(item)
            hub.send(lambda seq: TagRead(seq, SENTINEL.zone, SENTINEL.tag))
            assert arrived.wait(30), "the last line never arrived"
            stats = driver.stats()
    assert stats.bad_lines >= exact + at_least
    if at_least == 0:
        assert stats.bad_lines == exact
    assert stats.seq_gaps == 0 and stats.seq_rewinds == 0
    assert stats.tag_reads == sum(isinstance(m, TagRead) for m in good) + 1
    seen = [(e.zone, e.tag) for e in events if isinstance(e, TagSeen)]
    assert seen == _expected_sightings(good) + [(SENTINEL.zone, SENTINEL.tag)]
