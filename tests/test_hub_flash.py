"""`courtpiece hub flash` / `hub check`: the mpremote command line and the HELLO check.

No Pico here: the command line is checked against mpremote's own argument parsing
(its handlers replaced by recorders), the whole command runs with a stand-in
mpremote that records its arguments, and the HELLO check reads the virtual hub on a
real pty through the real driver.
"""

from __future__ import annotations

import ast
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from controller.cli import main
from controller.readers.hub_flash import (
    FIRMWARE_FILES,
    find_mpremote,
    firmware_dir,
    flash_command,
    wait_for_hello,
)
from controller.readers.virtual_hub import VirtualHub

REPO = Path(__file__).resolve().parents[1]
WAIT = 30.0


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[VirtualHub]:
    with VirtualHub(link_path=tmp_path / "ttyACM0", firmware="1.0.0", hello_interval=None) as vh:
        yield vh


def fake_mpremote(tmp_path: Path, exit_code: int = 0) -> tuple[Path, Path]:
    """An executable standing in for mpremote: it writes its arguments to a file."""
    log = tmp_path / "mpremote-args"
    program = tmp_path / "mpremote"
    program.write_text(
        f"#!{sys.executable}\nimport sys\nopen({str(log)!r}, 'w').write('\\n'.join(sys.argv[1:]))\n"
        f"sys.exit({exit_code})\n"
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program, log


def test_the_files_copied_are_the_modules_main_needs() -> None:
    firmware = firmware_dir()
    assert firmware == REPO / "firmware" or (firmware / "main.py").is_file()
    needed, todo = {"main"}, ["main"]
    while todo:  # every firmware module main.py imports, directly or not
        tree = ast.parse((firmware / f"{todo.pop()}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for name in (a.name for a in node.names):
                    if (firmware / f"{name}.py").is_file() and name not in needed:
                        needed.add(name)
                        todo.append(name)
    assert sorted(FIRMWARE_FILES) == sorted(f"{name}.py" for name in needed)


def test_one_mpremote_call_copies_resets_and_takes_a_board_config() -> None:
    fw = Path("/fw")
    assert flash_command("mpremote", "/dev/courtpiece-hub", fw) == [
        "mpremote", "connect", "/dev/courtpiece-hub", "cp",
        *(f"/fw/{name}" for name in FIRMWARE_FILES), ":", "+", "reset",
    ]  # fmt: skip
    cmd = flash_command("mpremote", "/dev/ttyACM1", fw, Path("/home/me/config.py"))
    assert "/fw/config.py" not in cmd
    assert cmd[-7:] == [":", "+", "cp", "/home/me/config.py", ":config.py", "+", "reset"]


def test_mpremote_itself_reads_the_call_as_connect_copy_copy_reset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mp = pytest.importorskip("mpremote.main", reason="mpremote is the project's [hub] extra")
    calls: list[tuple[str, dict[str, object]]] = []

    def recorder(name: str):  # type: ignore[no-untyped-def]
        return lambda state, args: calls.append((name, vars(args)))

    commands = {name: (recorder(name), parser) for name, (_, parser) in mp._COMMANDS.items()}
    monkeypatch.setattr(mp, "_COMMANDS", commands)
    monkeypatch.setattr(mp.State, "run_repl_on_completion", lambda self: False)
    cmd = flash_command("mpremote", "/dev/ttyACM1", Path("/fw"), Path("/home/me/config.py"))
    monkeypatch.setattr(sys, "argv", cmd)
    assert mp.main() == 0
    assert [name for name, _ in calls] == ["connect", "fs", "fs", "exec"]
    assert calls[0][1]["device"] == ["/dev/ttyACM1"]
    assert calls[1][1]["command"] == ["cp"]
    assert calls[1][1]["path"] == [f"/fw/{n}" for n in FIRMWARE_FILES if n != "config.py"] + [":"]
    assert calls[2][1]["path"] == ["/home/me/config.py", ":config.py"]
    assert "machine.reset()" in str(calls[3][1]["expr"])


def test_the_projects_own_mpremote_is_preferred(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program, _ = fake_mpremote(tmp_path)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    assert find_mpremote() == str(program)


def test_hello_check_against_the_virtual_hub(hub: VirtualHub) -> None:
    hub.fail_reader("deal", "init", "no RC522 on SPI")
    answer = wait_for_hello(hub.port, WAIT)
    assert answer.hello.firmware == "1.0.0" and answer.hello.zones[0] == "seat0"
    assert answer.faulty == {"deal": "init"}
    assert "firmware 1.0.0" in answer.text() and "deal (init)" in answer.text()


def test_flash_runs_mpremote_then_hears_hello(
    tmp_path: Path, hub: VirtualHub, capsys: pytest.CaptureFixture[str]
) -> None:
    program, log = fake_mpremote(tmp_path)
    code = main(
        [
            "hub",
            "flash",
            "--port",
            hub.port,
            "--mpremote",
            str(program),
            "--hello-timeout",
            str(WAIT),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert log.read_text().splitlines() == flash_command(str(program), hub.port, firmware_dir())[1:]
    assert f"hub at {hub.port}: firmware 1.0.0, protocol 1" in out


def test_flash_stops_when_mpremote_fails(
    tmp_path: Path, hub: VirtualHub, capsys: pytest.CaptureFixture[str]
) -> None:
    program, _ = fake_mpremote(tmp_path, exit_code=1)
    assert main(["hub", "flash", "--port", hub.port, "--mpremote", str(program)]) == 1
    captured = capsys.readouterr()
    assert "mpremote failed (exit 1)" in captured.err and "HELLO" not in captured.err
    assert not hub.host_open  # no HELLO check after a failed copy


def test_flash_refuses_a_port_the_service_holds(
    tmp_path: Path, hub: VirtualHub, capsys: pytest.CaptureFixture[str]
) -> None:
    program, log = fake_mpremote(tmp_path)
    with serial.Serial(hub.port, exclusive=True):
        assert main(["hub", "flash", "--port", hub.port, "--mpremote", str(program)]) == 1
    assert "systemctl stop courtpiece" in capsys.readouterr().err
    assert not log.exists()


def test_check_without_a_hub_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port = str(tmp_path / "ttyACM5")
    assert main(["hub", "check", "--port", port, "--hello-timeout", "0.2"]) == 1
    assert f"no HELLO from a hub at {port}" in capsys.readouterr().err


def test_check_on_a_port_the_service_holds_says_so_at_once(
    hub: VirtualHub, capsys: pytest.CaptureFixture[str]
) -> None:
    with serial.Serial(hub.port, exclusive=True):
        assert main(["hub", "check", "--port", hub.port]) == 1
    assert "systemctl stop courtpiece" in capsys.readouterr().err


def test_check_reports_the_hub(hub: VirtualHub, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hub", "check", "--port", hub.port, "--hello-timeout", str(WAIT)]) == 0
    assert "firmware 1.0.0" in capsys.readouterr().out
