"""End to end: `courtpiece club --config FILE` subscribes through a real broker and
serves the scoreboard; a simulated table's match shows on it; SIGTERM stops it cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))

from clubkit import SCOREBOARD_PW, TABLES, table_link  # noqa: E402

from controller.club.mosquitto import free_port  # noqa: E402
from controller.club.simclub import SimTable, short_match  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def test_courtpiece_club_serves_the_tables(broker, tmp_path):
    web = free_port()
    cfg = tmp_path / "club.toml"
    cfg.write_text(f'[club]\nstate_dir = "{tmp_path / "club"}"\npin = "135790"\n'
                   f'[broker]\nport = {broker.port}\npassword = "{SCOREBOARD_PW}"\n[web]\nport = {web}\n'
                   "[tables]\n" + "".join(f'{n} = "{pw}"\n' for n, pw in TABLES.items()))
    cfg.chmod(0o600)
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "club", "--config", str(cfg)],
                            env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    table = SimTable("t2", tmp_path / "t2", table_link(broker, "t2"), seed=3).start()
    try:
        table.new_match(short_match(["Asha", "Bilal", "Chand", "Dua"], hands=1))
        table.play()
        seen: dict = {}
        deadline = time.monotonic() + 60  # a bound so a regression fails instead of hanging
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                seen = {t["name"]: t for t in httpx.get(f"http://127.0.0.1:{web}/api/tables").json()}
            except httpx.HTTPError:
                seen = {}
            if "t2" in seen and seen["t2"]["phase"] == "over" and not seen["t2"]["behind"]:
                break
            time.sleep(0.2)
        if proc.poll() is not None:
            raise AssertionError(f"courtpiece club exited: {proc.communicate()[0]}")
        assert "t2" in seen and seen["t2"]["phase"] == "over", seen
        standings = httpx.get(f"http://127.0.0.1:{web}/api/standings").json()["standings"]
        assert sorted(r["team"] for r in standings) == ["Asha & Chand", "Bilal & Dua"]
    finally:
        table.close()
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
