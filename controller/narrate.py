"""Table events as short sentences for a terminal (the simulator, ``courtpiece run -v``)."""

from __future__ import annotations

from typing import Any

SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def describe(e: dict[str, Any], seats: list[str] | None = None) -> str | None:
    """One line for a public table event, or None for ones not worth a line."""
    names = seats or ["Seat 0", "Seat 1", "Seat 2", "Seat 3"]

    def who(key: str = "seat") -> str:
        s = e.get(key)
        return names[s] if isinstance(s, int) and 0 <= s < 4 else "?"

    def team(key: str = "team") -> str:
        t = e.get(key)
        return f"{names[t]} & {names[t + 2]}" if t in (0, 1) else "?"

    kind = e.get("event")
    if kind == "match-setup":
        return f"new match: {e['preset']} ({e['knowledge']} mode), dealer {names[e['first_dealer']]}"
    if kind == "hand-started":
        return f"-- hand {e['hand']}: {who('dealer')} deals"
    if kind == "trump-called":
        return f"trump is {SUITS[e['suit']]} ({e['how']})"
    if kind == "trump-hidden":
        return f"{who()} lays the trump face down"
    if kind == "trump-revealed":
        return f"trump revealed: {SUITS[e['suit']]} ({e['reason']})"
    if kind == "bid-made":
        return f"{who()} bids {e['tricks']}" + (f" with open trump {SUITS[e['open_suit']]}" if e.get("open_suit") else "")
    if kind == "bid-passed":
        return f"{who()} passes"
    if kind == "auction-won":
        return f"{who()} calls at {e['tricks']}" + (" (dealer forced)" if e.get("forced") else "")
    if kind == "play-accepted":
        return f"{who()} plays {e['card'] or 'a card face down'}"
    if kind == "revoke-flagged":  # public: the proving card only once the table has seen it
        return f"!! REVOKE by {who()}: {e['detail']}" + (f" (proof {e['proof']})" if e.get("proof") else "")
    if kind == "proof-shown":
        return f"the proof of {who()}'s revoke in trick {e['trick']}: {e['card']}"
    if kind == "card-taken-back":
        return f"{who()} takes back {e['card'] or 'a card'}"
    if kind == "trick-won":
        return f"trick {e['trick']} to {who('winner')}" + (" (to the pile)" if e.get("to_pile") else "")
    if kind == "pile-picked-up":
        return f"{who()} takes the pile of {e['tricks']}"
    if kind == "hand-won":
        return f"hand {e['hand']} to {team()}: {e['tricks'][0]}-{e['tricks'][1]} ({e['reason']})"
    if kind == "courts-scored":
        return f"** {team()} score {e['courts']} court{'s' if e['courts'] != 1 else ''}: {e['reason']}"
    if kind == "points-scored":
        return f"** {team()} score {e['points']}: {e['reason']}"
    if kind == "play-on-offered":
        return f"{team()} took the first seven: play on?"
    if kind == "play-on-chosen":
        return f"{team()} " + ("play on for all thirteen" if e["play_on"] else "stop here")
    if kind == "deal-fell-short":
        return (f"the deal reader saw {e['seen']} of 52 cards: hand {e['hand']} is refereed from the "
                "played cards (a revoke is proven later, or when the hand ends)")
    if kind == "show-asked":
        suits = " or ".join(SUITS[s] for s in e["suits"])
        tricks = ", ".join(str(t) for t in e["tricks"])
        return f"{who()}: show your cards -- you showed no {suits} in trick {tricks}"
    if kind == "card-shown":
        return f"{who()} shows {e['card']}"
    if kind == "showing-skipped":
        return "the table did not show: " + ", ".join(names[s] for s in e["seats"]) + " went unchecked"
    if kind == "hand-result-changed":
        return f"!! hand result changed: {e['reason']}"
    if kind == "move-timed-out":
        return f"{who()}'s time to play has run out"
    if kind == "match-over":
        w = e.get("winner")
        return f"== match over ({e['reason']}): " + (f"{team('winner')} win" if w is not None else "a draw") + f" {e['score']}"
    if kind in ("unknown-tag", "other-deck-tag", "impossible", "journal-failed", "input-refused",
                "command-refused", "reader-fault", "undone", "duplicate-read"):
        return f"[{kind}] {e.get('message', '')}"
    return None
