"""A whole match: inputs in, events out, state derived.

``Match.apply`` takes one input (see ``inputs``), checks it can have happened, changes
the state and returns the events it caused. A physical card is never refused for being
*illegal* — it is accepted and flagged — only for being *impossible* (see ``errors``).
Replaying the same inputs gives the same state and events (``Match.replay``).
"""

from __future__ import annotations

from typing import Any

from . import inputs as I
from .cards import ACE, CARDS, JACK, Card, Suit
from .errors import (
    CardSeenTwice,
    ImpossibleInput,
    InvalidChoice,
    NoCardsLeft,
    NotInHand,
    OutOfTurn,
    TooManyCards,
    WrongPhase,
)
from .events import (
    AuctionWon,
    BidMade,
    BidPassed,
    CardDrawn,
    CardNotCounted,
    CardTakenBack,
    CourtsScored,
    DealComplete,
    Event,
    FaceDownPlayed,
    FaceDownShown,
    HandStarted,
    HandWon,
    MatchOver,
    MatchStarted,
    MoveTimedOut,
    PartnershipsDrawn,
    PlayAccepted,
    PlayOnChosen,
    PlayOnOffered,
    Redeal,
    RevokeFlagged,
    StreakUpdated,
    SuspicionCleared,
    TimeUpNoted,
    TrickWon,
    TrumpAsked,
    TrumpCalled,
    TrumpHidden,
    TrumpRevealed,
    TrumpSetSecretly,
    VoidShown,
)
from .hand import Auction, Hand, Pending, Phase, TrickCard, team_of
from .options import (
    AskRule,
    CallerRotation,
    CallerRule,
    Collection,
    Draw,
    FirstLead,
    HandEnd,
    MatchEnd,
    Options,
    RevokePenalty,
    Scoring,
    TrumpCall,
)
from .piles import collect
from .scoring import Outcome, Tally, next_dealer, score_hand
from .trick import is_cut, trick_winner

DEALT = "dealt"
PLAYED = "played"

# Rule names used in RevokeFlagged.rule (stable: the dashboard translates them).
FOLLOW_SUIT = "follow-suit"
TRUMP_AFTER_ASK = "trump-after-ask"
MUST_ASK = "must-ask"
LEAD_TRUMP_AFTER_REVEAL = "lead-trump-after-reveal"
ACE_WITHDRAW = "ace-withdraw"
FACE_DOWN_NOT_VOID = "face-down-not-void"


def seat_name(seat: int) -> str:
    return f"seat {seat}"


