"""The hub's polling and debounce, under CPython with fake readers and a fake clock.

The clock is the test's: a step returns how long the Pico would sleep and the test
moves time on by exactly that, so every time checked here is exact, not measured.
"""

from __future__ import annotations

from controller.readers import hub_protocol as host
from controller.readers.hub_tracker import HubTracker
from controller.readers.sightings import TagSeen
from firmware import hubproto
from firmware.poller import Poller, fault_code

TICKS_PERIOD = 1 << 30  # time.ticks_ms() on the RP2040 wraps here


class Clock:
    def __init__(self, start: int = 0, period: int | None = None) -> None:
        self.now = start
        self.period = period

    def ticks_ms(self) -> int:
        return self.now % self.period if self.period else self.now

    def advance(self, ms: int) -> None:
        self.now += ms


def ticks_diff(a: int, b: int) -> int:
    """MicroPython's ticks_diff for a 30-bit period."""
    return ((a - b + TICKS_PERIOD // 2) % TICKS_PERIOD) - TICKS_PERIOD // 2


def ticks_add(a: int, b: int) -> int:
    return (a + b) % TICKS_PERIOD


class ReaderDown(Exception):
    code = "noresp"


class FakeReader:
    """A reader whose card and health the test sets; it logs every call with the time."""

    def __init__(self, zone: str, clock: Clock, log: list[tuple[int, str, str]]) -> None:
        self.zone = zone
        self.clock = clock
        self.log = log
        self.uid: bytes | None = None
        self.broken: Exception | None = None
        self.init_broken: Exception | None = None
        self.field = False

    def init(self) -> None:
        self.log.append((self.clock.now, "init", self.zone))
        if self.init_broken:
            raise self.init_broken

    def activate(self) -> None:
        self.log.append((self.clock.now, "on", self.zone))
        self.field = True

    def read_uid(self) -> bytes | None:
        self.log.append((self.clock.now, "read", self.zone))
        if self.broken:
            raise self.broken
        return self.uid

    def deactivate(self) -> None:
        self.log.append((self.clock.now, "off", self.zone))
        self.field = False


class Hub:
    """Poller + fake readers + the lines it wrote, decoded by the host's decoder."""

    def __init__(
        self, zones=("seat0", "seat1", "seat2", "seat3", "deal", "trump"), clock=None, **options
    ):  # type: ignore[no-untyped-def]
        self.clock = clock or Clock()
        self.log: list[tuple[int, str, str]] = []
        self.readers = {z: FakeReader(z, self.clock, self.log) for z in zones}
        self.lines: list[tuple[int, bytes]] = []
        writer = hubproto.LineWriter(lambda line: self.lines.append((self.clock.now, line)))
        if self.clock.period:
            options.setdefault("ticks_diff", ticks_diff)
            options.setdefault("ticks_add", ticks_add)
        self.poller = Poller(list(self.readers.values()), writer, self.clock.ticks_ms, **options)

    def run_for(self, ms: int) -> None:
        end = self.clock.now + ms
        while self.clock.now < end:
            wait = self.poller.step()
            self.clock.advance(wait if wait > 0 else 1)

    def messages(self, kind: type | None = None) -> list[tuple[int, host.HubMessage]]:
        out = [(t, host.decode_line(line[:-1])) for t, line in self.lines]
        return [(t, m) for t, m in out if kind is None or isinstance(m, kind)]


def test_readers_take_turns_one_field_at_a_time_with_the_hold() -> None:
    hub = Hub(hold_ms=7, gap_ms=2)
    hub.run_for(200)
    turns = [(t, what, z) for t, what, z in hub.log if what != "init"]
    zones = list(hub.readers)
    # Strict rotation: on/read/off for one reader, then the next, round and round.
    for i in range(0, len(turns) - 2, 3):
        (t_on, a, z1), (t_read, b, z2), (t_off, c, z3) = turns[i : i + 3]
        assert (a, b, c) == ("on", "read", "off")
        assert z1 == z2 == z3 == zones[(i // 3) % len(zones)]
        assert t_read - t_on == 7  # the hold: field on, then read 7 ms later
        assert t_off == t_read
    assert len(turns) >= 3 * 2 * len(zones)  # went round at least twice


def test_a_lying_tag_is_tag_then_repeats_then_gone() -> None:
    hub = Hub(repeat_ms=500, gone_misses=3, hold_ms=8, gap_ms=1)
    cycle = 6 * 9
    hub.readers["seat1"].uid = bytes.fromhex("04A1B2C3D4E5F6")
    hub.run_for(2000)
    tags = hub.messages(host.TagRead)
    assert all(m.zone == "seat1" and m.tag == "04A1B2C3D4E5F6" for _, m in tags)
    times = [t for t, _ in tags]
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert len(times) >= 3
    assert all(500 <= g < 500 + cycle for g in gaps)  # the repeat, to within one turn
    hub.readers["seat1"].uid = None
    hub.run_for(1000)
    gone = hub.messages(host.TagGone)
    assert [m.tag for _, m in gone] == ["04A1B2C3D4E5F6"]
    assert len(hub.messages(host.TagRead)) == len(tags)  # nothing more after it went


def test_a_missed_read_or_two_is_not_a_removal() -> None:
    hub = Hub(zones=("deal",), gone_misses=3, repeat_ms=10_000)
    reader = hub.readers["deal"]
    reader.uid = b"\x01\x02\x03\x04"
    hub.run_for(100)
    for _ in range(5):  # the card is straightened: two bad reads, then read again
        reader.uid = None
        reads_before = sum(1 for _, w, _ in hub.log if w == "read")
        while sum(1 for _, w, _ in hub.log if w == "read") < reads_before + 2:
            hub.clock.advance(hub.poller.step() or 1)
        reader.uid = b"\x01\x02\x03\x04"
        hub.run_for(50)
    assert len(hub.messages(host.TagRead)) == 1
    assert hub.messages(host.TagGone) == []


def test_another_card_replacing_the_first_is_gone_then_tag() -> None:
    hub = Hub(zones=("seat2",))
    hub.readers["seat2"].uid = b"\xaa\xbb\xcc\xdd"
    hub.run_for(50)
    hub.readers["seat2"].uid = b"\x11\x22\x33\x44"
    hub.run_for(50)
    kinds = [(type(m).__name__, m.tag) for _, m in hub.messages() if hasattr(m, "tag")]
    assert kinds == [("TagRead", "AABBCCDD"), ("TagGone", "AABBCCDD"), ("TagRead", "11223344")]


def test_a_reader_that_raises_is_one_fault_then_recover() -> None:
    hub = Hub(retry_ms=300)
    hub.run_for(100)
    hub.readers["trump"].broken = ReaderDown("no answer from PN532")
    hub.readers["seat0"].uid = b"\x0a\x0b\x0c\x0d"
    hub.run_for(1000)
    faults = hub.messages(host.Fault)
    assert [(m.zone, m.code, m.detail) for _, m in faults] == [
        ("trump", "noresp", "no answer from PN532")
    ]
    # The others kept going while it was down.
    assert [m.zone for _, m in hub.messages(host.TagRead)][:1] == ["seat0"]
    # A broken reader is set up again, and only tried every retry_ms.
    tries = [t for t, what, z in hub.log if z == "trump" and what == "init"]
    assert len(tries) >= 3
    assert all(b - a >= 300 for a, b in zip(tries[1:], tries[2:], strict=False))
    hub.readers["trump"].broken = None
    hub.readers["trump"].uid = b"\x01\x01\x01\x01"
    hub.run_for(1000)
    recovered = hub.messages(host.Recover)
    assert [m.zone for _, m in recovered] == ["trump"]
    assert "01010101" in [m.tag for _, m in hub.messages(host.TagRead)]


def test_a_reader_that_fails_to_start_is_reported_after_hello() -> None:
    hub = Hub(zones=("seat0", "seat1"))
    hub.readers["seat1"].init_broken = OSError(5, "EIO")
    hub.run_for(10)
    first = [m for _, m in hub.messages()][:2]
    assert isinstance(first[0], host.Hello) and first[0].seq == 0
    assert first[0].zones == ("seat0", "seat1")
    assert isinstance(first[1], host.Fault) and (first[1].zone, first[1].code) == ("seat1", "init")


def test_heartbeats_and_hellos_on_their_timers() -> None:
    hub = Hub(heartbeat_ms=1000, hello_ms=5000)
    hub.run_for(10_500)
    beats = [t for t, _ in hub.messages(host.Heartbeat)]
    assert len(beats) == 11
    assert all(1000 <= b - a < 1100 for a, b in zip(beats, beats[1:], strict=False))
    uptimes = [m.uptime_s for _, m in hub.messages(host.Heartbeat)]
    assert uptimes == sorted(uptimes) and uptimes[-1] == 10
    assert len(hub.messages(host.Hello)) == 3  # at start, at 5 s, at 10 s
    seqs = [m.seq for _, m in hub.messages()]
    assert seqs == list(range(len(seqs)))


def test_the_30_bit_tick_wrap_changes_nothing() -> None:
    clock = Clock(start=TICKS_PERIOD - 3000, period=TICKS_PERIOD)
    hub = Hub(zones=("seat3",), clock=clock, heartbeat_ms=1000, repeat_ms=500)
    hub.readers["seat3"].uid = b"\xca\xfe\xba\xbe"
    hub.run_for(6000)  # crosses the wrap half-way
    beats = [t for t, _ in hub.messages(host.Heartbeat)]
    assert all(1000 <= b - a < 1100 for a, b in zip(beats, beats[1:], strict=False))
    tags = [t for t, _ in hub.messages(host.TagRead)]
    assert len(tags) >= 11 and all(500 <= b - a < 600 for a, b in zip(tags, tags[1:], strict=False))
    assert hub.messages(host.TagGone) == []


def test_firmware_output_through_the_host_tracker() -> None:
    """End to end without a wire: the sightings the referee would get from this hub."""
    hub = Hub()
    script = [
        ("seat0", b"\x04\xa1\xb2\xc3"),
        ("seat1", b"\x04\xa1\xb2\xc4"),
        ("seat0", None),
        ("seat2", b"\x04\xa1\xb2\xc5"),
        ("seat0", b"\x04\xa1\xb2\xc3"),
    ]
    for zone, uid in script:
        hub.readers[zone].uid = uid
        hub.run_for(1500)
    tracker = HubTracker(removal_silence=1.5, heartbeat_timeout=3.0)
    tracker.on_connected(0)
    events = []
    for t, line in hub.lines:
        events += tracker.feed(line, t / 1000, t / 1000)
        events += tracker.tick(t / 1000, t / 1000)
    seen = [(e.zone, e.tag) for e in events if isinstance(e, TagSeen)]
    assert seen == [
        ("seat0", "04A1B2C3"),
        ("seat1", "04A1B2C4"),
        ("seat2", "04A1B2C5"),
        ("seat0", "04A1B2C3"),
    ]
    assert tracker.stats.bad_lines == 0 and tracker.stats.seq_gaps == 0
    assert [e for e in events if not isinstance(e, TagSeen)] == []  # no faults at all


def test_fault_codes_are_protocol_tokens() -> None:
    assert fault_code(ReaderDown()) == "noresp"
    assert fault_code(OSError(5, "EIO")) == "io"
    assert fault_code(ValueError("x")) == "error"

    class Weird(Exception):
        code = "has space"

    assert fault_code(Weird()) == "error"


class Pile(Exception):
    code = "pile"


def test_a_pile_is_reported_as_such_and_the_lying_tag_is_kept() -> None:
    hub = Hub(zones=("seat0", "seat1"), retry_ms=300, repeat_ms=10_000)
    reader = hub.readers["seat1"]
    reader.uid = b"\x04\xa1\xb2\xc3"
    hub.run_for(100)
    reader.broken = Pile("two or more cards on the reader: none can be read")  # a card on top
    hub.run_for(1000)
    reader.broken = None  # the top card is lifted: the first one is read again
    hub.run_for(200)
    kinds = [
        type(m).__name__
        for _, m in hub.messages()
        if not isinstance(m, host.Heartbeat | host.Hello)
    ]
    assert kinds == ["TagRead", "Fault", "Recover"]  # no GONE for the card under the pile
    ((_, fault),) = hub.messages(host.Fault)
    assert (fault.zone, fault.code) == ("seat1", "pile")
    # a pile is not a broken reader: it is not set up again, and read every round
    assert [what for _, what, z in hub.log if z == "seat1"].count("init") == 1


def test_fault_lines_are_rate_limited_per_reader() -> None:
    hub = Hub(zones=("seat0", "deal"), retry_ms=100, fault_ms=5000)
    reader = hub.readers["deal"]
    for _ in range(10):  # a loose wire: the reader comes and goes, in under fault_ms in all
        reader.broken = ReaderDown("no answer")
        hub.run_for(150)
        reader.broken = None
        hub.run_for(300)
    assert [(m.zone, m.detail) for _, m in hub.messages(host.Fault)] == [("deal", "no answer")]
    assert len(hub.messages(host.Recover)) == 1
    hub.run_for(5000)
    reader.broken = ReaderDown("no answer")  # later than fault_ms: said again, with the count
    hub.run_for(200)
    details = [m.detail for _, m in hub.messages(host.Fault)]
    assert details == ["no answer", "(9 more not sent) no answer"]
