"""The whole referee path over a real pseudo-terminal: virtual hub, hub driver, deck map,
referee, journal, with the simulator's bots and its injected troubles."""

from __future__ import annotations

import threading
import time

import pytest

from controller.referee.referee import SIGHTING
from controller.rules import Phase
from controller.sim.simulator import SimSettings, SimulatedTable


def sightings(service) -> int:
    return sum(1 for e in service.referee.journal.entries() if e.kind == SIGHTING)


def run_sim(service, hub, deck, speed: float = 2000, **settings) -> SimulatedTable:
    s = SimSettings(speed=speed, seed=4, matches=1, **settings)
    sim = SimulatedTable(service.referee, hub, deck, s)
    stop = threading.Event()
    worker = threading.Thread(target=sim.run, args=(stop,), daemon=True)
    worker.start()
    worker.join(240)
    stop.set()
    assert not worker.is_alive(), "the simulated match did not finish"
    return sim


@pytest.mark.parametrize("knowledge", ["dealt", "played"])
def test_a_bot_match_is_refereed_through_the_hub_with_troubles_injected(table, knowledge):
    service, hub, driver, deck = table
    sim = run_sim(service, hub, deck, preset="hidden-rung", knowledge=knowledge, revoke_rate=0.05,
                  misread_rate=0.03, duplicate_rate=0.2, garbage_rate=0.2,
                  options={"match-end": "hands", "match-target": 2})
    r = service.referee
    assert r.match.phase is Phase.OVER
    assert sim.placed == sightings(service), "a card placed on a reader never reached the referee"
    stats = driver.stats()
    assert stats.bad_lines > 0 and sim.injected["garbage"] > 0
    assert stats.repeats_dropped > 0  # the injected repeat reads were dropped at the hub driver
    assert not [e for e in r.events if e["event"] == "unknown-tag"]


def test_the_hub_unplugged_mid_hand_loses_no_sighting(table):
    service, hub, driver, deck = table
    sim = run_sim(service, hub, deck, speed=60, preset="court-piece", unplug_every=0.3,
                  options={"match-end": "hands", "match-target": 1})
    assert sim.injected["unplugs"] >= 1
    assert driver.stats().disconnects >= 1
    assert service.referee.match.phase is Phase.OVER
    assert sim.placed == sightings(service)


def test_a_tag_read_ten_times_while_lying_on_a_reader_is_one_play(table):
    service, hub, driver, deck = table
    r = service.referee
    r.command("new-match", {"preset": "court-piece", "knowledge": "played", "first_dealer": 0})
    r.command("call-trump", {"suit": "S"})
    before = sightings(service)
    hub.place("seat1", deck.tag_of("AS"), reads=10)
    hub.read_again("seat1", times=5)
    deadline = time.monotonic() + 10
    while sightings(service) == before and time.monotonic() < deadline:
        time.sleep(0.01)
    hub.drain(5)
    time.sleep(0.3)  # let any stray repeat reach the referee before counting
    assert sightings(service) == before + 1
    plays = [e for e in r.events if e["event"] == "play-accepted"]
    assert [(p["seat"], p["card"]) for p in plays] == [(1, "AS")]


def test_a_tag_that_is_no_card_of_the_deck_is_reported(table):
    service, hub, driver, deck = table
    r = service.referee
    r.command("new-match", {"preset": "court-piece"})
    seen = threading.Event()
    r.subscribe(lambda e: seen.set() if e["event"] == "unknown-tag" else None)
    hub.place("seat2", "0A0B0C0D")
    assert seen.wait(10)
    public = [e for e in r.events if e["event"] == "unknown-tag" and "private_to" not in e]
    assert [e["message"] for e in public] == ["unknown tag at Seat 2's spot"]  # no names given: "Seat N"
    admin = [e for e in r.events if e["event"] == "unknown-tag" and e.get("private_to") == "admin"]
    assert [e["tag"] for e in admin] == ["0A0B0C0D"]


def test_a_new_match_started_mid_deal_from_outside_is_played_by_the_bots(table):
    """The dashboard (or a club's director) starts a new match while the bots deal: they
    sit down at the new match instead of dealing the old deck on into it."""
    service, hub, driver, deck = table
    s = SimSettings(speed=400, seed=6, matches=1, preset="court-piece", options={"match-end": "hands", "match-target": 1})
    sim = SimulatedTable(service.referee, hub, deck, s)
    stop = threading.Event()
    worker = threading.Thread(target=sim.run, args=(stop,), daemon=True)
    worker.start()
    deadline = time.monotonic() + 60
    while sightings(service) < 12:
        assert time.monotonic() < deadline, "the deal did not start"
        time.sleep(0.01)
    r = service.referee
    assert r.match.phase is Phase.DEAL
    r.command("new-match", {"preset": "court-piece", "seats": ["Asha", "Bilal", "Chand", "Dua"], "first_dealer": 2,
                            "options": {"match-end": "hands", "match-target": 1}}, source="dashboard")
    worker.join(240)
    stop.set()
    assert not worker.is_alive(), "the simulated table never finished the new match"
    assert r.match.phase is Phase.OVER and r.setup.seats[0] == "Asha"
    impossible = [e for e in r.events if e["event"] == "impossible"]
    assert len(impossible) <= 2, f"{len(impossible)} impossible inputs (cards of the old deal read into the new)"
