"""The referee's own notices, typed: what it says about an input besides the engine's events.

A notice is written from the referee's full knowledge, so it can name a card still in a
hand (a misread, an undo, a refusal) or an unknown tag's number. Each notice class knows
which of its fields are the admin's only (``secret``) and writes its sentence both ways:
:meth:`Notice.message` whole, :meth:`Notice.public_message` without the secret. Nothing
is scrubbed afterwards; :func:`controller.referee.table_events.events_for` sends the
public form to the table and the whole one to the admin.

Who sees what is in ``table_events``; the names are re-exported here for the surfaces
that filter (``sees``, ``ADMIN``, ``PUBLIC``, ``parse_audience``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from controller.referee.table_events import ADMIN, PUBLIC, Audience, parse_audience, sees
from controller.rules.cards import CARDS
from controller.rules.errors import ImpossibleInput

__all__ = [
    "ADMIN", "PUBLIC", "Audience", "parse_audience", "sees", "Notice", "NOTICE_KINDS",
    "MatchSetUp", "Refused", "UnknownTag", "OtherDeckTag", "DuplicateRead", "CommandRefused",
    "Ignored", "Undone", "JournalFailed", "InputHeld", "InputRefused", "JournalDamaged",
    "JournalResumed", "ReaderTrouble",
]


@dataclass(frozen=True, slots=True)
class Notice:
    """Base of the referee's notices. Fields are the JSON fields; ``secret`` names those
    only the admin may read."""

    kind: ClassVar[str] = "notice"
    secret: ClassVar[tuple[str, ...]] = ()

    def message(self) -> str:
        """The sentence for the admin. A notice with a ``reason`` field says that (it is
        written as ``message`` in JSON, not twice)."""
        return str(self.reason)

    def public_message(self) -> str:
        """The sentence for everyone; the same as :meth:`message` unless it names a secret."""
        return self.message()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"event": self.kind}
        data.update({f.name: getattr(self, f.name) for f in fields(self)
                     if not f.name.startswith("_") and f.name != "reason"})
        data["message"] = self.message()
        return data

    def public_dict(self) -> dict[str, Any] | None:
        """This notice without its secrets, or None when it has nothing to hide."""
        hidden = [k for k in self.secret if getattr(self, k) is not None]
        public = self.public_message()
        if not hidden and public == self.message():
            return None
        data = {k: v for k, v in self.to_dict().items() if k not in self.secret}
        data["message"] = public
        return data


@dataclass(frozen=True, slots=True)
class MatchSetUp:
    """A new match: the table's choices (the header of a table log). Public."""

    setup: dict[str, Any]
    kind: ClassVar[str] = "match-setup"

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.kind, **self.setup}


@dataclass(frozen=True, slots=True)
class Refused(Notice):
    """An input that cannot have happened (the engine's refusal, a bad card text, a card
    on a spot that means nothing now). ``card`` is the refused card, when the sentence
    names one."""

    error: str
    _sentence: str
    _public: str
    card: str | None = None
    zone: str | None = None
    command: str | None = None
    kind: ClassVar[str] = "impossible"
    secret: ClassVar[tuple[str, ...]] = ("card",)

    @classmethod
    def from_error(cls, err: ImpossibleInput, **where: str) -> Refused:
        card = None if err.card is None else CARDS[err.card].text
        return cls(type(err).__name__, str(err), err.public, card, **where)

    def to_dict(self) -> dict[str, Any]:
        """Only the fields that say something: a refusal names a card, a zone or a command."""
        data = Notice.to_dict(self)
        return {k: v for k, v in data.items() if v is not None}

    def message(self) -> str:
        return self._sentence

    def public_message(self) -> str:
        return self._public


@dataclass(frozen=True, slots=True)
class UnknownTag(Notice):
    """A tag the deck map does not know (another object, a card not enrolled)."""

    zone: str
    where: str
    tag: str
    kind: ClassVar[str] = "unknown-tag"
    secret: ClassVar[tuple[str, ...]] = ("tag",)

    def message(self) -> str:
        return f"unknown tag at {self.where}"


