"""``courtpiece simulate --state-dir DIR`` resumes a match in progress.

The journal is left mid-hand (as a killed simulator leaves it); the simulator started
again on it sits its bots down at that hand -- cards already dealt and played stay
where they are -- and plays the match to its end without one impossible input.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from controller.referee.actions import table_input
from controller.referee.journal import Journal
from controller.referee.referee import Referee
from controller.rules import Phase
from controller.sim.bots import BotTable

from .tablekit import feed, new_match_args

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("knowledge,stop_after", [("dealt", 30), ("dealt", 75), ("played", 9)])
def test_simulate_resumes_a_match_in_progress(tmp_path: Path, knowledge: str, stop_after: int) -> None:
    state = tmp_path / "state"
    state.mkdir()
    with Journal.open(state / "journal.sqlite3") as journal:
        referee = Referee(journal)
        referee.command("new-match", new_match_args("court-piece", knowledge, hands=2), at=1.0)
        bots = BotTable(referee.match, random.Random(1))
        for n in range(stop_after):
            bots.match = referee.match
            kind, payload = table_input(bots.next_input())
            feed(referee, kind, payload, 10.0 + n)
        assert referee.match.phase is not Phase.OVER
    done = subprocess.run([sys.executable, "-m", "controller.cli", "simulate", "--no-web", "--speed", "1000",
                           "--quiet", "--seed", "5", "--state-dir", str(state)], capture_output=True, text=True,
                          cwd=REPO, timeout=300, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stdout + done.stderr
    with Journal.open(state / "journal.sqlite3") as journal:
        events = Referee().replay(journal.entries())
    assert [e["event"] for e in events].count("match-setup") == 1  # the same match, resumed
    assert any(e["event"] == "match-over" for e in events)
    assert not [e for e in events if e["event"] == "impossible"]
