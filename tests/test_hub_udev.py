"""The udev rule that names the reader hub, and that the rest agrees with it.

udevadm only gained ``verify`` in systemd 254 (Bookworm has 252), so the rule is
read here: every line a comma-separated list of KEY==/KEY+=/KEY= "value" pairs, the
match on the Pico's USB identity that the firmware README documents, and the name
it gives being the config's default port.
"""

from __future__ import annotations

import re
from pathlib import Path

from controller.config import HubSection
from controller.readers.hub_finder import DEFAULT_SEARCH

REPO = Path(__file__).resolve().parents[1]
RULE = REPO / "hardware" / "99-courtpiece-hub.rules"
PAIR = re.compile(r'\s*([A-Z_]+(?:\{[^}]+\})?)\s*(==|!=|\+=|:=|=)\s*"([^"]*)"\s*(?:,|$)')


def rules() -> list[dict[tuple[str, str], str]]:
    out = []
    for line in RULE.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pairs: dict[tuple[str, str], str] = {}
        pos = 0
        while pos < len(line):
            match = PAIR.match(line, pos)
            assert match, f"unreadable from column {pos}: {line[pos:]!r}"
            pairs[(match[1], match[2])] = match[3]
            pos = match.end()
        out.append(pairs)
    return out


def test_the_rule_matches_the_picos_usb_identity_and_names_it() -> None:
    (rule,) = rules()
    assert rule[("SUBSYSTEM", "==")] == "tty"
    assert (rule[("ATTRS{idVendor}", "==")], rule[("ATTRS{idProduct}", "==")]) == ("2e8a", "0005")
    assert rule[("SYMLINK", "+=")] == "courtpiece-hub"
    assert rule[("GROUP", "=")] == "dialout"  # the service's supplementary group


def test_the_firmware_readme_documents_the_same_usb_id() -> None:
    assert "`2e8a:0005`" in (REPO / "firmware" / "README.md").read_text()


def test_the_named_device_is_the_default_port_and_searched_first() -> None:
    (rule,) = rules()
    name = "/dev/" + rule[("SYMLINK", "+=")]
    assert HubSection().port == name
    assert DEFAULT_SEARCH[0] == name
    assert f'# port = "{name}"' in (REPO / "hardware" / "table.toml").read_text()


def test_cdc_acm_is_loaded_at_boot() -> None:
    conf = (REPO / "hardware" / "courtpiece-modules.conf").read_text().splitlines()
    assert [line for line in conf if line and not line.startswith("#")] == ["cdc_acm"]
