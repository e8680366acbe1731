"""The club file, and `courtpiece club --broker-files` writing Mosquitto's files from it."""

from __future__ import annotations

import pytest

from controller.cli import main
from controller.club.settings import load_club_config
from controller.config import ConfigError

GOOD = """[club]
name = "Thursday club"
[broker]
port = 1884
password = "board-secret"
[tables]
table-1 = "first-secret"
table-2 = "second-secret"
"""


def test_a_club_file(tmp_path):
    p = tmp_path / "club.toml"
    p.write_text(GOOD)
    p.chmod(0o600)
    cfg = load_club_config(p)
    assert cfg.club.name == "Thursday club" and cfg.broker.port == 1884 and sorted(cfg.tables) == ["table-1", "table-2"]


@pytest.mark.parametrize("text,words", [
    (GOOD.replace('name = "Thursday club"', 'nmae = "x"'), "unknown key 'club.nmae' (line 2)"),
    (GOOD + "[extra]\na = 1\n", "unknown section [extra]"),
    (GOOD.replace('table-2 = "second-secret"', 'scoreboard = "second-secret"'), "bad table name"),
    (GOOD.replace('"second-secret"', '"short"'), "8 or more characters"),
    (GOOD.replace("port = 1884", "port = 99999"), "'broker.port' (line 4) must be a TCP port"),
    ("[club]\n", "[tables] must list"),
    (GOOD.replace('table-2 = "second-secret"', 'bad.name = "second-secret"'), "'tables.bad' (line 8)"),
    (GOOD.replace("port = 1884", "listen = 0"), "bad value for 'broker.listen' (line 4)"),
])
def test_mistakes_are_named(tmp_path, text, words):
    p = tmp_path / "club.toml"
    p.write_text(text)
    p.chmod(0o600)
    with pytest.raises(ConfigError) as err:
        load_club_config(p)
    assert words in str(err.value)


def test_broker_files_from_the_cli(tmp_path, capsys):
    p = tmp_path / "club.toml"
    p.write_text(GOOD)
    p.chmod(0o600)
    out = tmp_path / "broker"
    assert main(["club", "--config", str(p), "--broker-files", str(out)]) == 0
    assert "2 tables" in capsys.readouterr().out
    users = [line.split(":", 1)[0] for line in (out / "passwd").read_text().splitlines()]
    assert users == ["scoreboard", "table-1", "table-2"]
    for name in ("passwd", "acl", "mosquitto.conf"):  # the owner's only (the broker's user)
        assert (out / name).stat().st_mode & 0o077 == 0, name
    assert "user table-2\ntopic write courtpiece/tables/table-2/events" in (out / "acl").read_text()
    conf = (out / "mosquitto.conf").read_text()
    assert "listener 1884 0.0.0.0" in conf and "allow_anonymous false" in conf
    p.write_text(GOOD.replace("port = 1884", 'port = 1884\nlisten = "127.0.0.1"'))  # a club tried on one machine
    for name in ("passwd", "acl", "mosquitto.conf"):  # an older version's files, open to all
        (out / name).chmod(0o644)
    assert main(["club", "--config", str(p), "--broker-files", str(out)]) == 0
    assert "listener 1884 127.0.0.1\n" in (out / "mosquitto.conf").read_text()
    for name in ("passwd", "acl", "mosquitto.conf"):  # written again: closed again
        assert (out / name).stat().st_mode & 0o077 == 0, name


def test_broker_files_with_a_tls_listener(tmp_path):
    p = tmp_path / "club.toml"
    p.write_text(GOOD.replace("[broker]\n", '[broker]\nserver_cert = "/etc/club/broker.crt"\n'
                              'server_key = "/etc/club/broker.key"\nclient_ca = "/etc/club/ca.crt"\n', 1))
    p.chmod(0o600)
    out = tmp_path / "broker"
    assert main(["club", "--config", str(p), "--broker-files", str(out)]) == 0
    conf = (out / "mosquitto.conf").read_text()
    listener = conf[conf.index("listener "):conf.index("allow_anonymous")]
    assert listener.splitlines()[1:] == ["certfile /etc/club/broker.crt", "keyfile /etc/club/broker.key",
                                         "tls_version tlsv1.2", "cafile /etc/club/ca.crt", "require_certificate true"]


def test_a_club_file_everyone_reads_is_refused(tmp_path):
    p = tmp_path / "club.toml"
    p.write_text(GOOD)
    p.chmod(0o644)
    with pytest.raises(ConfigError, match="every user can read it"):
        load_club_config(p)
