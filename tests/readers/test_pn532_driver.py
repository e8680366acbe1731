"""The PN532 driver against the simulated PN532 on a real pseudo-terminal."""

from __future__ import annotations

import queue
import threading

import pytest

from controller.readers.pn532 import Pn532Reader, Presence
from controller.readers.pn532_commands import RETRY_FOREVER
from controller.readers.pn532_frames import Command
from controller.readers.pn532_sim import SimFault, SimulatedPn532
from controller.readers.sightings import ReaderFault, TagSeen

UID = "04A1B2C3"
UID7 = "04112233445566"


@pytest.fixture
def sim():
    with SimulatedPn532() as chip:
        yield chip


@pytest.fixture
def reader(sim):
    # Generous time-outs: a loaded test machine must not look like a silent chip.
    r = Pn532Reader(
        "seat2", sim.port, poll_interval=0, removal_polls=2, ack_timeout=1.0, response_timeout=2.0
    )
    yield r
    r.close()


def tags(results):
    return [s.tag for s in results if isinstance(s, TagSeen)]


def faults(results):
    return [s for s in results if isinstance(s, ReaderFault)]


def command_codes(sim):
    return [code for code, _ in sim.commands]


# ------------------------------------------------------------------ set-up


def test_first_poll_wakes_and_configures_the_chip(sim, reader):
    assert sim.asleep
    assert reader.poll() == []
    assert sim.wakeups == 1 and sim.sam_configured
    assert reader.firmware == sim.firmware
    assert sim.passive_retries == 1  # so an empty table answers at once
    assert command_codes(sim) == [
        Command.SAM_CONFIGURATION,
        Command.GET_FIRMWARE_VERSION,
        Command.RF_CONFIGURATION,
        Command.IN_LIST_PASSIVE_TARGET,
    ]


def test_a_chip_that_lost_power_is_woken_and_configured_again(sim, reader):
    sim.place(UID)
    assert tags(reader.poll()) == [UID]
    sim.power_cycle()
    seen = []
    for _ in range(reader.failures_before_reset + 1):
        seen += reader.poll()
    assert len(faults(seen)) == reader.failures_before_reset
    assert "no ACK" in faults(seen)[0].message
    assert sim.wakeups == 2 and sim.sam_configured
    # still the same card on the reader: no second sighting
    assert tags(seen) == []


# ------------------------------------------------------------------ sightings


def test_one_sighting_per_placement(sim, reader):
    sim.place(UID)
    first = reader.poll()
    assert first == [TagSeen(zone="seat2", tag=UID, at=first[0].at, source=f"pn532:{sim.port}")]
    assert tags(reader.poll() + reader.poll() + reader.poll()) == []
    assert sim.reads_of(UID) == 4


def test_removal_needs_n_empty_polls(sim, reader):
    sim.place(UID)
    assert tags(reader.poll()) == [UID]
    sim.remove()
    reader.poll()  # one miss: a card at the edge of the field
    sim.place(UID)
    assert tags(reader.poll()) == []
    sim.remove()
    reader.poll()
    reader.poll()  # two misses: gone
    sim.place(UID)
    assert tags(reader.poll()) == [UID]


def test_seven_byte_uid_and_a_swap_without_gap(sim, reader):
    sim.place(UID)
    sim_first = tags(reader.poll())
    sim.place(UID7)  # another card slid on top: a new placement at once
    assert sim_first + tags(reader.poll()) == [UID, UID7]


def test_empty_reader_gives_nothing(sim, reader):
    assert reader.poll() + reader.poll() == []
    assert sim.empty_answers == 2


# ------------------------------------------------------------------ faults


def test_damaged_answer_is_reported_then_asked_for_again(sim, reader):
    reader.poll()
    sim.place(UID)
    sim.inject(SimFault.BAD_DCS)
    out = reader.poll()
    assert tags(out) == [UID]
    (fault,) = [f for f in faults(out) if "bad data checksum" in f.message]
    assert fault.zone == "seat2" and fault.source == reader.source
    assert sim.nacks_received == 1


def test_broken_length_checksum_is_reported_and_recovered(sim, reader):
    reader.poll()
    sim.place(UID)
    sim.inject(SimFault.BAD_LCS)
    out = reader.poll()
    assert tags(out) == [UID]
    assert any("bad length checksum" in f.message for f in faults(out))
    assert reader.link is not None and reader.link.decoder.stats.bad_frames >= 1


