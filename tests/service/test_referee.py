"""The referee around the engine: journaled inputs, table events, undo, restart, failure."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from controller.readers.sightings import CardSeen
from controller.referee.journal import Journal
from controller.referee.referee import Referee
from controller.rules import Phase
from controller.rules.cards import CARDS

from .tablekit import new_match_args, play_out


@pytest.fixture
def journal(tmp_path):
    j = Journal.open(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def started(journal, preset="court-piece", knowledge="dealt", **kw) -> Referee:
    r = Referee(journal)
    out = r.command("new-match", new_match_args(preset, knowledge, **kw), at=1.0)
    assert out[0]["event"] == "match-setup"
    return r


def test_every_input_is_journaled_before_it_is_refereed(journal):
    r = started(journal)
    r.sighting(CardSeen("deal", "AS", 2.0, "hub"))
    entries = list(journal.entries())
    assert [e.kind for e in entries] == ["command", "sighting"]
    assert entries[1].payload == {"zone": "deal", "card": "AS"}
    assert r.match.hand.deal_index == 1


def test_unknown_tag_is_a_table_event_not_a_crash(journal):
    r = started(journal)
    out = r.sighting(CardSeen("seat2", "", 2.0, "hub"), tag="DEADBEEF")
    assert out[0]["event"] == "unknown-tag"
    assert out[0]["message"] == "unknown tag at Chetan's spot"  # the name given in new-match
    assert r.counters["unknown_tags"] == 1
    assert len(list(journal.entries())) == 2  # still journaled: nothing is lost


def test_tag_from_another_deck_names_the_deck(journal):
    r = started(journal)
    out = r.sighting(CardSeen("deal", "", 2.0, "hub"), tag="0401", note="deck 'blue' (7H)")
    assert out[0]["event"] == "other-deck-tag" and "deck 'blue'" in out[0]["message"]


def test_a_card_read_twice_on_its_spot_counts_once(journal):
    r = started(journal)
    r.sighting(CardSeen("deal", "AS", 2.0, "hub"))
    out = r.sighting(CardSeen("deal", "AS", 2.1, "hub"))
    assert out[0]["event"] == "duplicate-read"
    assert r.match.hand.deal_index == 1
    assert r.counters["duplicates"] == 1


def test_a_card_that_cannot_be_there_is_an_impossible_event(journal):
    r = started(journal)
    r.sighting(CardSeen("deal", "AS", 2.0, "hub"))
    r.sighting(CardSeen("deal", "KS", 2.0, "hub"))
    out = r.sighting(CardSeen("seat1", "AS", 3.0, "hub"))  # play before the deal is done
    assert out[0]["event"] == "impossible"
    assert "deal is not finished" in out[0]["message"]


def test_undo_takes_back_a_misread(journal):
    r = started(journal)
    r.sighting(CardSeen("deal", "AS", 2.0, "hub"))
    r.sighting(CardSeen("deal", "KS", 3.0, "hub"))
    before = r.match.hand.deal_index
    out = r.command("undo", at=4.0)
    assert out[0]["event"] == "undone" and out[0]["undone_seq"] == 3
    assert r.match.hand.deal_index == before - 1
    r.sighting(CardSeen("deal", "KS", 5.0, "hub"))  # the same card may be read again after undo
    assert r.match.hand.deal_index == before


def test_bad_new_match_is_refused_with_the_reason(journal):
    r = Referee(journal)
    out = r.command("new-match", {"preset": "poker"}, at=1.0)
    assert out[0]["event"] == "command-refused" and "poker" in out[0]["message"]
    assert r.match is None


@pytest.mark.parametrize("preset", ["rang", "hidden-rung", "band-rung"])
@pytest.mark.parametrize("knowledge", ["dealt", "played"])
def test_restart_replays_the_journal_to_the_same_state_and_events(tmp_path, preset, knowledge):
    path = tmp_path / "j.sqlite3"
    j = Journal.open(path)
    r = started(j, preset, knowledge)
    play_out(r, seed=5, revoke_rate=0.05, stop_after=150)
    j.close()
    j2 = Journal.open(path)
    r2 = Referee(j2)
    # From the last hand start's snapshot: the events from there on are the same.
    assert r2.restore() <= len(list(j2.entries()))
    first = r2.events[0]["seq"] if r2.events else r2.last_seq + 1
    assert r2.events == [e for e in r.events if e["seq"] >= first]
    assert r2.public_state() == r.public_state()
    j2.close()


def test_a_journal_that_cannot_be_written_stops_the_referee_loudly(tmp_path):
    j = Journal.open(tmp_path / "j.sqlite3", max_bytes=64 * 1024)
    r = started(j)
    failures = []
    r.subscribe(lambda e: failures.append(e) if e["event"] == "journal-failed" else None)
    n = 0
    while not r.halted and n < 10_000:
        r.command("confirm", {"padding": "x" * 500}, at=float(n))
        n += 1
    assert r.halted and failures, "the journal never filled up"
    journaled = len(list(j.entries()))
    state = r.public_state()["view"]
    out = r.sighting(CardSeen("deal", "AS", 1.0, "hub"))
    assert out[0]["event"] == "input-held"  # kept for when the card has room again
    assert r.public_state()["view"] == state  # nothing was taken that is not journaled
    assert len(list(j.entries())) == journaled


def test_export_then_replay_prints_the_same_events(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    j = Journal.open(state / "journal.sqlite3")
    r = started(j, "double-sir")
    play_out(r, seed=2, revoke_rate=0.05)
    assert r.match.phase is Phase.OVER
    j.close()
    log = tmp_path / "table.log"
    cli = [sys.executable, "-m", "controller.cli"]
    subprocess.run(cli + ["export", "--state-dir", str(state), "-o", str(log)], check=True, capture_output=True)
    out = subprocess.run(cli + ["replay", str(log)], check=True, capture_output=True, text=True).stdout
    printed = [json.loads(line) for line in out.splitlines()]
    assert printed == json.loads(json.dumps([dict(e) for e in r.events]))
    assert printed[-1]["event"] == "match-over"


def test_public_notices_name_no_card_the_admin_copy_does(journal):
    """A card seen where it cannot be: the engine's message names whose hand holds it, so
    the public copy must not; the admin copy keeps the full text."""
    r = started(journal)
    play_out(r, seed=3, stop_after=60)  # the deal is done and play has begun
    h = r.match.hand
    seat = h.turn()
    other = (seat + 1) % 4
    hidden = sorted(h.holdings[other])[0]
    text = CARDS[hidden].text
    out = r.sighting(CardSeen(f"seat{seat}", text, 99.0, "hub"))
    public = [e for e in out if "private_to" not in e]
    admin = [e for e in out if e.get("private_to") == "admin"]
    assert [e["event"] for e in public] == ["impossible"] and admin
    names = r.setup.seats
    assert text not in json.dumps([dict(e) for e in public]) and names[other] in admin[0]["message"]
    assert text in admin[0]["message"]
    r.command("undo", at=100.0)
    assert text not in json.dumps([dict(e) for e in r.public_events()])


def test_subscribers_see_events_in_journal_order_from_many_threads(journal):
    """Readers, buttons and the web feed the referee from their own threads."""
    import threading

    r = started(journal)
    seen: list[int] = []
    r.subscribe(lambda e: seen.append(e["seq"]))

    def press(n: int) -> None:
        for _ in range(n):
            r.command("confirm", source=threading.current_thread().name)

    threads = [threading.Thread(target=press, args=(40,), name=f"t{i}") for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 160 and seen == sorted(seen)
