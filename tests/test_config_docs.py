"""docs/config.md names every section and key the table config accepts, and no other,
with the loader's defaults (a newcomer reads the doc, not controller/config.py).

The doc's sections are headings like ``## `[web]` ``; each key is a table row under its
section whose first cell is the key in backticks and whose third cell ends with the
default as a TOML value in backticks.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest

from controller.config import Config, load_config

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "config.md"
HEADING = re.compile(r"^#{1,6} ")
SECTION = re.compile(r"^#{2,3} `\[([\w.]+)\]`\s*$")
ROW = re.compile(r"^\|\s*`(\w+)`\s*\|([^|]*)\|([^|]*)\|")
#: the one default that depends on the environment (systemd's StateDirectory=)
ENV_DEFAULT = {("table", "state_dir")}


def accepted(cfg: Config) -> dict[str, dict[str, object]]:
    """Section -> key -> default, as load_config takes them: each field of Config is a
    section (a dataclass, or ``zones``: its default reader zones); a table-valued key
    (``[match] options``) is also a section of its own (``[match.options]``)."""
    sections: dict[str, dict[str, object]] = {}
    for f in dataclasses.fields(Config):
        value = getattr(cfg, f.name)
        sections[f.name] = dataclasses.asdict(value) if dataclasses.is_dataclass(value) else dict(value)
    for name, keys in list(sections.items()):
        for key, default in keys.items():
            if isinstance(default, dict):
                sections[f"{name}.{key}"] = dict(default)
    return sections


def documented(text: str) -> tuple[dict[str, dict[str, str]], list[str]]:
    """Section -> key -> the default cell, and the key rows found outside any section."""
    sections: dict[str, dict[str, str]] = {}
    stray: list[str] = []
    current: str | None = None
    for line in text.splitlines():
        if HEADING.match(line):
            match = SECTION.match(line)
            current = match.group(1) if match else None
            if current is not None:
                sections.setdefault(current, {})
            continue
        row = ROW.match(line)
        if row is None:
            continue
        key, default = row.group(1), row.group(3)
        if current is None:
            stray.append(key)
        else:
            sections[current][key] = default
    return sections, stray


def toml_value(cell: str) -> object:
    """The default cell's last backticked part, read as a TOML value."""
    parts = re.findall(r"`([^`]+)`", cell)
    assert parts, f"no default in backticks in {cell!r}"
    return tomllib.loads(f"v = {parts[-1]}")["v"]


@pytest.fixture
def defaults(monkeypatch: pytest.MonkeyPatch) -> dict[str, dict[str, object]]:
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    return accepted(Config())


@pytest.fixture
def doc() -> dict[str, dict[str, str]]:
    sections, stray = documented(DOC.read_text(encoding="utf-8"))
    assert not stray, f"docs/config.md: key rows outside a `[section]` heading: {stray}"
    return sections


def test_every_section_is_documented_and_no_other(
    defaults: dict[str, dict[str, object]], doc: dict[str, dict[str, str]]
) -> None:
    missing = sorted(set(defaults) - set(doc))
    unknown = sorted(set(doc) - set(defaults))
    assert not missing, f"docs/config.md has no heading for the sections {missing}"
    assert not unknown, f"docs/config.md documents sections the loader refuses: {unknown}"


def test_every_key_is_documented_and_no_other(
    defaults: dict[str, dict[str, object]], doc: dict[str, dict[str, str]]
) -> None:
    problems = []
    for section, keys in defaults.items():
        rows = doc.get(section, {})
        missing = sorted(set(keys) - set(rows))
        unknown = sorted(set(rows) - set(keys))
        if missing:
            problems.append(f"[{section}] keys missing from docs/config.md: {missing}")
        if unknown:
            problems.append(f"[{section}] keys in docs/config.md the loader refuses: {unknown}")
    assert not problems, "\n".join(problems)


def test_documented_defaults_are_the_loaders(
    defaults: dict[str, dict[str, object]], doc: dict[str, dict[str, str]]
) -> None:
    wrong = []
    for section, rows in doc.items():
        for key, cell in rows.items():
            if key not in defaults.get(section, {}):
                continue  # reported by the test above
            if (section, key) in ENV_DEFAULT:
                assert "STATE_DIRECTORY" in cell, f"[{section}] {key}: say that $STATE_DIRECTORY wins"
            if toml_value(cell) != defaults[section][key]:
                wrong.append(f"[{section}] {key}: doc {cell.strip()}, loader {defaults[section][key]!r}")
    assert not wrong, "\n".join(wrong)


def test_a_config_of_every_documented_default_loads_as_the_defaults(
    tmp_path: Path, defaults: dict[str, dict[str, object]], doc: dict[str, dict[str, str]]
) -> None:
    """The loader itself takes every documented key with its documented default."""
    state = tmp_path / "state"
    lines = []
    for section, rows in doc.items():
        if not rows:
            continue
        lines.append(f"[{section}]")
        for key, cell in rows.items():
            value = f'"{state}"' if (section, key) in ENV_DEFAULT else re.findall(r"`([^`]+)`", cell)[-1]
            lines.append(f"{key} = {value}")
    path = tmp_path / "table.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path.chmod(0o600)
    loaded = accepted(load_config(path))
    loaded["table"]["state_dir"] = defaults["table"]["state_dir"]
    assert loaded == defaults


@pytest.mark.parametrize("path", ["README.md", "hardware/table.toml"])
def test_the_readme_and_the_template_point_to_the_doc(path: str) -> None:
    assert "docs/config.md" in (REPO / path).read_text(encoding="utf-8")
