"""The director's PIN of `courtpiece club`: printed once, kept only as a salted hash.

Before, the scoreboard kept the PIN as plain digits (a 0600 file, but a copied SD card
or a backup gave it away). Now it is the table's scheme (``controller.web.pin``): a
scrypt hash in ``STATE/admin-pin``, an old plain file hashed in place, and
``courtpiece pin --reset --state-dir STATE`` taken by the running scoreboard.
"""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))

from clubkit import SCOREBOARD_PW, TABLES  # noqa: E402

from controller.club.mosquitto import free_port  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "controller.cli"]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}


@contextmanager
def club(broker, tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    """``courtpiece club`` without a PIN in its config; yields (its URL, its output lines so far)."""
    web = free_port()
    cfg = tmp_path / "club.toml"
    cfg.write_text(f'[club]\nstate_dir = "{tmp_path / "club"}"\n'
                   f'[broker]\nport = {broker.port}\npassword = "{SCOREBOARD_PW}"\n[web]\nport = {web}\n'
                   "[tables]\n" + "".join(f'{n} = "{pw}"\n' for n, pw in TABLES.items()))
    cfg.chmod(0o600)
    proc = subprocess.Popen(CLI + ["club", "--config", str(cfg)], env=ENV, cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # until it says where it serves (bounded by its exit)
            lines.append(line)
            if line.startswith("club scoreboard:"):
                break
        url = f"http://127.0.0.1:{web}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(url + "/api/tables")
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        yield url, lines
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)


def signs_in(url: str, pin: str) -> bool:
    with httpx.Client(base_url=url) as c:
        token = c.get("/admin/api/session").json()["csrf"]
        return c.post("/admin/api/login", json={"pin": pin, "csrf": token}).status_code == 200


def printed_pin(lines: list[str]) -> str:
    found = [m.group(1) for line in lines if (m := re.match(r"director's PIN: (\d+)", line))]
    assert len(found) == 1, lines
    return found[0]


def test_the_directors_pin_is_printed_once_and_kept_only_as_a_hash(broker, tmp_path):
    pin_file = tmp_path / "club" / "admin-pin"
    with club(broker, tmp_path) as (url, lines):
        pin = printed_pin(lines)
        kept = pin_file.read_text()
        assert kept.startswith("scrypt$") and pin not in kept
        assert stat.S_IMODE(pin_file.stat().st_mode) == 0o600
        assert signs_in(url, pin)
    with club(broker, tmp_path) as (url, lines):  # a restart shows nothing, the PIN still works
        assert not any("director's PIN" in line for line in lines), lines
        assert signs_in(url, pin)


def test_an_old_plain_pin_file_is_hashed_in_place_and_still_signs_in(broker, tmp_path):
    pin_file = tmp_path / "club" / "admin-pin"
    pin_file.parent.mkdir()
    pin_file.write_text("97531\n")
    with club(broker, tmp_path) as (url, lines):
        assert "97531" not in pin_file.read_text() and pin_file.read_text().startswith("scrypt$")
        assert signs_in(url, "97531")


def test_pin_reset_on_the_club_state_dir_is_taken_without_a_restart(broker, tmp_path):
    with club(broker, tmp_path) as (url, lines):
        old = printed_pin(lines)
        done = subprocess.run(CLI + ["pin", "--reset", "--state-dir", str(tmp_path / "club")], env=ENV,
                              cwd=REPO, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        new = done.stdout.split()[-1]
        assert signs_in(url, new)
        assert new == old or not signs_in(url, old)
