"""Config mistakes an organiser makes are one-line config errors naming the key or line,
never a traceback (before, each of these crashed or was taken as is)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from controller.config import ConfigError, load_config

CLI = [sys.executable, "-m", "controller.cli"]


def write(tmp_path, data: bytes | str, mode: int = 0o600):
    f = tmp_path / "table.toml"
    f.write_bytes(data if isinstance(data, bytes) else data.encode())
    os.chmod(f, mode)
    return f


def one_line_error(f) -> str:
    with pytest.raises(ConfigError) as err:
        load_config(f)
    text = str(err.value)
    assert "\n" not in text and "Traceback" not in text
    return text


def test_invalid_utf8_names_the_line(tmp_path):
    f = write(tmp_path, b'[match]\npreset = "rang"\nseats = ["Ahmed", "Bil\xe1l", "C", "D"]\n')
    assert "line 3 is not UTF-8" in one_line_error(f)


@pytest.mark.parametrize("pin", ["12", "12ab", "1234567890123", "١٢٣٤"])
def test_a_pin_that_is_not_4_to_12_digits(tmp_path, pin):
    f = write(tmp_path, f'[table]\npin = "{pin}"\n')
    assert "'table.pin' (line 2)" in one_line_error(f) and "4 to 12 digits" in one_line_error(f)


def test_a_pin_in_a_file_everyone_can_read_is_refused(tmp_path):
    f = write(tmp_path, '[table]\npin = "4321"\n', mode=0o644)
    text = one_line_error(f)
    assert "'table.pin' (line 2)" in text and "courtpiece pin --reset" in text
    os.chmod(f, 0o640)  # readable by the service's group only: accepted
    assert load_config(f).table.pin == "4321"


def test_a_state_directory_that_is_a_file(tmp_path):
    (tmp_path / "state").write_text("oops")
    f = write(tmp_path, f'[table]\nstate_dir = "{tmp_path / "state"}"\n')
    assert "'table.state_dir' (line 2)" in one_line_error(f) and "is a file" in one_line_error(f)


@pytest.mark.parametrize("text,needle", [
    ("[web]\nport = 8000.5\n", "'web.port' (line 2): expected a whole number"),
    ("[match]\nfirst_dealer = 1.0\n", "'match.first_dealer' (line 2)"),
    ("[voice]\nvolume = 80.0\n", "'voice.volume' (line 2)"),
    ("[hub]\nheartbeat_timeout = 0\n", "'hub.heartbeat_timeout' (line 2) must be more than 0"),
    ("[hub]\nremoval_silence = -1.5\n", "'hub.removal_silence' (line 2)"),
    ("[web]\nmax_connections = 100000\n", "'web.max_connections' (line 2)"),
    ("[web]\nallowed_hosts = [1]\n", "'web.allowed_hosts' (line 2)"),
    ("[web]\nheader_timeout = 0\n", "'web.header_timeout' (line 2)"),
    ("[web]\nbody_timeout = 0.5\n", "'web.body_timeout' (line 2)"),
])
def test_wrong_numbers_name_their_key_and_line(tmp_path, text, needle):
    assert needle in one_line_error(write(tmp_path, text))


def test_a_whole_number_may_stand_for_seconds(tmp_path):
    cfg = load_config(write(tmp_path, "[hub]\nheartbeat_timeout = 3\n[web]\nheader_timeout = 5\n"))
    assert cfg.hub.heartbeat_timeout == 3.0 and isinstance(cfg.hub.heartbeat_timeout, float)


def test_run_says_it_in_one_line(tmp_path):
    f = write(tmp_path, b"[web]\nhost = \"caf\xe9\"\n")
    out = subprocess.run(CLI + ["run", "--config", str(f)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "line 2 is not UTF-8" in out.stderr


@pytest.mark.parametrize("size", ["1280", "1280x", "big", "100x100", "1920x1440x3", "-1x960"])
def test_a_camera_frame_size_that_is_no_size(tmp_path, size):
    f = write(tmp_path, f'[camera]\nsize = "{size}"\n')
    text = one_line_error(f)
    assert "'camera.size' (line 2)" in text
    assert "like \"1280x960\"" in text or "pixels wide" in text


def test_a_camera_frame_size_is_asked_of_the_camera(tmp_path):
    f = write(tmp_path, '[camera]\nsize = "1920 x 1440"\n')
    assert load_config(f).camera.frame_size == (1920, 1440)
    assert load_config(write(tmp_path, "")).camera.frame_size == (1280, 960)