def test_nack_from_the_chip_makes_the_driver_send_again(sim, reader):
    reader.poll()
    sim.place(UID)
    sim.inject(SimFault.NACK)
    before = command_codes(sim).count(Command.IN_LIST_PASSIVE_TARGET)
    out = reader.poll()
    assert tags(out) == [UID] and faults(out) == []
    assert command_codes(sim).count(Command.IN_LIST_PASSIVE_TARGET) == before + 2


def test_error_frame_is_a_fault_and_the_next_poll_works(sim, reader):
    reader.poll()
    sim.place(UID)
    sim.inject(SimFault.ERROR_FRAME)
    out = reader.poll()
    assert tags(out) == [] and "error frame" in faults(out)[0].message
    assert tags(reader.poll()) == [UID]


def test_silence_is_a_timeout_fault(sim, reader):
    reader.poll()
    sim.inject(SimFault.SILENCE)
    (fault,) = reader.poll()
    assert isinstance(fault, ReaderFault) and "no ACK" in fault.message


def test_missing_answer_is_a_timeout_fault(sim, reader):
    reader.poll()
    sim.inject(SimFault.NO_RESPONSE)
    (fault,) = reader.poll()
    assert "no answer" in fault.message


def test_line_noise_is_reported_and_the_tag_still_read(sim, reader):
    reader.poll()
    sim.place(UID)
    sim.inject(SimFault.GARBAGE)
    out = reader.poll()
    assert tags(out) == [UID]
    assert any("noise" in f.message for f in faults(out))


def test_missing_port_is_a_fault_not_a_crash():
    r = Pn532Reader("deal", "/dev/does-not-exist-pn532")
    (fault,) = r.poll()
    assert isinstance(fault, ReaderFault) and "/dev/does-not-exist-pn532" in fault.message


def test_unknown_zone_is_refused():
    with pytest.raises(ValueError, match="zone"):
        Pn532Reader("seat9", "/dev/null")


# ------------------------------------------------------------------ retry for ever


def test_waiting_command_answers_when_a_tag_arrives(sim):
    r = Pn532Reader(
        "deal", sim.port, passive_retries=RETRY_FOREVER, response_timeout=10, ack_timeout=1.0
    )
    try:
        result: list = []
        t = threading.Thread(target=lambda: result.extend(r.poll()))
        t.start()
        assert sim.wait_for(lambda: sim.waiting)
        sim.place(UID)
        t.join(timeout=10)
        assert tags(result) == [UID]
    finally:
        r.close()


def test_waiting_command_is_aborted_on_timeout(sim):
    r = Pn532Reader(
        "deal", sim.port, passive_retries=RETRY_FOREVER, response_timeout=0.2, ack_timeout=1.0
    )
    try:
        (fault,) = r.poll()
        assert "no answer" in fault.message
        assert sim.wait_for(lambda: sim.aborts == 1)
    finally:
        r.close()


# ------------------------------------------------------------------ running


def test_background_thread_reports_each_tap(sim):
    got: queue.Queue = queue.Queue()
    r = Pn532Reader("trump", sim.port, poll_interval=0.005, removal_polls=2, ack_timeout=1.0)
    r.start(got.put)
    try:
        uids = [UID, UID7, UID]
        for uid in uids:
            sim.tap(uid, empty_polls=2)
        seen = []
        while len(seen) < 3:
            s = got.get(timeout=5)
            if isinstance(s, TagSeen):
                seen.append(s)
        assert [s.tag for s in seen] == uids
        assert {s.zone for s in seen} == {"trump"}
    finally:
        r.close()
    assert [s for s in list(got.queue) if isinstance(s, TagSeen)] == []  # nothing twice


def test_sightings_generator_stops_on_request(sim):
    stop = threading.Event()
    r = Pn532Reader("seat0", sim.port, poll_interval=0.005, ack_timeout=1.0)
    sim.place(UID)
    for s in r.sightings(stop):
        assert isinstance(s, TagSeen) and s.tag == UID
        stop.set()
    r.close()


# ------------------------------------------------------------------ presence


def test_presence_counts_misses():
    p = Presence(removal_polls=3)
    assert p.update("A") is True
    assert [p.update(None), p.update(None), p.update("A")] == [False, False, False]
    assert [p.update(None) for _ in range(3)] == [False] * 3
    assert p.current is None
    assert p.update("A") is True
    assert p.update("B") is True


def test_presence_needs_at_least_one_poll():
    with pytest.raises(ValueError):
        Presence(0)