@dataclass(frozen=True, slots=True)
class OtherDeckTag(Notice):
    """A card of another enrolled deck: the deck is named, which card it is stays with the admin."""

    zone: str
    where: str
    tag: str
    deck: str
    card: str | None = None
    kind: ClassVar[str] = "other-deck-tag"
    secret: ClassVar[tuple[str, ...]] = ("tag", "card")

    def message(self) -> str:
        card = f" ({self.card})" if self.card else ""
        return f"a card from {self.deck}{card} at {self.where}"

    def public_message(self) -> str:
        return f"a card from {self.deck} at {self.where}"


@dataclass(frozen=True, slots=True)
class DuplicateRead(Notice):
    """The card last read on a spot was read again: counted once. Which card it was is not said."""

    zone: str
    where: str
    kind: ClassVar[str] = "duplicate-read"

    def message(self) -> str:
        return f"a card read again at {self.where} was counted once"


@dataclass(frozen=True, slots=True)
class CommandRefused(Notice):
    """A command that is malformed or names what does not exist (a sixth seat, no suit)."""

    command: str
    reason: str
    kind: ClassVar[str] = "command-refused"


@dataclass(frozen=True, slots=True)
class Ignored(Notice):
    """An input that changes nothing (nothing to undo, no match yet)."""

    reason: str
    command: str | None = None
    kind: ClassVar[str] = "ignored"


@dataclass(frozen=True, slots=True)
class Undone(Notice):
    """An input taken back. A card it named may still be in a hand (a deal card)."""

    undone_seq: int
    where: str | None = None
    card: str | None = None
    command: str | None = None
    kind: ClassVar[str] = "undone"
    secret: ClassVar[tuple[str, ...]] = ("card",)

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.kind, "undone_seq": self.undone_seq, "message": self.message()}

    def _what(self, card: str | None) -> str:
        if self.command is not None:
            return self.command
        return f"{card or 'a tag'} at {self.where}"

    def message(self) -> str:
        return f"undid input {self.undone_seq} ({self._what(self.card)})"

    def public_message(self) -> str:
        return f"undid input {self.undone_seq} ({self._what('a card' if self.card else None)})"


@dataclass(frozen=True, slots=True)
class JournalFailed(Notice):
    """The journal cannot be written: the referee stops taking plays."""

    reason: str
    kind: ClassVar[str] = "journal-failed"


@dataclass(frozen=True, slots=True)
class InputHeld(Notice):
    """An input kept in memory until the journal writes again."""

    held: int
    kind: ClassVar[str] = "input-held"

    def message(self) -> str:
        return f"{self.held} input(s) held until the journal can be written again"


@dataclass(frozen=True, slots=True)
class InputRefused(Notice):
    """An input refused while the journal cannot be written (it could not be held)."""

    refused: int
    reason: str
    kind: ClassVar[str] = "input-refused"


@dataclass(frozen=True, slots=True)
class JournalDamaged(Notice):
    """Start-up found the journal damaged: what was saved, where the file is kept."""

    reason: str
    kind: ClassVar[str] = "journal-damaged"


@dataclass(frozen=True, slots=True)
class JournalResumed(Notice):
    """The journal writes again; the held inputs were recorded."""

    recorded: int
    refused: int
    kind: ClassVar[str] = "journal-resumed"

    def message(self) -> str:
        msg = f"the journal writes again; {self.recorded} input(s) held meanwhile were recorded"
        if self.refused:
            msg += f"; {self.refused} input(s) were refused while it could not"
        return msg


@dataclass(frozen=True, slots=True)
class ReaderTrouble(Notice):
    """A reader or its link reported trouble (unplugged hub, dead reader, bad lines)."""

    source: str
    zone: str | None
    reason: str
    kind: ClassVar[str] = "reader-fault"


#: every notice kind the referee makes
NOTICE_KINDS = frozenset(c.kind for c in (
    Refused, UnknownTag, OtherDeckTag, DuplicateRead, CommandRefused, Ignored, Undone, JournalFailed,
    InputHeld, InputRefused, JournalDamaged, JournalResumed, ReaderTrouble))
