"""The referee's public events by journal seq: the club publisher's and the web's read.

``Referee.public_events`` finds its start by bisection, which is only right while the
events stay in journal order; these tests hold both the order and the answers to the
plain walk over every event, on a night with undos, refusals and notices in it.
"""

from __future__ import annotations

from controller.readers.sightings import CardSeen
from controller.referee.journal import Journal
from controller.referee.referee import Referee
from controller.referee.table_events import PUBLIC, sees

from .tablekit import new_match_args, play_out


def walked(referee: Referee, after: int) -> list:
    """What the answer must be: every event, walked from the start."""
    return [e for e in referee.events if e.seq > after and sees(PUBLIC, e)]


def busy_night(tmp_path) -> Referee:
    r = Referee(Journal.open(tmp_path / "journal.sqlite3"))
    r.command("new-match", new_match_args("court-piece", hands=2), at=1.0)
    play_out(r, seed=5, revoke_rate=0.05)
    r.command("new-match", new_match_args("rung", hands=1), at=9000.0)
    play_out(r, seed=7, stop_after=60)
    r.command("undo", at=9500.0)  # an undo: journaled, so its seq is a new one
    r.sighting(CardSeen("deal", "ZZ", 9501.0, "test"))  # not a card: a notice
    r.sighting(CardSeen("seat-9", "AS", 9502.0, "test"))  # an unknown zone
    return r


def test_events_stay_in_journal_order(tmp_path):
    r = busy_night(tmp_path)
    seqs = [e.seq for e in r.events]
    assert len(seqs) > 100
    assert seqs == sorted(seqs)
    assert len(set(seqs)) < len(seqs)  # several events share one input's seq


def test_public_events_after_any_seq_equal_the_walk(tmp_path):
    r = busy_night(tmp_path)
    last = r.last_seq
    for after in [0, 1, 2, *range(3, last + 2, 7), last - 1, last, last + 5, -3]:
        assert r.public_events(after) == walked(r, after), after
    assert r.public_events() == walked(r, 0)


def test_newest_gives_the_tail_of_the_same_answer(tmp_path):
    r = busy_night(tmp_path)
    every = walked(r, 0)
    assert len(every) > 50
    for newest in (1, 10, 50, len(every), len(every) + 10):
        assert r.public_events(newest=newest) == every[-newest:]
    after = r.last_seq // 2
    tail = walked(r, after)
    assert r.public_events(after, newest=5) == tail[-5:]
    assert r.public_events(after, newest=len(tail) + 1) == tail
    assert r.public_events(r.last_seq, newest=5) == []


def test_no_hidden_event_in_either_read(tmp_path):
    r = busy_night(tmp_path)
    hidden = [e for e in r.events if not sees(PUBLIC, e)]
    assert hidden  # the deal made private events
    for read in (r.public_events(), r.public_events(newest=100), r.public_events(r.last_seq // 3)):
        assert not [e for e in read if not sees(PUBLIC, e)]
