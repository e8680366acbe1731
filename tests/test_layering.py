"""The flow runs one way -- reader -> referee -> engine -> events -> screens and signals --
and these tests keep the layers from reaching back (in the style of the engine's own
purity test): a reader knows nothing of the referee, the rules or the web; the journal
stores inputs and knows nothing of what they mean; the signals hear events and drive
nothing else."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CONTROLLER = Path(__file__).resolve().parents[1] / "controller"


def project_imports(path: Path) -> set[str]:
    """Every ``controller.*`` module a file imports, at the top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return {n for n in names if n.split(".")[0] == "controller"}


def reaches(name: str, layers: tuple[str, ...]) -> bool:
    return any(name == f"controller.{layer}" or name.startswith(f"controller.{layer}.") for layer in layers)


LAYERS = [
    # (what, files, layers it must not import)
    ("readers", sorted((CONTROLLER / "readers").glob("*.py")),
     ("referee", "rules", "web", "club", "signals", "sim", "decks")),
    ("journal", [CONTROLLER / "referee" / name for name in ("journal.py", "journal_repair.py", "salvage.py")],
     ("referee.referee", "referee.service", "referee.notices", "rules", "web", "club", "signals", "readers")),
    ("signals", sorted((CONTROLLER / "signals").glob("*.py")),
     ("web", "club", "readers.hub", "readers.camera", "referee.journal", "referee.service", "sim")),
]


@pytest.mark.parametrize(("what", "files", "forbidden"), LAYERS, ids=[layer[0] for layer in LAYERS])
def test_a_layer_does_not_reach_back(what: str, files: list[Path], forbidden: tuple[str, ...]) -> None:
    present = [f for f in files if f.exists()]
    assert present, f"no files for {what}"
    bad = [f"{f.relative_to(CONTROLLER)} imports {name}" for f in present for name in sorted(project_imports(f))
           if reaches(name, forbidden)]
    assert bad == []


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from controller.referee.referee import Referee\n    return Referee\n", encoding="utf-8")
    assert reaches("controller.referee.referee", ("referee",)) and project_imports(sample) == {"controller.referee.referee"}
