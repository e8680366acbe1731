"""Strings in one place, every language complete, every asset served by the app itself."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

from controller.referee.referee import Referee
from controller.web.app import create_app

STATIC = Path(__file__).resolve().parents[2] / "controller" / "web" / "static"


def _lang(code: str) -> dict:
    return json.loads((STATIC / "i18n" / f"{code}.json").read_text(encoding="utf-8"))


def used_keys() -> set[str]:
    keys = set()
    for html in STATIC.glob("*.html"):
        keys |= set(re.findall(r'data-i18n(?:-placeholder|-title)?="([^"]+)"', html.read_text()))
        keys |= set(re.findall(r'data-confirm="([^"]+)"', html.read_text()))
    for js in (STATIC / "js").glob("*.js"):
        keys |= set(re.findall(r'\bt\("([a-z][\w.-]*)"', js.read_text()))
    return keys


def test_every_language_has_every_key():
    en = _lang("en")
    assert len(en) > 50
    for path in (STATIC / "i18n").glob("*.json"):
        other = _lang(path.stem)
        assert set(other) == set(en), (path.name, set(en) ^ set(other))
        assert other["_meta"]["dir"] in ("ltr", "rtl")
    assert _lang("ur")["_meta"]["dir"] == "rtl"


def test_every_key_the_pages_use_exists():
    missing = used_keys() - set(_lang("en"))
    assert used_keys() and not missing, missing


def test_no_asset_comes_from_outside():
    client = TestClient(create_app(Referee(), admin_pin="1234"))
    for path in list(STATIC.rglob("*.html")) + list(STATIC.rglob("*.js")) + list(STATIC.rglob("*.css")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(?:src|href)=\"(?:https?:)?//", text), path
        assert not re.search(r"url\((?:https?:)?//|@import", text), path
        assert not re.search(r"(?:import|fetch)\s*\(?\s*[\"'](?:https?:)?//", text), path
    for page in ("/", "/table", "/admin"):
        html = client.get(page).text
        for ref in re.findall(r'(?:src|href)="(/static/[^"]*|/|/table|/admin)"', html):
            assert client.get(ref).status_code == 200, ref
    langs = client.get("/api/languages").json()
    assert {"en", "ur"} <= {lang["code"] for lang in langs}
