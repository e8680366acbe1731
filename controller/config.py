"""The table's TOML config: every setting has a default that works with the simulator.

A bad config is refused with the key and the line it is on, because the person fixing
it is standing at a Pi with a text editor, not reading a traceback.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from controller.readers.sightings import ALL_ZONES


class ConfigError(ValueError):
    pass


@dataclass
class TableSection:
    #: systemd's StateDirectory= sets $STATE_DIRECTORY; elsewhere a folder here
    state_dir: str = field(default_factory=lambda: os.environ.get("STATE_DIRECTORY", "./courtpiece-state"))
    pin: str = ""  # admin PIN; empty: generated on first start and printed
    deck: str = ""  # active deck name; empty: the only enrolled deck
    #: matches kept in the journal: when a new one starts, inputs of older ones are
    #: deleted (0: keep every match; export them first with `courtpiece export --match`)
    keep_matches: int = 0


@dataclass
class MatchSection:
    preset: str = "court-piece"
    knowledge: str = "dealt"
    seats: list[str] = field(default_factory=lambda: ["North", "East", "South", "West"])
    first_dealer: int = 0
    variants: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class HubSection:
    enabled: bool = True
    #: hardware/99-courtpiece-hub.rules gives the hub this name, whatever its ttyACM number
    port: str = "/dev/courtpiece-hub"
    #: when the port is gone, look for the hub on the other USB serial ports (hub_finder)
    search: bool = True
    removal_silence: float = 1.5
    heartbeat_timeout: float = 3.0


@dataclass
class WebSection:
    """The dashboard; the Pi's template sets host = "0.0.0.0" so phones can reach it.

    The limits are controller.web.server.WebLimits (docs/web.md): they keep a flood of
    connections from using the file handles the journal and the reader hub need.
    """

    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8000
    #: names besides this Pi's own (host name, name.local, its addresses, localhost)
    #: that the dashboard answers to, e.g. a club's DNS name for this table
    allowed_hosts: list[str] = field(default_factory=list)
    max_connections: int = 512
    header_timeout: float = 10.0
    body_timeout: float = 30.0


@dataclass
class GpioSection:
    """Pins are BCM numbers; the defaults are documented in docs/gpio.md."""

    enabled: bool = False
    green: list[int] = field(default_factory=lambda: [5, 6, 13, 19])
    red: list[int] = field(default_factory=lambda: [26, 16, 20, 21])
    buzzer: int = 18
    undo: int = 17
    confirm: int = 27
    play_on: int = 22

    def pins(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in ("green", "red", "buzzer", "undo", "confirm", "play_on")}


@dataclass
class CameraSection:
    """An overhead camera as a card reader (docs/camera.md)."""

    enabled: bool = False
    source: str = "0"  # a camera index, "picamera2", a video file or a folder of images
    zones_file: str = ""  # from `courtpiece calibrate`; empty: STATE/camera-zones.json
    deck_file: str = ""  # from `courtpiece camera learn`; empty: STATE/camera-deck.npz
    size: str = "1280x960"  # frames asked of a live camera, width x height

    @property
    def frame_size(self) -> tuple[int, int]:
        return parse_frame_size(self.size)


def parse_frame_size(text: str) -> tuple[int, int]:
    """``"1920x1440"`` -> (1920, 1440); ValueError saying what is wrong otherwise."""
    parts = text.lower().replace(" ", "").split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"{text!r} is not a frame size like \"1280x960\"")
    w, h = int(parts[0]), int(parts[1])
    if not (320 <= w <= 4096 and 240 <= h <= 4096):
        raise ValueError(f"{text!r}: a frame 320-4096 pixels wide and 240-4096 high")
    return w, h


def add_size_option(parser) -> None:  # noqa: ANN001 - an argparse parser
    """``--size WxH``: the frame a command asks of a live camera, as ``[camera] size``."""
    parser.add_argument(
        "--size",
        type=frame_size_arg,
        default=(1280, 960),
        metavar="WxH",
        help="the frame asked of a live camera (default 1280x960; as [camera] size)",
    )


def frame_size_arg(text: str) -> tuple[int, int]:
    """:func:`parse_frame_size` as an argparse type (``--size 1920x1440``)."""
    import argparse

    try:
        return parse_frame_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


@dataclass
class OledSection:
    enabled: bool = False
    kind: str = "ssd1306"
    port: int = 1
    address: int = 0x3C


@dataclass
class VoiceSection:
    """The referee's spoken announcements (espeak-ng on the Pi's audio output)."""

    enabled: bool = False
    language: str = "en"  # en or ur
    volume: int = 80  # 0-100
    mute: bool = False


@dataclass
class ClubSection:
    """This table on a club's scoreboard through an MQTT broker (docs/club.md)."""

    enabled: bool = False
    host: str = "127.0.0.1"  # the club's broker
    port: int = 1883
    table: str = ""  # this table's name: its broker user and its topic
    password: str = ""
    prefix: str = "courtpiece"  # topic prefix shared by the club's tables
    tls_ca: str = ""  # CA certificate file: when set, the link uses TLS
    tls_cert: str = ""  # client certificate and key, if the broker asks for them
    tls_key: str = ""
    keepalive: int = 30


