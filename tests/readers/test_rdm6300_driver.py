"""The RDM6300 driver against the simulated module on a real pseudo-terminal.

Presence uses a clock the test moves by hand, so "the tag stayed" and "the tag went
quiet long enough" do not depend on how fast this machine is.
"""

from __future__ import annotations

import queue
import time

import pytest

from controller.readers.rdm6300 import Rdm6300Reader, SilencePresence
from controller.readers.rdm6300_frames import build_frame
from controller.readers.rdm6300_sim import SimulatedRdm6300
from controller.readers.sightings import ReaderFault, TagSeen

TAG = "62E3086CED"
OTHER = "0100ABCDEF"


class ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def sim():
    with SimulatedRdm6300(period=0.01) as module:
        yield module


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def reader(sim, clock):
    r = Rdm6300Reader("seat1", sim.port, monotonic=clock, removal_silence=0.5)
    r.open()
    yield r
    r.close()


def poll_until(reader, done, timeout=5.0):
    """Poll until ``done(results so far)``; the time-out is only for waiting."""
    out = []
    deadline = time.monotonic() + timeout
    while not done(out):
        assert time.monotonic() < deadline, f"gave up waiting; got {out}"
        out += reader.poll()
    return out


def drain(reader):
    """Poll until a read brings nothing: the line is empty."""
    while True:
        before = reader.decoder.stats.bytes_in
        reader.poll()
        if reader.decoder.stats.bytes_in == before:
            return


def tags(results):
    return [s.tag for s in results if isinstance(s, TagSeen)]


def test_a_tag_is_seen_once_however_often_the_module_repeats_it(sim, reader):
    sim.place(TAG)
    out = poll_until(reader, lambda o: reader.decoder.stats.frames >= 10)
    assert tags(out) == [TAG]
    (seen,) = [s for s in out if isinstance(s, TagSeen)]
    assert (seen.zone, seen.source) == ("seat1", f"rdm6300:{sim.port}")
    assert [s for s in out if isinstance(s, ReaderFault)] == []


def test_removal_after_silence_then_seen_again(sim, reader, clock):
    sim.place(TAG)
    poll_until(reader, lambda o: tags(o) == [TAG])
    sim.remove()
    drain(reader)  # frames sent before the removal are still on the line
    for _ in range(4):  # the poll loop, every 0.1 s: quiet, but not long enough
        clock.now += 0.1
        reader.poll()
    assert reader.presence.current == TAG
    for _ in range(2):  # now quiet for 0.6 s > 0.5 s
        clock.now += 0.1
        reader.poll()
    assert reader.presence.current is None
    sim.place(TAG)
    assert tags(poll_until(reader, lambda o: tags(o))) == [TAG]


def test_another_tag_is_a_new_placement_at_once(sim, reader):
    sim.place(TAG)
    first = poll_until(reader, lambda o: tags(o))
    sim.place(OTHER)
    second = poll_until(reader, lambda o: tags(o))
    assert tags(first) + tags(second) == [TAG, OTHER]


def test_noise_and_broken_frames_are_faults_and_the_tag_still_read(sim, reader):
    good = build_frame(TAG)
    sim.send_raw(b"\xff\xfejunk" + good[:7] + good[:5] + b"Z" + good[6:])
    sim.place(TAG)
    out = poll_until(reader, lambda o: tags(o) and reader.decoder.stats.bad_frames >= 3)
    assert tags(out) == [TAG]
    messages = [f.message for f in out if isinstance(f, ReaderFault)]
    assert any("noise" in m for m in messages)
    assert any("bad character" in m for m in messages)
    assert all(f.zone == "seat1" for f in out if isinstance(f, ReaderFault))


def test_frame_cut_by_an_idle_line_is_truncated(sim, reader):
    sim.send_raw(build_frame(TAG)[:9])
    out = poll_until(reader, lambda o: any(isinstance(f, ReaderFault) for f in o))
    assert "truncated" in out[0].message
    assert tags(out) == []


def test_background_thread(sim):
    got: queue.Queue = queue.Queue()
    r = Rdm6300Reader("deal", sim.port)
    r.start(got.put)
    try:
        sim.place(OTHER)
        s = got.get(timeout=5)
        assert isinstance(s, TagSeen) and s.tag == OTHER and s.zone == "deal"
    finally:
        r.close()


def test_missing_port_is_a_fault_not_a_crash():
    r = Rdm6300Reader("deal", "/dev/does-not-exist-rdm6300")
    (fault,) = r.poll()
    assert isinstance(fault, ReaderFault) and "does-not-exist" in fault.message


def listened(p: SilencePresence, start: float, end: float, every: float = 0.05) -> None:
    """The poll loop's calls from ``start`` to ``end``: nothing read."""
    t = start
    while t + every <= end + 1e-9:
        t += every
        p.expire(t)


def test_silence_presence_with_plain_numbers():
    p = SilencePresence(removal_silence=0.5)
    assert p.seen("A", 0.0) is True
    assert [p.seen("A", t) for t in (0.1, 0.3, 0.5, 0.7, 0.9)] == [False] * 5
    listened(p, 0.9, 1.35)
    assert p.current == "A"
    listened(p, 1.35, 1.45)
    assert p.current is None
    assert p.seen("A", 1.5) is True
    assert p.seen("B", 1.6) is True
    listened(p, 1.6, 2.2)
    assert p.seen("B", 2.2) is True  # 0.6 s with no frame: lifted and put back


def test_a_host_that_stopped_reading_does_not_count_the_lying_tag_again():
    """The host stalled 3 s; the frames the module sent meanwhile are read at once."""
    p = SilencePresence(removal_silence=0.5)
    assert p.seen("A", 0.0) is True
    listened(p, 0.0, 0.3)
    assert [p.seen("A", 3.3) for _ in range(5)] == [False] * 5
    assert p.current == "A"


def test_silence_must_be_positive():
    with pytest.raises(ValueError):
        SilencePresence(0)
