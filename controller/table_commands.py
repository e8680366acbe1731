"""Table commands (buttons, the admin page) as engine inputs.

Commands name what a person did ("the caller named spades", "confirm"), so most need no
seat: the referee fills in the caller or the seat whose turn it is from the match.
"""

from __future__ import annotations

from typing import Any

from controller.rules import Match, Phase
from controller.rules import inputs as I
from controller.rules.cards import Card, Suit


class CommandError(ValueError):
    """A command that is malformed or means nothing now; the message is for the table."""


def _seat(args: dict[str, Any], default: int | None, what: str) -> int:
    seat = args.get("seat", default)
    if seat is None:
        raise CommandError(f"{what}: which seat?")
    try:
        seat = int(seat)
    except (TypeError, ValueError):
        raise CommandError(f"{what}: seat must be 0-3, not {seat!r}") from None
    if seat not in range(4):
        raise CommandError(f"{what}: seat must be 0-3, not {seat}")
    return seat


def _suit(args: dict[str, Any], what: str) -> Suit:
    try:
        return Suit.parse(str(args["suit"]))
    except (KeyError, ValueError):
        raise CommandError(f"{what}: which suit (S, H, D or C)?") from None


def to_engine_input(match: Match, name: str, args: dict[str, Any]) -> Any | None:
    """The engine input for a command, or None when the command has nothing to do now."""
    h = match.hand
    turn = h.turn() if match.phase is Phase.PLAY else None
    if name == "call-trump":
        return I.CallTrump(_seat(args, h.caller, "call trump"), _suit(args, "call trump"))
    if name == "hide-trump":
        card = args.get("card")
        return I.HideTrump(_seat(args, h.caller, "hidden trump"),
                           Card.parse(card) if card else None,
                           None if card else _suit(args, "hidden trump"))
    if name == "trump-by-card":
        return I.CallTrumpByCard(_seat(args, h.caller, "trump by card"), int(args.get("number", 0)))
    if name == "bid":
        a = h.auction
        return I.Bid(_seat(args, a.turn if a else None, "bid"), int(args.get("tricks", 0)))
    if name == "pass":
        a = h.auction
        return I.Pass(_seat(args, a.turn if a else None, "pass"))
    if name == "open-challenge":
        a = h.auction
        return I.OpenChallenge(_seat(args, a.turn if a else None, "open challenge"), _suit(args, "open challenge"))
    if name == "ask-trump":
        return I.AskTrump(_seat(args, turn, "ask for trump"))
    if name == "reveal-trump":
        return I.RevealTrump(_seat(args, h.caller, "reveal trump"))
    if name == "redeal":
        return I.RequestRedeal(_seat(args, h.caller, "redeal"))
    if name == "correction-made":
        seat = h.pending.seat if h.pending is not None else None
        return I.TakeBack(_seat(args, seat, "correction"))
    if name == "apply-penalty":
        return I.ApplyPenalty()
    if name == "play-on":
        return I.PlayOn(bool(args.get("play_on", True)))
    if name == "confirm":
        if match.phase is Phase.PLAY_ON:
            return I.PlayOn(False)
        if match.phase is Phase.PLAY and len(h.trick) == 4:
            return I.CloseTrick()
        return None
    if name == "skip-showing":
        return I.SkipShowing() if match.phase is Phase.SHOW else None
    if name == "move-timeout":
        return I.MoveTimeout(_seat(args, turn, "move timer"))
    if name == "time-up":
        return I.TimeUp()
    if name == "end-match":
        return I.EndMatch()
    raise CommandError(f"unknown command {name!r}")


COMMANDS = (
    "new-match", "undo", "call-trump", "hide-trump", "trump-by-card", "bid", "pass",
    "open-challenge", "ask-trump", "reveal-trump", "redeal", "correction-made",
    "apply-penalty", "play-on", "confirm", "skip-showing", "move-timeout", "time-up", "end-match",
)
