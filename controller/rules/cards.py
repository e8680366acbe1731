"""Cards, suits and ranks.

A card is a small int (0..51) so the hot paths of the engine are integer arithmetic;
``Card`` subclasses int to keep its text form (``AS``, ``TD``, ``7H``) at hand for
events, errors and logs. The 52 instances are created once and shared.
"""

from __future__ import annotations

from enum import IntEnum


class Suit(IntEnum):
    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def title(self) -> str:
        return ("spades", "hearts", "diamonds", "clubs")[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = text.strip().upper()[:1]
        try:
            return cls[key]
        except KeyError:
            raise ValueError(f"not a suit: {text!r} (use S, H, D or C)") from None


#: Rank letters from low to high; index is the rank's strength (2 weakest, A strongest).
RANK_LETTERS = "23456789TJQKA"
#: Suit letters in suit order (``Suit`` values): the card vocabulary, defined here only.
SUIT_LETTERS = "SHDC"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")
ACE = 12
JACK = 9


class Card(int):
    """One of the 52 cards: ``suit * 13 + rank`` with rank 0 = two, 12 = ace."""

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> int:
        return self % 13

    @property
    def text(self) -> str:
        return RANK_LETTERS[self % 13] + SUIT_LETTERS[self // 13]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text})"

    @staticmethod
    def parse(text: str) -> Card:
        """Read ``AS``, ``td``, ``10H`` or ``7c``; raise ValueError with the reason."""
        t = text.strip().upper()
        if t.startswith("10"):
            t = "T" + t[2:]
        if len(t) != 2 or t[0] not in RANK_LETTERS or t[1] not in "SHDC":
            raise ValueError(f"not a card: {text!r} (expected rank A K Q J T 9..2 and suit S H D C)")
        return CARDS["SHDC".index(t[1]) * 13 + RANK_LETTERS.index(t[0])]

    @staticmethod
    def of(suit: Suit | int, rank: int) -> Card:
        return CARDS[int(suit) * 13 + rank]


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
#: Lookup tables for hot paths (faster than the properties).
SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
RANK_OF: tuple[int, ...] = tuple(i % 13 for i in range(52))


def card(text: str) -> Card:
    """Shorthand for ``Card.parse``."""
    return Card.parse(text)


def cards(text: str) -> list[Card]:
    """Parse a space-separated list of cards (handy in tests and logs)."""
    return [Card.parse(t) for t in text.split()]
