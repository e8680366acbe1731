"""What of a table event may leave the Pi on a public page or stream.

The rules engine already keeps hidden cards out of its public events and marks private
ones with ``private_to``. The referee's own notices (a misread card, an undo) carry
free text written for the admin, and that text can name a card still in someone's hand
("QS was dealt to seat 2") or the card just undone. Public copies of those notices lose
every card and suit name: the table learns *that* something happened, not what.
"""

from __future__ import annotations

import re
from typing import Any

#: Referee notices whose ``message`` is free text written from the referee's full knowledge.
NOTICE_EVENTS = frozenset({
    "impossible", "undone", "duplicate-read", "command-refused", "ignored", "input-refused",
    "journal-failed", "unknown-tag", "other-deck-tag",
})

_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b", re.IGNORECASE)
_SUIT = re.compile(r"\b(?:spades?|hearts?|diamonds?|clubs?)\b", re.IGNORECASE)


def scrub(text: str) -> str:
    """Free text with card and suit names replaced."""
    return _SUIT.sub("a suit", _CARD.sub("a card", text))


def public_event(event: dict[str, Any]) -> dict[str, Any] | None:
    """The public copy of a table event, or None when it is for one seat only."""
    if "private_to" in event:
        return None
    if event.get("event") not in NOTICE_EVENTS:
        return dict(event)
    out = {k: v for k, v in event.items() if k not in ("card", "tag", "suit", "args")}
    if isinstance(out.get("message"), str):
        out["message"] = scrub(out["message"])
    return out
