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


def dry_run(etc: Path, *options: str, systemd: str = "running", **env: str) -> subprocess.CompletedProcess[str]:
    """The script with --dry-run; ``etc`` stands in for /etc/courtpiece, ``systemd`` says
    whether systemd runs the system (a Pi) or not (a chroot)."""
    return subprocess.run(
        ["bash", str(SCRIPT), "--dry-run", *options],
        capture_output=True,
        text=True,
        env={**os.environ, "COURTPIECE_ETC": str(etc), "COURTPIECE_SYSTEMD": systemd, **env},
        timeout=60,
    )


def plan(etc: Path, *options: str, systemd: str = "running", **env: str) -> list[str]:
    """The dry run's output lines, without Debian packages."""
    done = dry_run(etc, "--no-apt", *options, systemd=systemd, **env)
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


def test_every_guide_the_config_template_names_is_installed(tmp_path: Path) -> None:
    """The template's comments send the organiser to docs/config.md and others: on the
    Pi those are under /opt/courtpiece/docs, or the pointer leads nowhere."""
    import re

    named = set(re.findall(r"docs/([a-z-]+\.md)", (REPO / "hardware" / "table.toml").read_text()))
    assert "config.md" in named
    installed = {Path(source).name for cmd in commands(plan(tmp_path / "etc"))
                 if cmd[0] == "install" and "-d" not in cmd for source in cmd[3:-1]
                 if Path(source).parent.name == "docs"}
    assert named <= installed, named - installed


def test_package_lists_are_fetched_before_the_packages_are_chosen(tmp_path: Path) -> None:
    """A fresh image has empty package lists: choosing chromium or chromium-browser, or
    whether python3-lgpio exists, before apt-get update picked wrong (found in a fresh
    Bookworm root by bench/install_root.py)."""
    done = dry_run(tmp_path / "etc", "--kiosk")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    chosen = next(i for i, line in enumerate(lines) if line.startswith("==> Debian packages:"))
    assert lines.index("+ apt-get update") < chosen
    assert "sudo" in lines[chosen].split()  # /usr/local/bin/courtpiece needs it


def test_kiosk_packages_include_xwayland_for_cage(tmp_path: Path) -> None:
    """Bookworm's cage 0.1.4 exits at start without /usr/bin/Xwayland, and its package
    does not depend on it (found by booting the kiosk in bench/install_root.py)."""
    done = dry_run(tmp_path / "etc", "--kiosk")
    assert done.returncode == 0, done.stderr
    chosen = next(line for line in done.stdout.splitlines() if line.startswith("==> Debian packages:"))
    assert {"cage", "xwayland", "fonts-noto-core"} <= set(chosen.split())
    referee_only = dry_run(tmp_path / "etc2")
    chosen = next(line for line in referee_only.stdout.splitlines() if line.startswith("==> Debian packages:"))
    assert "xwayland" not in chosen.split()


def test_without_a_running_systemd_units_are_enabled_and_nothing_is_started(tmp_path: Path) -> None:
    """In a chroot (an SD card image being made, bench/install_root.py) there is no
    systemd, udev or kernel to reach: files and unit links only."""
    lines = plan(tmp_path / "etc", "--kiosk", systemd="offline")
    cmds = commands(lines)
    assert ["systemctl", "enable", "courtpiece.service", "courtpiece-kiosk.service"] in cmds
    assert ["systemctl", "set-default", "graphical.target"] in cmds
    for verb in ("daemon-reload", "restart"):
        assert not any(c[:2] == ["systemctl", verb] for c in cmds), verb
    assert not any(c[0] in ("udevadm", "modprobe") for c in cmds)
    assert any("start at the next boot" in line for line in lines)


def fake_desktop(units: Path) -> None:
    units.mkdir()
    (units / "display-manager.service").symlink_to("/lib/systemd/system/lightdm.service")


