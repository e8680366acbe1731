"""The table side against a real broker: only public events and state leave the table,
each event message carries its journal seq, and the "published up to" mark lets a
restarted table go on where the broker stopped acknowledging."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "web"))

from clubkit import Listener, table_link, wait_for  # noqa: E402
from secrets_check import Secrets, broker_leaks, old_hand_secrets, secrets_now  # noqa: E402

from controller.club.outbox import MARK_FILE, batches_of  # noqa: E402
from controller.club.simclub import SimMatch, SimTable  # noqa: E402
from controller.club.topics import Batch, StateMessage  # noqa: E402
from controller.referee.journal import Journal  # noqa: E402
from controller.referee.referee import Referee  # noqa: E402

SEATS = ["Asha", "Bilal", "Chand", "Dua"]


def events_of(messages: list[tuple[str, bytes]], table: str = "t1") -> list[Batch]:
    return [Batch.from_bytes(p) for t, p in messages if t == f"courtpiece/tables/{table}/events"]


@pytest.mark.parametrize("preset,knowledge,seed", [("hidden-rung", "dealt", 7), ("band-rung", "played", 2)])
def test_hidden_cards_never_reach_the_broker(broker, tmp_path, preset, knowledge, seed):
    """Hands with revokes and undos: every broker message is checked against what was
    secret at its own moment (the bots' true hands, the face-down trump)."""
    listener = Listener(broker)
    table = SimTable("t1", tmp_path / "t1", table_link(broker, "t1"), seed=seed, revoke_rate=0.08).start()
    try:
        table.new_match(SimMatch(SEATS, preset, {"match-end": "hands", "match-target": 3}, knowledge=knowledge))
        # the publisher may send its first state before the match: no card is secret then
        at = {0: Secrets(0), table.referee.last_seq: secrets_now(table.referee, table.bots)}
        old: dict[int, Secrets] = {}
        undos = hidden = 0
        while not table.over:
            before = at[table.referee.last_seq]
            events = table.step()
            secret = secrets_now(table.referee, table.bots)
            at[secret.seq] = secret
            kinds = {e["event"] for e in events}
            ended = [*events, {"event": "hand-started"}] if "match-over" in kinds else events  # the last hand
            if (was := old_hand_secrets(before, ended)) is not None:
                old[secret.seq] = was
            hidden += secret.suit is not None
            if ("trump-hidden" in kinds or "deal-complete" in kinds) and undos < 4:
                table.undo()  # the undo notice must not name the card taken back
                undos += 1
                at[table.referee.last_seq] = secrets_now(table.referee, table.bots)
        seq = table.referee.last_seq
        wait_for(lambda: listener.state_seq("t1") >= seq, "the last state message")
    finally:
        table.close()
        listener.close()
    messages = listener.taken()
    assert undos and len(messages) > 50
    assert hidden or preset != "hidden-rung", "no trump was ever hidden: this run tested nothing"
    problems = [p for topic, payload in messages if not topic.endswith("/status")
                for p in broker_leaks(topic, payload, at, old)]
    assert problems == []
    for b in events_of(messages):
        assert all("private_to" not in e for e in b.events)
        assert all(e["seq"] == b.seq for e in b.events), "an event message mixes inputs"


def test_every_public_event_once_in_journal_order(broker, tmp_path):
    listener = Listener(broker)
    table = SimTable("t1", tmp_path / "t1", table_link(broker, "t1"), seed=3).start()
    try:
        table.new_match(SimMatch(SEATS, "court-piece", {"match-end": "hands", "match-target": 1}))
        table.play()
        want = batches_of(table.referee, "t1")
        wait_for(lambda: {b.seq for b in events_of(listener.taken())} >= {b.seq for b in want}, "all batches")
        wait_for(lambda: listener.state_seq("t1") == table.referee.last_seq, "the last state")
    finally:
        table.close()
        listener.close()
    got = {b.seq: b for b in events_of(listener.taken())}
    assert [got[b.seq].events for b in want] == [b.events for b in want]
    public = [e for e in table.referee.public_events() if not e.get("notice")]
    assert sum(len(b.events) for b in want) == len(public)
    assert [b.prev for b in want] == [0] + [b.seq for b in want[:-1]], "the prev chain has a hole"
    states = [StateMessage.from_bytes(p) for t, p in listener.taken() if t.endswith("/t1/state")]
    assert states[-1].seq == table.referee.last_seq and states[-1].last == want[-1].seq
    assert states[-1].state == json.loads(json.dumps(table.referee.public_state()))


def test_a_restarted_table_goes_on_after_its_mark(broker, tmp_path):
    """The mark is saved beside the journal; a new publisher on the same journal sends
    only what comes after it, and together the two runs cover every batch."""
    state = tmp_path / "t1"
    listener = Listener(broker)
    first = SimTable("t1", state, table_link(broker, "t1"), seed=5).start()
    first.new_match(SimMatch(SEATS, "court-piece", {"match-end": "hands", "match-target": 2}))
    first.play(steps=120)
    head = batches_of(first.referee, "t1")[-1].seq
    wait_for(lambda: first.publisher.published_upto >= head, "broker acknowledgements")
    first.close()
    mark = json.loads((state / MARK_FILE).read_text())["published_upto"]
    assert mark == head
    before = len(listener.taken())
    second = SimTable("t1", state, table_link(broker, "t1"), seed=6)
    try:
        assert second.referee.last_seq == first.referee.last_seq  # the journal replayed
        second.start()
        second.new_match(SimMatch(SEATS, "court-piece", {"match-end": "hands", "match-target": 1}))
        second.play()
        want = batches_of(second.referee, "t1")
        wait_for(lambda: {b.seq for b in events_of(listener.taken())} >= {b.seq for b in want}, "the rest")
    finally:
        second.close()
        listener.close()
    again = [b.seq for b in events_of(listener.taken()[before:])]
    assert again and min(again) > mark, "a restarted table sent what the broker had acknowledged"


def test_a_restarted_table_sends_from_its_journal_what_it_never_published(broker, tmp_path):
    """A table that refereed two hands with its link down, then restarted: its referee
    resumes from a hand-start snapshot and holds only the newest events, so the older
    ones are replayed from the journal. The broker gets every batch, chained from 0."""
    state = tmp_path / "t1"
    offline = SimTable("t1", state, None, seed=8)
    offline.new_match(SimMatch(SEATS, "court-piece", {"match-end": "hands", "match-target": 3}))
    offline.play(steps=200)
    offline.close()
    whole = Referee()
    with Journal.open(state / "journal.sqlite3") as journal:
        whole.replay(journal.entries())
    want = batches_of(whole, "t1")
    listener = Listener(broker)
    table = SimTable("t1", state, table_link(broker, "t1"), seed=9)
    try:
        held = {e["seq"] for e in table.referee.public_events(0)}
        assert want[0].seq not in held, "the referee replayed everything: this tests nothing"
        table.start()
        wait_for(lambda: {b.seq for b in events_of(listener.taken())} >= {b.seq for b in want}, "every batch")
    finally:
        table.close()
        listener.close()
    got = {b.seq: b for b in events_of(listener.taken())}
    assert [(got[b.seq].prev, got[b.seq].events) for b in want] == [(b.prev, b.events) for b in want]
