"""Test support: drive a Referee with bots, the way a simulated table's readers would."""

from __future__ import annotations

import random
from typing import Any

from controller.referee.actions import table_input
from controller.referee.referee import SIGHTING, Referee
from controller.rules import Phase
from controller.sim.bots import BotTable


def input_for(move: Any) -> tuple[str, dict[str, Any]]:
    return table_input(move)


def feed(referee: Referee, kind: str, payload: dict[str, Any], at: float) -> list[dict[str, Any]]:
    from controller.readers.sightings import CardSeen

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


#: A deal with a clear story, dealer 0 (so seat 1 gets the first batch and leads): seat 1
#: holds one diamond, the 8 -- it can be the face-down trump of a hidden-rung hand -- and
#: low spades, hearts and clubs; seat 2 the top spades, diamonds, hearts and clubs.
#: Each hand lists its cards in the order the seat receives them (5, then 4, then 4).
STORY_HANDS = (
    "8S 7S 6S 5D 4D 3D 2D 8H 7H 6H 8C 7C 6C",
    "8D 2S 3S 4S 5S 2H 3H 4H 5H 2C 3C 4C 5C",
    "AS KS QS AD KD QD JD AH KH QH AC KC QC",
    "JS TS 9S TD 9D 7D 6D JH TH 9H JC TC 9C",
)


def deal_sightings(hands: tuple[str, ...] | list[str], dealer: int = 0,
                   batches: tuple[int, ...] = (5, 4, 4)) -> list[str]:
    """The 52 cards in the order they pass over the deal spot, so that each seat gets
    exactly its hand (batches go round from the dealer's next seat)."""
    parsed = [h.split() for h in hands]
    taken = [0, 0, 0, 0]
    order: list[str] = []
    for batch in batches:
        for step in range(1, 5):
            seat = (dealer + step) % 4
            order += parsed[seat][taken[seat]: taken[seat] + batch]
            taken[seat] += batch
    assert sorted(order) == sorted({c for h in parsed for c in h}) and len(order) == 52
    return order


def see(referee: Referee, zone: str, card: str, at: float = 10.0) -> list[dict[str, Any]]:
    """One card sighting, as a reader reports it."""
    from controller.readers.sightings import CardSeen

    return referee.sighting(CardSeen(zone, card, at, "test"))