def test_kiosk_refuses_an_enabled_desktop_before_changing_anything(tmp_path: Path) -> None:
    fake_desktop(tmp_path / "units")
    done = dry_run(tmp_path / "etc", "--no-apt", "--kiosk", COURTPIECE_UNIT_DIR=str(tmp_path / "units"))
    assert done.returncode == 1
    assert "lightdm.service" in done.stderr and "--disable-desktop" in done.stderr
    assert not commands(done.stdout.splitlines())  # stopped before the first change


def test_kiosk_turns_the_desktop_off_when_asked(tmp_path: Path) -> None:
    fake_desktop(tmp_path / "units")
    cmds = commands(plan(tmp_path / "etc", "--kiosk", "--disable-desktop",
                         COURTPIECE_UNIT_DIR=str(tmp_path / "units")))
    assert ["systemctl", "disable", "lightdm.service"] in cmds
    assert cmds.index(["systemctl", "disable", "lightdm.service"]) < cmds.index(
        ["systemctl", "set-default", "graphical.target"])


def test_the_referee_alone_does_not_care_about_a_desktop(tmp_path: Path) -> None:
    fake_desktop(tmp_path / "units")
    cmds = commands(plan(tmp_path / "etc", COURTPIECE_UNIT_DIR=str(tmp_path / "units")))
    assert not any("lightdm.service" in c for c in cmds)


def test_kiosk_language_is_kept_in_a_drop_in(tmp_path: Path) -> None:
    """--incognito forgets a language picked on the screen at every boot; the address
    carries it instead (the table screen reads ?lang=)."""
    lines = plan(tmp_path / "etc", "--kiosk", "--kiosk-lang", "ur")
    assert "+ write /etc/systemd/system/courtpiece-kiosk.service.d/language.conf" in lines
    i18n = REPO / "controller" / "web" / "static" / "js" / "i18n.js"
    assert 'get("lang")' in i18n.read_text()


@pytest.mark.parametrize("options,needle", [
    (["--kiosk", "--kiosk-lang", "xx"], "no table screen language 'xx'"),
    (["--kiosk-lang", "ur"], "--kiosk-lang goes with --kiosk"),
])
def test_kiosk_language_mistakes_are_refused(tmp_path: Path, options: list[str], needle: str) -> None:
    done = dry_run(tmp_path / "etc", "--no-apt", *options)
    assert done.returncode == 1 and needle in done.stderr, done.stderr


def debian_numpy_major() -> int:
    """The major version of the numpy this Debian ships (python3-numpy), as apt says."""
    if shutil.which("apt-cache") is None:
        pytest.skip("no apt-cache: not a Debian system")
    done = subprocess.run(["apt-cache", "show", "--no-all-versions", "python3-numpy"],
                          capture_output=True, text=True)
    found = re.search(r"^Version: (?:\d+:)?(\d+)\.", done.stdout, re.M)
    if done.returncode != 0 or not found:
        pytest.skip("apt knows no python3-numpy here")
    return int(found.group(1))


def test_a_camera_table_gets_numpy_of_debians_major(tmp_path: Path) -> None:
    """Debian's python3-picamera2 (and its simplejpeg) are built against Debian's numpy
    and share the venv through its system site packages: the numpy pip puts there must
    be of the same major version, or their import fails (numpy 2 against 1.x builds)."""
    cmds = commands(plan(tmp_path / "etc", "--camera"))
    pip = [c for c in cmds if c[:2] == [f"{referee_program().parents[1]}/bin/pip", "install"]]
    assert pip[-1][-1].endswith("[oled,hub,camera]")
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    (pin,) = [r for r in extras["camera"] if re.match(r"numpy\b", r)]
    below = re.search(r"<\s*(\d+)(?:\.0)*\s*(?:,|$)", pin)
    assert below, f"the camera extra does not cap numpy: {pin}"
    assert int(below.group(1)) == debian_numpy_major() + 1, pin
    # without --camera the newest numpy is fine (no Debian module built against it)
    plain = commands(plan(tmp_path / "etc"))
    assert not any(c[-1].endswith("camera]") for c in plain)


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
