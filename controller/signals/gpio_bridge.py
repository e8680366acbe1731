"""Table events to LEDs and buzzer, buttons to referee commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.referee.referee import Referee
from controller.referee.table_events import PUBLIC, TableEvent, sees
from controller.signals.gpio import TableSignals


def connect_signals(referee: Referee, signals: TableSignals) -> Any:
    """Wire both directions; returns the unsubscribe function."""
    signals.on_undo = lambda: referee.command("undo", source="button")
    signals.on_confirm = lambda: referee.command("confirm", source="button")
    signals.on_play_on = lambda: referee.command("play-on", {"play_on": True}, source="button")

    # Event kind -> what the LEDs and buzzer do about it.
    reactions: dict[str, Callable[[TableEvent], None]] = {
        "play-accepted": lambda e: signals.play_accepted(e.get("seat")),
        "revoke-flagged": lambda e: signals.revoke(e.get("seat")),
        "courts-scored": lambda e: signals.court_scored(e.get("team")),
        **{kind: lambda e: signals.revoke_cleared()
           for kind in ("card-taken-back", "trick-won", "hand-started", "undone")},
    }

    def on_event(e: TableEvent) -> None:
        react = reactions.get(e.kind)
        if react is not None and sees(PUBLIC, e):
            react(e)

    return referee.subscribe(on_event)
