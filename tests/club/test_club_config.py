"""The table config's [club] section: off by default, checked like the rest of the file."""

from __future__ import annotations

import pytest

from controller.config import ConfigError, load_config


def load(tmp_path, text, mode=0o600):
    p = tmp_path / "table.toml"
    p.write_text(text)
    p.chmod(mode)
    return load_config(p)


def test_off_by_default(tmp_path):
    cfg = load(tmp_path, "[web]\nport = 8001\n")
    assert cfg.club.enabled is False


def test_a_club_table(tmp_path):
    cfg = load(tmp_path, '[club]\nenabled = true\nhost = "10.0.0.2"\ntable = "table-7"\npassword = "x"\n')
    assert (cfg.club.host, cfg.club.table, cfg.club.port, cfg.club.prefix) == ("10.0.0.2", "table-7", 1883, "courtpiece")


@pytest.mark.parametrize("body,words", [
    ('enabled = true\nbroker = "x"\n', "unknown key 'club.broker' (line 4)"),
    ('enabled = true\ntable = "a/b"\n', "'club.table' (line 4) must name this table"),
    ('enabled = true\ntable = "scoreboard"\n', "'club.table'"),
    ('enabled = true\n', "'club.table'"),
    ('enabled = true\ntable = "t1"\nport = 0\n', "'club.port' (line 5) must be a TCP port"),
    ('enabled = true\ntable = "t1"\nport = "1883"\n', "bad value for 'club.port' (line 5)"),
    ('enabled = true\ntable = "t1"\nprefix = "club/#"\n', "'club.prefix' (line 5)"),
    ('enabled = true\ntable = "t1"\ntls_cert = "c.pem"\n', "tls_key go together"),
    ('enabled = true\ntable = "t1"\ntls_ca = "/nonexistent/ca.pem"\n', "no such file"),
])
def test_mistakes_name_the_key_and_line(tmp_path, body, words):
    with pytest.raises(ConfigError) as err:
        load(tmp_path, "# a table\n[club]\n" + body)
    assert words in str(err.value)


def test_unknown_section_lists_club(tmp_path):
    with pytest.raises(ConfigError, match="club"):
        load(tmp_path, "[clubs]\nenabled = true\n")


def test_a_password_in_a_file_everyone_reads_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="'club.password' .line 4.: a broker password in a file every user can read"):
        load(tmp_path, '[club]\nenabled = true\ntable = "t1"\npassword = "secret-pw"\n', mode=0o644)
    assert load(tmp_path, '[club]\nenabled = true\ntable = "t1"\npassword = "secret-pw"\n', mode=0o640).club.password