@dataclass
class Config:
    table: TableSection = field(default_factory=TableSection)
    match: MatchSection = field(default_factory=MatchSection)
    hub: HubSection = field(default_factory=HubSection)
    web: WebSection = field(default_factory=WebSection)
    gpio: GpioSection = field(default_factory=GpioSection)
    oled: OledSection = field(default_factory=OledSection)
    camera: CameraSection = field(default_factory=CameraSection)
    club: ClubSection = field(default_factory=ClubSection)
    voice: VoiceSection = field(default_factory=VoiceSection)
    #: reader zone name -> table zone (seat0..seat3, deal, trump); identity by default
    zones: dict[str, str] = field(default_factory=lambda: {z: z for z in ALL_ZONES})

    @property
    def state_dir(self) -> Path:
        return Path(self.table.state_dir)


def _key_of(line: str) -> str:
    """The key a ``key = value`` line sets, as tomllib names it: a dotted key
    (``bad.name = 1``) makes a table named by its first part, a quoted key loses its
    quotes."""
    return line.split("=", 1)[0].split(".", 1)[0].strip().strip('"').strip("'")


_HEADER = re.compile(r"\[\s*([A-Za-z0-9_.\- ]+?)\s*\]\s*(?:#.*)?")


def _line_of(text: str, section: str, key: str) -> int | None:
    """The line a mistake is on: the key's own line, else its section's header (a
    header may carry a comment, as the template's do once uncommented)."""
    current = ""
    header = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        found = _HEADER.fullmatch(line)
        if found:
            current = found.group(1)
            if current == section and header is None:
                header = n
            if key and current == f"{section}.{key}":
                return n  # a table of its own, as [match.options]
        elif key and current == section and "=" in line and _key_of(line) == key:
            return n
    return header if not key else None


def _where(text: str, section: str, key: str) -> str:
    n = _line_of(text, section, key)
    name = f"{section}.{key}" if key else section
    return f"{name!r}" + (f" (line {n})" if n else "")


