"""What card sources report to the referee.

Every reader (RFID hub, direct PN532, RDM6300, camera, simulator) ends in one of these,
so the referee never needs to know which kind of hardware saw a card.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Zone names every part agrees on. One play spot per seat, plus a deal spot and a
#: trump spot (for the face-down or turned-up trump card).
SEAT_ZONES: tuple[str, ...] = ("seat0", "seat1", "seat2", "seat3")
DEAL_ZONE = "deal"
TRUMP_ZONE = "trump"
ALL_ZONES: tuple[str, ...] = SEAT_ZONES + (DEAL_ZONE, TRUMP_ZONE)
#: The spots a camera-only table needs marked; the trump spot may have an RFID reader,
#: or no card of its own (a trump called by suit).
CAMERA_NEEDS: tuple[str, ...] = SEAT_ZONES + (DEAL_ZONE,)


def seat_of_zone(zone: str) -> int | None:
    """The seat whose play spot a zone is, or None for the deal and trump spots."""
    if zone in SEAT_ZONES:
        return SEAT_ZONES.index(zone)
    return None


@dataclass(frozen=True, slots=True)
class CardSeen:
    """A card recognised in a zone (card text like ``AS``, ``TD``, ``7H``)."""

    zone: str
    card: str
    at: float
    source: str


@dataclass(frozen=True, slots=True)
class TagSeen:
    """An RFID tag read in a zone, before the deck map turns it into a card."""

    zone: str
    tag: str
    at: float
    source: str


@dataclass(frozen=True, slots=True)
class ReaderFault:
    """A reader or its link reported trouble (unplugged hub, dead reader, bad lines)."""

    source: str
    message: str
    at: float
    zone: str | None = None
