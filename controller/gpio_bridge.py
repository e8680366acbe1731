"""Table events to LEDs and buzzer, buttons to referee commands."""

from __future__ import annotations

from typing import Any

from controller.gpio import TableSignals
from controller.notices import PUBLIC, sees
from controller.table import Referee, TableEvent


def connect_signals(referee: Referee, signals: TableSignals) -> Any:
    """Wire both directions; returns the unsubscribe function."""
    signals.on_undo = lambda: referee.command("undo", source="button")
    signals.on_confirm = lambda: referee.command("confirm", source="button")
    signals.on_play_on = lambda: referee.command("play-on", {"play_on": True}, source="button")

    def on_event(e: TableEvent) -> None:
        if not sees(PUBLIC, e):
            return
        kind = e.get("event")
        if kind == "play-accepted":
            signals.play_accepted(e["seat"])
        elif kind == "revoke-flagged":
            signals.revoke(e["seat"])
        elif kind in ("card-taken-back", "trick-won", "hand-started", "undone"):
            signals.revoke_cleared()
        elif kind == "courts-scored":
            signals.court_scored(e["team"])

    return referee.subscribe(on_event)
