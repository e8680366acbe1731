"""The host's reading of a hub stream, with a clock the test holds (no sleeping)."""

from __future__ import annotations

from controller.readers.hub_protocol import (
    SEQ_MODULUS,
    BadLineKind,
    Fault,
    Heartbeat,
    Hello,
    HubMessage,
    Recover,
    TagGone,
    TagRead,
    encode,
)
from controller.readers.hub_tracker import HubTracker
from controller.readers.sightings import ALL_ZONES, ReaderFault, TagSeen


class Feeder:
    """A tracker plus a sequence counter, so each test only says what the hub sends."""

    def __init__(self, **options: object) -> None:
        self.tracker = HubTracker("hub-under-test", **options)  # type: ignore[arg-type]
        self.seq = 0
        self.now = 0.0
        self.tracker.on_connected(self.now)

    def send(self, make, at: float | None = None) -> list:  # type: ignore[no-untyped-def]
        if at is not None:
            self.now = at
        msg: HubMessage = make(self.seq)
        self.seq = (self.seq + 1) % SEQ_MODULUS
        return self.tracker.feed(encode(msg), self.now, 1000 + self.now)

    def tag(self, zone: str, tag: str, at: float | None = None) -> list:  # type: ignore[no-untyped-def]
        return self.send(lambda s: TagRead(s, zone, tag), at)

    def heard_until(self, at: float, every: float = 0.5) -> None:
        """Heartbeats from now to ``at``: the hub heard all along, its tags not read."""
        while self.now + every <= at + 1e-9:
            self.send(lambda s: Heartbeat(s, s), at=self.now + every)

    def sightings(self, events: list) -> list[tuple[str, str]]:  # type: ignore[type-arg]
        return [(e.zone, e.tag) for e in events if isinstance(e, TagSeen)]


def test_a_lying_tag_is_one_sighting_until_it_goes() -> None:
    f = Feeder(removal_silence=None)
    events = f.tag("seat0", "AABBCCDD")
    assert events == [TagSeen("seat0", "AABBCCDD", 1000.0, "hub-under-test")]
    for i in range(9):
        assert f.tag("seat0", "AABBCCDD", at=i) == []
    assert f.tracker.stats.repeats_dropped == 9
    f.send(lambda s: TagGone(s, "seat0", "AABBCCDD"))
    assert f.sightings(f.tag("seat0", "AABBCCDD")) == [("seat0", "AABBCCDD")]
    assert f.tracker.stats.removals == 1


def test_gone_for_another_tag_does_not_remove() -> None:
    f = Feeder(removal_silence=None)
    f.tag("deal", "11111111")
    f.send(lambda s: TagGone(s, "deal", "22222222"))
    assert f.tag("deal", "11111111") == []


def test_another_tag_in_the_zone_is_a_new_sighting() -> None:
    f = Feeder(removal_silence=None)
    f.tag("seat1", "11111111")
    assert f.sightings(f.tag("seat1", "22222222")) == [("seat1", "22222222")]
    assert f.sightings(f.tag("seat1", "11111111")) == [("seat1", "11111111")]


def test_silence_counts_a_tag_again() -> None:
    f = Feeder(removal_silence=1.5, heartbeat_timeout=None)
    f.tag("seat2", "ABCDEF01", at=0.0)
    f.heard_until(1.0)
    assert f.tag("seat2", "ABCDEF01", at=1.0) == []  # within the silence: a repeat
    f.heard_until(2.4)
    assert f.tag("seat2", "ABCDEF01", at=2.4) == []  # the silence runs from the last read
    f.heard_until(4.0)
    assert f.sightings(f.tag("seat2", "ABCDEF01", at=4.0)) == [("seat2", "ABCDEF01")]
    assert f.tracker.stats.silence_expiries == 1


def test_a_host_that_stopped_listening_does_not_count_the_lying_cards_again() -> None:
    """The host stalled 2 s (the Pi busy with its SD card): the hub's repeats waited in
    the port and come in together. The card lay there all along: no new sighting (a
    played-mode table saw the last trick refused as plays of the next hand)."""
    f = Feeder(removal_silence=1.5, heartbeat_timeout=None)
    f.tag("seat0", "ABCDEF01", at=0.0)
    f.tag("seat0", "ABCDEF01", at=0.5)
    f.now = 2.6  # nothing was read from the port from 0.5 s to 2.6 s
    for _ in range(4):
        f.send(lambda s: Heartbeat(s, s))
        assert f.tag("seat0", "ABCDEF01") == []
    assert f.tracker.stats.silence_expiries == 0
    # a gap with no line at all counts as one repeat interval, however long
    assert f.tag("seat0", "ABCDEF01", at=60.0) == []
    # while a tag not read as the hub goes on being heard does count again
    f.heard_until(62.1)
    assert f.sightings(f.tag("seat0", "ABCDEF01")) == [("seat0", "ABCDEF01")]


def test_silence_never_shorter_than_the_hub_repeat_allows() -> None:
    f = Feeder(removal_silence=0.1, heartbeat_timeout=None)
    f.send(lambda s: Hello(s, "1.0", ALL_ZONES, repeat_ms=1000))
    f.tag("trump", "ABCDEF01", at=0.0)
    f.heard_until(2.0)
    assert f.tag("trump", "ABCDEF01", at=2.0) == []  # 2.5 x 1 s, not 0.1 s
    f.heard_until(5.0)
    assert f.sightings(f.tag("trump", "ABCDEF01", at=5.0)) == [("trump", "ABCDEF01")]


