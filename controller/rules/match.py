"""A whole match: inputs in, events out, state derived.

``Match.apply`` takes one input (see ``inputs``), checks it can have happened, changes
the state and returns the events it caused. A physical card is never refused for being
*illegal* — it is accepted and flagged — only for being *impossible* (see ``errors``).
Replaying the same inputs gives the same state and events (``Match.replay``).
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import deepcopy
from typing import Any

from . import inputs as I
from .calling import Calling
from .cards import CARDS, Card
from .ending import Ending
from .errors import (
    ImpossibleInput,
    WrongPhase,
)
from .events import (
    Event,
    HandStarted,
    MatchStarted,
)
from .hand import Auction, Hand, Phase
from .names import DEALT, PLAYED, seat_name
from .options import (
    CallerRule,
    Draw,
    FirstLead,
    Options,
)
from .playing import Playing
from .scoring import Tally
from .showing import Showing


class Match(Calling, Playing, Ending, Showing):
    """One match at one table. The work is split by stage of the hand: ``Calling`` (the
    deal and the call), ``Playing`` (cards and tricks), ``Ending`` (hand and match end),
    ``Showing`` (played mode: suspected hands shown at the hand's end);
    this class holds the state, the input dispatch and the queries."""

    def __init__(self, options: Options, *, first_dealer: int = 0, knowledge: str = DEALT,
                 seat_names: Sequence[str] | None = None) -> None:
        """``seat_names``: how messages name the four seats ("Bilal"); default "seat N".
        They are data the table gives, so refusals and reasons read the way players talk."""
        if knowledge not in (DEALT, PLAYED):
            raise ValueError(f"knowledge must be {DEALT!r} or {PLAYED!r}, not {knowledge!r}")
        if first_dealer not in range(4):
            raise ValueError("first dealer must be a seat 0-3")
        if seat_names is not None and len(seat_names) != 4:
            raise ValueError("seat names: four, one per seat")
        self.options = options
        self.knowledge = knowledge
        self.seat_names: tuple[str, ...] = tuple(seat_names) if seat_names else tuple(seat_name(s) for s in range(4))
        self.dealt_mode = knowledge == DEALT
        self.first_dealer = first_dealer
        self.inputs: list[Any] = []
        self.events: list[Event] = []
        self.tally = Tally()
        self.history: list[dict[str, Any]] = []
        self.time_up = False
        self.winner: int | None = None
        self.over_reason: str | None = None
        self.draws: dict[int, int] = {}
        self.deals_started = 0  # counts hands and redeals: a new deal each time
        self.phase = Phase.DRAW
        self.hand: Hand = self._new_hand(1, first_dealer, None)
        out: list[Event] = [MatchStarted(first_dealer, knowledge)]
        if options.draw is Draw.NONE:
            out += self._start_hand(self.hand)
        self.events.extend(out)

    # ------------------------------------------------------------------ plumbing
    @classmethod
    def replay(cls, options: Options, inputs: list[Any], *, first_dealer: int = 0,
               knowledge: str = DEALT, skip_impossible: bool = False,
               seat_names: Sequence[str] | None = None) -> Match:
        m = cls(options, first_dealer=first_dealer, knowledge=knowledge, seat_names=seat_names)
        for move in inputs:
            try:
                m.apply(move)
            except ImpossibleInput:
                if not skip_impossible:
                    raise
        return m

    def apply(self, move: Any) -> list[Event]:
        """Apply one input; return its events. Raises ImpossibleInput and changes nothing."""
        if self.phase is Phase.OVER and not isinstance(move, I.MoveTimeout):
            raise WrongPhase("the match is over; start a new match")
        out: list[Event] = []
        handler = _HANDLERS.get(type(move))
        if handler is None:
            raise TypeError(f"not an engine input: {move!r}")
        try:
            handler(self, move, out)
        except ImpossibleInput:
            if out:  # something moved before the refusal: rebuild from the inputs
                self._restore()
            raise
        self.inputs.append(move)
        self.events.extend(out)
        return out

    def _restore(self) -> None:
        origin: Match | None = self.__dict__.get("_origin")
        if origin is None:
            fresh = Match.replay(self.options, self.inputs, first_dealer=self.first_dealer,
                                 knowledge=self.knowledge, skip_impossible=True, seat_names=self.seat_names)
        else:  # a copy that starts at a position: rebuild from there, not from the first deal
            fresh = origin.copy()
            for move in self.inputs:
                try:
                    fresh.apply(move)
                except ImpossibleInput:
                    pass
        self.__dict__.update(fresh.__dict__)

    def copy(self, *, stack: bool = True) -> Match:
        """An independent copy (python-chess's ``Board.copy``), to come back to later.

        With ``stack=False`` the copy starts at this position: it forgets the inputs that
        led here and the events before the previous hand's start (the views look back no
        further), so undo and restart can return to a hand start without replaying the
        match. The hands' history is shared, not copied: a record never changes once made.
        """
        shared = ("options", "inputs", "events", "history", "_origin")
        twin = object.__new__(Match)
        twin.__dict__ = deepcopy({k: v for k, v in self.__dict__.items() if k not in shared})
        twin.options, twin.history = self.options, list(self.history)
        if stack:
            twin.inputs, twin.events = list(self.inputs), list(self.events)
            twin._origin = self.__dict__.get("_origin")
        else:
            starts = [i for i, e in enumerate(self.events) if isinstance(e, HandStarted)]
            twin.inputs, twin.events = [], self.events[starts[-2] if len(starts) > 1 else 0:]
            twin._origin = twin.copy()  # twin has no origin yet, so neither has this copy
        return twin

    # ------------------------------------------------------------------ hands
    def _new_hand(self, number: int, dealer: int, caller: int | None) -> Hand:
        o = self.options
        if caller is None and o.caller is CallerRule.DEALER_NEXT:
            caller = (dealer + 1) & 3
        first_leader = None
        if o.first_lead is FirstLead.DEALER_NEXT or o.caller is CallerRule.NONE:
            first_leader = (dealer + 1) & 3
        elif caller is not None:
            first_leader = caller
        order: list[int] = []
        for batch in o.deal_batches:
            for i in range(1, 5):
                order.extend([(dealer + i) & 3] * batch)
        h = Hand(number, dealer, caller, first_leader, self.dealt_mode, tuple(order),
                 first_batch=o.deal_batches[0])
        if first_leader is not None:
            h.leader = first_leader
        if o.caller is CallerRule.BIDDING:
            h.auction = Auction(turn=(dealer + 1) & 3)
        return h

    def _start_hand(self, h: Hand) -> list[Event]:
        self.hand = h
        self.deals_started += 1
        out: list[Event] = [HandStarted(h.number, h.dealer, h.caller)]
        self.phase = Phase.DEAL if self.dealt_mode else Phase.CALL
        self._maybe_start_play(out)
        return out

    def _trump_needed(self) -> bool:
        return self.options.caller is not CallerRule.NONE and self.hand.trump is None

    def _maybe_start_play(self, out: list[Event]) -> None:
        h = self.hand
        if self.phase not in (Phase.DEAL, Phase.CALL):
            return
        if not h.deal_complete:
            return
        if h.auction is not None and not h.auction.done:
            self.phase = Phase.CALL
            return
        if self._trump_needed():
            self.phase = Phase.CALL
            return
        self.phase = Phase.PLAY

    # ------------------------------------------------------------------ queries
    def legal_plays(self, seat: int) -> list[Card]:
        """Dealt mode: the cards this seat may play without a revoke (for bots and hints)."""
        h = self.hand
        cards_ = sorted(h.holdings[seat])
        if not h.trick:
            return [CARDS[c] for c in cards_]
        led = h.led_suit()
        if led is None:  # the leader's card is taken back: no suit is led yet
            return [CARDS[c] for c in cards_]
        follow = [c for c in cards_ if c // 13 == led]
        if follow:
            return [CARDS[c] for c in follow]
        if h.must_trump == seat and h.trump_public:
            trumps = [c for c in cards_ if c // 13 == h.trump]
            if trumps:
                return [CARDS[c] for c in trumps]
        return [CARDS[c] for c in cards_]

    def turn(self) -> int | None:
        return self.hand.turn() if self.phase is Phase.PLAY else None

    def public_view(self) -> dict[str, Any]:
        from .views import public_view
        return public_view(self)

    def seat_view(self, seat: int) -> dict[str, Any]:
        from .views import seat_view
        return seat_view(self, seat)

    def admin_view(self) -> dict[str, Any]:
        from .views import admin_view
        return admin_view(self)

    def public_events(self) -> list[Event]:
        return [e for e in self.events if e.private is None]


_HANDLERS = {
    I.DrawCard: Match._on_draw,
    I.Deal: Match._on_deal,
    I.Bid: Match._on_bid,
    I.OpenChallenge: Match._on_bid,
    I.Pass: Match._on_pass,
    I.CallTrump: Match._on_call,
    I.ShowTrump: Match._on_show,
    I.CallTrumpByCard: Match._on_call_by_card,
    I.TrumpCardTurned: Match._on_turned,
    I.HideTrump: Match._on_hide,
    I.AskTrump: Match._on_ask,
    I.RevealTrump: Match._on_reveal,
    I.Play: Match._on_play,
    I.TakeBack: Match._on_take_back,
    I.CloseTrick: Match._on_close,
    I.ApplyPenalty: Match._on_penalty,
    I.PlayOn: Match._on_play_on,
    I.RequestRedeal: Match._on_redeal,
    I.ShowCard: Match._on_show_card,
    I.SkipShowing: Match._on_skip_showing,
    I.MoveTimeout: Match._on_timeout,
    I.TimeUp: Match._on_time_up,
    I.EndMatch: Match._on_end,
}
