"""What the referee tells the table: one typed event per thing that happened, with its audience.

Everything a screen, the voice, the GPIO signals or the club broker learns passes through a
:class:`TableEvent`. Its ``body`` is typed: an engine event (``controller.rules.events``),
a referee notice (``controller.referee.notices``) or the match setup. Its audience is
decided once, where the event is made (:func:`events_for`): the public, the admin, or one
seat. :func:`sees` is the one test every surface uses; JSON is made only at the edges
(:meth:`TableEvent.to_dict`).

A notice that names something hidden (a card still in a hand, an unknown tag's number) is
made twice for the same input: a public copy written without it (``redacted``) and the
admin's full copy right after it. The admin reads the full one, the table the public one,
so each reaches every audience exactly once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from controller.rules.events import Event

ADMIN = "admin"
PUBLIC = "public"
#: ``PUBLIC``, ``ADMIN`` or a seat number 0-3.
Audience = str | int


class Body(Protocol):
    """What a table event says: an engine event, a notice, the match setup. A notice also
    has ``public_dict()``: itself without its secrets, or None when it has none."""

    @property
    def kind(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True, eq=False)
class TableEvent(Mapping[str, Any]):
    """One thing that happened at the table, caused by input ``seq`` at time ``at``.

    Code reads the typed fields (``kind``, ``body``, ``audience``); the event also reads
    like its JSON form (``event["seat"]``), read-only, and equals it: two events are
    equal when everything they say, to whom, is."""

    seq: int
    at: float
    body: Body
    audience: Audience = PUBLIC
    #: the public copy of a notice whose full text went to the admin in its own event
    redacted: bool = False
    #: not from an input (a reader fault): not journaled, not part of any replay
    notice: bool = False
    _data: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        body = self.body
        data = (body.public_dict() if self.redacted else None) or body.to_dict()  # type: ignore[attr-defined]
        out: dict[str, Any] = {"seq": self.seq, "at": self.at, **data}
        if self.audience != PUBLIC:
            out["private_to"] = self.audience
        if self.redacted:
            out["redacted"] = True
        if self.notice:
            out["notice"] = True
        object.__setattr__(self, "_data", out)

    @property
    def kind(self) -> str:
        return self.body.kind

    def get(self, key: str, default: Any = None) -> Any:
        """A field of the event as it is written in JSON (``"seat"``, ``"message"``)."""
        return self._data.get(key, default)

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data (a copy), with ``private_to`` when it is not public."""
        return dict(self._data)


def events_for(seq: int, at: float, body: Body, *, notice: bool = False) -> list[TableEvent]:
    """The table events for one thing that happened, each with its audience.

    An engine event private to a seat goes to that seat (the admin sees it too); a notice
    with something hidden in it goes out twice, redacted for everyone and whole for the
    admin; anything else is public.
    """
    if isinstance(body, Event):
        audience: Audience = body.seat if body.private is not None else PUBLIC  # type: ignore[attr-defined]
        return [TableEvent(seq, at, body, audience, notice=notice)]
    public = getattr(body, "public_dict", None)
    if public is not None and public() is not None:
        return [TableEvent(seq, at, body, PUBLIC, redacted=True, notice=notice),
                TableEvent(seq, at, body, ADMIN, notice=notice)]
    return [TableEvent(seq, at, body, notice=notice)]


def sees(audience: Audience, event: TableEvent) -> bool:
    """Whether ``audience`` sees this event. The admin sees every event, but of a notice
    only its full copy (so each refusal reaches him once); a seat sees the public events
    and its own private ones."""
    if audience == ADMIN:
        return not event.redacted
    if event.audience == PUBLIC:
        return True
    return isinstance(audience, int) and event.audience == audience


def for_audience(events: list[TableEvent], audience: Audience) -> list[TableEvent]:
    """The events ``audience`` sees, in order."""
    return [e for e in events if sees(audience, e)]


def parse_audience(text: str) -> Audience:
    """``public``, ``admin`` or ``seat:N`` (N 0-3); ValueError otherwise."""
    t = text.strip().lower()
    if t in (PUBLIC, ADMIN):
        return t
    if t.startswith("seat:") and t[5:].isdigit() and 0 <= int(t[5:]) <= 3:
        return int(t[5:])
    raise ValueError(f"not an audience: {text!r} (use public, admin or seat:0 to seat:3)")
