"""Which RFID tag is which card: one map per physical deck, kept in the state directory.

A table may own several decks (a spare, a second colour); each is enrolled once and
saved as ``STATE/decks/<name>.json``. One deck is *active* for a match. Looking up a
tag tells three different things apart, because the referee reacts differently:

* a card of the active deck → a sighting of that card;
* a tag of another enrolled deck → someone mixed decks (say which one);
* an unknown tag → a stray sticker, a bank card, or a deck never enrolled.

File format (``format``/``version`` so a later change can be recognised)::

    {"format": "courtpiece-deck", "version": 1, "name": "red",
     "cards": {"AS": "04A1B2C3", "KS": "…", …}}
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from types import MappingProxyType

from controller.atomic_file import replace_file
from controller.readers.sightings import CardSeen, TagSeen
from controller.rules.cards import RANK_LETTERS, SUIT_LETTERS

#: Every card, in the order enrollment asks for them: AS KS … 2S, AH … 2H, AD …, AC … 2C.
DECK_ORDER: tuple[str, ...] = tuple(rank + suit for suit in SUIT_LETTERS for rank in reversed(RANK_LETTERS))
FULL_DECK = frozenset(DECK_ORDER)
DECK_SIZE = len(DECK_ORDER)

FILE_FORMAT = "courtpiece-deck"
FILE_VERSION = 1
DECKS_DIR = "decks"

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_HEX = re.compile(r"^[0-9A-F]+$")


class DeckError(Exception):
    """A deck that cannot be used: incomplete, duplicated tags, bad name, clash."""


class DeckFileError(DeckError):
    """A deck file that cannot be read; the message starts with the file's path."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def normalize_tag(tag: str) -> str:
    """A tag id as the readers report it: upper-case hex, whole bytes."""
    text = tag.strip().upper()
    if not text or len(text) % 2 or len(text) > 20 or not _HEX.match(text):
        raise ValueError(f"not a tag id (upper-case hex of 1 to 10 bytes): {tag!r}")
    return text


def check_deck_name(name: str) -> str:
    """Deck names become file names, so: letters, digits, '-' and '_', at most 64."""
    if not _NAME.match(name):
        raise DeckError(f"bad deck name {name!r}: use letters, digits, '-' or '_' (at most 64)")
    return name


