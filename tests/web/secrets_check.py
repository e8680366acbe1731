"""What is secret at a moment of the game, and a check that a public payload leaks none of it.

Secrets come from the truth, not from the public view: the cards the bots actually hold
(every card not yet played, dealt or not), the face-down trump and its suit while it is
hidden, and face-down discards not yet shown. A card is hidden until it is played face
up or the rules reveal it: the trump turned up, a revoke's proof shown (``proof-shown``,
once it is played or the hand ends), a card that lay face up before it was taken back.
A revoke proof is held to that rule like any other card: naming it in a flag does not
make it public.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.referee.referee import Referee
from controller.rules.cards import Card, Suit
from controller.rules.events import CardTakenBack, HandStarted, ProofShown, RevokeFlagged
from controller.sim.bots import BotTable

CARD_TOKEN = re.compile(r"\b(?:[2-9TJQKA])[SHDC]\b")
#: Finished hands: their trump is public once the hand is over, even if it matches a new
#: hidden one -- unless the table keeps a hidden trump down after the hand
#: (``reveal-at-hand-end`` off): ``Secrets.kept`` holds those hands' suits.
FINISHED_KEYS = ("history", "last_hand")
#: Fields that name the trump suit. (A led suit or a void may equal the hidden trump and is public.)
TRUMP_KEYS = ("trump", "my_trump")


@dataclass
class Secrets:
    seq: int
    cards: set[str] = field(default_factory=set)
    suit: str | None = None
    #: finished hands whose hidden trump was never shown: hand number -> its suit
    kept: dict[int, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.cards or self.suit or self.kept)


def secrets_now(referee: Referee, bots: BotTable | None = None) -> Secrets:
    """What is secret now. Without ``bots``, the hands are the engine's (dealt mode)."""
    m = referee.match
    assert m is not None
    h = m.hand
    held = set().union(*h.holdings)
    if bots is not None:
        bots.sync()
        held |= set().union(*bots.hands)
    hidden: set[int] = set(held - h.played)
    if h.trump is not None and not h.trump_public and h.trump_card is not None:
        hidden.add(h.trump_card)
    if not m.options.show_caller_discards:
        hidden |= {c for _, c, _ in h.face_down}
    shown = set()
    if h.trump_public and h.trump_card is not None:  # a revealed trump card is seen by all
        shown.add(h.trump_card)
    for e in reversed(m.events):
        if isinstance(e, HandStarted):
            break
        if isinstance(e, (RevokeFlagged, CardTakenBack)) and e.card is not None:
            shown.add(int(e.card))  # it lay face up on the table before it went back
        elif isinstance(e, ProofShown) or e.kind == "card-shown":
            shown.add(int(e.card))  # played since, the hand is over, or shown by a suspected seat
    suit = Suit(h.trump).name if h.trump is not None and not h.trump_public else None
    return Secrets(referee.public_state()["seq"], {Card(c).text for c in hidden - shown}, suit)


def _strings(value: Any, *, skip_finished: bool) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):  # JSON objects and table events alike
        return [s for k, v in value.items() if not (skip_finished and k in FINISHED_KEYS)
                for s in _strings(v, skip_finished=skip_finished)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v, skip_finished=skip_finished)]
    return []


def _trump_names(value: Any) -> list[str]:
    """Every value that names a trump suit: trump fields, and the suit of trump-* events."""
    if isinstance(value, list | tuple):
        return [s for v in value for s in _trump_names(v)]
    if not isinstance(value, Mapping):
        return []
    out = [str(value[k]) for k in TRUMP_KEYS if isinstance(value.get(k), str)]
    if str(value.get("event", "")).startswith("trump-") and isinstance(value.get("suit"), str):
        out.append(value["suit"])
    return out + [s for k, v in value.items() if k not in FINISHED_KEYS for s in _trump_names(v)]


