"""Test support: drive a Referee with bots, the way a simulated table's readers would."""

from __future__ import annotations

import random
from typing import Any

from controller.bots import BotTable
from controller.rules import Phase
from controller.rules import inputs as I
from controller.table import COMMAND, SIGHTING, Referee


def input_for(move: Any) -> tuple[str, dict[str, Any]]:
    """The referee input (kind, payload) that a physical table produces for an engine move."""
    if isinstance(move, I.Deal):
        return SIGHTING, {"zone": "deal", "card": move.card.text}
    if isinstance(move, (I.Play, I.DrawCard)):
        return SIGHTING, {"zone": f"seat{move.seat}", "card": move.card.text}
    if isinstance(move, (I.HideTrump, I.ShowTrump)) and move.card is not None:
        return SIGHTING, {"zone": "trump", "card": move.card.text}
    if isinstance(move, I.TrumpCardTurned):
        return SIGHTING, {"zone": "trump", "card": move.card.text}
    table = {
        I.CallTrump: lambda m: ("call-trump", {"seat": m.seat, "suit": m.suit.name}),
        I.CallTrumpByCard: lambda m: ("trump-by-card", {"seat": m.seat, "number": m.number}),
        I.Bid: lambda m: ("bid", {"seat": m.seat, "tricks": m.tricks}),
        I.Pass: lambda m: ("pass", {"seat": m.seat}),
        I.OpenChallenge: lambda m: ("open-challenge", {"seat": m.seat, "suit": m.suit.name}),
        I.AskTrump: lambda m: ("ask-trump", {"seat": m.seat}),
        I.RevealTrump: lambda m: ("reveal-trump", {"seat": m.seat}),
        I.CloseTrick: lambda m: ("confirm", {}),
        I.ApplyPenalty: lambda m: ("apply-penalty", {}),
        I.PlayOn: lambda m: ("play-on", {"play_on": m.play_on}),
        I.RequestRedeal: lambda m: ("redeal", {"seat": m.seat}),
    }
    name, args = table[type(move)](move)
    return COMMAND, {"name": name, **args}


def feed(referee: Referee, kind: str, payload: dict[str, Any], at: float) -> list[dict[str, Any]]:
    from controller.sightings import CardSeen

    if kind == SIGHTING:
        return referee.sighting(CardSeen(payload["zone"], payload["card"], at, "test"))
    args = {k: v for k, v in payload.items() if k != "name"}
    return referee.command(payload["name"], args, at=at, source="test")


def new_match_args(preset: str, knowledge: str = "dealt", hands: int = 2, **extra: Any) -> dict[str, Any]:
    options = {"match-end": "hands", "match-target": hands} if preset not in ("band-rung", "online-points") else {}
    options.update(extra.pop("options", {}))
    return {"preset": preset, "knowledge": knowledge, "options": options,
            "seats": ["Asha", "Bilal", "Chetan", "Dua"], "first_dealer": 0, **extra}


def play_out(referee: Referee, seed: int, *, revoke_rate: float = 0.0, limit: int = 20000,
             stop_after: int | None = None) -> list[tuple[str, dict[str, Any], float]]:
    """Let bots play the referee's match to the end; returns the inputs fed, in order."""
    assert referee.match is not None
    bots = BotTable(referee.match, random.Random(seed), revoke_rate=revoke_rate)
    fed: list[tuple[str, dict[str, Any], float]] = []
    at = 1000.0
    for _ in range(limit):
        if referee.match.phase is Phase.OVER or (stop_after is not None and len(fed) >= stop_after):
            break
        bots.match = referee.match
        kind, payload = input_for(bots.next_input())
        at += 1.0
        feed(referee, kind, payload, at)
        fed.append((kind, payload, at))
    return fed
