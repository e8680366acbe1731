"""Public copies of the referee's own notices.

The rules engine keeps hidden cards out of its public events. The referee's notices (a
misread card, an undo, an impossible input) are free text written from its full
knowledge, and that text can name a card still in someone's hand ("QS was dealt to seat
2") or the card just undone. Their public copies lose every card and suit name: the table
learns *that* something happened, not what; the full text goes to the admin only.
"""

from __future__ import annotations

import re
from typing import Any

#: Referee notices whose ``message`` is free text written from the referee's full knowledge.
NOTICE_EVENTS = frozenset({
    "impossible", "undone", "duplicate-read", "command-refused", "ignored", "input-refused",
    "journal-failed", "unknown-tag", "other-deck-tag",
})
#: Keys of a notice that may name a hidden card or identify it.
SECRET_KEYS = ("card", "tag", "suit", "args")
ADMIN = "admin"

_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b", re.IGNORECASE)
_SUIT = re.compile(r"\b(?:spades?|hearts?|diamonds?|clubs?)\b", re.IGNORECASE)


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
    return [public, {**event, "private_to": ADMIN}]
