"""The table commands that make sense now, each with a sentence saying what it will do.

The admin page offers only these. A command is "valid now" when the engine accepts it:
each candidate is tried on a copy of the match (``Match.copy(stack=False)``), so the
list can never disagree with what the referee would do, and no rule is repeated here.
The sentences name only what the admin may see and never a hidden card: undoing a card
read over the deal spot says "the last card dealt", not which card it was.
"""

from __future__ import annotations

from typing import Any

from controller.readers.sightings import DEAL_ZONE, TRUMP_ZONE, seat_of_zone
from controller.referee.actions import CommandError, to_engine_input
from controller.referee.referee import SIGHTING, Referee
from controller.rules import Match, Phase
from controller.rules.cards import Card
from controller.rules.errors import ImpossibleInput

SUIT_SIGN = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

#: (command, args, i18n key, sentence) tried in this order; the sentence's {caller},
#: {bidder}, {turn}, {pending}, {team} are seat names, {suit} and {n} the args. The
#: admin page shows ``cmd.<key>`` from its language file, or the English sentence.
CANDIDATES: list[tuple[str, dict[str, Any], str, str]] = [
    *[("call-trump", {"suit": s}, "call-trump", "{caller} names {suit} as trump") for s in "SHDC"],
    ("hide-trump", {"suit": "S"}, "hide-trump", "{caller} lays the trump face down: choose its suit (shown nowhere)"),
    *[("bid", {"tricks": n}, "bid", "{bidder} bids {n}") for n in range(7, 14)],
    ("pass", {}, "pass", "{bidder} passes"),
    ("ask-trump", {}, "ask-trump", "{turn} asks for the trump"),
    ("reveal-trump", {}, "reveal-trump", "{caller} shows the trump"),
    ("redeal", {}, "redeal", "{caller} asks for a new deal"),
    ("correction-made", {}, "correction-made", "{pending} took the card back: play goes on"),
    ("apply-penalty", {}, "apply-penalty", "the flagged revoke by {pending} stands: apply the penalty"),
    ("confirm", {}, "confirm", "confirm the trick on the table"),
    ("play-on", {"play_on": True}, "play-on.yes", "{team} play on for all thirteen"),
    ("play-on", {"play_on": False}, "play-on.no", "{team} stop and score"),
    ("skip-showing", {}, "skip-showing", "skip the showing: voids not checked"),
    ("time-up", {}, "time-up", "time is up: this hand is the last"),
    ("end-match", {}, "end-match", "end the match now"),
]


def _seat_name(referee: Referee, seat: int | None) -> str:
    if seat is None:
        return "–"
    seats = referee.setup.seats if referee.setup else None
    return seats[seat] if seats else f"seat {seat}"


def _names(referee: Referee, m: Match) -> dict[str, str]:
    h = m.hand
    team = h.play_on_team
    seats = referee.setup.seats if referee.setup else None
    return {
        "caller": _seat_name(referee, h.caller),
        "bidder": _seat_name(referee, h.auction.turn if h.auction is not None else None),
        "turn": _seat_name(referee, h.turn() if m.phase is Phase.PLAY else None),
        "pending": _seat_name(referee, h.pending.seat if h.pending is not None else None),
        "team": (f"{seats[team]} and {seats[team + 2]}" if seats else f"team {team + 1}") if team is not None else "–",
    }


def _accepted(m: Match, name: str, args: dict[str, Any]) -> bool:
    try:
        move = to_engine_input(m, name, dict(args))
        if move is None:
            return False
        m.copy(stack=False).apply(move)
    except (CommandError, ImpossibleInput, ValueError, TypeError):
        return False
    return True


UNDO = {
    "undo.card": "Undo: take back {name}'s {card}",
    "undo.deal": "Undo: take back the last card dealt",
    "undo.trump": "Undo: take back the card on the trump spot",
    "undo.read": "Undo: take back the last card read",
    "undo.command": "Undo: take back the command “{command}”",
    "undo.last": "Undo: take back the last input",
}


def undo_sentence(referee: Referee) -> tuple[str, dict[str, str]]:
    """What an undo takes back, as the table would say it (never a card still hidden):
    the i18n key and its words."""
    if not referee.entries:
        return "undo.last", {}
    last = referee.entries[-1]
    p = last.payload
    if last.kind == SIGHTING:
        zone = str(p.get("zone"))
        seat = seat_of_zone(zone)
        if seat is not None and p.get("card"):
            card = Card.parse(str(p["card"])).text
            return "undo.card", {"name": _seat_name(referee, seat), "card": f"{card[0].replace('T', '10')}{SUIT_SIGN[card[1]]}"}
        if zone == DEAL_ZONE:
            return "undo.deal", {}
        return ("undo.trump", {}) if zone == TRUMP_ZONE else ("undo.read", {})
    return "undo.command", {"command": str(p.get("name"))}


def commands_now(referee: Referee) -> list[dict[str, Any]]:
    """``[{name, args, key, vars, says}]``: every command the referee would accept now."""
    out: list[dict[str, Any]] = []
    with referee._lock:  # a reader may feed the referee meanwhile: read one consistent match
        m = referee.match
        if m is not None:
            names = _names(referee, m)
            for name, args, key, sentence in CANDIDATES:
                if name == "confirm" and m.phase is Phase.PLAY_ON:
                    continue  # there it means "stop and score", offered as such
                if _accepted(m, name, args):
                    words = {**names, "n": str(args.get("tricks", "")),
                             "suit": f"{SUIT_NAME[args['suit']]} {SUIT_SIGN[args['suit']]}" if "suit" in args else ""}
                    out.append({"name": name, "args": args, "key": key, "vars": words, "says": sentence.format(**words)})
            if referee.entries or m.hand.number > 1 or m.hand.started:
                key, words = undo_sentence(referee)
                out.append({"name": "undo", "args": {}, "key": key, "vars": words, "says": UNDO[key].format(**words)})
    out.append({"name": "new-match", "args": {}, "key": "new-match", "vars": {}, "says": "start a new match (the form below)"})
    return out
