"""End to end: the real table service (`courtpiece run`, bots on the virtual hub) with a
`[club]` section publishes its table to a real broker, and says goodbye when stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from clubkit import TABLES, Listener  # noqa: E402

from controller.club.topics import Batch  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def test_courtpiece_run_publishes_to_the_club(broker, tmp_path):
    listener = Listener(broker)
    cfg = tmp_path / "table.toml"
    cfg.write_text(f'[table]\nstate_dir = "{tmp_path}"\n[hub]\nport = "virtual"\n'
                   '[web]\nenabled = false\n'
                   f'[club]\nenabled = true\nport = {broker.port}\ntable = "t3"\npassword = "{TABLES["t3"]}"\n')
    cfg.chmod(0o600)  # it holds the table's broker password
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(cfg)],
                            env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 120  # a bound so a regression fails instead of hanging
        while time.monotonic() < deadline and proc.poll() is None:
            if sum(t.endswith("/t3/events") for t, _ in listener.taken()) >= 2:
                break
            time.sleep(0.2)
        batches = [Batch.from_bytes(p) for t, p in listener.taken() if t.endswith("/t3/events")]
        assert len(batches) >= 2, "the service published no events"
        assert batches[0].prev == 0 and batches[0].events[0]["event"] == "match-setup"
        assert any(t.endswith("/t3/state") for t, _ in listener.taken())
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    statuses = [json.loads(p)["status"] for t, p in listener.taken() if t.endswith("/t3/status")]
    assert statuses[0] == "online" and statuses[-1] == "offline"
    assert (tmp_path / "club-published.json").exists()
    listener.close()
