"""Test support: a referee brought to each phase the table screen must draw.

Bots with fixed seeds play through a real Referee until a predicate on its public state
holds, so every phase is reached the same way on every run (no waiting on timing). The
seeds were picked once for phases bots reach rarely (a 7–0 start, seats asked to show).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from webdrive import BotDriver, new_match

from controller.referee.referee import Referee

View = dict[str, Any]


@dataclass(frozen=True)
class PhaseScript:
    """How to reach one phase: a match, a seed, and the moment to stop."""

    preset: str
    seed: int
    until: Callable[[View], bool]
    options: dict[str, Any] = field(default_factory=dict)
    knowledge: str = "dealt"
    revoke_rate: float = 0.0


def _trick_half_played(v: View) -> bool:
    return len(v["history"]) >= 3 and v["phase"] == "play" and v["trick"]["number"] >= 3 and len(v["trick"]["cards"]) == 2 and v["trump"] is not None


PHASES: dict[str, PhaseScript] = {
    "deal": PhaseScript("court-piece", 1, lambda v: 30 <= (v["cards_dealt"] or 0) < 52),
    "auction": PhaseScript("band-rung", 3, lambda v: bool(v["auction"]) and not v["auction"]["done"]
                           and v["auction"]["high"] is not None and len(v["auction"]["passed"]) >= 1),
    "play": PhaseScript("court-piece", 5, _trick_half_played, options={"hand-streak": 7, "match-end": "points", "match-target": 10}),
    "revoke": PhaseScript("court-piece", 7, lambda v: v["pending_revoke"] is not None, revoke_rate=0.2),
    # band rung in play: the trump still face down, a pile of tricks in the middle
    "hidden-pile": PhaseScript("band-rung", 0, lambda v: v["phase"] == "play" and v["trump_hidden"] and v["pile"] >= 2
                               and len(v["trick"]["cards"]) >= 2),
    "play-on": PhaseScript("court-piece", 40, lambda v: v["phase"] == "play-on"),
    "playing-on": PhaseScript("court-piece", 3, lambda v: v["playing_on"] and v["phase"] == "play"
                              and len(v["trick"]["cards"]) >= 2),
    "show": PhaseScript("court-piece", 0, lambda v: v["phase"] == "show", knowledge="played", revoke_rate=0.2),
    "hand-over": PhaseScript("band-rung", 3, lambda v: len(v["history"]) >= 2 and v["phase"] in ("deal", "call")
                             and not v["trick"]["cards"] and v["trick"]["number"] == 1),
    "match-over": PhaseScript("online-points", 9, lambda v: v["phase"] == "over"),
}


def referee_in(phase: str, seed: int | None = None) -> Referee:
    """A referee whose match has just reached ``phase`` (see PHASES)."""
    script = PHASES[phase]
    referee = Referee()
    new_match(referee, script.preset, options=dict(script.options), knowledge=script.knowledge)
    driver = BotDriver(referee, seed=script.seed if seed is None else seed, revoke_rate=script.revoke_rate)
    if script.until(referee.public_state()["view"]):
        return referee
    driver.until(lambda _evs: script.until(referee.public_state()["view"]))
    return referee
