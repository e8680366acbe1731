"""Inputs that cannot have happened at a real table.

These are different from illegal plays. An illegal play (a revoke) is a fact the engine
records and penalises; an impossible input (the same card twice, a 53rd card, a seat
that has no cards left) means a reader or a person got something wrong, so the engine
refuses it and leaves its state untouched. Messages are written for the table.
"""

from __future__ import annotations

from .cards import CARDS

#: Where a refusal's sentence names the card it refused: the full sentence (for the
#: admin) writes the card there, the public one "a card", so a card still in a hand
#: never reaches the table screen through a refusal.
THE_CARD = "{card}"


class ImpossibleInput(Exception):
    """Base of every refused input; ``str(err)`` is a sentence for the admin, ``public``
    the same sentence for everyone. A sentence that names the refused card writes
    :data:`THE_CARD` in its place and passes the card."""

    def __init__(self, sentence: str, card: int | None = None) -> None:
        self.card = card
        self.public = sentence.replace(THE_CARD, "a card")
        super().__init__(sentence if card is None else sentence.replace(THE_CARD, CARDS[card].text))


class CardSeenTwice(ImpossibleInput):
    """The same physical card turned up twice in one hand."""


class TooManyCards(ImpossibleInput):
    """More than 52 cards dealt, or more than 13 to a seat."""


class OutOfTurn(ImpossibleInput):
    """A seat acted when it was not its turn and no rule allows it."""


class NoCardsLeft(ImpossibleInput):
    """A seat played although it has played all its cards."""


class NotInHand(ImpossibleInput):
    """A card was played by a seat that was not dealt it."""


class WrongPhase(ImpossibleInput):
    """An input that does not fit the moment (a bid during play, a play before the call)."""


class InvalidChoice(ImpossibleInput):
    """A call, bid or command whose content breaks the rules (a bid of 8, a redeal without cause)."""
