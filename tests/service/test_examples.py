"""The example table logs in docs/examples replay to exactly their golden events.

These are the logs a newcomer reads to learn the format, so they must stay true: each
is replayed the way docs/table-log.md says (``courtpiece replay LOG``) and compared line
by line with its golden file, and the moment it exists to show must be in the events.
After a deliberate change of the events, rewrite them with
``.venv/bin/python docs/examples/make.py`` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
MANIFEST = json.loads((EXAMPLES / "examples.json").read_text(encoding="utf-8"))


def test_every_preset_has_an_example() -> None:
    from controller.rules.options import PRESETS

    assert {e["preset"] for e in MANIFEST} == set(PRESETS)
    assert {e["knowledge"] for e in MANIFEST} == {"dealt", "played"}


@pytest.mark.parametrize("example", MANIFEST, ids=lambda e: e["name"])
def test_example_log_replays_to_its_golden_events(example: dict, capsys: pytest.CaptureFixture[str]) -> None:
    log = EXAMPLES / f"{example['name']}.log.jsonl"
    assert main(["replay", str(log)]) == 0
    printed = capsys.readouterr().out.splitlines()
    golden = (EXAMPLES / f"{example['name']}.events.jsonl").read_text(encoding="utf-8").splitlines()
    assert printed == golden
    kinds = [json.loads(line)["event"] for line in printed]
    assert set(example["expect"]) <= set(kinds), f"{example['name']} no longer shows {example['shows']}"
    assert "impossible" not in kinds and "command-refused" not in kinds


def test_the_examples_readme_lists_each_example_as_it_is() -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for e in MANIFEST:
        assert f"| [`{e['name']}`]({e['name']}.log.jsonl) | `{e['preset']}` | {e['knowledge']} | {e['shows']} |" in readme


def test_table_log_doc_points_to_the_examples() -> None:
    doc = (EXAMPLES.parent / "table-log.md").read_text(encoding="utf-8")
    assert "examples/" in doc