def load_config(path: str | Path | None) -> Config:
    cfg = Config()
    if path is None:
        return cfg
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as err:
        raise ConfigError(f"cannot read config {p}: {err.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise ConfigError(f"{p}: line {line} is not UTF-8 text (byte 0x{raw[err.start]:02x}); "
                          "save the file as UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{p}: not valid TOML: {err}") from None
    for section, values in data.items():
        if section == "zones":
            if not isinstance(values, dict):
                raise ConfigError(f"{p}: {_where(text, section, '')} must be a table of reader zone = table zone")
            for k, v in values.items():
                if v not in ALL_ZONES:
                    raise ConfigError(f"{p}: bad value for {_where(text, section, k)}: {v!r} is not one of "
                                      + ", ".join(ALL_ZONES))
            cfg.zones = {**cfg.zones, **values}
            continue
        target = getattr(cfg, section, None) if section in {f.name for f in fields(Config)} else None
        if target is None and not isinstance(values, dict):
            n = _line_of(text, "", section)  # a key above every header
            raise ConfigError(f"{p}: {section!r}" + (f" (line {n})" if n else "") + " is a key outside any "
                              "section: put it under its section's header (docs/config.md lists them)")
        if target is None:
            n = _line_of(text, section, "")
            raise ConfigError(f"{p}: unknown section [{section}]" + (f" (line {n})" if n else "")
                              + " (known: table, match, hub, web, gpio, oled, camera, club, voice, zones)")
        if not isinstance(values, dict):
            raise ConfigError(f"{p}: {_where(text, section, '')} must be a table")
        known = {f.name: f for f in fields(target)}
        for key, value in values.items():
            if key not in known:
                raise ConfigError(f"{p}: unknown key {_where(text, section, key)}; known keys: {', '.join(known)}")
            default = getattr(target, key)
            if not _same_kind(default, value):
                raise ConfigError(f"{p}: bad value for {_where(text, section, key)}: expected "
                                  f"{_kind_name(default)}, got {value!r}")
            if isinstance(default, float) and isinstance(value, int):
                value = float(value)  # 3 means 3.0 seconds
            setattr(target, key, value)
    _check(cfg, p, text)
    _check_table(cfg, p, text)
    return cfg


