"""The matches in a journal: where each begins, so one match can be exported alone.

A match begins with a ``new-match`` command the referee accepts (a refused one, with
an unknown preset say, leaves the match before it running). Whether it is accepted
depends only on its own arguments, so the journal's inputs can be split without
replaying them. Inputs before the first match (ignored by the referee) go with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.referee.actions import CommandError
from controller.referee.journal import Entry
from controller.referee.referee import COMMAND, MatchSetup
from controller.rules.options import PRESETS, OptionError


@dataclass(frozen=True)
class MatchLog:
    """One match's inputs, numbered from 1 in the journal's order."""

    number: int
    preset: str
    entries: list[Entry]

    @property
    def started_at(self) -> float:
        return self.entries[0].at


def starts_match(entry: Entry) -> bool:
    """Whether the referee takes this input as the start of a new match."""
    if entry.kind != COMMAND or entry.payload.get("name") != "new-match":
        return False
    try:
        setup = MatchSetup.from_args({k: v for k, v in entry.payload.items() if k != "name"})
        if setup.preset not in PRESETS:
            return False
        setup.build()
    except (CommandError, OptionError, ValueError, TypeError):
        return False
    return True


def split_matches(entries: Sequence[Entry]) -> list[MatchLog]:
    """The journal's inputs, one list per match (an empty journal has none)."""
    out: list[MatchLog] = []
    before: list[Entry] = []  # inputs before the first match
    for entry in entries:
        if starts_match(entry):
            out.append(MatchLog(len(out) + 1, str(entry.payload.get("preset")), [*before, entry]))
            before = []
        elif out:
            out[-1].entries.append(entry)
        else:
            before.append(entry)
    if before:  # no match was ever started: the inputs as they are
        out.append(MatchLog(1, "-", before))
    return out
