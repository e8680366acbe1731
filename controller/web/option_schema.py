"""Every rules option as a typed form field, for the admin page's new-match form.

``kind`` is what input to draw: ``bool`` (a checkbox), ``int`` (a number), ``choice``
(one of ``choices``), ``choices`` (any of ``choices``), ``ints`` (a list of numbers).
The types come from each option's default, so a new option needs nothing here.
"""

from __future__ import annotations

from dataclasses import fields
from enum import Enum
from typing import Any

from controller.rules.options import Options, option_name, to_plain


def _kind(default: Any) -> tuple[str, list[Any] | None]:
    if isinstance(default, bool):
        return "bool", None
    if isinstance(default, int):
        return "int", None
    if isinstance(default, Enum):
        return "choice", [e.value for e in type(default)]
    if isinstance(default, frozenset) and default and isinstance(next(iter(default)), Enum):
        return "choices", [e.value for e in type(next(iter(default)))]
    if isinstance(default, tuple | frozenset):
        return "ints", None
    return "text", None


def option_schema() -> list[dict[str, Any]]:
    """``[{name, help, default, kind, choices}]`` in declaration order."""
    out = []
    for f in fields(Options):
        kind, choices = _kind(f.default)
        out.append({"name": option_name(f.name), "help": f.metadata["help"], "default": to_plain(f.default),
                    "kind": kind, "choices": choices})
    return out