@dataclass(frozen=True)
class Deck:
    """A complete enrolled deck: each of the 52 cards has its own tag."""

    name: str
    cards: Mapping[str, str]  # card text → tag id
    _by_tag: Mapping[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_deck_name(self.name)
        unknown = sorted(set(self.cards) - FULL_DECK)
        if unknown:
            raise DeckError(f"deck {self.name!r}: not card names: {', '.join(unknown)}")
        missing = [c for c in DECK_ORDER if c not in self.cards]
        if missing:
            raise DeckError(
                f"deck {self.name!r} has {len(self.cards)} cards, needs {DECK_SIZE}; missing: {', '.join(missing)}"
            )
        by_tag: dict[str, str] = {}
        ordered: dict[str, str] = {}
        for card in DECK_ORDER:
            try:
                tag = normalize_tag(self.cards[card])
            except (ValueError, AttributeError) as exc:
                raise DeckError(f"deck {self.name!r}, card {card}: {exc}") from None
            if tag in by_tag:
                raise DeckError(
                    f"deck {self.name!r}: tag {tag} is on both {by_tag[tag]} and {card}"
                )
            by_tag[tag] = card
            ordered[card] = tag
        object.__setattr__(self, "cards", MappingProxyType(ordered))
        object.__setattr__(self, "_by_tag", MappingProxyType(by_tag))

    def card_of(self, tag: str) -> str | None:
        return self._by_tag.get(tag.strip().upper())

    def tag_of(self, card: str) -> str:
        return self.cards[card]

    @property
    def tags(self) -> frozenset[str]:
        return frozenset(self._by_tag)

    def to_json(self) -> dict:
        return {
            "format": FILE_FORMAT,
            "version": FILE_VERSION,
            "name": self.name,
            "cards": dict(self.cards),
        }

    @classmethod
    def from_json(cls, data: object) -> Deck:
        """Build from the file's JSON; raises DeckError saying what is wrong."""
        if not isinstance(data, dict):
            raise DeckError("not a JSON object")
        if data.get("format") != FILE_FORMAT:
            raise DeckError(
                f"not a deck file (format is {data.get('format')!r}, expected {FILE_FORMAT!r})"
            )
        if data.get("version") != FILE_VERSION:
            raise DeckError(f"unsupported deck file version {data.get('version')!r}")
        name, cards = data.get("name"), data.get("cards")
        if not isinstance(name, str):
            raise DeckError("missing deck name")
        if not isinstance(cards, dict) or not all(isinstance(v, str) for v in cards.values()):
            raise DeckError('"cards" must map card names to tag ids')
        return cls(name, cards)


class LookupKind(Enum):
    KNOWN = "known"  # a card of the active deck
    OTHER_DECK = "other-deck"  # a card of another enrolled deck
    UNKNOWN = "unknown"  # no enrolled deck has this tag


@dataclass(frozen=True, slots=True)
class TagLookup:
    kind: LookupKind
    tag: str
    card: str | None = None
    deck: str | None = None

    def describe(self) -> str:
        if self.kind is LookupKind.KNOWN:
            return f"tag {self.tag} is {self.card} of deck {self.deck!r}"
        if self.kind is LookupKind.OTHER_DECK:
            return f"tag {self.tag} is {self.card} of another deck, {self.deck!r}"
        return f"tag {self.tag} belongs to no enrolled deck"


class DeckStore:
    """The deck files under ``STATE/decks``."""

    def __init__(self, state_dir: str | os.PathLike[str]) -> None:
        self.root = Path(state_dir) / DECKS_DIR

    def path(self, name: str) -> Path:
        return self.root / f"{check_deck_name(name)}.json"

    def names(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.stem for p in self.root.glob("*.json") if _NAME.match(p.stem))

    def exists(self, name: str) -> bool:
        return self.path(name).is_file()

    def load(self, name: str) -> Deck:
        path = self.path(name)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise DeckFileError(
                path, f"no deck named {name!r} (enrolled: {', '.join(self.names()) or 'none'})"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise DeckFileError(path, f"cannot read: {exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DeckFileError(
                path, f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
            ) from None
        try:
            deck = Deck.from_json(data)
        except DeckError as exc:
            raise DeckFileError(path, str(exc)) from None
        if deck.name != name:
            raise DeckFileError(
                path, f"file says the deck is {deck.name!r}, its name says {name!r}"
            )
        return deck

    def load_all(self) -> dict[str, Deck]:
        return {name: self.load(name) for name in self.names()}

    def save(self, deck: Deck) -> Path:
        """Write atomically (temp file, fsync, rename) so a power cut never leaves half a deck."""
        path = self.path(deck.name)
        self.root.mkdir(parents=True, exist_ok=True)
        replace_file(path, json.dumps(deck.to_json(), indent=2) + "\n", mode=0o600)  # which tag is which card
        return path


class DeckMap:
    """Tag → card across all enrolled decks, with one of them active."""

    def __init__(self, decks: Mapping[str, Deck] | list[Deck], active: str) -> None:
        deck_list = list(decks.values()) if isinstance(decks, Mapping) else list(decks)
        self._decks = {d.name: d for d in deck_list}
        if active not in self._decks:
            known = ", ".join(sorted(self._decks)) or "none"
            raise DeckError(f"active deck {active!r} is not enrolled (enrolled: {known})")
        self._active = self._decks[active]
        self._owner: dict[str, str] = {}
        for deck in deck_list:
            for tag in deck.tags:
                other = self._owner.setdefault(tag, deck.name)
                if other != deck.name:
                    raise DeckError(
                        f"tag {tag} is enrolled in both deck {other!r} ({self._decks[other].card_of(tag)}) "
                        f"and deck {deck.name!r} ({deck.card_of(tag)}); remove or re-enrol one of them"
                    )

    @classmethod
    def load(cls, state_dir: str | os.PathLike[str], active: str | None = None) -> DeckMap:
        """All decks in ``STATE/decks``; ``active`` may be omitted when there is only one."""
        store = DeckStore(state_dir)
        decks = store.load_all()
        if active is None:
            if len(decks) != 1:
                names = ", ".join(sorted(decks)) or "none"
                raise DeckError(f"say which deck is active (enrolled in {store.root}: {names})")
            active = next(iter(decks))
        return cls(decks, active)

    @property
    def active(self) -> Deck:
        return self._active

    @property
    def decks(self) -> Mapping[str, Deck]:
        return MappingProxyType(self._decks)

    def __iter__(self) -> Iterator[Deck]:
        return iter(self._decks.values())

    def with_active(self, name: str) -> DeckMap:
        return DeckMap(self._decks, name)

    def lookup(self, tag: str) -> TagLookup:
        tag = tag.strip().upper()
        card = self._active.card_of(tag)
        if card is not None:
            return TagLookup(LookupKind.KNOWN, tag, card, self._active.name)
        owner = self._owner.get(tag)
        if owner is not None:
            return TagLookup(LookupKind.OTHER_DECK, tag, self._decks[owner].card_of(tag), owner)
        return TagLookup(LookupKind.UNKNOWN, tag)

    def card_seen(self, sighting: TagSeen) -> CardSeen | None:
        """The card sighting for a tag sighting, if the tag is a card of the active deck."""
        found = self.lookup(sighting.tag)
        if found.kind is not LookupKind.KNOWN or found.card is None:
            return None
        return CardSeen(zone=sighting.zone, card=found.card, at=sighting.at, source=sighting.source)
