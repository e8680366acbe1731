"""``[hub] port = "virtual"``: ``courtpiece run`` referees a simulated table.

The real service, started as systemd starts it, with the port name that selects the
virtual hub: bots play, their cards come through the pseudo-terminal and the hub
protocol, and the journal fills with sightings from the virtual hub.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from controller.referee.journal import Journal, JournalError

REPO = Path(__file__).resolve().parents[2]


def test_run_with_the_virtual_port_drives_a_simulated_table(tmp_path: Path) -> None:
    cfg = tmp_path / "table.toml"
    cfg.write_text(f'[table]\nstate_dir = "{tmp_path}"\n[hub]\nport = "virtual"\n'
                   '[web]\nenabled = false\n')
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(cfg)],
                            env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        sightings: list = []
        deadline = time.monotonic() + 120  # a bound so a regression fails instead of hanging
        while len(sightings) < 5 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.5)
            if (tmp_path / "journal.sqlite3").exists():
                try:
                    with Journal.open_readonly(tmp_path / "journal.sqlite3") as j:
                        sightings = [e for e in j.entries() if e.kind == "sighting"]
                except JournalError:  # the service is still creating it: look again
                    continue
        assert len(sightings) >= 5
        assert {e.source for e in sightings} == {"virtual-hub"}
        assert all(e.payload.get("card") for e in sightings)  # tags known: the simulated deck is enrolled
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    assert "no deck map" not in out  # the simulated table enrols its own: nothing to warn of
