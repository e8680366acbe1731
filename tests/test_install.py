"""hardware/install.sh: it parses, passes shellcheck, and its plan matches the units.

The script changes a whole system (users, packages, units), so the tests run it with
``--dry-run``, where every change is printed instead of done, and read the plan.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from controller.signals.gpio import GpioPins
from controller.signals.oled import open_device

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "hardware" / "install.sh"
TEMPLATE = REPO / "hardware" / "table.toml"
REFEREE_UNIT = REPO / "systemd" / "courtpiece.service"


def referee_program() -> Path:
    for line in REFEREE_UNIT.read_text().splitlines():
        if line.startswith("ExecStart="):
            return Path(shlex.split(line.removeprefix("ExecStart="))[0])
    raise AssertionError("no ExecStart in the referee unit")


def plan(etc: Path, *options: str) -> list[str]:
    """The dry run's output lines; ``etc`` stands in for /etc/courtpiece."""
    done = subprocess.run(
        ["bash", str(SCRIPT), "--dry-run", "--no-apt", *options],
        capture_output=True,
        text=True,
        env={**os.environ, "COURTPIECE_ETC": str(etc)},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def commands(lines: list[str]) -> list[list[str]]:
    return [shlex.split(line[2:]) for line in lines if line.startswith("+ ")]


def test_script_parses() -> None:
    done = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
def test_script_passes_shellcheck() -> None:
    done = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_unknown_option_is_refused() -> None:
    done = subprocess.run(["bash", str(SCRIPT), "--frobnicate"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "Usage" in done.stderr


def test_plan_creates_user_venv_config_and_enables_the_referee(tmp_path: Path) -> None:
    lines = plan(tmp_path / "etc")
    cmds = commands(lines)
    venv = referee_program().parents[1]  # .../venv/bin/courtpiece → .../venv
    if not (venv / "bin" / "python").exists():
        assert ["python3", "-m", "venv", "--system-site-packages", str(venv)] in cmds
    assert any(c[:2] == [f"{venv}/bin/pip", "install"] and c[-1].endswith("[oled,hub]") for c in cmds)
    assert any(c[0] == "useradd" and c[-1] == "courtpiece" for c in cmds) or any(
        "user courtpiece exists" in line for line in lines
    )
    assert ["usermod", "--append", "--groups", "dialout,gpio,video,i2c", "courtpiece"] in cmds
    config = tmp_path / "etc" / "table.toml"
    assert ["install", "-m", "0644", str(TEMPLATE), str(config)] in cmds
    assert [
        "install",
        "-m",
        "0644",
        str(REFEREE_UNIT),
        "/etc/systemd/system/courtpiece.service",
    ] in cmds
    assert ["systemctl", "enable", "courtpiece.service"] in cmds
    assert cmds.index(["systemctl", "daemon-reload"]) < cmds.index(
        ["systemctl", "enable", "courtpiece.service"]
    )
    assert not any("kiosk" in " ".join(c) for c in cmds)


def test_plan_puts_an_admin_courtpiece_on_the_path_that_runs_as_the_service_user(tmp_path: Path) -> None:
    cmds = commands(plan(tmp_path / "etc"))
    wrapper = REPO / "hardware" / "courtpiece-admin"
    assert ["install", "-m", "0755", str(wrapper), "/usr/local/bin/courtpiece"] in cmds
    text = wrapper.read_text(encoding="utf-8")
    assert "sudo -u courtpiece" in text and str(referee_program()) in text
    done = subprocess.run(["shellcheck", str(wrapper)], capture_output=True, text=True) \
        if shutil.which("shellcheck") else None
    assert done is None or done.returncode == 0, done.stdout


def test_plan_installs_the_hub_udev_rule_and_cdc_acm_at_boot(tmp_path: Path) -> None:
    cmds = commands(plan(tmp_path / "etc"))
    rule = REPO / "hardware" / "99-courtpiece-hub.rules"
    modules = REPO / "hardware" / "courtpiece-modules.conf"
    assert ["install", "-m", "0644", str(rule), "/etc/udev/rules.d/99-courtpiece-hub.rules"] in cmds
    assert ["install", "-m", "0644", str(modules), "/etc/modules-load.d/courtpiece.conf"] in cmds
    assert ["modprobe", "cdc_acm"] in cmds
    # before the referee (re)starts, so its DeviceAllow=char-ttyACM resolves
    assert cmds.index(["modprobe", "cdc_acm"]) < cmds.index(["systemctl", "enable", "courtpiece.service"])


def test_existing_config_is_kept(tmp_path: Path) -> None:
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "table.toml").write_text('preset = "rang"\n')
    lines = plan(etc)
    assert f"==> keeping existing {etc / 'table.toml'}" in lines
    assert not any(str(etc / "table.toml") in c for c in commands(lines))


def test_kiosk_plan_adds_its_user_and_unit(tmp_path: Path) -> None:
    cmds = commands(plan(tmp_path / "etc", "--kiosk"))
    kiosk_unit = REPO / "systemd" / "courtpiece-kiosk.service"
    assert [
        "install",
        "-m",
        "0644",
        str(kiosk_unit),
        "/etc/systemd/system/courtpiece-kiosk.service",
    ] in cmds
    assert ["usermod", "--append", "--groups", "video,render,input", "kiosk"] in cmds
    assert ["systemctl", "enable", "courtpiece.service", "courtpiece-kiosk.service"] in cmds
    assert ["systemctl", "set-default", "graphical.target"] in cmds


def test_every_file_the_script_installs_is_in_the_repository(tmp_path: Path) -> None:
    for cmd in commands(plan(tmp_path / "etc", "--kiosk")):
        if cmd[0] == "install" and "-d" not in cmd:
            sources = cmd[3:-1]
            assert sources, cmd
            for source in sources:
                assert Path(source).is_file(), f"{source} is missing"
                assert Path(source).is_relative_to(REPO)


# -- the config template ------------------------------------------------------------------


def uncommented(text: str) -> str:
    """The template with its example settings switched on (lines '# key = …', '# [x]')."""
    out = []
    for line in text.splitlines():
        match = re.match(r"^# (\[\w+\]|\w+ = .*)$", line)
        out.append(match.group(1) if match else line)
    return "\n".join(out)


def test_template_is_valid_toml_and_sets_only_the_dashboard_address() -> None:
    # phones on the table's network reach the dashboard (issue 12); all else is default
    assert tomllib.loads(TEMPLATE.read_text()) == {"web": {"host": "0.0.0.0"}}


def test_template_examples_are_the_real_defaults() -> None:
    settings = tomllib.loads(uncommented(TEMPLATE.read_text()))
    pins = {k: v for k, v in settings["gpio"].items() if k != "enabled"}
    assert GpioPins.from_mapping(pins) == GpioPins()
    oled = {k: v for k, v in settings["oled"].items() if k != "enabled"}
    assert oled == {"kind": "ssd1306", "port": 1, "address": 0x3C}
    defaults = open_device.__kwdefaults__
    assert (oled["port"], oled["address"]) == (defaults["port"], defaults["address"])
