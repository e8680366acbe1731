"""The rules engine stays pure: it imports nothing from the rest of the project, and no
clock, randomness, file or network module (state must follow from the inputs alone)."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "controller" / "rules"
FORBIDDEN = {"time", "datetime", "random", "secrets", "os", "io", "socket", "sqlite3", "threading",
             "asyncio", "subprocess", "pathlib", "uuid"}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_engine_imports_nothing_impure_and_nothing_of_the_project():
    files = sorted(RULES.glob("*.py"))
    assert len(files) > 10
    for f in files:
        for name in imported_modules(f):
            top = name.split(".")[0]
            assert top not in ("controller", "vision", "firmware"), f"{f.name} imports {name}"
            assert top not in FORBIDDEN, f"{f.name} imports {name}"
