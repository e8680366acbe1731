"""Collecting finished tricks: to the winner at once, or Double Sir's centre pile.

Double Sir (sources 001, 002; band rung's "double sar" in 004): tricks wait in the
centre until one *player* (not a partnership) wins two running; a pickup starts a new
run, and the winner of the last trick takes whatever is left. The table variants are
all restrictions on when a run of two may take the pile.
"""

from __future__ import annotations

from .cards import ACE
from .events import Event, PilePickedUp
from .hand import Hand, team_of
from .options import Collection, Options, PileWait


def collect(hand: Hand, opts: Options, winner: int, win_card: int) -> list[Event]:
    """Credit the trick just won (``hand.trick_no``) and return any pickup event. Whether an
    earlier win was a cut is read from ``hand.winning_cards``."""
    t = hand.trick_no
    if opts.collection is Collection.EACH_TRICK:
        hand.captured[team_of(winner)] += 1
        return []
    hand.pile += 1
    previous = hand.winning_cards[-1] if hand.winning_cards else None
    if hand.run_seat == winner:
        hand.run_length += 1
    else:
        hand.run_seat, hand.run_length = winner, 1
    if t == 13:
        return [_take(hand, winner, "last trick takes what is left")]
    if hand.run_length < 2 or hand.pile < opts.pile_minimum:
        return []
    if opts.pickup_not_first_two and t == 2:
        return []
    if opts.pickup_not_eleven_twelve and t == 12:
        return []
    if previous is not None and previous[0] % 13 == ACE and win_card % 13 == ACE:
        if opts.pickup_not_two_aces:
            return []
        if opts.ace_rules and not previous[1]:
            # 004 6.3: an ace win that was not a trump cut, then another ace, takes nothing.
            return []
    if _waiting_for_trump(hand, opts.pile_waits_for_trump, t):
        return []
    return [_take(hand, winner, "two tricks running")]


def _waiting_for_trump(hand: Hand, wait: PileWait, trick: int) -> bool:
    """Hidden rung (002): no pile is claimed before the trump is revealed, and the trick
    it is revealed in already counts as after; be-ranga (002) waits one trick more."""
    if wait is PileWait.NO:
        return False
    known = hand.trump_known_trick
    if known is None:
        return True
    return known >= trick if wait is PileWait.NEXT_TRICK else known > trick


def _take(hand: Hand, seat: int, reason: str) -> PilePickedUp:
    n = hand.pile
    hand.captured[team_of(seat)] += n
    hand.pile = 0
    hand.run_seat, hand.run_length = None, 0
    return PilePickedUp(seat, team_of(seat), n, reason)
