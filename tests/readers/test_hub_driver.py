"""The real driver (pyserial, its own thread) against the virtual hub on a real pty.

Waiting is done on conditions with generous timeouts; no test asserts how long
anything took. Order is what makes them deterministic: the hub writes lines in the
order they were asked for, so after a later "sentinel" line has been read, everything
before it has been too.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable, Iterator

import pytest

from controller.readers.hub import HubConfig, HubDriver, asyncio_sink
from controller.readers.hub_protocol import BadLineKind, Heartbeat, TagRead, encode
from controller.readers.hub_tracker import HubEvent
from controller.readers.sightings import ReaderFault, TagSeen
from controller.readers.virtual_hub import VirtualHub

WAIT = 10.0  # seconds to wait for something that should happen almost at once


class Collector:
    """Thread-safe list of what the driver delivered, with a wait on a predicate."""

    def __init__(self) -> None:
        self.events: list[HubEvent] = []
        self._cond = threading.Condition()

    def __call__(self, event: HubEvent) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def wait_for(self, predicate: Callable[[list[HubEvent]], bool], timeout: float = WAIT) -> None:
        with self._cond:
            if not self._cond.wait_for(lambda: predicate(self.events), timeout):
                raise AssertionError(f"condition not met; events so far: {self.events}")

    def sightings(self) -> list[tuple[str, str]]:
        with self._cond:
            return [(e.zone, e.tag) for e in self.events if isinstance(e, TagSeen)]

    def faults(self, text: str = "") -> list[ReaderFault]:
        with self._cond:
            return [e for e in self.events if isinstance(e, ReaderFault) and text in e.message]

    def wait_seen(self, zone: str, tag: str) -> None:
        self.wait_for(
            lambda ev: any(isinstance(e, TagSeen) and (e.zone, e.tag) == (zone, tag) for e in ev)
        )

    def wait_fault(self, text: str) -> ReaderFault:
        self.wait_for(lambda ev: any(isinstance(e, ReaderFault) and text in e.message for e in ev))
        return self.faults(text)[0]


def wait_until(predicate: Callable[[], bool], timeout: float = WAIT) -> None:
    done = threading.Event()
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        done.wait(0.01)
    raise AssertionError("condition not met")


@pytest.fixture
def hub() -> Iterator[VirtualHub]:
    # No periodic repeats unless a test asks: they would make counts depend on timing.
    with VirtualHub(heartbeat_interval=0.2, repeat_interval=None, hello_interval=None) as vh:
        yield vh


def start_driver(port: str, **options: object) -> tuple[HubDriver, Collector]:
    collector = Collector()
    config = HubConfig(
        port=port,
        removal_silence=options.pop("removal_silence", None),  # type: ignore[arg-type]
        heartbeat_timeout=options.pop("heartbeat_timeout", 30.0),  # type: ignore[arg-type]
        bad_line_report_interval=options.pop("bad_line_report_interval", 0.0),  # type: ignore[arg-type]
        reconnect_initial=0.01,
        reconnect_max=0.1,
        **options,  # type: ignore[arg-type]
    )
    driver = HubDriver(config, collector).start()
    return driver, collector


@pytest.fixture
def driven(hub: VirtualHub) -> Iterator[tuple[VirtualHub, HubDriver, Collector]]:
    driver, collector = start_driver(hub.port)
    assert hub.wait_host(WAIT)
    yield hub, driver, collector
    driver.stop()


def test_a_card_read_arrives_with_hello_info(driven) -> None:  # type: ignore[no-untyped-def]
    hub, driver, got = driven
    hub.place("seat2", "04a1b2c3d4e5f6")
    got.wait_seen("seat2", "04A1B2C3D4E5F6")
    seen = [e for e in got.events if isinstance(e, TagSeen)][0]
    assert seen.source == "rfid-hub"
    hello = driver.hello
    assert hello is not None and hello.firmware == "virtual-1.0"
    assert hello.zones == hub.zones
    assert driver.status().connected


def test_a_tag_read_ten_times_is_one_sighting(driven) -> None:  # type: ignore[no-untyped-def]
    hub, driver, got = driven
    hub.place("seat0", "DEADBEEF", reads=10)
    hub.place("seat1", "CAFEBABE")  # sentinel: once it is seen, all ten reads were read
    got.wait_seen("seat1", "CAFEBABE")
    assert got.sightings() == [("seat0", "DEADBEEF"), ("seat1", "CAFEBABE")]
    assert driver.stats().repeats_dropped == 9
    hub.remove("seat0")
    hub.place("seat0", "DEADBEEF")  # taken away and put back: it counts again
    hub.place("seat1", "0A0B0C0D")
    got.wait_seen("seat1", "0A0B0C0D")
    assert got.sightings().count(("seat0", "DEADBEEF")) == 2


def test_periodic_repeats_do_not_count_again() -> None:
    with VirtualHub(heartbeat_interval=0.2, repeat_interval=0.01, hello_interval=None) as hub:
        driver, got = start_driver(hub.port, removal_silence=None)
        try:
            hub.place("trump", "11223344")
            got.wait_seen("trump", "11223344")
            wait_until(lambda: driver.stats().repeats_dropped >= 5)
            assert got.sightings() == [("trump", "11223344")]
        finally:
            driver.stop()


def test_sequence_gap_is_noticed(driven) -> None:  # type: ignore[no-untyped-def]
    hub, driver, got = driven
    hub.skip_sequence(3)
    hub.place("deal", "01020304")
    fault = got.wait_fault("sequence gap")
    assert "3 line(s) lost" in fault.message
    assert driver.stats().lines_missing == 3


def test_garbage_and_bad_lines_are_counted_and_reported(driven) -> None:  # type: ignore[no-untyped-def]
    hub, driver, got = driven
    hub.inject_garbage(b"$\x00\xffboot banner\r\n")
    hub.inject_garbage(b"half a line with no end")  # glued onto the next line
    hub.inject_truncated()
    hub.inject_bad_checksum()
    hub.place("seat3", "A1A2A3A4")
    got.wait_seen("seat3", "A1A2A3A4")  # read although junk was glued to the line before it
    stats = driver.stats()
    assert stats.bad_lines == 4
    assert stats.bad_by_kind == {
        BadLineKind.NOT_ASCII: 1,
        BadLineKind.NO_START: 1,
        BadLineKind.TRUNCATED: 1,
        BadLineKind.BAD_CHECKSUM: 1,
    }
    assert len(got.faults("bad line")) == 4  # report interval 0: one fault per bad line
    assert stats.lines_missing == 2  # the truncated and the corrupted line each had a seq


def test_reader_fault_and_recovery(driven) -> None:  # type: ignore[no-untyped-def]
    hub, driver, got = driven
    hub.fail_reader("trump")
    fault = got.wait_fault("noresp")
    assert fault.zone == "trump"
    assert driver.status().faulty == {"trump": "noresp"}
    hub.recover_reader("trump")
    wait_until(lambda: driver.status().faulty == {})


def test_heartbeat_silence_is_a_fault(hub: VirtualHub) -> None:
    driver, got = start_driver(hub.port, heartbeat_timeout=0.3)
    try:
        assert hub.wait_host(WAIT)
        wait_until(lambda: driver.stats().heartbeats >= 1)
        hub.pause_heartbeats()
        got.wait_fault("no heartbeat")
        # A heartbeat already on its way when the pause began may still land (a busy
        # machine): wait for the silence to be judged rather than read it at once.
        wait_until(lambda: not driver.status().alive)
        assert driver.status().connected
        hub.resume_heartbeats()
        wait_until(lambda: driver.status().alive)
    finally:
        driver.stop()


def test_unplug_mid_stream_loses_no_sighting(driven) -> None:  # type: ignore[no-untyped-def]
    hub, driver, got = driven
    hub.place("seat0", "00000001")
    got.wait_seen("seat0", "00000001")
    # Lines still in flight when the cable goes: they may or may not reach the host.
    hub.place("seat1", "00000002")
    hub.place("seat2", "00000003")
    hub.unplug()
    hub.place("seat3", "00000004")  # put down while the hub is unplugged
    got.wait_fault("hub disconnected")
    assert not driver.status().connected
    hub.replug()
    assert hub.wait_host(WAIT)
    for zone, tag in [("seat1", "00000002"), ("seat2", "00000003"), ("seat3", "00000004")]:
        got.wait_seen(zone, tag)
    hub.place("deal", "00000005")  # and it carries on
    got.wait_seen("deal", "00000005")
    # Every card exactly once: the one already seen before the unplug is not repeated.
    assert sorted(got.sightings()) == [
        ("deal", "00000005"),
        ("seat0", "00000001"),
        ("seat1", "00000002"),
        ("seat2", "00000003"),
        ("seat3", "00000004"),
    ]
    stats = driver.stats()
    assert (stats.connects, stats.disconnects) == (2, 1)
    assert stats.seq_gaps == 0  # the hub rebooted (HELLO 0): a new count, not a gap


def test_unplug_replug_many_times(driven) -> None:  # type: ignore[no-untyped-def]
    hub, driver, got = driven
    for i in range(5):
        hub.place("seat0", f"{i:08X}")
        hub.unplug()
        hub.replug()
        assert hub.wait_host(WAIT)  # the driver has the new pty open, so it saw the unplug
        got.wait_seen("seat0", f"{i:08X}")
    assert got.sightings() == [("seat0", f"{i:08X}") for i in range(5)]
    assert driver.stats().disconnects == 5


def test_driver_started_before_the_hub_is_plugged_in(tmp_path) -> None:  # type: ignore[no-untyped-def]
    hub = VirtualHub(link_path=tmp_path / "ttyHUB", heartbeat_interval=0.2, repeat_interval=None)
    driver, got = start_driver(hub.port)
    try:
        got.wait_fault("cannot open")
        wait_until(lambda: driver.stats().open_failures >= 2)
        assert len(got.faults("cannot open")) == 1  # once per outage, not per attempt
        with hub:
            hub.place("trump", "0F0E0D0C")
            got.wait_seen("trump", "0F0E0D0C")
    finally:
        driver.stop()


def test_events_queue_and_asyncio_consumer(hub: VirtualHub) -> None:
    async def consume() -> TagSeen:
        loop = asyncio.get_running_loop()
        events: asyncio.Queue[HubEvent] = asyncio.Queue()
        driver = HubDriver(
            HubConfig(port=hub.port, removal_silence=None), asyncio_sink(loop, events)
        ).start()
        try:
            await loop.run_in_executor(None, hub.wait_host, WAIT)
            hub.place("seat1", "ABCDEF12")
            while True:
                event = await asyncio.wait_for(events.get(), WAIT)
                if isinstance(event, TagSeen):
                    return event
        finally:
            driver.stop()

    seen = asyncio.run(consume())
    assert (seen.zone, seen.tag) == ("seat1", "ABCDEF12")


def test_default_delivery_is_the_events_queue(hub: VirtualHub) -> None:
    with HubDriver(HubConfig(port=hub.port, removal_silence=None)) as driver:
        hub.place("deal", "12345678")
        while True:
            event = driver.events.get(timeout=WAIT)
            if isinstance(event, TagSeen):
                break
    assert event.tag == "12345678"


def test_socket_url_works_too() -> None:
    """``socket://`` through ``serial_for_url``: a hub behind a TCP bridge (ser2net)."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    done = threading.Event()

    def serve() -> None:
        # pyserial empties its input right after connecting, so, like the firmware,
        # keep repeating the lying tag rather than saying it once.
        conn, _ = server.accept()
        with conn:
            seq = 0
            while not done.is_set():
                conn.sendall(
                    encode(Heartbeat(seq, 0)) + encode(TagRead(seq + 1, "seat3", "99887766"))
                )
                seq += 2
                done.wait(0.02)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    driver, got = start_driver(f"socket://127.0.0.1:{port}")
    try:
        got.wait_seen("seat3", "99887766")
        wait_until(lambda: driver.stats().repeats_dropped >= 2)
        assert got.sightings() == [("seat3", "99887766")]
    finally:
        done.set()
        driver.stop()
        thread.join(WAIT)
        server.close()
