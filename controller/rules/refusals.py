"""Plain sentences for cards that cannot count, one per situation a player can picture.

A refused card is a physical card somebody saw land, so "impossible" is no help at the
table: the sentence says what the referee thinks happened (the hand is already over,
the card is already on the table, it came from the wrong seat) and that it is not
counted. Seats are named as the table named them (``Match.seat_names``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import THE_CARD
from .events import FaceDownPlayed, FaceDownShown, HandStarted, PlayAccepted

if TYPE_CHECKING:
    from .match import Match


def who_played(m: Match, card: int) -> tuple[int, int] | None:
    """(seat, trick) of a card played this hand, or None."""
    h = m.hand
    for tc in h.trick:
        if tc.card == card:
            return tc.seat, h.trick_no
    for e in reversed(m.events):
        if isinstance(e, HandStarted):
            break
        if isinstance(e, (PlayAccepted, FaceDownPlayed, FaceDownShown)) and e.card == card:
            return e.seat, e.trick
    return None


def seen_again(m: Match, seat: int, card: int) -> str:
    """A card already played this hand turns up at a seat's spot again."""
    found = who_played(m, card)
    if found is None:  # not reachable while ``played`` and the events agree
        return f"{THE_CARD} has already been played this hand"
    player, trick = found
    when = "in this trick" if trick == m.hand.trick_no else f"in trick {trick}"
    if player == seat:
        return (f"{THE_CARD} is already on the table ({m.seat_names[player]} played it {when}); "
                "seen again, it is counted once")
    return (f"{THE_CARD} was played by {m.seat_names[player]} {when}; "
            f"it cannot come from {m.seat_names[seat]} as well")


def after_hand_end(m: Match, seat: int, card: int) -> str | None:
    """A card played after its hand ended and before anything of the next one happened
    (the table played on, or a last card was read late); None if that is not the case."""
    h = m.hand
    if h.started or not 0 <= seat <= 3 or not _ended_by_play(m):
        return None
    if m.dealt_mode and h.deal_index == 0:
        waits = "the deal"
    else:
        waits = "the auction" if h.auction is not None and not h.auction.done else "the trump call"
    return (f"hand {h.number - 1} is over: {THE_CARD} from {m.seat_names[seat]} is not counted "
            f"(hand {h.number} waits for {waits})")


def _ended_by_play(m: Match) -> bool:
    """Whether the current hand follows a hand that was played to its end (not a redeal)."""
    seen_start = False
    for e in reversed(m.events):
        if isinstance(e, HandStarted):
            if seen_start:
                return False
            seen_start = True
            continue
        if seen_start:
            return e.kind == "deal-passes"
    return False