def test_silence_clock_stops_while_unplugged() -> None:
    f = Feeder(removal_silence=1.5, heartbeat_timeout=None)
    f.tag("seat3", "ABCDEF01", at=0.0)
    f.tracker.on_disconnected(1.0, 1001.0, "unplugged")
    f.tracker.on_connected(60.0)
    assert f.tag("seat3", "ABCDEF01", at=60.5) == []


def test_sequence_gap_rewind_wrap_and_reboot() -> None:
    f = Feeder(heartbeat_timeout=None)
    f.send(lambda s: Heartbeat(s, 0))
    f.seq += 3
    events = f.send(lambda s: Heartbeat(s, 1))
    assert [e.message for e in events] == ["sequence gap: 3 line(s) lost (expected 1, got 4)"]
    f.tracker.on_connected(0)  # a reconnect: the next line is a new baseline
    f.seq = SEQ_MODULUS - 1
    assert f.send(lambda s: Heartbeat(s, 2)) == []
    assert f.seq == 0
    assert f.send(lambda s: Heartbeat(s, 3)) == []  # 0 follows 65535: no gap
    f.seq = 0
    assert f.send(lambda s: Hello(s, "1.0", ALL_ZONES)) == []  # HELLO 0: the hub rebooted
    f.seq = 0
    events = f.send(lambda s: Heartbeat(s, 0))
    assert "went back" in events[0].message
    f.seq = 40000  # 39999 ahead of 1: more than half the range, so a rewind, not a gap
    assert "went back" in f.send(lambda s: Heartbeat(s, 0))[0].message
    stats = f.tracker.stats
    assert (stats.seq_gaps, stats.lines_missing, stats.seq_rewinds) == (1, 3, 2)


def test_first_line_after_reconnect_sets_a_new_baseline() -> None:
    f = Feeder(heartbeat_timeout=None)
    f.send(lambda s: Heartbeat(s, 0))
    f.tracker.on_disconnected(1.0, 1001.0, "gone")
    f.tracker.on_connected(2.0)
    f.seq = 500
    assert f.send(lambda s: Heartbeat(s, 5)) == []
    assert f.tracker.stats.seq_gaps == 0


def test_heartbeat_loss_is_reported_once_per_silence() -> None:
    f = Feeder(heartbeat_timeout=3.0)
    f.send(lambda s: Heartbeat(s, 0), at=1.0)
    assert f.tracker.tick(3.9, 0) == []
    lost = f.tracker.tick(4.1, 0)
    assert len(lost) == 1 and "no heartbeat" in lost[0].message
    assert f.tracker.tick(10.0, 0) == []
    assert not f.tracker.status().alive
    f.send(lambda s: Heartbeat(s, 9), at=11.0)
    assert f.tracker.status().alive
    assert len(f.tracker.tick(14.5, 0)) == 1
    assert f.tracker.stats.heartbeat_losses == 2


def test_bad_lines_are_counted_each_and_reported_in_batches() -> None:
    f = Feeder(bad_line_report_interval=1.0, heartbeat_timeout=None)
    first = f.tracker.feed(b"noise\n", 0.0, 0.0)
    assert len(first) == 1 and first[0].message.startswith("bad line")
    more = f.tracker.feed(b"a\nb\n$HB 1*0000\n\n", 0.5, 0.5)
    assert more == []
    assert f.tracker.tick(0.9, 0.9) == []
    summary = f.tracker.tick(1.1, 1.1)
    assert len(summary) == 1 and summary[0].message.startswith("4 bad lines")
    stats = f.tracker.stats
    assert stats.bad_lines == 5
    assert stats.bad_by_kind == {
        BadLineKind.NO_START: 3,
        BadLineKind.BAD_CHECKSUM: 1,
        BadLineKind.EMPTY: 1,
    }


def test_a_line_cut_by_disconnect_is_kept_if_whole_and_counted_if_not() -> None:
    f = Feeder(removal_silence=None)
    line = encode(TagRead(0, "seat0", "0A0B0C0D"))
    assert f.tracker.feed(line[:-1], 0, 0) == []  # everything but the line end
    events = f.tracker.on_disconnected(0.1, 0.1, "pulled")
    assert f.sightings(events) == [("seat0", "0A0B0C0D")]
    f.tracker.on_connected(1)
    f.tracker.feed(line[:10], 1, 1)
    events = f.tracker.on_disconnected(1.1, 1.1, "pulled")
    assert f.tracker.stats.bad_by_kind[BadLineKind.TRUNCATED] == 1
    assert [type(e) for e in events] == [ReaderFault, ReaderFault]


def test_reader_faults_and_recovery() -> None:
    f = Feeder()
    events = f.send(lambda s: Fault(s, "trump", "noresp", "reader not responding"))
    assert events[0].zone == "trump" and "noresp" in events[0].message
    assert f.send(lambda s: Fault(s, "trump", "noresp", "again")) == []
    assert f.tracker.status().faulty == {"trump": "noresp"}
    f.send(lambda s: Recover(s, "trump"))
    assert f.tracker.status().faulty == {}
    hub = f.send(lambda s: Fault(s, None, "spi"))
    assert hub[0].zone is None


def test_protocol_version_mismatch_is_a_fault() -> None:
    f = Feeder()
    events = f.send(lambda s: Hello(s, "9.0", ALL_ZONES, proto=2))
    assert "protocol 2" in events[0].message
    assert f.tracker.hello is not None and f.tracker.hello.firmware == "9.0"