def leaks(payload: Any, secret: Secrets) -> list[str]:
    """Every secret card, and the hidden trump suit, found anywhere in a JSON payload
    (text, or the bytes of a broker message)."""
    if isinstance(payload, bytes | bytearray):
        payload = bytes(payload).decode("utf-8", errors="replace")
    if isinstance(payload, str):
        try:
            payload = json.loads(payload)
        except ValueError:
            return sorted({t for t in CARD_TOKEN.findall(payload) if t in secret.cards})
    found = set()
    for s in _strings(payload, skip_finished=False):
        found |= {t for t in CARD_TOKEN.findall(s) if t in secret.cards}
    if secret.suit:
        found |= {f"trump suit {s}" for s in _trump_names(payload) if s == secret.suit}
    found |= {f"kept trump {t} of hand {n}" for n, t in _hand_trumps(payload)
              if secret.kept.get(n) == t}
    return sorted(found)


def _hand_trumps(value: Any) -> list[tuple[int, str]]:
    """Every (hand number, trump suit) a payload names: a finished hand's record in the
    history or ``last_hand``, and a ``hand-won`` event."""
    if isinstance(value, list | tuple):
        return [t for v in value for t in _hand_trumps(v)]
    if not isinstance(value, Mapping):
        return []
    out = []
    if isinstance(value.get("hand"), int) and isinstance(value.get("trump"), str):
        out.append((value["hand"], value["trump"]))
    return out + [t for v in value.values() for t in _hand_trumps(v)]


def kept_trumps(before: Secrets, events: list[dict[str, Any]]) -> dict[int, str]:
    """``before.kept`` and, if these events end a hand whose trump was hidden and is not
    shown by them, that hand's suit: it stays a secret after the hand."""
    kept = dict(before.kept)
    kinds = [e["event"] for e in events]
    for e in events:
        if e["event"] == "hand-won" and before.suit and "trump-revealed" not in kinds:
            kept[e["hand"]] = before.suit
    return kept


#: What a finishing hand shows, by the rules: the hidden trump, face-down discards, the last card.
SHOWN_AT_HAND_END = {"trump-revealed": "card", "face-down-shown": "card", "play-accepted": "card",
                     "proof-shown": "card", "card-shown": "card"}


def old_hand_secrets(before: Secrets, events: list[dict[str, Any]]) -> Secrets | None:
    """One input can finish a hand and deal the next: its events before ``hand-started``
    are about the old hand, whose secrets are those before the input less what the
    referee's own (public) events of that input revealed."""
    kinds = [e["event"] for e in events]
    if "hand-started" not in kinds:
        return None
    old = [e for e in events[: kinds.index("hand-started")] if "private_to" not in e]
    shown = {e[SHOWN_AT_HAND_END[e["event"]]] for e in old if e["event"] in SHOWN_AT_HAND_END}
    shown |= {e[k] for e in old if e["event"] == "revoke-flagged" for k in ("proof", "card")}
    suit = None if "trump-revealed" in kinds else before.suit
    return Secrets(before.seq, before.cards - shown, suit, kept_trumps(before, events))


def secret_for(ev: dict[str, Any], at: dict[int, Secrets], old: dict[int, Secrets]) -> Secrets:
    """The secrets of the moment an event was made (an old hand's events: that hand's)."""
    if ev["event"] != "hand-started" and ev["seq"] in old:
        return old[ev["seq"]]
    return at[ev["seq"]]


def broker_leaks(topic: str, payload: bytes, at: dict[int, Secrets], old: dict[int, Secrets]) -> list[str]:
    """A club broker message (controller.club.topics) checked against its own moment: each
    event of an ``events`` message against the secrets of its input, a ``state`` message
    against those of its seq, anything else against the latest secrets."""
    data = json.loads(payload)
    kind = topic.rsplit("/", 1)[-1]
    if kind == "events":
        return [f"{ev['event']}@{ev['seq']}: {x}" for ev in data["events"] for x in leaks(ev, secret_for(ev, at, old))]
    moment = at[data["seq"]] if kind == "state" else at[max(at)]
    return [f"{kind}@{moment.seq}: {x}" for x in leaks(data, moment)]
