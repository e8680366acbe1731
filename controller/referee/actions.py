"""What a physical table does for each engine move: a card on a reader, or a command.

The simulator, the tests and the benchmarks all act out bot moves this way, so a card
always reaches the referee as a sighting on its zone (never as a shortcut engine call).
"""

from __future__ import annotations

from typing import Any

from controller.rules import inputs as I

SIGHTING = "sighting"
COMMAND = "command"


def table_input(move: Any) -> tuple[str, dict[str, Any]]:
    """``(SIGHTING, {zone, card})`` or ``(COMMAND, {name, ...args})`` for an engine move."""
    if isinstance(move, I.Deal):
        return SIGHTING, {"zone": "deal", "card": move.card.text}
    if isinstance(move, (I.Play, I.DrawCard, I.ShowCard)):
        return SIGHTING, {"zone": f"seat{move.seat}", "card": move.card.text}
    if isinstance(move, (I.HideTrump, I.ShowTrump)) and move.card is not None:
        return SIGHTING, {"zone": "trump", "card": move.card.text}
    if isinstance(move, I.TrumpCardTurned):
        return SIGHTING, {"zone": "trump", "card": move.card.text}
    name, args = _COMMANDS[type(move)](move)
    return COMMAND, {"name": name, **args}


_COMMANDS: dict[type, Any] = {
    I.CallTrump: lambda m: ("call-trump", {"seat": m.seat, "suit": m.suit.name}),
    I.HideTrump: lambda m: ("hide-trump", {"seat": m.seat, "suit": m.suit.name if m.suit is not None else None}),
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
    I.SkipShowing: lambda m: ("skip-showing", {}),
    I.TakeBack: lambda m: ("correction-made", {"seat": m.seat}),
    I.MoveTimeout: lambda m: ("move-timeout", {"seat": m.seat}),
    I.TimeUp: lambda m: ("time-up", {}),
    I.EndMatch: lambda m: ("end-match", {}),
}
