"""What the engine says happened, as data.

Every event is public unless its class says it is private to one seat: the public view,
the dashboard and the WebSocket see public events only, so a hidden card can only leak
through a class marked public — which the secrecy tests check field by field.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, ClassVar

from .cards import Card, Suit


@dataclass(frozen=True, slots=True)
class Event:
    #: None: everyone may see it. "seat": only the seat named in the event's ``seat`` field.
    private: ClassVar[str | None] = None

    @property
    def kind(self) -> str:
        return _KIND_NAMES[type(self)]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"event": self.kind}
        for f in fields(self):
            data[f.name] = plain(getattr(self, f.name))
        return data


def plain(value: Any) -> Any:
    """Cards to text, suits to letters, tuples to lists: JSON-ready."""
    if isinstance(value, Card):
        return value.text
    if isinstance(value, Suit):
        return value.name
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    dealer: int
    knowledge: str


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class PartnershipsDrawn(Event):
    """Result of the draw. ``swap``: two seats whose players change places, if any."""

    dealer: int
    swap: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    hand: int
    dealer: int
    caller: int | None


@dataclass(frozen=True, slots=True)
class DealComplete(Event):
    hand: int


@dataclass(frozen=True, slots=True)
class DealFellShort(Event):
    """Play began before the deal reader saw all 52 cards: this hand is refereed from the
    played cards, as in 'played' mode. ``seen``: how many it read."""

    hand: int
    seen: int


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    seat: int
    tricks: int
    open_suit: Suit | None


@dataclass(frozen=True, slots=True)
class BidPassed(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class AuctionWon(Event):
    seat: int
    tricks: int
    open_suit: Suit | None
    forced: bool


@dataclass(frozen=True, slots=True)
class TrumpCalled(Event):
    """Trump is public from this moment (named, shown or turned up)."""

    seat: int | None
    suit: Suit
    how: str
    card: Card | None


@dataclass(frozen=True, slots=True)
class TrumpHidden(Event):
    """A trump card lies face down; its suit is not in this event on purpose."""

    seat: int


@dataclass(frozen=True, slots=True)
class TrumpSetSecretly(Event):
    private: ClassVar[str | None] = "seat"
    seat: int
    suit: Suit
    card: Card | None


@dataclass(frozen=True, slots=True)
class TrumpAsked(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class TrumpRevealed(Event):
    suit: Suit
    card: Card | None
    trick: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayAccepted(Event):
    """A card on the table. ``card`` is None for a face-down discard."""

    seat: int
    card: Card | None
    trick: int
    face_down: bool


@dataclass(frozen=True, slots=True)
class FaceDownPlayed(Event):
    private: ClassVar[str | None] = "seat"
    seat: int
    card: Card
    trick: int


@dataclass(frozen=True, slots=True)
class FaceDownShown(Event):
    seat: int
    card: Card
    trick: int


@dataclass(frozen=True, slots=True)
class RevokeFlagged(Event):
    """An illegal play, as the whole table may know it: who, the card played, and ``suit``,
    the suit he held and did not play (None when the rule is not about a suit).

    ``proof`` is the card that proves it only when everyone has already seen that card
    face up (played mode: the card just played). A proving card still in the offender's
    hand would tell the table what he holds -- and, under a hidden trump, could be the
    face-down trump itself -- so it goes to his seat in ``RevokeProof`` and becomes public
    in ``ProofShown`` once it is played or the hand ends. ``detail`` never names it.
    """

    seat: int
    card: Card | None
    trick: int
    rule: str
    suit: Suit | None
    proof: Card | None
    detail: str


@dataclass(frozen=True, slots=True)
class RevokeProof(Event):
    """The hidden card that proves the flag of ``seat`` in ``trick``: for that seat (and the
    admin) only, until ``ProofShown``."""

    private: ClassVar[str | None] = "seat"
    seat: int
    card: Card
    trick: int
    rule: str
    detail: str


@dataclass(frozen=True, slots=True)
class ProofShown(Event):
    """A revoke's proving card is public now: it was played face up, or the hand ended."""

    seat: int
    card: Card
    trick: int
    reason: str


@dataclass(frozen=True, slots=True)
class CardTakenBack(Event):
    seat: int
    card: Card | None
    trick: int


@dataclass(frozen=True, slots=True)
class CardNotCounted(Event):
    """A card landed after its hand was over (the table kept playing past a forfeit)."""

    seat: int
    card: Card
    reason: str


@dataclass(frozen=True, slots=True)
class VoidShown(Event):
    """Played mode: a seat did not follow, so it claims to hold no card of this suit."""

    seat: int
    suit: Suit
    trick: int


@dataclass(frozen=True, slots=True)
class SuspicionCleared(Event):
    """Played mode, hand over: no later card proved a revoke for this void."""

    seat: int
    suit: Suit


@dataclass(frozen=True, slots=True)
class ShowAsked(Event):
    """Played mode, hand over: ``seat`` is asked to show its remaining cards, because it
    played off ``suits`` in ``tricks`` (the same order) and nothing has proven it since."""

    seat: int
    suits: tuple[Suit, ...]
    tricks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardShown(Event):
    """A card a suspected seat showed at the hand's end: public from now on."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class ShowingSkipped(Event):
    """The table did not show: these seats' voids were cleared without being checked."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandResultChanged(Event):
    """A revoke proven at the hand's end changed who won it."""

    team_before: int
    team: int
    reason: str


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    trick: int
    winner: int
    cards: tuple[tuple[int, Card | None], ...]
    to_pile: bool


@dataclass(frozen=True, slots=True)
class PilePickedUp(Event):
    seat: int
    team: int
    tricks: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayOnOffered(Event):
    team: int


@dataclass(frozen=True, slots=True)
class PlayOnChosen(Event):
    team: int
    play_on: bool


@dataclass(frozen=True, slots=True)
class HandWon(Event):
    hand: int
    team: int
    tricks: tuple[int, int]
    reason: str
    trump: Suit | None


@dataclass(frozen=True, slots=True)
class CourtsScored(Event):
    team: int
    courts: int
    reason: str


@dataclass(frozen=True, slots=True)
class PointsScored(Event):
    team: int
    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class StreakUpdated(Event):
    """Hands won in a row (``count``) by ``team``; ``tricks``: the running trick streak."""

    team: int | None
    count: int


@dataclass(frozen=True, slots=True)
class Redeal(Event):
    hand: int
    reason: str


@dataclass(frozen=True, slots=True)
class DealPasses(Event):
    dealer: int
    caller: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class MoveTimedOut(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class TimeUpNoted(Event):
    pass


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    winner: int | None
    score: tuple[int, int]
    reason: str


def _kind(cls: type) -> str:
    out = []
    for ch in cls.__name__:
        if ch.isupper() and out:
            out.append("-")
        out.append(ch.lower())
    return "".join(out)


_KIND_NAMES: dict[type, str] = {}
EVENT_TYPES: dict[str, type[Event]] = {}
for _cls in list(globals().values()):
    if isinstance(_cls, type) and issubclass(_cls, Event) and _cls is not Event:
        _KIND_NAMES[_cls] = _kind(_cls)
        EVENT_TYPES[_kind(_cls)] = _cls
