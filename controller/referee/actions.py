"""The one mapping between what happens at a table and the engine's inputs, both ways.

Table to engine: a card seen on a zone (``sighting_input``) or a command from a button or
the admin page (``to_engine_input``) becomes the engine input it stands for; commands
name what a person did ("the caller named spades", "confirm"), so most need no seat and
the moment supplies it. Engine to table: ``table_input`` says what a physical table does
for an engine move (a card on a reader, or a command), so the simulator, the tests and
the benchmarks always reach the referee the way a real table does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.readers.sightings import DEAL_ZONE, TRUMP_ZONE, seat_of_zone
from controller.rules import Match, Phase
from controller.rules import inputs as I
from controller.rules.cards import Card, Suit
from controller.rules.options import TrumpCall

SIGHTING = "sighting"
COMMAND = "command"


# ---------------------------------------------------------------- table -> engine: a card seen

def sighting_input(match: Match, zone: str, c: Card) -> Any | None:
    """The engine input for a card seen on a zone now, or None if it means nothing now."""
    seat = seat_of_zone(zone)
    if seat is not None:
        if match.phase is Phase.DRAW:
            return I.DrawCard(seat, c)
        if match.phase is Phase.SHOW:
            return I.ShowCard(seat, c)
        return I.Play(seat, c)
    h = match.hand
    if zone == DEAL_ZONE:
        return I.Deal(c)
    if zone == TRUMP_ZONE:
        calls = match.options.trump_calls
        if h.card_number_call is not None and h.trump is None:
            return I.TrumpCardTurned(c)
        if TrumpCall.HIDDEN in calls and h.caller is not None:
            return I.HideTrump(h.caller, c)
        if TrumpCall.SHOWN in calls and h.caller is not None:
            return I.ShowTrump(h.caller, c)
    return None


def zones_in_use(match: Match | None) -> tuple[str, ...] | None:
    """The zones whose cards mean something now, or None for every zone.

    For a reader hub, which polls its readers one at a time: a card slid briskly over
    the deal spot is only seen if the deal reader gets (nearly) every turn. So while the
    cards of a read deal are coming, only the deal spot is asked for, and the trump spot
    once the first cards each are out and trump is not yet known (a trump card may be
    put down). Anything else (played mode, the draw, play, between matches) is every zone.
    """
    if match is None or not match.dealt_mode or match.phase not in (Phase.DEAL, Phase.CALL):
        return None
    h = match.hand
    if h is None or h.deal_index >= 52:
        return None
    if h.trump is None and h.deal_index >= 4 * h.first_batch:
        return (DEAL_ZONE, TRUMP_ZONE)
    return (DEAL_ZONE,)


# ---------------------------------------------------------------- table -> engine: a command

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


def _turn(match: Match) -> int | None:
    return match.hand.turn() if match.phase is Phase.PLAY else None


def _bidder(match: Match) -> int | None:
    a = match.hand.auction
    return a.turn if a else None


def _hide(match: Match, args: dict[str, Any]) -> I.HideTrump:
    card = args.get("card")
    return I.HideTrump(_seat(args, match.hand.caller, "hidden trump"),
                       Card.parse(card) if card else None,
                       None if card else _suit(args, "hidden trump"))


def _correction(match: Match, args: dict[str, Any]) -> I.TakeBack:
    pending = match.hand.pending
    return I.TakeBack(_seat(args, pending.seat if pending is not None else None, "correction"))


def _confirm(match: Match, args: dict[str, Any]) -> Any | None:
    """The one Confirm button: stop after a seven-nil start, or close a held trick."""
    if match.phase is Phase.PLAY_ON:
        return I.PlayOn(False)
    if match.phase is Phase.PLAY and len(match.hand.trick) == 4:
        return I.CloseTrick()
    return None


Builder = Callable[[Match, dict[str, Any]], Any]

#: Command name -> the engine input it stands for (None: nothing to do now). The seat,
#: when left out, is the one the moment implies: the caller, the bidder, whose turn it is.
_BUILDERS: dict[str, Builder] = {
    "call-trump": lambda m, a: I.CallTrump(_seat(a, m.hand.caller, "call trump"), _suit(a, "call trump")),
    "hide-trump": _hide,
    "trump-by-card": lambda m, a: I.CallTrumpByCard(_seat(a, m.hand.caller, "trump by card"), int(a.get("number", 0))),
    "bid": lambda m, a: I.Bid(_seat(a, _bidder(m), "bid"), int(a.get("tricks", 0))),
    "pass": lambda m, a: I.Pass(_seat(a, _bidder(m), "pass")),
    "open-challenge": lambda m, a: I.OpenChallenge(_seat(a, _bidder(m), "open challenge"), _suit(a, "open challenge")),
    "ask-trump": lambda m, a: I.AskTrump(_seat(a, _turn(m), "ask for trump")),
    "reveal-trump": lambda m, a: I.RevealTrump(_seat(a, m.hand.caller, "reveal trump")),
    "redeal": lambda m, a: I.RequestRedeal(_seat(a, m.hand.caller, "redeal")),
    "correction-made": _correction,
    "apply-penalty": lambda m, a: I.ApplyPenalty(),
    "play-on": lambda m, a: I.PlayOn(bool(a.get("play_on", True))),
    "confirm": _confirm,
    "skip-showing": lambda m, a: I.SkipShowing() if m.phase is Phase.SHOW else None,
    "move-timeout": lambda m, a: I.MoveTimeout(_seat(a, _turn(m), "move timer")),
    "time-up": lambda m, a: I.TimeUp(),
    "end-match": lambda m, a: I.EndMatch(),
}


def to_engine_input(match: Match, name: str, args: dict[str, Any]) -> Any | None:
    """The engine input for a command, or None when the command has nothing to do now."""
    build = _BUILDERS.get(name)
    if build is None:
        raise CommandError(f"unknown command {name!r}")
    return build(match, args)


#: Every command a table can give (new-match and undo are the referee's own).
COMMANDS = ("new-match", "undo", *_BUILDERS)


# ---------------------------------------------------------------- engine -> table

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
