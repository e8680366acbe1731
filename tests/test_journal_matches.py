"""Old matches stay readable: export one, the current one, or list them; retention.

A table plays several matches into one journal. ``courtpiece export --list`` names them,
``--match N`` / ``--match current`` writes one as a table log that replays on its own,
and ``[table] keep_matches`` (default 0: keep all) bounds what the card holds.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.config import Config, ConfigError, load_config
from controller.referee.journal import Journal, import_log
from controller.referee.referee import Referee
from controller.referee.service import TableService

from .service.tablekit import new_match_args, play_out

REPO = Path(__file__).resolve().parents[1]
PRESETS = ("rang", "court-piece", "double-sir")


def play_matches(referee: Referee) -> None:
    for n, preset in enumerate(PRESETS):
        referee.command("new-match", {"preset": "no-such-preset"}, at=float(n), source="test")  # refused
        referee.command("new-match", new_match_args(preset, hands=1), at=float(n), source="test")
        play_out(referee, seed=n)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})


def test_export_lists_and_writes_one_match(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    with Journal.open(state / "journal.sqlite3") as journal:
        play_matches(Referee(journal))
        total = len(list(journal.entries()))
    listing = cli("export", "--state-dir", str(state), "--list")
    assert listing.returncode == 0, listing.stderr
    lines = listing.stdout.splitlines()[1:]
    assert [line.split()[3] for line in lines] == list(PRESETS)
    sizes = []
    for which, preset in [("1", "rang"), ("2", "court-piece"), ("current", "double-sir")]:
        out = tmp_path / f"match-{which}.jsonl"
        done = cli("export", "--state-dir", str(state), "--match", which, "-o", str(out))
        assert done.returncode == 0, done.stderr
        with open(out, encoding="utf-8") as f:
            log = import_log(f)
        sizes.append(len(log.entries))
        events = Referee().replay(log.entries)
        setups = [e for e in events if e["event"] == "match-setup"]
        assert [s["preset"] for s in setups] == [preset]  # replays on its own, one match
    assert sum(sizes) == total  # every input belongs to exactly one match
    assert cli("export", "--state-dir", str(state), "--match", "4").returncode == 2


def test_keep_matches_drops_the_oldest_when_a_new_one_starts(tmp_path: Path) -> None:
    cfg = Config()
    cfg.table.state_dir = str(tmp_path / "state")
    cfg.table.keep_matches = 2
    service = TableService.open(cfg, None)
    try:
        play_matches(service.referee)
        journal = service.referee.journal
        assert journal is not None
        presets = [e.payload.get("preset") for e in journal.entries() if e.payload.get("name") == "new-match"]
        assert presets == ["court-piece", "no-such-preset", "double-sir"]  # rang's inputs are gone
    finally:
        service.close()
    again = TableService.open(cfg, None)
    try:
        assert again.referee.setup is not None and again.referee.setup.preset == "double-sir"
    finally:
        again.close()


def test_every_match_is_kept_by_default(tmp_path: Path) -> None:
    cfg = Config()
    cfg.table.state_dir = str(tmp_path / "state")
    assert cfg.table.keep_matches == 0
    service = TableService.open(cfg, None)
    try:
        play_matches(service.referee)
        assert service.referee.journal is not None
        assert list(service.referee.journal.entries())[0].seq == 1
    finally:
        service.close()


@pytest.mark.parametrize("value", ["-1", "1.5", '"all"'])
def test_keep_matches_is_validated(tmp_path: Path, value: str) -> None:
    f = tmp_path / "table.toml"
    f.write_text(f"[table]\nkeep_matches = {value}\n")
    with pytest.raises(ConfigError, match=r"'table.keep_matches' \(line 2\)"):
        load_config(f)
