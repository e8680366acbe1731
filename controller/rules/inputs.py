"""Inputs to the engine: everything that can happen at the table, as data.

A hand is replayed from these alone (OpenSpiel's chance moves: the deal is a sequence of
``Deal`` inputs). The referee turns reader sightings and button presses into these.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit


@dataclass(frozen=True, slots=True)
class DrawCard:
    """A card drawn by a seat to choose the first dealer (and partnerships)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Deal:
    """The next card of the deal (its seat follows from the preset's deal order)."""

    card: Card


@dataclass(frozen=True, slots=True)
class Bid:
    seat: int
    tricks: int


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int


@dataclass(frozen=True, slots=True)
class OpenChallenge:
    """Band rung: over a bid of 13, the next player bids 13 with the trump named openly."""

    seat: int
    suit: Suit


@dataclass(frozen=True, slots=True)
class CallTrump:
    """The caller names the trump suit aloud."""

    seat: int
    suit: Suit


@dataclass(frozen=True, slots=True)
class ShowTrump:
    """The caller lays one of his cards face up; its suit is trump and it stays his."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class CallTrumpByCard:
    """The caller names a card of his deal (6th: deferred; 7th or 10th) to be turned up."""

    seat: int
    number: int


@dataclass(frozen=True, slots=True)
class TrumpCardTurned:
    """Played mode: the card turned up for a deferred or numbered call, read on the trump spot."""

    card: Card


@dataclass(frozen=True, slots=True)
class HideTrump:
    """The caller lays a trump face down. ``card`` when a reader saw it, else just the suit."""

    seat: int
    card: Card | None = None
    suit: Suit | None = None


@dataclass(frozen=True, slots=True)
class AskTrump:
    """A player who cannot follow asks for the hidden trump to be shown."""

    seat: int


@dataclass(frozen=True, slots=True)
class RevealTrump:
    """The caller turns the hidden trump up (on lead, when void, or a 13 bidder's choice)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TakeBack:
    """A flagged play is taken back into the hand (the correction a revoker may make)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ApplyPenalty:
    """The table rules that a flagged revoke stands: the preset's penalty applies now."""


@dataclass(frozen=True, slots=True)
class CloseTrick:
    """The table confirms the current trick (after a correction, later players are done)."""


@dataclass(frozen=True, slots=True)
class PlayOn:
    """The winners of a 7-0 start choose whether to play on for all thirteen."""

    play_on: bool


@dataclass(frozen=True, slots=True)
class RequestRedeal:
    """The caller asks for a redeal the options allow (five below a jack; 7+ trumps)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ShowCard:
    """Played mode, hand over: a suspected seat shows one of its remaining cards."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class SkipShowing:
    """The table declines to show the suspected hands: the voids go unchecked."""


@dataclass(frozen=True, slots=True)
class MoveTimeout:
    """The referee's move timer ran out for a seat (a table event only)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TimeUp:
    """The agreed time has passed: the hand in progress is finished, then the match ends."""


@dataclass(frozen=True, slots=True)
class EndMatch:
    """Stop the match now (the table is leaving)."""


Input = (
    DrawCard | Deal | Bid | Pass | OpenChallenge | CallTrump | ShowTrump | CallTrumpByCard
    | TrumpCardTurned | HideTrump | AskTrump | RevealTrump | Play | TakeBack | ApplyPenalty
    | CloseTrick | PlayOn | RequestRedeal | ShowCard | SkipShowing | MoveTimeout | TimeUp | EndMatch
)
