"""The host telling the hub which zones to poll (ZONES): the request, the tracker, the
driver against the virtual hub on a real pty, and the modelled reader turns.

A hub with older firmware (reads nothing) or one that refuses the command must leave
the table working as before, and a replugged hub must be told again.
"""

from __future__ import annotations

import pytest

from controller.readers.hub_poll_model import PollModel, Reading, Report
from controller.readers.hub_protocol import (
    Heartbeat,
    Hello,
    Refused,
    TagRead,
    Zones,
    decode_command,
    zones_command,
)
from controller.readers.hub_zones import ZoneRequest, zone_tuple
from controller.readers.sightings import ALL_ZONES
from controller.readers.virtual_hub import HubCommands, VirtualHub
from tests.readers.test_hub_driver import WAIT, start_driver, wait_until
from tests.readers.test_hub_tracker import Feeder

DEAL = ("deal",)

# --- the request ------------------------------------------------------------------------


def sent(line: bytes | None) -> list[str] | None:
    return None if line is None else decode_command(line[:-1])


def test_the_wish_is_sent_once_and_not_again_once_answered() -> None:
    r = ZoneRequest(answer_timeout=1.0)
    r.want(["deal"])
    assert sent(r.due(0.0)) == ["ZONES", "deal"]
    assert r.due(0.5) is None  # waiting for the answer
    r.on_answer(DEAL, ALL_ZONES)
    assert r.polled == DEAL and r.due(5.0) is None
    r.want(None)
    assert sent(r.due(5.0)) == ["ZONES", "all"]
    r.on_answer(ALL_ZONES, ALL_ZONES)
    assert r.polled is None


def test_an_unanswered_wish_is_sent_three_times_then_the_host_gives_up() -> None:
    r = ZoneRequest(answer_timeout=1.0, tries=3)
    r.want(["deal"])
    times = [t / 10 for t in range(0, 100)]
    lines = [t for t in times if r.due(t) is not None]
    assert lines == [0.0, 1.0, 2.0]
    assert r.gave_up and r.polled is None  # an older hub polls every reader
    r.on_connected()  # the next link asks again
    assert sent(r.due(20.0)) == ["ZONES", "deal"]


def test_a_refusal_ends_the_asking_but_a_damaged_command_is_sent_again() -> None:
    r = ZoneRequest()
    r.want(["deal"])
    r.due(0.0)
    r.on_refused("frame")
    assert sent(r.due(0.1)) == ["ZONES", "deal"]
    r.on_refused("unknown")
    assert r.gave_up and r.due(10.0) is None
    r.on_reboot()  # maybe it was flashed with newer firmware
    assert sent(r.due(10.0)) == ["ZONES", "deal"]


def test_an_answer_to_an_older_wish_sends_the_new_one_at_once() -> None:
    r = ZoneRequest(answer_timeout=1.0)
    r.want(["deal"])
    r.due(0.0)
    r.want(None)  # the deal ended before the hub answered
    r.on_answer(DEAL, ALL_ZONES)
    assert sent(r.due(0.2)) == ["ZONES", "all"]


def test_the_wish_is_cut_to_the_readers_the_hub_has() -> None:
    r = ZoneRequest()
    r.want(["trump", "deal"])
    hub = ("seat0", "seat1", "seat2", "seat3", "deal")
    assert sent(r.due(0.0, hub)) == ["ZONES", "deal"]
    r.want(["trump"])
    assert sent(r.due(0.0, hub)) == ["ZONES", "all"]  # nothing left: every reader
    assert zone_tuple(["trump", "deal", "deal"]) == ("deal", "trump")
    with pytest.raises(ValueError):
        zone_tuple(["table"])
    with pytest.raises(ValueError):
        zones_command(())


# --- the tracker ------------------------------------------------------------------------


def paused_then_back(pause: bool) -> list[tuple[str, str]]:
    """A card on seat1, 5 s away from the hub's turns (or not), then read again."""
    f = Feeder(removal_silence=1.5)
    f.send(lambda s: Hello(s, "1.1.0", ALL_ZONES, repeat_ms=500))
    f.tag("seat1", "04A1B2C3", at=0.0)
    if pause:
        f.send(lambda s: Zones(s, DEAL), at=0.1)
    for t in range(1, 6):
        f.send(lambda s, t=t: Heartbeat(s, t), at=float(t))
    if pause:
        f.send(lambda s: Zones(s, ALL_ZONES), at=5.5)
    return f.sightings(f.tag("seat1", "04A1B2C3", at=5.6))


def test_a_card_on_a_zone_not_polled_is_not_counted_again_when_polled_again() -> None:
    assert paused_then_back(pause=True) == []
    assert paused_then_back(pause=False) == [("seat1", "04A1B2C3")]  # the silence ran out


def test_a_rebooted_hub_polls_every_reader_and_is_told_again() -> None:
    f = Feeder()
    f.tracker.zones.want(["deal"])
    assert f.tracker.zone_command(0.0) is not None
    f.send(lambda s: Zones(s, DEAL))
    assert f.tracker.status().polled == DEAL and f.tracker.zone_command(0.1) is None
    f.seq = 0
    f.send(lambda s: Hello(s, "1.1.0", ALL_ZONES))
    assert f.tracker.status().polled is None
    assert sent(f.tracker.zone_command(0.2)) == ["ZONES", "deal"]
    f.send(lambda s: Refused(s, "unknown", "ZONES"))
    assert f.tracker.stats.commands_refused == 1 and f.tracker.zone_command(9.0) is None


# --- the driver and the virtual hub on a pty -------------------------------------------


