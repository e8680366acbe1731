"""Everything before the first card: the draw, the deal, the auction, the trump call in
all its forms, redeals, and the hidden trump's ask and reveal."""

from __future__ import annotations

from . import inputs as I
from .cards import CARDS, JACK, Suit
from .errors import (
    THE_CARD,
    CardSeenTwice,
    InvalidChoice,
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
    DealComplete,
    Event,
    PartnershipsDrawn,
    Redeal,
    TrumpAsked,
    TrumpCalled,
    TrumpHidden,
    TrumpRevealed,
    TrumpSetSecretly,
    VoidShown,
)
from .hand import Auction, Hand, Phase, team_of
from .names import (
    FOLLOW_SUIT,
)
from .options import (
    AskRule,
    CallerRotation,
    CallerRule,
    Draw,
    FirstLead,
    Options,
    TrumpCall,
)
from .proofs import flag_revoke
from .scoring import Tally


class Calling:
    """Match methods for the deal and the call (mixed into ``Match``)."""

    # The match state these methods work on (set up by ``Match.__init__``).
    options: Options
    hand: Hand
    phase: Phase
    dealt_mode: bool
    tally: Tally
    seat_names: tuple[str, ...]

    def _named(self, seat: int | None) -> str:
        """A seat as the table calls it (its name from ``new-match``)."""
        if seat is None:
            return "nobody"
        return self.seat_names[seat] if 0 <= seat < 4 else f"seat {seat}"

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
            raise OutOfTurn(f"{self._named(seat)} is not the trump caller ({self._named(h.caller)} is)")

    # ------------------------------------------------------------------ draw, deal
    def _on_draw(self, move: I.DrawCard, out: list[Event]) -> None:
        if self.phase is not Phase.DRAW:
            raise WrongPhase("the draw for the deal is over")
        if move.seat in self.draws:
            raise OutOfTurn(f"{self._named(move.seat)} has already drawn")
        if move.card in self.draws.values():
            raise CardSeenTwice(f"{THE_CARD} was already drawn", move.card)
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
            raise TooManyCards(f"all 52 cards are already dealt, so {THE_CARD} is not counted: "
                               "no hand gets a 53rd card", move.card)
        c = int(move.card)
        seat = h.deal_order[h.deal_index]
        if c in h.dealt_set:
            owner = next(s for s in range(4) if c in h.dealt[s])
            raise CardSeenTwice(f"{THE_CARD} was already dealt to {self._named(owner)} this hand", c)
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
    def _auction_turn(self, seat: int) -> Auction:
        """The auction, if this seat may bid or pass now."""
        h = self.hand
        a = h.auction
        if a is None or a.done:
            raise WrongPhase("there is no auction now")
        if self.phase not in (Phase.DEAL, Phase.CALL) or (self.dealt_mode and h.deal_index < 4 * h.first_batch):
            raise WrongPhase(f"bidding starts after the first {h.first_batch} cards each")
        if seat != a.turn:
            raise OutOfTurn(f"it is {self._named(a.turn)}'s turn to bid, not {self._named(seat)}'s")
        return a

    def _on_bid(self, move: I.Bid | I.OpenChallenge, out: list[Event]) -> None:
        h = self.hand
        a = self._auction_turn(move.seat)
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
        a = self._auction_turn(move.seat)
        h.started = True
        a.passed.add(move.seat)
        out.append(BidPassed(move.seat))
        if a.high_seat is None and self.options.dealer_forced_bid and len(a.passed) == 3 \
                and h.dealer not in a.passed:
            # 004 5.5: nobody else wants the call, so the dealer has it at the lowest bid;
            # there is nothing left for him to say.
            a.high, a.high_seat = self.options.bid_min, h.dealer
            self._auction_won(out, forced=True)
            return
        if len(a.passed) == 4:  # only when the dealer is not forced: redeal
            out.append(Redeal(h.number, "everyone passed"))
            out += self._start_hand(self._new_hand(h.number, h.dealer, None))
            return
        self._auction_next(out)

    def _auction_next(self, out: list[Event]) -> None:
        """The turn passes to the next seat that has neither passed nor holds the high
        bid; when there is none, the high bidder has won the auction."""
        a = self.hand.auction
        assert a is not None
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
        # The trick in which the table learnt the trump (1 when called before play: no
        # pile can be taken in the first trick, so that is as good as before it).
        h.trump_known_trick = h.trick_no
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
            raise NotInHand(f"{THE_CARD} is not among {self._named(move.seat)}'s first {h.first_batch} cards", c)
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
                raise NotInHand(f"the face-down trump must be one of {self._named(move.seat)}'s first {h.first_batch} cards")
            h.holdings[move.seat].add(c)
        h.started = True
        h.trump = c // 13 if c is not None else int(move.suit)  # type: ignore[arg-type]
        h.trump_card = c  # trump_public stays False: no trump was set before this call
        h.trump_how = "hidden"
        out.append(TrumpHidden(move.seat))
        out.append(TrumpSetSecretly(move.seat, Suit(h.trump), CARDS[c] if c is not None else None))
        if self.dealt_mode and h.deal_complete and self._check_seven_trumps(out):
            return
        self._maybe_start_play(out)

    def _check_seven_trumps(self, out: list[Event]) -> bool:
        """Called once the whole deal is in (the 52nd card, or a trump hidden after it)."""
        h = self.hand
        if not (self.options.redeal_seven_trumps and self.dealt_mode and h.trump is not None and h.caller is not None):
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
            raise OutOfTurn(f"{self._named(move.seat)} may only ask for the trump on his turn")
        led = h.led_suit()
        if led is None:
            raise InvalidChoice("only a player who cannot follow the led suit may ask for the trump")
        h.asked = move.seat
        h.must_trump = move.seat if self.options.must_trump_after_ask else None
        out.append(TrumpAsked(move.seat))
        self._reveal(f"asked by {self._named(move.seat)}", out)
        if led >= 0 and any(c // 13 == led for c in h.holdings[move.seat]):
            proof = min(c for c in h.holdings[move.seat] if c // 13 == led)
            flag_revoke(h, out, move.seat, None, h.trick_no, FOLLOW_SUIT, led, proof,
                        f"asked for the trump while able to follow {Suit(led).title}")
        elif not h.dealt_mode and led >= 0 and led not in h.voids[move.seat]:
            # 002: only a player who cannot follow may ask. Asking claims it; a card of the
            # led suit from him later (even in this trick) proves otherwise.
            h.voids[move.seat][led] = (h.trick_no, None, FOLLOW_SUIT)
            out.append(VoidShown(move.seat, Suit(led), h.trick_no))

    def _on_reveal(self, move: I.RevealTrump, out: list[Event]) -> None:
        h = self.hand
        o = self.options
        if h.trump is None or h.trump_public:
            raise WrongPhase("there is no hidden trump to reveal")
        if move.seat != h.caller:
            raise OutOfTurn("only the caller turns the trump up himself")
        if self.phase in (Phase.DEAL, Phase.CALL):
            # With the trump hidden, play starts the moment the deal is complete, so
            # before play nobody holds all his cards: a 13 bidder shows it on his lead.
            raise WrongPhase("the trump can be shown before play only by a 13 bidder holding all his cards")
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

    def _reveal(self, reason: str, out: list[Event], trick: int | None = None) -> None:
        h = self.hand
        h.trump_public = True
        h.trump_known_trick = h.trick_no
        c = h.trump_card
        if c is not None and not self.options.show_caller_discards and any(fd[1] == c for fd in h.face_down):
            c = None  # laid face down in a trick (004 7.1): the suit is told, that card stays down
        out.append(TrumpRevealed(Suit(h.trump), CARDS[c] if c is not None else None,  # type: ignore[arg-type]
                                 h.trick_no if trick is None else trick, reason))