class Match:
    def __init__(self, options: Options, *, first_dealer: int = 0, knowledge: str = DEALT) -> None:
        if knowledge not in (DEALT, PLAYED):
            raise ValueError(f"knowledge must be {DEALT!r} or {PLAYED!r}, not {knowledge!r}")
        if first_dealer not in range(4):
            raise ValueError("first dealer must be a seat 0-3")
        self.options = options
        self.knowledge = knowledge
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
               knowledge: str = DEALT, skip_impossible: bool = False) -> Match:
        m = cls(options, first_dealer=first_dealer, knowledge=knowledge)
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
        fresh = Match.replay(self.options, self.inputs, first_dealer=self.first_dealer,
                             knowledge=self.knowledge, skip_impossible=True)
        self.__dict__.update(fresh.__dict__)

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

    def _calling_open(self, seat: int) -> None:
        """Check a trump call (or auction step) can be made now by this seat."""
        h = self.hand
        if self.phase not in (Phase.DEAL, Phase.CALL):
            raise WrongPhase("trump can only be called before the first card is played")
        if self.dealt_mode and h.deal_index < 4 * h.first_batch:
            raise WrongPhase(f"trump is called after the first {h.first_batch} cards each are dealt")
        if h.auction is not None and not h.auction.done:
            raise WrongPhase("the auction is not over yet")
        if h.trump is not None or h.card_number_call is not None:
            raise WrongPhase("trump has already been called this hand")
        if seat != h.caller:
            raise OutOfTurn(f"{seat_name(seat)} is not the trump caller (seat {h.caller} is)")

    # ------------------------------------------------------------------ draw, deal
    def _on_draw(self, move: I.DrawCard, out: list[Event]) -> None:
        if self.phase is not Phase.DRAW:
            raise WrongPhase("the draw for the deal is over")
        if move.seat in self.draws:
            raise OutOfTurn(f"{seat_name(move.seat)} has already drawn")
        if move.card in self.draws.values():
            raise CardSeenTwice(f"{CARDS[move.card]} was already drawn")
        self.draws[move.seat] = move.card
        out.append(CardDrawn(move.seat, CARDS[move.card]))
        if len(self.draws) < 4:
            return
        # Lowest card deals: rank first, then clubs < diamonds < hearts < spades.
        def low(seat: int) -> tuple[int, int]:
            c = self.draws[seat]
            return (c % 13, -(c // 13))

        order = sorted(range(4), key=low)
        dealer = order[0]
        swap = None
        if self.options.draw is Draw.DEALER_AND_PARTNERS and order[1] != (dealer + 2) & 3:
            swap = (order[1], (dealer + 2) & 3)
        out.append(PartnershipsDrawn(dealer, swap))
        self.first_dealer = dealer
        out += self._start_hand(self._new_hand(1, dealer, None))

    def _on_deal(self, move: I.Deal, out: list[Event]) -> None:
        if self.phase is Phase.PLAY_ON:
            self._finish_play_on(False, out)
        h = self.hand
        if not self.dealt_mode:
            raise WrongPhase("cards are not read at the deal in 'played' mode")
        if self.phase not in (Phase.DEAL, Phase.CALL) or h.deal_index >= 52:
            raise TooManyCards(f"a 53rd card: all 52 are dealt ({CARDS[move.card]})")
        c = int(move.card)
        seat = h.deal_order[h.deal_index]
        if c in h.dealt_set:
            owner = next(s for s in range(4) if c in h.dealt[s])
            raise CardSeenTwice(f"{CARDS[c]} was already dealt to {seat_name(owner)} this hand")
        h.started = True
        h.dealt_set.add(c)
        h.holdings[seat].add(c)
        h.dealt[seat].append(c)
        h.deal_index += 1
        if h.card_number_call is not None and seat == h.caller and len(h.dealt[seat]) == h.card_number_call:
            self._set_trump_from_card(c, out)
        if h.deal_index == 4 * h.first_batch and self.options.caller is not CallerRule.NONE:
            self.phase = Phase.CALL
        if h.deal_index == 52:
            out.append(DealComplete(h.number))
            if self._check_seven_trumps(out):
                return
            self.phase = Phase.CALL
            self._maybe_start_play(out)

    # ------------------------------------------------------------------ auction
    def _on_bid(self, move: I.Bid | I.OpenChallenge, out: list[Event]) -> None:
        h = self.hand
        a = h.auction
        if a is None or a.done:
            raise WrongPhase("there is no auction now")
        if self.phase not in (Phase.DEAL, Phase.CALL) or (self.dealt_mode and h.deal_index < 4 * h.first_batch):
            raise WrongPhase(f"bidding starts after the first {h.first_batch} cards each")
        if move.seat != a.turn:
            raise OutOfTurn(f"it is seat {a.turn}'s turn to bid")
        o = self.options
        if isinstance(move, I.OpenChallenge):
            if not (o.open_challenge and a.high == o.bid_max and a.open_suit is None):
                raise InvalidChoice(f"an open-trump challenge is only possible over a hidden bid of {o.bid_max}")
            a.high, a.high_seat, a.open_suit = o.bid_max, move.seat, int(move.suit)
            out.append(BidMade(move.seat, o.bid_max, Suit(move.suit)))
            self._auction_won(out, forced=False)
            return
        if not o.bid_min <= move.tricks <= o.bid_max:
            raise InvalidChoice(f"a bid must be {o.bid_min} to {o.bid_max} tricks, not {move.tricks}")
        if move.tricks <= a.high:
            raise InvalidChoice(f"a bid must be higher than {a.high}")
        h.started = True
        a.high, a.high_seat = move.tricks, move.seat
        out.append(BidMade(move.seat, move.tricks, None))
        self._auction_next(out)

    def _on_pass(self, move: I.Pass, out: list[Event]) -> None:
        h = self.hand
        a = h.auction
        if a is None or a.done:
            raise WrongPhase("there is no auction now")
        if self.phase not in (Phase.DEAL, Phase.CALL) or (self.dealt_mode and h.deal_index < 4 * h.first_batch):
            raise WrongPhase(f"bidding starts after the first {h.first_batch} cards each")
        if move.seat != a.turn:
            raise OutOfTurn(f"it is seat {a.turn}'s turn to bid")
        h.started = True
        if a.high_seat is None and move.seat == h.dealer and len(a.passed) == 3:
            if self.options.dealer_forced_bid:
                a.high, a.high_seat = self.options.bid_min, h.dealer
                self._auction_won(out, forced=True)
                return
        a.passed.add(move.seat)
        out.append(BidPassed(move.seat))
        if len(a.passed) == 4:  # only when the dealer is not forced: redeal
            out.append(Redeal(h.number, "everyone passed"))
            out += self._start_hand(self._new_hand(h.number, h.dealer, None))
            return
        self._auction_next(out)

    def _auction_next(self, out: list[Event]) -> None:
        a = self.hand.auction
        assert a is not None
        active = [s for s in range(4) if s not in a.passed]
        if a.high_seat is not None and active == [a.high_seat]:
            self._auction_won(out, forced=False)
            return
        s = a.turn
        for _ in range(4):
            s = (s + 1) & 3
            if s not in a.passed and s != a.high_seat:
                a.turn = s
                return
        self._auction_won(out, forced=False)

    def _auction_won(self, out: list[Event], *, forced: bool) -> None:
        h = self.hand
        a = h.auction
        assert a is not None and a.high_seat is not None
        a.done = True
        h.caller = a.high_seat
        h.bid = a.high
        h.bid_open = a.open_suit is not None
        h.bid_forced = forced
        if h.first_leader is None or self.options.first_lead is FirstLead.CALLER:
            h.first_leader = h.caller
            h.leader = h.caller
        out.append(AuctionWon(h.caller, h.bid, Suit(a.open_suit) if a.open_suit is not None else None, forced))
        if a.open_suit is not None:
            self._make_public_trump(a.open_suit, None, h.caller, "open challenge", out)
        self._maybe_start_play(out)

    # ------------------------------------------------------------------ trump calls
    def _require_call(self, how: TrumpCall) -> None:
        if how not in self.options.trump_calls:
            allowed = ", ".join(sorted(c.value for c in self.options.trump_calls))
            raise InvalidChoice(f"this table calls trump by: {allowed} (not {how.value})")

    def _make_public_trump(self, suit: int, card: int | None, seat: int | None, how: str, out: list[Event]) -> None:
        h = self.hand
        h.trump = suit
        h.trump_public = True
        h.trump_card = card
        h.trump_how = how
        h.trump_known_trick = 0 if not h.trick_winners and not h.trick else h.trick_no
        out.append(TrumpCalled(seat, Suit(suit), how, CARDS[card] if card is not None else None))

    def _on_call(self, move: I.CallTrump, out: list[Event]) -> None:
        self._require_call(TrumpCall.ANNOUNCED)
        self._calling_open(move.seat)
        self.hand.started = True
        self._make_public_trump(int(move.suit), None, move.seat, "announced", out)
        self._maybe_start_play(out)

    def _on_show(self, move: I.ShowTrump, out: list[Event]) -> None:
        self._require_call(TrumpCall.SHOWN)
        self._calling_open(move.seat)
        h = self.hand
        c = int(move.card)
        if self.dealt_mode and c not in h.dealt[move.seat][: h.first_batch]:
            raise NotInHand(f"{CARDS[c]} is not among {seat_name(move.seat)}'s first {h.first_batch} cards")
        self._check_unseen_elsewhere(c, move.seat)
        h.started = True
        h.holdings[move.seat].add(c)
        self._make_public_trump(c // 13, c, move.seat, "shown", out)
        self._maybe_start_play(out)

    def _on_call_by_card(self, move: I.CallTrumpByCard, out: list[Event]) -> None:
        o = self.options
        h = self.hand
        if move.number == h.first_batch + 1 and TrumpCall.DEFERRED in o.trump_calls:
            how = "deferred"
        else:
            self._require_call(TrumpCall.CARD_NUMBER)
            if move.number not in o.trump_card_numbers:
                raise InvalidChoice(f"the caller may name card {' or '.join(map(str, o.trump_card_numbers))}")
            how = "card-number"
        self._calling_open(move.seat)
        h.started = True
        h.card_number_call = move.number
        h.trump_how = how
        if self.dealt_mode and len(h.dealt[move.seat]) >= move.number:
            self._set_trump_from_card(h.dealt[move.seat][move.number - 1], out)
        self._maybe_start_play(out)

    def _set_trump_from_card(self, c: int, out: list[Event]) -> None:
        h = self.hand
        how = h.trump_how
        self._make_public_trump(c // 13, c, h.caller, how, out)

    def _on_turned(self, move: I.TrumpCardTurned, out: list[Event]) -> None:
        h = self.hand
        if h.card_number_call is None or h.trump is not None:
            raise WrongPhase("no card is waiting to be turned up for trump")
        if self.dealt_mode:
            raise WrongPhase("in 'dealt' mode the turned card is known from the deal")
        c = int(move.card)
        self._check_unseen_elsewhere(c, h.caller)
        h.holdings[h.caller].add(c)  # type: ignore[index]
        self._set_trump_from_card(c, out)
        self._maybe_start_play(out)

    def _on_hide(self, move: I.HideTrump, out: list[Event]) -> None:
        self._require_call(TrumpCall.HIDDEN)
        h = self.hand
        if h.auction is not None and not h.auction.done:
            raise WrongPhase("the auction is not over yet")
        if h.bid_open:
            raise WrongPhase("trump was named openly in the auction")
        self._calling_open(move.seat)
        c = int(move.card) if move.card is not None else None
        if c is None and move.suit is None:
            raise InvalidChoice("a hidden trump needs the card or at least its suit")
        if c is not None:
            if self.dealt_mode and c not in h.dealt[move.seat][: h.first_batch]:
                raise NotInHand(f"the face-down trump must be one of {seat_name(move.seat)}'s first {h.first_batch} cards")
            self._check_unseen_elsewhere(c, move.seat)
            h.holdings[move.seat].add(c)
        h.started = True
        h.trump = c // 13 if c is not None else int(move.suit)  # type: ignore[arg-type]
        h.trump_card = c
        h.trump_public = False
        h.trump_how = "hidden"
        out.append(TrumpHidden(move.seat))
        out.append(TrumpSetSecretly(move.seat, Suit(h.trump), CARDS[c] if c is not None else None))
        if self.dealt_mode and h.deal_complete and self._check_seven_trumps(out):
            return
        self._maybe_start_play(out)

    def _check_unseen_elsewhere(self, c: int, seat: int | None) -> None:
        h = self.hand
        if c in h.played:
            raise CardSeenTwice(f"{CARDS[c]} has already been played this hand")
        for s in range(4):
            if s != seat and c in h.holdings[s]:
                raise NotInHand(f"{CARDS[c]} belongs to {seat_name(s)}, not {seat_name(seat or 0)}")

    def _check_seven_trumps(self, out: list[Event]) -> bool:
        h = self.hand
        if not (self.options.redeal_seven_trumps and self.dealt_mode and h.trump is not None and h.caller is not None):
            return False
        if h.deal_index < 52:
            return False
        n = sum(1 for c in h.holdings[h.caller] if c // 13 == h.trump)
        if n < 7:
            return False
        self._redeal("the caller holds seven or more trumps", out)
        return True

    def _redeal(self, reason: str, out: list[Event]) -> None:
        h = self.hand
        out.append(Redeal(h.number, reason))
        caller = h.caller if self.options.caller is CallerRule.DEALER_NEXT or \
            self.options.caller_rotation is CallerRotation.ROUND_ROBIN else None
        out += self._start_hand(self._new_hand(h.number, h.dealer, caller))

    def _on_redeal(self, move: I.RequestRedeal, out: list[Event]) -> None:
        h = self.hand
        o = self.options
        if self.phase not in (Phase.DEAL, Phase.CALL):
            raise WrongPhase("a redeal can only be asked for before play starts")
        if move.seat != h.caller:
            raise OutOfTurn("only the trump caller may ask for a redeal")
        if self.dealt_mode:
            five = h.dealt[move.seat][: h.first_batch]
            if o.redeal_low_five and len(five) == h.first_batch and all(c % 13 < JACK for c in five):
                self._redeal("the caller's first cards are all below a jack", out)
                return
            raise InvalidChoice("no redeal: the caller's cards do not allow one")
        if not (o.redeal_low_five or o.redeal_seven_trumps):
            raise InvalidChoice("this table plays without redeals")
        self._redeal("the caller asked for a redeal", out)

    # ------------------------------------------------------------------ hidden trump
    def _on_ask(self, move: I.AskTrump, out: list[Event]) -> None:
        h = self.hand
        if self.phase is not Phase.PLAY:
            raise WrongPhase("the trump can only be asked for during play")
        if h.trump is None or h.trump_public:
            raise WrongPhase("there is no hidden trump to reveal")
        if move.seat == h.caller:
            raise InvalidChoice("the caller reveals the trump himself (use reveal)")
        if self.options.ask_rule is AskRule.OPPONENTS_MUST and team_of(move.seat) == team_of(h.caller):  # type: ignore[arg-type]
            raise InvalidChoice("the caller's partner plays freely and does not ask for the trump")
        if h.turn() != move.seat:
            raise OutOfTurn(f"{seat_name(move.seat)} may only ask for the trump on his turn")
        led = h.led_suit()
        if led is None:
            raise InvalidChoice("only a player who cannot follow the led suit may ask for the trump")
        h.asked = move.seat
        h.must_trump = move.seat if self.options.must_trump_after_ask else None
        out.append(TrumpAsked(move.seat))
        self._reveal(f"asked by seat {move.seat}", out)
        if self.dealt_mode and led >= 0 and any(c // 13 == led for c in h.holdings[move.seat]):
            proof = min(c for c in h.holdings[move.seat] if c // 13 == led)
            out.append(RevokeFlagged(move.seat, None, h.trick_no, FOLLOW_SUIT, CARDS[proof],
                                     f"asked for the trump while holding {CARDS[proof]}"))

    def _on_reveal(self, move: I.RevealTrump, out: list[Event]) -> None:
        h = self.hand
        o = self.options
        if h.trump is None or h.trump_public:
            raise WrongPhase("there is no hidden trump to reveal")
        if move.seat != h.caller:
            raise OutOfTurn("only the caller turns the trump up himself")
        if self.phase in (Phase.DEAL, Phase.CALL):
            if not (o.thirteen_reveal and h.bid >= o.bid_max and h.deal_complete):
                raise WrongPhase("the trump can be shown before play only by a 13 bidder holding all his cards")
            self._reveal("the 13 bidder showed it", out)
            return
        if self.phase is not Phase.PLAY:
            raise WrongPhase("the trump cannot be shown now")
        if h.turn() != move.seat:
            raise OutOfTurn("the caller shows the trump on his own turn")
        if not h.trick and h.trick_no == 1 and o.thirteen_reveal and h.bid >= o.bid_max:
            self._reveal("the 13 bidder showed it", out)  # 004: then an open game
            return
        if not h.trick:
            if not o.reveal_on_lead:
                raise InvalidChoice("this table does not allow showing the trump on the lead")
            h.caller_revealed_on_lead = True
            self._reveal("the caller showed it on his lead", out)
            return
        h.must_trump = move.seat
        self._reveal("the caller showed it", out)

    def _reveal(self, reason: str, out: list[Event]) -> None:
        h = self.hand
        h.trump_public = True
        h.trump_known_trick = h.trick_no
        c = h.trump_card
        out.append(TrumpRevealed(Suit(h.trump), CARDS[c] if c is not None else None, h.trick_no, reason))  # type: ignore[arg-type]

    # ------------------------------------------------------------------ play
    def _on_play(self, move: I.Play, out: list[Event]) -> None:
        if self.phase is Phase.PLAY_ON:
            self._finish_play_on(True, out)
        h = self.hand
        if self.phase is not Phase.PLAY:
            if self.phase in (Phase.DEAL, Phase.CALL):
                if not h.deal_complete:
                    raise WrongPhase(f"the deal is not finished ({h.deal_index} of 52 cards seen)")
                raise WrongPhase("play waits for the trump call" if h.auction is None or h.auction.done
                                 else "play waits for the auction")
            raise WrongPhase("no card can be played now")
        seat, c = move.seat, int(move.card)
        if not 0 <= seat <= 3:
            raise OutOfTurn(f"there is no seat {seat}")
        if h.pending is None and h.correction_from is None:
            # The common case, kept short: no correction open, the turn is the next seat.
            n = len(h.trick)
            if n < 4 and seat == (h.leader + n) & 3 and h.played_count[seat] < 13 and (
                    c in h.holdings[seat] if self.dealt_mode else c not in h.played):
                if not self.dealt_mode:
                    self._check_card(seat, c)
                self._play(seat, c, out)
                return
            held = None
        else:
            held = self._held_trick(seat)
        if held == "close":
            self._close_trick(out)
            if self.phase is not Phase.PLAY or self.hand is not h:
                # The flagged trick ended the hand; this card belongs to no trick now. It is
                # on the table all the same, so it is recorded rather than refused.
                out.append(CardNotCounted(seat, CARDS[int(move.card)], "the hand ended with the revoke"))
                return
        elif held == "replace":
            self._take_back(seat, out)
        turn = h.turn()
        if turn != seat:
            if any(tc.seat == seat for tc in h.trick):
                raise OutOfTurn(f"{seat_name(seat)} has already played to this trick")
            raise OutOfTurn(f"it is seat {turn}'s turn, not {seat_name(seat)}'s")
        self._check_card(seat, c)
        self._play(seat, c, out)

    def _held_trick(self, seat: int) -> str | None:
        """While a trick is held open after a flag or a correction: replace or close?"""
        h = self.hand
        pos = next((i for i, tc in enumerate(h.trick) if tc.seat == seat), None)
        if pos is not None and self._may_replace(seat, pos):
            return "replace"
        return "close" if len(h.trick) == 4 else None

    def _may_replace(self, seat: int, pos: int) -> bool:
        h = self.hand
        if h.pending is not None:
            return h.pending.seat == seat
        return h.correction_from is not None and pos > h.correction_from

    def _check_card(self, seat: int, c: int) -> None:
        h = self.hand
        if h.played_count[seat] >= 13:
            raise NoCardsLeft(f"{seat_name(seat)} has no cards left")
        if c in h.played:
            raise CardSeenTwice(f"{CARDS[c]} has already been played this hand")
        if self.dealt_mode:
            if c not in h.holdings[seat]:
                owner = next(s for s in range(4) if c in h.holdings[s])
                raise NotInHand(f"{CARDS[c]} was dealt to {seat_name(owner)}, it cannot come from {seat_name(seat)}")
        else:
            for s in range(4):
                if s != seat and c in h.holdings[s]:
                    raise NotInHand(f"{CARDS[c]} is {seat_name(s)}'s card, it cannot come from {seat_name(seat)}")

    def _play(self, seat: int, c: int, out: list[Event]) -> None:
        h = self.hand
        o = self.options
        suit = c // 13
        trick = h.trick
        lead = not trick
        if lead:
            led = None
        elif trick[0].seat == h.leader:  # the usual order: the lead is the first card
            led = -1 if trick[0].face_down else trick[0].card // 13
        else:
            led = h.led_suit()
        hidden = h.trump is not None and not h.trump_public
        # The caller's off-suit card goes face down while trump is hidden -- except the
        # face-down trump card itself: taking it off the trump spot shows it to everyone.
        face_down = (hidden and seat == h.caller and o.caller_face_down and led is not None
                     and led >= 0 and suit != led and c != h.trump_card)
        violations: list[tuple[str, int | None, str]] = []
        holding = h.holdings[seat]
        # --- what the engine can prove right now
        if led is not None and led >= 0 and suit != led:
            if self.dealt_mode:
                proof = _lowest_of(holding, led, exclude=c)
                if proof is not None:
                    violations.append((FACE_DOWN_NOT_VOID if face_down else FOLLOW_SUIT, proof,
                                       f"did not follow {Suit(led).title} holding {CARDS[proof]}"))
            if hidden and not face_down and o.ask_rule is AskRule.OPPONENTS_MUST and h.caller is not None \
                    and team_of(seat) != team_of(h.caller) and h.asked != seat \
                    and not (violations and violations[0][0] == FOLLOW_SUIT):
                violations.append((MUST_ASK, None, "did not ask for the trump before playing off suit"))
        if h.must_trump == seat and h.trump_public and suit != h.trump and self.dealt_mode:
            proof = _lowest_of(holding, h.trump, exclude=c)  # type: ignore[arg-type]
            if proof is not None and not (led is not None and led >= 0 and suit == led):
                violations.append((TRUMP_AFTER_ASK, proof, f"did not trump after the reveal holding {CARDS[proof]}"))
        if lead and h.caller_revealed_on_lead and seat == h.caller and suit != h.trump and self.dealt_mode:
            proof = _lowest_of(holding, h.trump, exclude=c)  # type: ignore[arg-type]
            if proof is not None:
                violations.append((LEAD_TRUMP_AFTER_REVEAL, proof, f"showed the trump on the lead but led no trump, holding {CARDS[proof]}"))
        if lead and o.ace_rules and c % 13 == ACE and h.trick_winners and h.trick_winners[-1] == seat:
            prev_card, prev_cut = h.winning_cards[-1]
            if prev_card % 13 == ACE and not prev_cut and self._holds_non_ace(seat, c):
                violations.append((ACE_WITHDRAW, None, "led an ace straight after winning with an ace: take it back and lead another card"))
        # --- the card lands
        h.started = True
        holding.discard(c)
        h.played.add(c)
        h.played_count[seat] += 1
        counts_as_trump = h.trump_public and suit == h.trump
        if h.trump is None and o.caller is CallerRule.NONE and led is not None and led >= 0 and suit != led:
            h.trump = suit
            self._make_public_trump(suit, c, seat, "first card off suit", out)
            counts_as_trump = True
        if hidden and c == h.trump_card:
            self._reveal("the face-down trump card was played", out)
            counts_as_trump = True
        h.trick.append(TrickCard(seat, c, face_down, counts_as_trump))
        out.append(PlayAccepted(seat, None if face_down else CARDS[c], h.trick_no, face_down))
        if face_down:
            h.face_down.append((seat, c, h.trick_no))
            out.append((FaceDownShown if o.show_caller_discards else FaceDownPlayed)(seat, CARDS[c], h.trick_no))
        # --- played mode: what this card proves about earlier tricks, and what it claims
        if not self.dealt_mode:
            if self._prove_earlier(seat, c, out):
                return
            if led is not None and led >= 0 and suit != led and led not in h.voids[seat]:
                h.voids[seat][led] = (h.trick_no, c, FOLLOW_SUIT)
                out.append(VoidShown(seat, Suit(led), h.trick_no))
            if h.must_trump == seat and h.trump_public and suit != h.trump and h.trump not in h.voids[seat] \
                    and not (led is not None and suit == led):
                h.voids[seat][h.trump] = (h.trick_no, c, TRUMP_AFTER_ASK)  # type: ignore[index]
                out.append(VoidShown(seat, Suit(h.trump), h.trick_no))  # type: ignore[arg-type]
        if violations:
            rule, proof, detail = violations[0]
            out.append(RevokeFlagged(seat, None if face_down else CARDS[c], h.trick_no, rule,
                                     CARDS[proof] if proof is not None else None, detail))
            if o.revoke_penalty is RevokePenalty.COURT and rule != ACE_WITHDRAW:
                self._forfeit(seat, True, out)
                return
            h.pending = Pending(seat, c, rule, proof, detail)
        if len(h.trick) == 4 and h.pending is None and h.correction_from is None:
            self._resolve_trick(out)

    def _holds_non_ace(self, seat: int, c: int) -> bool:
        h = self.hand
        if self.dealt_mode:
            return any(x % 13 != ACE for x in h.holdings[seat] if x != c)
        unplayed_aces = sum(1 for s in range(4) if Card.of(s, ACE) not in h.played) - 1
        return 13 - h.played_count[seat] - 1 > unplayed_aces

    def _prove_earlier(self, seat: int, c: int, out: list[Event]) -> bool:
        """Played mode: a card of a suit this seat claimed to lack proves an earlier revoke."""
        h = self.hand
        claim = h.voids[seat].get(c // 13)
        if claim is None:
            return False
        trick, card_then, rule = claim
        del h.voids[seat][c // 13]
        face_down = any(fd[1] == card_then for fd in h.face_down)
        out.append(RevokeFlagged(seat, None if face_down else CARDS[card_then], trick, rule, CARDS[c],
                                 f"played {CARDS[c]}, so held {Suit(c // 13).title} when it did not play one in trick {trick}"))
        if self.options.revoke_penalty in (RevokePenalty.RANG, RevokePenalty.COURT):
            self._forfeit(seat, True, out)
            return True
        return False

    def _take_back(self, seat: int, out: list[Event]) -> None:
        h = self.hand
        pos = next(i for i, tc in enumerate(h.trick) if tc.seat == seat)
        tc = h.trick.pop(pos)
        h.played.discard(tc.card)
        h.played_count[seat] -= 1
        h.holdings[seat].add(tc.card)
        if tc.face_down:
            h.face_down = [fd for fd in h.face_down if fd[1] != tc.card]
        if h.pending is not None and h.pending.seat == seat:
            h.pending = None
            h.correction_from = pos
        out.append(CardTakenBack(seat, None if tc.face_down else CARDS[tc.card], h.trick_no))

    def _on_take_back(self, move: I.TakeBack, out: list[Event]) -> None:
        h = self.hand
        if self.phase is not Phase.PLAY:
            raise WrongPhase("there is no trick in play")
        pos = next((i for i, tc in enumerate(h.trick) if tc.seat == move.seat), None)
        if pos is None:
            raise InvalidChoice(f"{seat_name(move.seat)} has no card in this trick")
        if not self._may_replace(move.seat, pos):
            raise InvalidChoice(f"{seat_name(move.seat)} may not take back a card now (only a flagged play, "
                                "and after it the cards played later in the trick)")
        self._take_back(move.seat, out)

    def _on_close(self, move: I.CloseTrick, out: list[Event]) -> None:
        h = self.hand
        if self.phase is not Phase.PLAY or len(h.trick) < 4 or (h.pending is None and h.correction_from is None):
            raise WrongPhase("there is no finished trick waiting to be confirmed")
        self._close_trick(out)

    def _on_penalty(self, move: I.ApplyPenalty, out: list[Event]) -> None:
        h = self.hand
        if self.phase is not Phase.PLAY or h.pending is None:
            raise WrongPhase("there is no flagged play waiting for a ruling")
        self._forfeit(h.pending.seat, self.options.revoke_penalty is not RevokePenalty.FLAG, out)

    def _close_trick(self, out: list[Event]) -> None:
        """A held trick ends: an uncorrected flag now stands."""
        h = self.hand
        p = h.pending
        if p is not None and self.options.revoke_penalty is RevokePenalty.RANG and p.rule != ACE_WITHDRAW:
            self._forfeit(p.seat, True, out)
            return
        h.pending = None
        h.correction_from = None
        self._resolve_trick(out)

    def _resolve_trick(self, out: list[Event]) -> None:
        h = self.hand
        o = self.options
        order = h.trick
        leader = h.leader
        if order[0].seat != leader or order[1].seat != (leader + 1) & 3 or order[2].seat != (leader + 2) & 3:
            order = sorted(order, key=lambda tc: (tc.seat - leader) & 3)  # after a correction
        win = trick_winner(order, leader)
        cut = is_cut(win, order[0])
        winner = win.seat
        show = o.show_caller_discards
        out.append(TrickWon(h.trick_no, winner,
                            tuple([(tc.seat, None if tc.face_down and not show else CARDS[tc.card]) for tc in order]),
                            o.collection is Collection.DOUBLE_SIR and h.trick_no < 13))
        h.trick_winners.append(winner)
        out += collect(h, o, winner, win.card, cut)
        h.winning_cards.append((win.card, cut))
        if o.trick_streak:
            self._count_trick_streak(team_of(winner), out)
        h.trick = []
        h.pending = None
        h.correction_from = None
        h.asked = None
        h.must_trump = None
        h.caller_revealed_on_lead = False
        h.leader = winner
        finished = h.trick_no
        h.trick_no += 1
        self._check_hand_end(finished, out)

    def _count_trick_streak(self, team: int, out: list[Event]) -> None:
        t = self.tally
        if t.trick_streak_team == team:
            t.trick_streak += 1
        else:
            t.trick_streak_team, t.trick_streak = team, 1
        if t.trick_streak >= self.options.trick_streak:
            t.trick_streak = 0
            t.score[team] += 1
            self.hand.streak_courts[team] += 1
            out.append(CourtsScored(team, 1, f"{self.options.trick_streak} tricks in a row"))

    # ------------------------------------------------------------------ hand end
    def _check_hand_end(self, finished: int, out: list[Event]) -> None:
        h = self.hand
        o = self.options
        c0, c1 = h.captured
        if h.playing_on:
            w = h.play_on_team
            assert w is not None
            if h.captured[1 - w] > 0 or finished == 13:
                self._end_hand(Outcome(w, (c0, c1), "seven tricks", sweep=True,
                                       all_thirteen=h.captured[w] == 13), out)
            return
        if o.hand_end is HandEnd.BID:
            self._check_bid_end(finished, out)
            return
        if o.hand_end is HandEnd.SEVEN:
            for w in (0, 1):
                if h.captured[w] >= 7:
                    sweep = self._first_seven_by(w)
                    if h.captured[1 - w] == 0 and o.play_on and finished < 13:
                        self._offer_play_on(w, out)
                        return
                    self._end_hand(Outcome(w, (c0, c1), "seven tricks", sweep=sweep,
                                           all_thirteen=h.captured[w] == 13), out)
                    return
        elif o.sweep_stop and finished == 7:
            for w in (0, 1):
                if self._first_seven_by(w):
                    if o.play_on:
                        self._offer_play_on(w, out)
                    else:
                        self._end_hand(Outcome(w, (c0, c1), "first seven tricks", sweep=True), out)
                    return
        if finished == 13:
            w = 0 if c0 > c1 else 1
            self._end_hand(Outcome(w, (c0, c1), "more tricks", sweep=self._first_seven_by(w),
                                   all_thirteen=h.captured[w] == 13), out)

    def _first_seven_by(self, team: int) -> bool:
        h = self.hand
        if self.options.collection is not Collection.EACH_TRICK:
            return False
        return len(h.trick_winners) >= 7 and all(team_of(s) == team for s in h.trick_winners[:7])

    def _check_bid_end(self, finished: int, out: list[Event]) -> None:
        h = self.hand
        o = self.options
        assert h.caller is not None
        ct = team_of(h.caller)
        c0, c1 = h.captured
        mine, theirs = h.captured[ct], h.captured[1 - ct]
        need_them = 14 - h.bid
        broken_counts = h.trump_public or not o.unrevealed_trump_callers_win
        if mine >= h.bid:
            self._end_hand(Outcome(ct, (c0, c1), "bid made", bid_made=True), out)
        elif theirs >= need_them and broken_counts:
            self._end_hand(Outcome(1 - ct, (c0, c1), "bid broken", bid_made=False), out)
        elif finished == 13:
            if not h.trump_public and o.unrevealed_trump_callers_win:
                self._end_hand(Outcome(ct, (c0, c1), "trump never revealed", bid_made=True), out)
            else:
                self._end_hand(Outcome(1 - ct, (c0, c1), "bid broken", bid_made=False), out)

    def _offer_play_on(self, team: int, out: list[Event]) -> None:
        self.hand.play_on_team = team
        self.phase = Phase.PLAY_ON
        out.append(PlayOnOffered(team))

    def _on_play_on(self, move: I.PlayOn, out: list[Event]) -> None:
        if self.phase is not Phase.PLAY_ON:
            raise WrongPhase("nobody is choosing whether to play on now")
        self._finish_play_on(move.play_on, out)

    def _finish_play_on(self, play_on: bool, out: list[Event]) -> None:
        h = self.hand
        w = h.play_on_team
        assert w is not None
        out.append(PlayOnChosen(w, play_on))
        if play_on:
            h.playing_on = True
            self.phase = Phase.PLAY
            return
        c0, c1 = h.captured
        reason = "first seven tricks" if self._first_seven_by(w) else "seven tricks"
        self._end_hand(Outcome(w, (c0, c1), reason, sweep=self._first_seven_by(w)), out)

    def _forfeit(self, seat: int, court: bool, out: list[Event]) -> None:
        h = self.hand
        w = 1 - team_of(seat)
        o = self.options
        c0, c1 = h.captured
        bid_made = None
        if o.scoring is Scoring.BID and h.caller is not None:
            bid_made = w == team_of(h.caller)
        self._end_hand(Outcome(w, (c0, c1), f"revoke by seat {seat}", forfeit_by=seat,
                               revoke_court=court and o.scoring is Scoring.COURTS, bid_made=bid_made), out)

    def _end_hand(self, outcome: Outcome, out: list[Event]) -> None:
        h = self.hand
        o = self.options
        if o.reveal_at_hand_end:
            if h.trump is not None and not h.trump_public:
                self._reveal("the hand is over", out)
            for seat, c, trick in h.face_down:
                if not o.show_caller_discards:
                    out.append(FaceDownShown(seat, CARDS[c], trick))
        if not self.dealt_mode:
            for seat in range(4):
                for suit in sorted(h.voids[seat]):
                    out.append(SuspicionCleared(seat, Suit(suit)))
                h.voids[seat].clear()
        out.append(HandWon(h.number, outcome.winner, outcome.tricks, outcome.reason,
                           Suit(h.trump) if h.trump is not None else None))
        net_before = self.tally.net
        scored = score_hand(self.tally, h, outcome, o)
        out += scored
        self.tally.hands_played += 1
        self.history.append({
            "hand": h.number,
            "dealer": h.dealer,
            "caller": h.caller,
            "bid": h.bid or None,
            "trump": Suit(h.trump).name if h.trump is not None else None,
            "tricks": list(outcome.tricks),
            "winner": outcome.winner,
            "reason": outcome.reason,
            "scored": [e.to_dict() for e in scored if not isinstance(e, StreakUpdated)],
            "score": list(self.tally.shown_score(o)),
        })
        passes = next_dealer(self.tally, h, outcome, scored, o, net_before)
        if self._match_should_end():
            self._end_match(out)
            return
        out.append(passes)
        out += self._start_hand(self._new_hand(h.number + 1, passes.dealer, passes.caller))

    def _match_should_end(self) -> bool:
        o = self.options
        t = self.tally
        if self.time_up:
            return True
        if o.match_end is MatchEnd.HANDS and o.match_target and t.hands_played >= o.match_target:
            return True
        if o.match_end is MatchEnd.POINTS and o.match_target:
            if o.scoring is Scoring.BID:
                return abs(t.net) >= o.match_target
            return max(t.score) >= o.match_target
        return False

    def _end_match(self, out: list[Event], reason: str | None = None) -> None:
        shown = self.tally.shown_score(self.options)
        winner = None if shown[0] == shown[1] else (0 if shown[0] > shown[1] else 1)
        self.winner = winner
        self.phase = Phase.OVER
        self.over_reason = reason or self._end_reason()
        out.append(MatchOver(winner, shown, self.over_reason))

    def _end_reason(self) -> str:
        o = self.options
        if self.time_up:
            return "time is up"
        if o.match_end is MatchEnd.HANDS:
            return f"{o.match_target} hands played"
        return f"{o.match_target} reached"

    # ------------------------------------------------------------------ table commands
    def _on_timeout(self, move: I.MoveTimeout, out: list[Event]) -> None:
        out.append(MoveTimedOut(move.seat))

    def _on_time_up(self, move: I.TimeUp, out: list[Event]) -> None:
        if self.time_up:
            raise WrongPhase("time is already up")
        self.time_up = True
        out.append(TimeUpNoted())
        if not self.hand.started and self.phase is not Phase.PLAY_ON:
            self._end_match(out)

    def _on_end(self, move: I.EndMatch, out: list[Event]) -> None:
        self._end_match(out, "ended by the table")

    # ------------------------------------------------------------------ queries
    def legal_plays(self, seat: int) -> list[Card]:
        """Dealt mode: the cards this seat may play without a revoke (for bots and hints)."""
        h = self.hand
        cards_ = sorted(h.holdings[seat])
        if not h.trick:
            return [CARDS[c] for c in cards_]
        led = h.led_suit()
        if led is None or led < 0:
            return [CARDS[c] for c in cards_]
        follow = [c for c in cards_ if c // 13 == led]
        if follow:
            return [CARDS[c] for c in follow]
        if h.must_trump == seat and h.trump_public:
            trumps = [c for c in cards_ if c // 13 == h.trump]
            if trumps:
                return [CARDS[c] for c in trumps]
        return [CARDS[c] for c in cards_]

    def must_ask(self, seat: int) -> bool:
        """Whether this seat is void in the led suit and must ask for a hidden trump first."""
        h = self.hand
        if h.trump is None or h.trump_public or h.caller is None or not h.trick:
            return False
        if self.options.ask_rule is not AskRule.OPPONENTS_MUST or team_of(seat) == team_of(h.caller):
            return False
        led = h.led_suit()
        return led is not None and led >= 0 and h.asked != seat and \
            not any(c // 13 == led for c in h.holdings[seat])

    def turn(self) -> int | None:
        return self.hand.turn() if self.phase is Phase.PLAY else None

    def public_view(self) -> dict[str, Any]:
        from .views import public_view
        return public_view(self)

    def seat_view(self, seat: int) -> dict[str, Any]:
        from .views import seat_view
        return seat_view(self, seat)

    def public_events(self) -> list[Event]:
        return [e for e in self.events if e.private is None]


def _lowest_of(cards: set[int], suit: int, *, exclude: int) -> int | None:
    best = None
    for x in cards:
        if x != exclude and x // 13 == suit and (best is None or x < best):
            best = x
    return best


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
    I.MoveTimeout: Match._on_timeout,
    I.TimeUp: Match._on_time_up,
    I.EndMatch: Match._on_end,
}
