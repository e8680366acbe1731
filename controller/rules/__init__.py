"""The rules engine: pure, deterministic, no I/O. Imports nothing from the rest of the project.

Use ``Match(preset("rang"), first_dealer=0, knowledge="dealt")`` and feed it inputs from
``controller.rules.inputs``; every call returns the events it caused.
"""

from .cards import CARDS, Card, Suit, card, cards
from .errors import (
    CardSeenTwice,
    ImpossibleInput,
    InvalidChoice,
    NoCardsLeft,
    NotInHand,
    OutOfTurn,
    TooManyCards,
    WrongPhase,
)
from .hand import Phase, team_of
from .match import DEALT, PLAYED, Match
from .options import PRESETS, OptionError, Options, preset

__all__ = [
    "CARDS", "Card", "Suit", "card", "cards",
    "CardSeenTwice", "ImpossibleInput", "InvalidChoice", "NoCardsLeft", "NotInHand", "OutOfTurn",
    "TooManyCards", "WrongPhase",
    "Phase", "team_of", "DEALT", "PLAYED", "Match", "PRESETS", "Options", "OptionError", "preset",
]
