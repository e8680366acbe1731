"""Table events as short sentences for a terminal (the simulator, ``courtpiece run -v``).

One line-maker per event kind, in a table: a new event gets a sentence by adding an
entry, never by growing a chain of ifs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.referee.table_events import TableEvent
from controller.rules.cards import Suit


def _suit(letter: str) -> str:
    return Suit[letter].title


@dataclass(frozen=True)
class _Event:
    """One event and the table's seat names, with the phrases every line needs."""

    e: dict[str, Any]
    names: list[str]

    def __getitem__(self, key: str) -> Any:
        return self.e[key]

    def get(self, key: str) -> Any:
        return self.e.get(key)

    def who(self, key: str = "seat") -> str:
        s = self.e.get(key)
        return self.names[s] if isinstance(s, int) and 0 <= s < 4 else "?"

    def team(self, key: str = "team") -> str:
        t = self.e.get(key)
        return f"{self.names[t]} & {self.names[t + 2]}" if t in (0, 1) else "?"


def _bid(e: _Event) -> str:
    return f"{e.who()} bids {e['tricks']}" + (f" with open trump {_suit(e['open_suit'])}" if e.get("open_suit") else "")


def _revoke(e: _Event) -> str:  # public: the proving card only once the table has seen it
    return f"!! REVOKE by {e.who()}: {e['detail']}" + (f" (proof {e['proof']})" if e.get("proof") else "")


def _match_over(e: _Event) -> str:
    winners = f"{e.team('winner')} win" if e.get("winner") is not None else "a draw"
    return f"== match over ({e['reason']}): {winners} {e['score']}"


def _show_asked(e: _Event) -> str:
    suits = " or ".join(_suit(s) for s in e["suits"])
    tricks = ", ".join(str(t) for t in e["tricks"])
    return f"{e.who()}: show your cards -- you showed no {suits} in trick {tricks}"


def _notice(e: _Event) -> str:
    return f"[{e['event']}] {e.get('message') or ''}"


_LINES: dict[str, Callable[[_Event], str]] = {
    "match-setup": lambda e: f"new match: {e['preset']} ({e['knowledge']} mode), dealer {e.who('first_dealer')}",
    "hand-started": lambda e: f"-- hand {e['hand']}: {e.who('dealer')} deals",
    "trump-called": lambda e: f"trump is {_suit(e['suit'])} ({e['how']})",
    "trump-hidden": lambda e: f"{e.who()} lays the trump face down",
    "trump-revealed": lambda e: f"trump revealed: {_suit(e['suit'])} ({e['reason']})",
    "bid-made": _bid,
    "bid-passed": lambda e: f"{e.who()} passes",
    "auction-won": lambda e: f"{e.who()} calls at {e['tricks']}" + (" (dealer forced)" if e.get("forced") else ""),
    "play-accepted": lambda e: f"{e.who()} plays {e['card'] or 'a card face down'}",
    "revoke-flagged": _revoke,
    "proof-shown": lambda e: f"the proof of {e.who()}'s revoke in trick {e['trick']}: {e['card']}",
    "card-taken-back": lambda e: f"{e.who()} takes back {e['card'] or 'a card'}",
    "trick-won": lambda e: f"trick {e['trick']} to {e.who('winner')}" + (" (to the pile)" if e.get("to_pile") else ""),
    "pile-picked-up": lambda e: f"{e.who()} takes the pile of {e['tricks']}",
    "hand-won": lambda e: f"hand {e['hand']} to {e.team()}: {e['tricks'][0]}-{e['tricks'][1]} ({e['reason']})",
    "courts-scored": lambda e: f"** {e.team()} score {e['courts']} court{'s' if e['courts'] != 1 else ''}: {e['reason']}",
    "points-scored": lambda e: f"** {e.team()} score {e['points']}: {e['reason']}",
    "play-on-offered": lambda e: f"{e.team()} took the first seven: play on?",
    "play-on-chosen": lambda e: f"{e.team()} " + ("play on for all thirteen" if e["play_on"] else "stop here"),
    "deal-fell-short": lambda e: (f"the deal reader saw {e['seen']} of 52 cards: hand {e['hand']} is refereed from "
                                  "the played cards (a revoke is proven later, or when the hand ends)"),
    "show-asked": _show_asked,
    "card-shown": lambda e: f"{e.who()} shows {e['card']}",
    "showing-skipped": lambda e: "the table did not show: " + ", ".join(e.names[s] for s in e["seats"])
    + " went unchecked",
    "hand-result-changed": lambda e: f"!! hand result changed: {e['reason']}",
    "move-timed-out": lambda e: f"{e.who()}'s time to play has run out",
    "match-over": _match_over,
    **{kind: _notice for kind in ("unknown-tag", "other-deck-tag", "impossible", "journal-failed", "input-refused",
                                  "command-refused", "reader-fault", "undone", "duplicate-read",
                                  "journal-damaged", "journal-resumed", "input-held")},
}


def describe(event: TableEvent, seats: list[str] | None = None) -> str | None:
    """One line for a public table event, or None for ones not worth a line."""
    line = _LINES.get(event.kind)
    return None if line is None else line(_Event(event.to_dict(), seats or ["Seat 0", "Seat 1", "Seat 2", "Seat 3"]))
