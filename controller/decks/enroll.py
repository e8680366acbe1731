"""Deck enrollment: a person taps the 52 cards on a reader, in a fixed order.

The logic takes tag ids from anything iterable (a reader's sightings, a list in a
test, a web page later) and reports through data, not prints: :class:`Prompt` is the
card wanted next (a terminal prints it, a table screen can show it), :class:`Step`
is what became of each tap. Nothing is saved until all 52 cards have distinct tags,
so an interrupted enrollment never leaves half a deck behind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from controller.decks.deckmap import (
    DECK_ORDER,
    Deck,
    DeckError,
    DeckStore,
    check_deck_name,
    normalize_tag,
)

RANK_NAMES = {
    "A": "Ace",
    "K": "King",
    "Q": "Queen",
    "J": "Jack",
    "T": "Ten",
    "9": "Nine",
    "8": "Eight",
    "7": "Seven",
    "6": "Six",
    "5": "Five",
    "4": "Four",
    "3": "Three",
    "2": "Two",
}
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}


def card_name(card: str) -> str:
    """``TD`` → ``Ten of Diamonds``: what a person looks for in the pile."""
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


class EnrollmentIncomplete(DeckError):
    """The tag source ran dry before all 52 cards were tapped; nothing was saved."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """The card to tap next."""

    deck: str
    card: str
    index: int  # 0-based position in the enrollment order
    total: int

    @property
    def name(self) -> str:
        return card_name(self.card)

    def text(self) -> str:
        return f"[{self.index + 1:2d}/{self.total}] Tap the {self.name} ({self.card})"

    def as_dict(self) -> dict[str, object]:
        """For a table screen: plain JSON-able data."""
        return {
            "deck": self.deck,
            "card": self.card,
            "name": self.name,
            "index": self.index,
            "total": self.total,
        }


class Outcome(Enum):
    ACCEPTED = "accepted"
    ALREADY_ENROLLED = "already-enrolled"  # this tag was given to an earlier card just now
    OTHER_DECK = "other-deck"  # this tag belongs to another enrolled deck
    NOT_A_TAG = "not-a-tag"  # the source gave something that is not a tag id


@dataclass(frozen=True, slots=True)
class Step:
    """What became of one tap."""

    outcome: Outcome
    tag: str
    card: str  # the card that was asked for
    message: str
    other_card: str | None = None  # the card this tag already is
    other_deck: str | None = None

    @property
    def accepted(self) -> bool:
        return self.outcome is Outcome.ACCEPTED


class Enrollment:
    """The state of one enrollment: which card is next and which tags are taken."""

    def __init__(
        self, name: str, *, other_decks: Iterable[Deck] = (), order: tuple[str, ...] = DECK_ORDER
    ) -> None:
        self.name = check_deck_name(name)
        if sorted(order) != sorted(DECK_ORDER):
            raise ValueError("the enrollment order must list each of the 52 cards once")
        self.order = order
        self._cards: dict[str, str] = {}  # card → tag, in the order tapped
        self._tags: dict[str, str] = {}  # tag → card
        self._elsewhere: dict[str, tuple[str, str]] = {}  # tag → (deck, card)
        for deck in other_decks:
            if deck.name == self.name:
                continue  # re-enrolling this deck: its old tags are free again
            for card, tag in deck.cards.items():
                self._elsewhere.setdefault(tag, (deck.name, card))

    @property
    def done(self) -> bool:
        return len(self._cards) == len(self.order)

    @property
    def next_card(self) -> str | None:
        return None if self.done else self.order[len(self._cards)]

    @property
    def prompt(self) -> Prompt | None:
        card = self.next_card
        if card is None:
            return None
        return Prompt(self.name, card, len(self._cards), len(self.order))

    @property
    def enrolled(self) -> dict[str, str]:
        return dict(self._cards)

    def offer(self, tag: str) -> Step:
        """A tap: accept the tag for the next card, or say why not (and keep asking)."""
        card = self.next_card
        if card is None:
            raise RuntimeError("all cards are enrolled already")
        try:
            tag = normalize_tag(tag)
        except ValueError as exc:
            return Step(Outcome.NOT_A_TAG, tag, card, f"{exc}; tap the {card_name(card)} again")
        if tag in self._tags:
            other = self._tags[tag]
            return Step(
                Outcome.ALREADY_ENROLLED,
                tag,
                card,
                f"That tag is already the {card_name(other)} ({other}). Tap the {card_name(card)} ({card}).",
                other_card=other,
                other_deck=self.name,
            )
        if tag in self._elsewhere:
            deck, other = self._elsewhere[tag]
            return Step(
                Outcome.OTHER_DECK,
                tag,
                card,
                f"That tag is the {card_name(other)} of deck {deck!r}, not this deck. "
                f"Tap the {card_name(card)} ({card}) of deck {self.name!r}.",
                other_card=other,
                other_deck=deck,
            )
        self._cards[card] = tag
        self._tags[tag] = card
        return Step(Outcome.ACCEPTED, tag, card, f"{card} = {tag}")

    def undo(self) -> Prompt:
        """Take back the last accepted tap (the wrong card was tapped)."""
        if not self._cards:
            raise RuntimeError("nothing to undo")
        card = next(reversed(self._cards))
        tag = self._cards.pop(card)
        del self._tags[tag]
        prompt = self.prompt
        assert prompt is not None
        return prompt

    def deck(self) -> Deck:
        if not self.done:
            raise EnrollmentIncomplete(
                f"deck {self.name!r}: only {len(self._cards)} of {len(self.order)} cards tapped"
            )
        return Deck(self.name, self._cards)


def enroll_deck(
    name: str,
    tags: Iterable[str],
    store: DeckStore,
    *,
    replace: bool = False,
    on_prompt: Callable[[Prompt], None] | None = None,
    on_step: Callable[[Step], None] | None = None,
) -> tuple[Deck, Path]:
    """Run an enrollment from a tag source to a saved deck file.

    Refuses to overwrite an existing deck unless ``replace``; refuses tags of other
    enrolled decks (a corrupt deck file stops it with that file's error, as the check
    cannot be made without it). Returns the deck and the file it was saved to.
    """
    check_deck_name(name)
    if store.exists(name) and not replace:
        raise DeckError(
            f"deck {name!r} is already enrolled ({store.path(name)}); pass replace=True to enrol it again"
        )
    enrollment = Enrollment(name, other_decks=store.load_all().values())
    if on_prompt and enrollment.prompt:
        on_prompt(enrollment.prompt)
    for tag in tags:
        step = enrollment.offer(tag)
        if on_step:
            on_step(step)
        if enrollment.done:
            break
        if on_prompt and enrollment.prompt:
            on_prompt(enrollment.prompt)
    deck = enrollment.deck()  # raises EnrollmentIncomplete if the source ran dry
    return deck, store.save(deck)
