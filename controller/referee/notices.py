"""Who may see a table event, and public copies of the referee's own notices.

Every table event's audience is decided once, where it is made: no ``private_to`` means
everyone; ``private_to`` is a seat (0-3) or ``"admin"``. :func:`sees` is the one test
every surface uses (web, signals, ``courtpiece replay --audience``).

The rules engine keeps hidden cards out of its public events. The referee's notices (a
misread card, an undo, an impossible input) are free text written from its full
knowledge, and that text can name a card still in someone's hand ("QS was dealt to
Bilal") or the card just undone. Their public copies lose every card and suit name and
carry ``"redacted": true``: the table learns *that* something happened, not what; the
full text goes to the admin only, so the admin reads the full copy instead.
"""

from __future__ import annotations

import re
from typing import Any

from controller.rules.cards import RANK_LETTERS, SUIT_LETTERS, Suit

#: Referee notices whose ``message`` is free text written from the referee's full knowledge.
NOTICE_EVENTS = frozenset({
    "impossible", "undone", "duplicate-read", "command-refused", "ignored", "input-refused",
    "journal-failed", "unknown-tag", "other-deck-tag",
})
#: Keys of a notice that may name a hidden card or identify it.
SECRET_KEYS = ("card", "tag", "suit", "args")
ADMIN = "admin"
PUBLIC = "public"
#: ``"public"``, ``"admin"`` or a seat number.
Audience = str | int

# Cards are written in capitals; matching them case-blind would eat words like "as".
_CARD = re.compile(rf"\b(?:10|[{RANK_LETTERS}])[{SUIT_LETTERS}]\b")
_SUIT = re.compile(r"\b(?:" + "|".join(s.title.rstrip("s") for s in Suit) + r")s?\b", re.IGNORECASE)


def scrub(text: str) -> str:
    """Free text with card and suit names replaced."""
    return _SUIT.sub("a suit", _CARD.sub("a card", text))


def public_copy(event: dict[str, Any]) -> dict[str, Any]:
    """A notice as the public may see it (other events are returned unchanged)."""
    if event.get("event") not in NOTICE_EVENTS:
        return event
    out = {k: v for k, v in event.items() if k not in SECRET_KEYS}
    if isinstance(out.get("message"), str):
        out["message"] = scrub(out["message"])
    return out


def split_notice(event: dict[str, Any]) -> list[dict[str, Any]]:
    """The public notice, followed by the full text for the admin when they differ."""
    public = public_copy(event)
    if public is event or public == event:
        return [event]
    return [{**public, "redacted": True}, {**event, "private_to": ADMIN}]


def parse_audience(text: str) -> Audience:
    """``public``, ``admin`` or ``seat:N`` (N 0-3); ValueError otherwise."""
    t = text.strip().lower()
    if t in (PUBLIC, ADMIN):
        return t
    if t.startswith("seat:") and t[5:].isdigit() and 0 <= int(t[5:]) <= 3:
        return int(t[5:])
    raise ValueError(f"not an audience: {text!r} (use public, admin or seat:0 to seat:3)")


def sees(audience: Audience, event: dict[str, Any]) -> bool:
    """Whether ``audience`` sees this event. The admin sees every event, but of a notice
    only its full copy (so each refusal reaches him once); a seat sees the public events
    and its own private ones."""
    to = event.get("private_to")
    if audience == ADMIN:
        return not event.get("redacted", False)
    if to is None:
        return True
    return isinstance(audience, int) and to == audience