def _same_kind(default: object, value: object) -> bool:
    """A setting keeps its default's type; a whole number may stand for a float, not
    the other way round (``port = 8000.5`` is a mistake, ``timeout = 3`` is not)."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    for kind in (int, str, list, dict):
        if isinstance(default, kind):
            return isinstance(value, kind)
    return True


def _kind_name(default: object) -> str:
    names = {bool: "true or false", int: "a whole number", float: "a number", str: "text in quotes",
             list: "a list [...]", dict: "a table"}
    return names.get(type(default), type(default).__name__)


def _check_table(cfg: Config, p: Path, text: str) -> None:
    """The state directory and the PIN: the two settings a first start depends on."""
    state = cfg.state_dir
    if state.exists() and not state.is_dir():
        raise ConfigError(f"{p}: {_where(text, 'table', 'state_dir')}: {str(state)!r} is a file, not a directory")
    pin = cfg.table.pin
    if not pin:
        return
    if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12):
        raise ConfigError(f"{p}: bad value for {_where(text, 'table', 'pin')}: the PIN must be 4 to 12 digits")
    try:
        readable_by_all = p.stat().st_mode & 0o004
    except OSError:
        readable_by_all = 0
    if readable_by_all:
        raise ConfigError(f"{p}: {_where(text, 'table', 'pin')}: a PIN in a file every user can read is "
                          "refused; delete the line and run 'courtpiece pin --reset' (or chmod o-r the file)")


def _check(cfg: Config, p: Path, text: str) -> None:
    from controller.rules.options import PRESETS, OptionError, preset

    m = cfg.match
    if m.preset not in PRESETS:
        raise ConfigError(f"{p}: bad value for {_where(text, 'match', 'preset')}: {m.preset!r}; presets: "
                          + ", ".join(PRESETS))
    if m.knowledge not in ("dealt", "played"):
        raise ConfigError(f"{p}: bad value for {_where(text, 'match', 'knowledge')}: use \"dealt\" or \"played\"")
    if len(m.seats) != 4:
        raise ConfigError(f"{p}: {_where(text, 'match', 'seats')} needs four names")
    if m.first_dealer not in range(4):
        raise ConfigError(f"{p}: {_where(text, 'match', 'first_dealer')} must be 0-3")
    try:
        preset(m.preset, *m.variants, **m.options)
    except OptionError as err:
        key = "variants" if "variant" in str(err) and m.variants else "options"
        raise ConfigError(f"{p}: {_where(text, 'match', key)}: {err}") from None
    from controller.signals.gpio import GpioPins

    try:
        GpioPins.from_mapping(cfg.gpio.pins())
    except ValueError as err:
        raise ConfigError(f"{p}: {_where(text, 'gpio', '')}: {err}") from None
    if cfg.oled.kind not in ("ssd1306", "sh1106", "dummy"):
        raise ConfigError(f"{p}: bad value for {_where(text, 'oled', 'kind')}: use ssd1306 or sh1106")
    _check_web(cfg.web, p, text)
    try:
        parse_frame_size(cfg.camera.size)
    except ValueError as err:
        raise ConfigError(f"{p}: bad value for {_where(text, 'camera', 'size')}: {err}") from None
    for key in ("heartbeat_timeout", "removal_silence"):
        if not 0 < getattr(cfg.hub, key) <= 600:
            raise ConfigError(f"{p}: {_where(text, 'hub', key)} must be more than 0 seconds (at most 600)")
    if not isinstance(cfg.table.keep_matches, int) or cfg.table.keep_matches < 0:
        raise ConfigError(f"{p}: {_where(text, 'table', 'keep_matches')} must be a whole number, 0 or more "
                          "(0 keeps every match)")
    _check_club(cfg.club, p, text)
    if cfg.voice.language not in ("en", "ur"):
        raise ConfigError(f"{p}: bad value for {_where(text, 'voice', 'language')}: use \"en\" or \"ur\"")
    if not 0 <= cfg.voice.volume <= 100:
        raise ConfigError(f"{p}: {_where(text, 'voice', 'volume')} must be 0-100")


def _check_web(w: WebSection, p: Path, text: str) -> None:
    if not 0 < w.port < 65536:
        raise ConfigError(f"{p}: {_where(text, 'web', 'port')} must be a TCP port, 1-65535")
    if not all(isinstance(h, str) and h and " " not in h for h in w.allowed_hosts):
        raise ConfigError(f"{p}: bad value for {_where(text, 'web', 'allowed_hosts')}: a list of host names "
                          "(each in quotes, no spaces)")
    if not 8 <= w.max_connections <= 2048:
        raise ConfigError(f"{p}: {_where(text, 'web', 'max_connections')} must be 8-2048 "
                          "(the service may open 4096 files: LimitNOFILE)")
    if not 1 <= w.header_timeout <= 300:
        raise ConfigError(f"{p}: {_where(text, 'web', 'header_timeout')} must be 1-300 seconds")
    if not 1 <= w.body_timeout <= 600:
        raise ConfigError(f"{p}: {_where(text, 'web', 'body_timeout')} must be 1-600 seconds")


def _check_club(c: ClubSection, p: Path, text: str) -> None:
    if not c.enabled:
        return
    from controller.club.topics import valid_name

    if not valid_name(c.table):
        raise ConfigError(f"{p}: {_where(text, 'club', 'table')} must name this table: 1-32 letters, digits, "
                          "- or _, not 'scoreboard' (it is the table's broker user; the scoreboard has that one)")
    if not 0 < c.port < 65536:
        raise ConfigError(f"{p}: {_where(text, 'club', 'port')} must be a TCP port, 1-65535")
    if not c.host:
        raise ConfigError(f"{p}: {_where(text, 'club', 'host')} must name the club's broker")
    if not c.prefix or any(ch in c.prefix for ch in "#+ ") or c.prefix.startswith("/") or c.prefix.endswith("/"):
        raise ConfigError(f"{p}: bad value for {_where(text, 'club', 'prefix')}: a topic prefix without + # or "
                          "spaces, and no / at either end (e.g. \"club/courtpiece\")")
    if bool(c.tls_cert) != bool(c.tls_key):
        raise ConfigError(f"{p}: {_where(text, 'club', 'tls_cert')} and tls_key go together")
    for key in ("tls_ca", "tls_cert", "tls_key"):
        path = getattr(c, key)
        if path and not Path(path).is_file():
            raise ConfigError(f"{p}: {_where(text, 'club', key)}: no such file {path!r}")
    if not 5 <= c.keepalive <= 3600:
        raise ConfigError(f"{p}: {_where(text, 'club', 'keepalive')} must be 5-3600 seconds")
    try:
        readable_by_all = p.stat().st_mode & 0o004
    except OSError:
        readable_by_all = 0
    if c.password and readable_by_all:  # anyone on the Pi could publish as this table
        raise ConfigError(f"{p}: {_where(text, 'club', 'password')}: a broker password in a file every user "
                          f"can read is refused; sudo chgrp courtpiece {p} && sudo chmod 640 {p}")
