"""The club server's TOML config: where the broker is, the tables and their passwords,
the scoreboard's web address and the director's PIN.

Checked like the table config (``controller.config``): a mistake names its key and line,
and an unknown key is refused, because a typo in a club file on the night must not
silently leave a table out.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path

from controller.club.topics import DEFAULT_PREFIX, valid_name
from controller.config import ConfigError, _where


@dataclass
class ClubPart:
    name: str = "Court Piece club"
    prefix: str = DEFAULT_PREFIX
    state_dir: str = "./club-state"  # club.sqlite3, the director's PIN, the cookie secret
    pin: str = ""  # director's PIN; empty: generated on first start and printed


@dataclass
class BrokerPart:
    host: str = "127.0.0.1"
    port: int = 1883
    password: str = ""  # the scoreboard's broker password (user "scoreboard")
    tls_ca: str = ""
    tls_cert: str = ""
    tls_key: str = ""
    keepalive: int = 30
    #: for ``--broker-files``: a TLS listener with the broker's certificate and key, and
    #: when ``client_ca`` is set the tables must show a certificate that CA signed
    server_cert: str = ""
    server_key: str = ""
    client_ca: str = ""
    #: for ``--broker-files``: the address the broker listens on; every network by
    #: default (the tables reach it over the club's Wi-Fi), "127.0.0.1" to try a club
    #: on one machine
    listen: str = "0.0.0.0"


@dataclass
class WebPart:
    host: str = "127.0.0.1"
    port: int = 8080


@dataclass
class ClubConfig:
    club: ClubPart = field(default_factory=ClubPart)
    broker: BrokerPart = field(default_factory=BrokerPart)
    web: WebPart = field(default_factory=WebPart)
    #: table name -> its broker password
    tables: dict[str, str] = field(default_factory=dict)

    @property
    def state_dir(self) -> Path:
        return Path(self.club.state_dir)


def load_club_config(path: str | Path) -> ClubConfig:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"cannot read club config {p}: {err.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{p}: not valid TOML: {err}") from None
    cfg = ClubConfig()
    for section, values in data.items():
        if not isinstance(values, dict):
            raise ConfigError(f"{p}: {_where(text, section, '')} must be a table")
        if section == "tables":
            for name, pw in values.items():
                if not valid_name(name):
                    raise ConfigError(f"{p}: bad table name {_where(text, section, name)}: 1-32 letters, digits, "
                                      "- or _, and not 'scoreboard'")
                if not isinstance(pw, str) or len(pw) < 8:
                    raise ConfigError(f"{p}: {_where(text, section, name)} must be a password of 8 or more characters")
            cfg.tables = dict(values)
            continue
        target = getattr(cfg, section, None) if section in ("club", "broker", "web") else None
        if target is None:
            raise ConfigError(f"{p}: unknown section [{section}] (known: club, broker, web, tables)")
        known = {f.name for f in fields(target)}
        for key, value in values.items():
            if key not in known:
                raise ConfigError(f"{p}: unknown key {_where(text, section, key)}; known keys: {', '.join(known)}")
            default = getattr(target, key)
            if type(value) is not type(default):
                raise ConfigError(f"{p}: bad value for {_where(text, section, key)}: expected "
                                  f"{type(default).__name__}, got {value!r}")
            setattr(target, key, value)
    for section, key in (("broker", "port"), ("web", "port")):
        if not 0 < getattr(getattr(cfg, section), key) < 65536:
            raise ConfigError(f"{p}: {_where(text, section, key)} must be a TCP port")
    if not cfg.tables:
        raise ConfigError(f"{p}: [tables] must list the club's tables: name = \"password\"")
    if p.stat().st_mode & 0o004:  # every table's password is in here
        raise ConfigError(f"{p}: holds the tables' broker passwords and every user can read it; chmod o-r {p}")
    return cfg
