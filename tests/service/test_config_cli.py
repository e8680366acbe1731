"""The table config (bad keys named with their line) and the command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from controller.config import ConfigError, load_config
from controller.rules.options import PRESETS

CLI = [sys.executable, "-m", "controller.cli"]


def test_defaults_work_without_a_file():
    cfg = load_config(None)
    assert cfg.match.preset == "court-piece" and cfg.web.port == 8000 and cfg.zones["seat0"] == "seat0"


def test_a_good_config_is_read(tmp_path):
    f = tmp_path / "table.toml"
    f.write_text('[match]\npreset = "band-rung"\nknowledge = "played"\n[web]\nport = 8080\n'
                 '[match.options]\nmatch-target = 52\n[zones]\nreader5 = "trump"\n')
    cfg = load_config(f)
    assert (cfg.match.preset, cfg.match.knowledge, cfg.web.port) == ("band-rung", "played", 8080)
    assert cfg.match.options == {"match-target": 52} and cfg.zones["reader5"] == "trump"


@pytest.mark.parametrize("text,needle", [
    ('[table]\nstate_dir = "/x"\n\n[web]\nprot = 80\n', "'web.prot' (line 5)"),
    ('[match]\npreset = "poker"\n', "'match.preset' (line 2)"),
    ('[web]\nport = "eighty"\n', "'web.port' (line 2)"),
    ('[hub]\nenabled = "yes"\n', "'hub.enabled' (line 2)"),
    ('[zones]\nreader1 = "kitchen"\n', "'zones.reader1' (line 2)"),
    ('[match]\noptions = { hand-end = "never" }\n', "bad value 'never' for option 'hand-end'"),
    ("[web]\n[lights]\non = true\n", "unknown section [lights] (line 2)"),
    # a key written above every header is a key, not a section
    ("# my table\nport = 8000\n[web]\n", "'port' (line 2) is a key outside any section"),
    ('[match]\nvariants = ["no-such-variant"]\n', "'match.variants' (line 2): preset 'court-piece' has no variant"),
    ("[table]\nkeep_matches = -1\n", "must be a whole number, 0 or more"),
    ("[web]\nport = 70000\n", "must be a TCP port, 1-65535"),
    # a header with a comment after it, as the template's are once uncommented
    ('[web]  # dashboard\nhost = "0.0.0.0"\nprot = 80\n', "'web.prot' (line 3)"),
    ('[match]\npreset = "rang"\n[match.options]   # any option\nhand-end = "never"\n',
     "'match.options' (line 3)"),
    ("[match\n", "not valid TOML"),
])
def test_a_bad_config_names_the_key_and_line(tmp_path, text, needle):
    f = tmp_path / "table.toml"
    f.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(f)
    assert needle in str(err.value)


def test_run_refuses_a_bad_config_with_the_reason(tmp_path):
    f = tmp_path / "table.toml"
    f.write_text("[web]\nprot = 80\n")
    out = subprocess.run(CLI + ["run", "--config", str(f)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "'web.prot' (line 2)" in out.stderr


def test_presets_lists_every_preset_and_option():
    out = subprocess.run(CLI + ["presets", "--json"], capture_output=True, text=True, check=True, timeout=60)
    data = json.loads(out.stdout)
    assert sorted(data) == sorted(PRESETS)
    assert data["rang"]["changes"]["revoke-penalty"] == "rang"
    text = subprocess.run(CLI + ["presets"], capture_output=True, text=True, check=True, timeout=60).stdout
    for name in PRESETS:
        assert f"\n{name}\n" in text
    assert "hand-end" in text and "revoke-penalty" in text


def test_simulate_referees_a_whole_match_in_the_terminal(tmp_path):
    out = subprocess.run(CLI + ["simulate", "--no-web", "--speed", "2000", "--hands", "1", "--seed", "3",
                                "--state-dir", str(tmp_path / "sim")],
                         capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr
    assert "plays" in out.stdout and "match over" in out.stdout
    assert (tmp_path / "sim" / "journal.sqlite3").exists()


def test_the_shipped_config_template_is_valid_with_every_line_switched_on(tmp_path):
    """hardware/table.toml shows every setting commented out; uncommented, it must load."""
    from pathlib import Path

    template = Path(__file__).resolve().parents[2] / "hardware" / "table.toml"
    lines = []
    for raw in template.read_text().splitlines():
        body = raw[2:] if raw.startswith("# ") else raw  # with the lines set for real ([web] host)
        if body.startswith("[") or (" = " in body and not body.startswith(" ")):
            lines.append(body)
    f = tmp_path / "table.toml"
    f.write_text("\n".join(lines) + "\n")
    cfg = load_config(f)
    assert cfg.hub.port == "/dev/courtpiece-hub" and cfg.gpio.buzzer == 18 and cfg.oled.address == 0x3C
    assert load_config(template).match.preset == "court-piece"