def test_the_hub_is_told_to_poll_the_deal_spot_and_told_again_after_a_replug() -> None:
    with VirtualHub(heartbeat_interval=0.2, hello_interval=None) as hub:
        driver, got = start_driver(hub.port)
        try:
            assert hub.wait_host(WAIT)
            driver.poll_zones(["deal"])
            wait_until(lambda: hub.polled == DEAL and driver.status().polled == DEAL)
            assert driver.status().takes_commands is True
            hub.unplug()
            hub.replug()  # a rebooted hub polls every reader
            assert hub.polled == ALL_ZONES
            wait_until(lambda: hub.polled == DEAL and driver.status().polled == DEAL)
            assert hub.commands_read[-1] == ["ZONES", "deal"]
            hub.place("deal", "0D200001")
            got.wait_seen("deal", "0D200001")
            driver.poll_zones(None)
            wait_until(lambda: hub.polled == ALL_ZONES and driver.status().polled is None)
        finally:
            driver.stop()


@pytest.mark.parametrize("firmware", [HubCommands.IGNORED, HubCommands.REFUSED])
def test_a_hub_that_does_not_take_the_command_works_as_before(firmware: HubCommands) -> None:
    with VirtualHub(heartbeat_interval=0.2, hello_interval=None, commands=firmware) as hub:
        driver, got = start_driver(hub.port, answer_timeout=0.2)
        try:
            assert hub.wait_host(WAIT)
            driver.poll_zones(["deal"])
            wait_until(lambda: driver.status().takes_commands is False)
            sent_before = driver.stats().commands_sent
            assert sent_before >= (3 if firmware is HubCommands.IGNORED else 1)
            for zone in ALL_ZONES:  # every reader is still read
                hub.place(zone, f"0D{ALL_ZONES.index(zone):02d}0001")
                got.wait_seen(zone, f"0D{ALL_ZONES.index(zone):02d}0001")
            assert driver.status().polled is None and hub.polled == ALL_ZONES
            assert driver.status().connected and not got.faults()
            driver.poll_zones(None)
            driver.poll_zones(["deal"])  # still nothing more is sent on this link
            hub.send(lambda seq: TagRead(seq, "seat0", "0D0000FF"))
            got.wait_seen("seat0", "0D0000FF")  # the driver went round its loop since
            assert driver.stats().commands_sent == sent_before
        finally:
            driver.stop()


def test_a_zone_not_polled_on_the_virtual_hub_is_read_once_polled_again() -> None:
    with VirtualHub(heartbeat_interval=0.2, repeat_interval=None, hello_interval=None) as hub:
        driver, got = start_driver(hub.port)
        try:
            assert hub.wait_host(WAIT)
            driver.poll_zones(["deal"])
            wait_until(lambda: driver.status().polled == DEAL)
            hub.place("seat0", "0D000001")  # nobody looks at seat0 now
            hub.place("deal", "0D040001")
            got.wait_seen("deal", "0D040001")
            assert ("seat0", "0D000001") not in got.sightings()
            driver.poll_zones(None)
            got.wait_seen("seat0", "0D000001")
        finally:
            driver.stop()


# --- the modelled reader turns ----------------------------------------------------------


def slide(model: PollModel, start: float, dwell: float) -> list[Report]:
    model.place("deal", "0D000001", start)
    model.remove("deal", start + dwell)
    return model.run(start + 1.0)


@pytest.mark.parametrize("phase", [i / 1000 for i in range(0, 150, 7)])
def test_a_card_slid_past_in_less_than_a_round_can_be_missed_but_not_by_the_deal_reader_alone(
    phase: float,
) -> None:
    every = PollModel(ALL_ZONES, turn=0.025)
    alone = PollModel(ALL_ZONES, turn=0.025)
    alone.choose(DEAL)
    # 55 ms over the spot: longer than two turns, shorter than a round of six
    assert [r.kind for r in slide(alone, phase, 0.055)] == [Reading.TAG, Reading.GONE]
    reads = [r.kind for r in slide(every, phase, 0.055)]
    assert reads in ([], [Reading.TAG, Reading.GONE])
    # a card that stays over a whole round and a turn is always read
    assert Reading.TAG in [r.kind for r in slide(every, phase + 2.0, 0.175)]


def test_the_model_misses_some_at_every_phase_and_repeats_a_lying_card() -> None:
    missed = sum(not slide(PollModel(ALL_ZONES, turn=0.025), p / 1000, 0.055) for p in range(150))
    assert 0 < missed < 150
    model = PollModel(ALL_ZONES, turn=0.025, repeat=0.5)
    model.place("seat1", "04A1B2C3", 0.0)
    reads = model.run(2.0)
    assert reads[0] == Report(Reading.TAG, "seat1", "04A1B2C3")
    assert 3 <= len(reads) <= 5 and all(r.kind is Reading.TAG for r in reads)


# --- the new lines on the wire ---------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [b"ZONES 3 deal,table", b"ZONES 3 deal,deal", b"ZONES 3", b"ERR 4", b"ERR 4 Bad!code", b"ERR 4 zone  "],
)
def test_a_bad_answer_is_refused_by_the_decoder(body: bytes) -> None:
    from controller.readers.hub_protocol import HubLineError, decode_line, frame

    with pytest.raises(HubLineError):
        decode_line(frame(body)[:-1])


def test_a_damaged_command_is_refused_by_the_virtual_hub_like_the_firmware() -> None:
    from controller.readers.hub_protocol import ChecksumMismatch, TruncatedLine

    with pytest.raises(ChecksumMismatch):
        decode_command(b"$ZONES deal*0000")
    with pytest.raises(TruncatedLine):
        decode_command(b"$ZONES deal")
    assert decode_command(b"ZONES deal\r") == ["ZONES", "deal"]
