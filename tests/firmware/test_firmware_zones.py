"""The hub's ZONES command under CPython: which readers take turns, and every answer.

The same Hub harness as test_firmware_poller (fake readers, a clock the test moves),
and every line the hub writes goes through the host's strict decoder.
"""

from __future__ import annotations

import pytest

from controller.readers import hub_protocol as host
from firmware import hubproto
from tests.firmware.test_firmware_poller import Hub

CARD = bytes.fromhex("04A1B2C3D4E5F6")


def turns(hub: Hub, since: int = 0) -> list[str]:
    """The zones whose field was switched on, in order, from ``since``."""
    return [z for t, what, z in hub.log if what == "on" and t >= since]


def answers(hub: Hub) -> list[host.HubMessage]:
    return [m for _, m in hub.messages() if isinstance(m, host.Zones | host.Refused)]


def command(hub: Hub, text: str) -> None:
    """A command line as the host frames it, through the firmware's own unframing."""
    hub.poller.command(*hubproto.command_body(hubproto.frame(text).decode()))


def test_zones_deal_gives_the_deal_reader_every_turn_and_all_gives_them_back() -> None:
    hub = Hub(hold_ms=8, gap_ms=1)
    hub.run_for(200)
    assert set(turns(hub)) == set(hub.readers)
    command(hub, "ZONES deal")
    since = hub.clock.now
    hub.run_for(200)
    narrowed = turns(hub, since)
    assert set(narrowed[1:]) == {"deal"} and len(narrowed) >= 200 // 9 - 1
    command(hub, "ZONES all")
    since = hub.clock.now
    hub.run_for(200)
    assert set(turns(hub, since)) == set(hub.readers)
    assert answers(hub) == [
        host.Zones(answers(hub)[0].seq, ("deal",)),
        host.Zones(answers(hub)[1].seq, host.ALL_ZONES),
    ]


def test_two_zones_are_polled_in_the_hubs_own_order() -> None:
    hub = Hub()
    hub.run_for(50)
    command(hub, "ZONES trump,deal")
    since = hub.clock.now
    hub.run_for(100)
    assert set(turns(hub, since)[1:]) == {"deal", "trump"}
    assert answers(hub)[-1].zones == ("deal", "trump")  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("line", "code", "detail"),
    [
        (hubproto.frame("ZONES seat9").decode(), "zone", "no reader for seat9"),
        ("$ZONES deal*0000", "frame", "checksum mismatch"),
        ("$ZONES deal", "frame", "no checksum"),
        ("PING", "unknown", "PING"),
        ("ZONES", "unknown", "ZONES"),
    ],
)
def test_a_command_the_hub_cannot_carry_out_is_refused_and_changes_nothing(
    line: str, code: str, detail: str
) -> None:
    hub = Hub(zones=("seat0", "deal"))
    hub.run_for(50)
    hub.poller.command(*hubproto.command_body(line))
    since = hub.clock.now
    hub.run_for(100)
    assert set(turns(hub, since)) == {"seat0", "deal"}
    refused = answers(hub)
    assert len(refused) == 1 and isinstance(refused[0], host.Refused)
    assert (refused[0].code, refused[0].detail) == (code, detail)


def test_a_zone_the_hub_has_no_reader_for_is_refused() -> None:
    hub = Hub(zones=("seat0", "seat1", "seat2", "seat3", "deal"))  # no trump reader
    command(hub, "ZONES deal,trump")
    assert answers(hub) == [host.Refused(answers(hub)[0].seq, "zone", "no reader for trump")]


def test_a_typed_command_without_checksum_is_taken() -> None:
    hub = Hub()
    hub.poller.command(*hubproto.command_body("ZONES deal\r"))
    assert isinstance(answers(hub)[0], host.Zones)


def test_a_card_on_a_zone_not_polled_keeps_its_state_and_goes_once_polled_again() -> None:
    hub = Hub(gone_misses=3, repeat_ms=500)
    hub.readers["seat1"].uid = CARD
    hub.run_for(200)
    command(hub, "ZONES deal")
    hub.readers["seat1"].uid = None  # lifted while nobody looks at seat1
    hub.run_for(2000)
    assert not hub.messages(host.TagGone)  # nobody looked, so nothing is known to have gone
    tags_while_away = [m for t, m in hub.messages(host.TagRead) if m.zone == "seat1"]
    command(hub, "ZONES all")
    hub.run_for(300)
    assert [m.tag for _, m in hub.messages(host.TagGone)] == [CARD.hex().upper()]
    assert [m for t, m in hub.messages(host.TagRead) if m.zone == "seat1"] == tags_while_away


def test_the_command_reader_cuts_lines_and_drops_an_overlong_one() -> None:
    reader = hubproto.CommandReader(limit=20)
    assert reader.feed("ZONES de") == []
    assert reader.feed("al\n\nZONES all\r\n") == ["ZONES deal", "ZONES all"]
    assert reader.feed("x" * 50) == []
    assert reader.feed("yyy\nZONES all\n") == ["ZONES all"]  # the overlong run is gone


def test_the_hubs_answers_read_back_on_the_host() -> None:
    lines: list[bytes] = []
    w = hubproto.LineWriter(lines.append, seq=7)
    w.zones(["deal", "trump"])
    w.error("zone", "no reader for seat9")
    w.error("unknown")
    assert [host.decode_line(line[:-1]) for line in lines] == [
        host.Zones(7, ("deal", "trump")),
        host.Refused(8, "zone", "no reader for seat9"),
        host.Refused(9, "unknown"),
    ]
    assert host.encode(host.Zones(7, ("deal", "trump"))) == lines[0]


def test_the_host_command_is_what_the_firmware_reads() -> None:
    for zones in (("deal",), ("deal", "trump"), None):
        line = host.zones_command(zones).decode()
        body, problem = hubproto.command_body(line)
        assert problem is None
        assert body == "ZONES " + ("all" if zones is None else ",".join(zones))
