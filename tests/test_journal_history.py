"""Bounded history: undo and restart start from the last hand start, and agree with a
replay of every input from the first.

The referee keeps a snapshot at each hand start (``Match.copy(stack=False)``) and the
journal keeps the newest ones as a cache. These tests play whole matches with bots,
undoing single inputs and runs of several across hand starts (then putting the cards
back, as a table does after a misread), and check after every undo and after restarts
that the state is exactly what replaying the whole journal from its first input gives.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller.referee.journal import Journal
from controller.referee.referee import Referee
from controller.rules import Phase
from controller.sim.bots import BotTable

from .service.tablekit import feed, input_for, new_match_args


def full_replay(journal: Journal) -> Referee:
    """The state by definition: every input from the first, no snapshot."""
    r = Referee(None)
    r.replay(journal.entries())
    return r


def play_with_undos(referee: Referee, journal: Journal, seed: int, inputs: int) -> int:
    """Bots play; now and then the last 1-6 inputs are undone and fed again. Returns undos."""
    rng = random.Random(seed)
    bots = BotTable(referee.match, rng, revoke_rate=0.05)
    fed: list[tuple[str, dict, float]] = []
    at, undos = 1000.0, 0
    while len(fed) < inputs and referee.match.phase is not Phase.OVER:
        bots.match = referee.match
        kind, payload = input_for(bots.next_input())
        at += 1.0
        feed(referee, kind, payload, at)
        fed.append((kind, payload, at))
        if rng.random() < 0.04:
            depth = rng.choice([1, 1, 2, 6])
            again = fed[-depth:]
            for _ in again:
                at += 1.0
                referee.command("undo", at=at, source="test")
                undos += 1
            assert referee.public_state() == full_replay(journal).public_state()
            for k, p, _ in again:
                at += 1.0
                feed(referee, k, dict(p), at)
    return undos


@pytest.mark.parametrize("preset,knowledge", [("court-piece", "dealt"), ("hidden-rung", "played"),
                                              ("band-rung", "dealt")])
def test_undo_and_restart_agree_with_a_full_replay(tmp_path: Path, preset: str, knowledge: str) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    referee = Referee(journal)
    referee.command("new-match", new_match_args(preset, knowledge, hands=30), at=1.0)
    undos = play_with_undos(referee, journal, seed=11, inputs=700)
    assert undos > 5
    whole = full_replay(journal).public_state()
    assert referee.public_state() == whole
    journal.close()
    with Journal.open(path) as again:
        restored = Referee(again)
        replayed = restored.restore()
        assert replayed < len(list(again.entries())) // 4  # from a hand start, not the first input
        assert restored.public_state() == whole
        # Undo right after a restart reaches back past the snapshot it started from.
        for _ in range(8):
            restored.command("undo", at=1e6, source="test")
        assert restored.public_state() == full_replay(again).public_state()


def test_a_new_match_can_be_undone_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    referee = Referee(journal)
    referee.command("new-match", new_match_args("court-piece", hands=30), at=1.0)
    play_with_undos(referee, journal, seed=2, inputs=200)
    referee.command("new-match", new_match_args("rang"), at=5000.0)
    journal.close()
    with Journal.open(path) as again:
        restored = Referee(again)
        restored.restore()
        assert restored.setup.preset == "rang"
        restored.command("undo", at=6000.0, source="test")
        assert restored.setup.preset == "court-piece"
        assert restored.public_state() == full_replay(again).public_state()


def test_a_snapshot_from_other_code_is_not_used(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    referee = Referee(journal)
    referee.command("new-match", new_match_args("court-piece", hands=30), at=1.0)
    play_with_undos(referee, journal, seed=3, inputs=150)
    whole = referee.public_state()
    journal.close()
    with Journal.open(path) as again:
        with again._lock:  # as if written by another version of the program
            again._open_conn().execute("UPDATE snapshots SET tag = 'another-version'")
        restored = Referee(again)
        assert restored.restore() == len(list(again.entries()))
        assert restored.public_state() == whole


def test_undo_passes_over_a_command_that_changed_nothing(tmp_path: Path) -> None:
    """A refused command (a new match of no such preset) or one with nothing to do is
    journaled, and a replay refuses it again; but it changed nothing, so the undo after it
    takes back the last input that did (before, the undo 'undid' the refused command and
    nothing changed: found by an outside test of the dashboard)."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    referee = Referee(journal)
    referee.command("new-match", new_match_args("court-piece", hands=30), at=1.0)
    play_with_undos(referee, journal, seed=5, inputs=40)
    before_last = full_replay(journal).public_state()
    last_seq = referee.last_seq
    refused = referee.command("new-match", {**new_match_args("court-piece"), "preset": "no-such-preset"},
                              at=9000.0, source="test")
    assert [e.kind for e in refused] == ["command-refused"]
    undone = referee.command("undo", at=9001.0, source="test")
    assert [e.kind for e in undone][:1] == ["undone"]
    assert f"undid input {last_seq} " in undone[0].to_dict()["message"]
    assert referee.public_state() != before_last  # the last real input was taken back
    assert referee.public_state() == full_replay(journal).public_state()
    journal.close()
