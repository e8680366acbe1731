"""Test support: drive a Referee with bots, the way a simulated table's readers would."""

from __future__ import annotations

import random
from typing import Any

from controller.acting import table_input
from controller.bots import BotTable
from controller.rules import Phase
from controller.table import SIGHTING, Referee


def input_for(move: Any) -> tuple[str, dict[str, Any]]:
    return table_input(move)


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
