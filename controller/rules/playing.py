"""Cards on the table: whose turn, what is impossible, what is illegal (flagged, never
refused), corrections, and who takes each trick."""

from __future__ import annotations

from collections.abc import Callable

from . import inputs as I
from .cards import ACE, CARDS, Card, Suit
from .errors import (
    THE_CARD,
    CardSeenTwice,
    InvalidChoice,
    NoCardsLeft,
    NotInHand,
    OutOfTurn,
    WrongPhase,
)
from .events import (
    CardNotCounted,
    CardTakenBack,
    DealFellShort,
    Event,
    FaceDownPlayed,
    FaceDownShown,
    HandWon,
    PlayAccepted,
    TrickWon,
    VoidShown,
)
from .hand import Hand, Pending, Phase, TrickCard, team_of
from .names import (
    ACE_WITHDRAW,
    FACE_DOWN_NOT_VOID,
    FACE_DOWN_TRUMP,
    FOLLOW_SUIT,
    LEAD_TRUMP_AFTER_REVEAL,
    MUST_ASK,
    TRUMP_AFTER_ASK,
)
from .options import (
    AskRule,
    CallerRule,
    Collection,
    Options,
    RevokePenalty,
)
from .piles import collect
from .proofs import flag_revoke, show_played_proof
from .refusals import after_hand_end, seen_again
from .scoring import Tally, award_courts
from .trick import is_cut, trick_winner

#: Missed reads over the deal spot the referee recovers from (see ``_close_short_deal``).
SHORT_DEAL_LIMIT = 12


class Playing:
    """Match methods for play and tricks (mixed into ``Match``)."""

    # The match state these methods work on (set up by ``Match.__init__``).
    options: Options
    hand: Hand
    phase: Phase
    dealt_mode: bool
    tally: Tally
    seat_names: tuple[str, ...]
    _named: Callable[[int | None], str]  # from Calling: a seat as the table calls it
    _trump_needed: Callable[[], bool]  # from Match
    _maybe_start_play: Callable[[list[Event]], None]  # from Match

    # ------------------------------------------------------------------ play
    def _on_play(self, move: I.Play, out: list[Event]) -> None:
        if self.phase is Phase.PLAY_ON:
            self._finish_play_on(True, out)
        h = self.hand
        if self.phase is not Phase.PLAY:
            if self.phase in (Phase.DEAL, Phase.CALL):
                late = after_hand_end(self, move.seat, int(move.card))  # type: ignore[arg-type]
                if late is not None:
                    raise WrongPhase(late, int(move.card))
                if not h.deal_complete and not self._close_short_deal(out):
                    raise WrongPhase(f"the deal is not finished ({h.deal_index} of 52 cards seen)")
                if self.phase is not Phase.PLAY:
                    raise WrongPhase("play waits for the trump call" if h.auction is None or h.auction.done
                                     else "play waits for the auction")
            else:
                raise WrongPhase("no card can be played now")
        seat, c = move.seat, int(move.card)
        if not 0 <= seat <= 3:
            raise OutOfTurn(f"there is no seat {seat}")
        if c in h.played:  # already on the table: read again, or from the wrong seat
            raise CardSeenTwice(seen_again(self, seat, c), c)  # type: ignore[arg-type]
        if h.pending is None and h.correction_from is None:
            # The common case, kept short: no correction open, the turn is the next seat.
            n = len(h.trick)
            if n < 4 and seat == (h.leader + n) & 3 and h.played_count[seat] < 13 and (
                    c in h.holdings[seat] if h.dealt_mode else c not in h.played):
                if not h.dealt_mode:
                    self._check_card(seat, c)
                self._play(seat, c, out)
                return
            held = None
        else:
            held = self._held_trick(seat)
        if held == "close":
            self._close_trick(out)
            if self.phase is Phase.PLAY_ON and self.hand is h:
                # The held trick made a 7-0 start: this card is the winner's lead, and a card
                # played over the offer is the choice to play on, as at any other trick.
                self._finish_play_on(True, out)
            if self.phase is not Phase.PLAY or self.hand is not h:
                # The flagged trick ended the hand; this card belongs to no trick now. It is
                # on the table all the same, so it is recorded rather than refused.
                forfeit = any(isinstance(e, HandWon) and e.reason.startswith("revoke") for e in out)
                why = "the hand ended with the revoke" if forfeit else "the hand is over"
                out.append(CardNotCounted(seat, CARDS[int(move.card)], why))
                return
        elif held == "replace":
            self._flag_corrected(seat, c, out)
            self._take_back(seat, out)
        turn = h.turn()
        if turn != seat and not h.may_fill_gap(seat):
            if any(tc.seat == seat for tc in h.trick):
                if self._own_correction(seat, c, out):
                    return
                raise OutOfTurn(f"{self._named(seat)} has already played to this trick")
            raise OutOfTurn(f"it is {self._named(turn)}'s turn, not {self._named(seat)}'s")
        self._check_card(seat, c)
        self._play(seat, c, out)

    def _own_correction(self, seat: int, c: int, out: list[Event]) -> bool:
        """Played mode: a seat that played off the led suit in this trick puts a card of
        that suit on its spot while the trick is open. It held the suit (a revoke) and
        corrects it itself, as 000 allows before the trick is over: flagged as dealt mode
        flags it at once, then replaced, and those who played after it may change. Under
        a penalty that ends the hand at the flag (003) the hand ends. True if it was that."""
        h = self.hand
        if h.pending is not None or not self._flag_corrected(seat, c, out):
            return False
        del h.voids[seat][c // 13]  # (before the hand may end: no showing asked for it)
        if self.options.revoke_penalty is RevokePenalty.COURT:
            self._forfeit(seat, True, out)
            out.append(CardNotCounted(seat, CARDS[c], "the hand ended with the revoke"))
            return True
        self._take_back(seat, out)
        self._open_correction(seat)
        self._check_card(seat, c)
        self._play(seat, c, out)
        return True

    def _flag_corrected(self, seat: int, c: int, out: list[Event]) -> bool:
        """Played mode: whether ``c``, a card of the led suit from a seat that played off
        it in this trick, shows that card a revoke (its void claim false); if so it is
        flagged, its proof ``c`` in view. Used for a revoker's own correction and for a
        change in a correction window, which dealt mode would have flagged when played;
        corrected in time, a change costs nothing."""
        h = self.hand
        led = h.led_suit()
        if h.dealt_mode or c // 13 != led:  # (no led suit, or none yet: no card is of it)
            return False
        mine = next(tc for tc in h.trick if tc.seat == seat)
        claim = h.voids[seat].get(led)
        if claim is None or claim[1] != mine.card:  # (his card in this trick made the claim)
            return False
        rule = FACE_DOWN_NOT_VOID if mine.face_down else claim[2]
        flag_revoke(h, out, seat, None if mine.face_down else mine.card, h.trick_no, rule, led, c,
                    f"did not follow {Suit(led).title}", proof_seen=True)
        return True

    def _close_short_deal(self, out: list[Event]) -> bool:
        """A card lands on a seat's spot once the call is made but before the deal reader
        has seen all 52: the reader missed some. Cards are told apart only by their order
        over the deal spot, so one missed read shifts every later card to the wrong seat;
        no hand is known for sure any more. The hand goes on refereed from the played
        cards, as in 'played' mode (a revoke is proven by a later card, or by showing when
        the hand ends). With more than ``SHORT_DEAL_LIMIT`` cards missing it is more likely
        a card put on a spot by mistake mid-deal, and the play is refused as before."""
        h = self.hand
        ready = (h.deal_index >= 4 * h.first_batch and 52 - h.deal_index <= SHORT_DEAL_LIMIT
                 and (h.auction is None or h.auction.done) and not self._trump_needed())
        if not ready:
            return False
        h.dealt_mode = False
        h.holdings = [set(), set(), set(), set()]
        if h.trump_card is not None and h.caller is not None and h.trump_how in ("hidden", "shown"):
            h.holdings[h.caller].add(h.trump_card)  # he laid it on the trump spot himself
        out.append(DealFellShort(h.number, h.deal_index))
        self.phase = Phase.CALL
        self._maybe_start_play(out)
        return self.phase is Phase.PLAY

    def _held_trick(self, seat: int) -> str | None:
        """While a trick is held open after a flag or a correction: is a card from this
        seat a replacement, or does it close the trick (and start the next)?

        A card on the spot of the seat that wins the finished trick is its lead to the next
        trick -- play goes on as usual, as 000 says -- unless it is the flagged revoker's
        own correction. To change a winning card, the table says so first
        (``correction-made``)."""
        h = self.hand
        if any(tc.seat == seat for tc in h.trick) and self._may_replace(seat):
            if h.pending is not None or len(h.trick) < 4 or seat != self._winning_now():
                return "replace"
        return "close" if len(h.trick) == 4 else None

    def _winning_now(self) -> int:
        h = self.hand
        return trick_winner(sorted(h.trick, key=lambda tc: h.place(tc.seat))).seat

    def _may_replace(self, seat: int) -> bool:
        """000: the revoker replaces his card first; then those who played after him."""
        h = self.hand
        if h.pending is not None:
            return h.pending.seat == seat
        return seat in h.may_change

    def _check_card(self, seat: int, c: int) -> None:
        h = self.hand
        if h.played_count[seat] >= 13:
            raise NoCardsLeft(f"{self._named(seat)} has no cards left")
        if h.dealt_mode:  # (a card already played was refused before this is called)
            if c not in h.holdings[seat]:
                owner = next(s for s in range(4) if c in h.holdings[s])
                raise NotInHand(f"{THE_CARD} was dealt to {self._named(owner)}, it cannot come from {self._named(seat)}", c)
        else:
            for s in range(4):
                if s != seat and c in h.holdings[s]:
                    raise NotInHand(f"{THE_CARD} is {self._named(s)}'s card, it cannot come from {self._named(seat)}", c)

    def _play(self, seat: int, c: int, out: list[Event]) -> None:
        h = self.hand
        o = self.options
        suit = c // 13
        lead = not h.trick
        led = None if lead else h.led_suit()  # None also while the leader's card is taken back
        hidden = h.trump is not None and not h.trump_public
        # The caller's off-suit card goes face down while trump is hidden. The face-down
        # trump card itself goes so only where a trump may be laid face down (004 7.1:
        # any card, so the trump stays unguessed, and 8.5's never-revealed trump can
        # happen at all); elsewhere (002) he must reveal to play a trump, and taking it
        # off the trump spot shows it to everyone.
        face_down = (hidden and seat == h.caller and o.caller_face_down and led is not None
                     and led >= 0 and suit != led and (c != h.trump_card or o.face_down_trump))
        violations: list[tuple[str, int | None, str]] = []
        holding = h.holdings[seat]
        # --- what the engine can prove right now, from the cards it knows are his: his
        # whole hand in 'dealt' mode; in 'played' mode a trump card laid or shown, or a
        # card taken back
        if led is not None and led >= 0 and suit != led:
            proof = _lowest_of(holding, led)  # c is of another suit
            if proof is not None:
                violations.append((FACE_DOWN_NOT_VOID if face_down else FOLLOW_SUIT, proof,
                                   f"did not follow {Suit(led).title}"))
            if face_down and suit == h.trump and not o.face_down_trump and not violations:
                # 002: unable to follow, the caller may discard another suit face down; to
                # play a trump he must first reveal it.
                violations.append((FACE_DOWN_TRUMP, None, "played a trump face down without revealing the trump"))
            if hidden and not face_down and o.ask_rule is AskRule.OPPONENTS_MUST and h.caller is not None \
                    and team_of(seat) != team_of(h.caller) and h.asked != seat \
                    and not violations:  # (a follow-suit flag: the only one possible here)
                violations.append((MUST_ASK, None, "did not ask for the trump before playing off suit"))
        if h.must_trump == seat and h.trump_public and suit != h.trump:
            proof = _lowest_of(holding, h.trump)  # type: ignore[arg-type]
            if proof is not None and not (led is not None and led >= 0 and suit == led):
                violations.append((TRUMP_AFTER_ASK, proof, "did not trump after the reveal"))
        if lead and h.caller_revealed_on_lead and seat == h.caller and suit != h.trump:
            proof = _lowest_of(holding, h.trump)  # type: ignore[arg-type]
            if proof is not None:
                violations.append((LEAD_TRUMP_AFTER_REVEAL, proof, "showed the trump on the lead but led no trump"))
        # (the leader's card taken back and led again after the others played is no first
        # card of the trick, and is his lead all the same)
        leads = lead or seat == h.leader
        if leads and o.ace_rules and c % 13 == ACE and h.trick_winners and h.trick_winners[-1] == seat:
            prev_card, prev_cut = h.winning_cards[-1]
            if prev_card % 13 == ACE and not prev_cut and self._holds_non_ace(seat):
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
        if hidden and c == h.trump_card and not face_down:
            self._reveal("the face-down trump card was played", out)
            counts_as_trump = True
        h.trick.append(TrickCard(seat, c, face_down, counts_as_trump))
        out.append(PlayAccepted(seat, None if face_down else CARDS[c], h.trick_no, face_down))
        if face_down:
            h.face_down.append((seat, c, h.trick_no))
            out.append((FaceDownShown if o.show_caller_discards else FaceDownPlayed)(seat, CARDS[c], h.trick_no))
        show_played_proof(h, seat, c, face_down, out)
        # --- played mode: what this card proves about earlier tricks, and what it claims
        if not h.dealt_mode:
            # The claim first: if this card also proves an earlier revoke and so ends the
            # hand, the claim it makes now is still asked about at the hand's end.
            if led is not None and led >= 0 and suit != led and led not in h.voids[seat]:
                h.voids[seat][led] = (h.trick_no, c, FOLLOW_SUIT)
                if any(v[0] in (FOLLOW_SUIT, FACE_DOWN_NOT_VOID) for v in violations):  # (proven: a card known his)
                    h.flagged_claims.add(c)  # flagged below: proven again later, not twice
                out.append(VoidShown(seat, Suit(led), h.trick_no))
            if h.must_trump == seat and h.trump_public and suit != h.trump and h.trump not in h.voids[seat] \
                    and not (led is not None and suit == led):
                h.voids[seat][h.trump] = (h.trick_no, c, TRUMP_AFTER_ASK)  # type: ignore[index]
                out.append(VoidShown(seat, Suit(h.trump), h.trick_no))  # type: ignore[arg-type]
            if lead and h.caller_revealed_on_lead and seat == h.caller and suit != h.trump \
                    and h.trump not in h.voids[seat] and not violations:
                # He showed the trump to lead it, then led another suit: he claims he has
                # no trump left; a trump later proves otherwise.
                h.voids[seat][h.trump] = (h.trick_no, c, LEAD_TRUMP_AFTER_REVEAL)  # type: ignore[index]
                out.append(VoidShown(seat, Suit(h.trump), h.trick_no))  # type: ignore[arg-type]
            if self._prove_earlier(seat, c, out):
                return
        if violations:
            rule, proof, detail = violations[0]
            # Without a proving card the flag is about the led suit (must-ask, a trump laid
            # face down) or, for the ace rule, about no suit: that card is a lead (led None).
            not_followed = proof // 13 if proof is not None else led
            flag_revoke(h, out, seat, None if face_down else c, h.trick_no, rule, not_followed, proof, detail)
            if o.revoke_penalty is RevokePenalty.COURT and rule != ACE_WITHDRAW:
                self._forfeit(seat, True, out)
                return
            h.pending = Pending(seat, c, rule, proof, detail)
        if len(h.trick) == 4 and h.pending is None and (h.correction_from is None or not h.may_change):
            self._close_trick(out)  # nobody may still change a card: the trick is done

    def _holds_non_ace(self, seat: int) -> bool:
        """Whether the seat leading an ace could have led something else: in 'played' mode,
        whether more cards are left in its hand than aces unseen besides the one led."""
        h = self.hand
        if h.dealt_mode:
            return any(x % 13 != ACE for x in h.holdings[seat])
        unplayed_aces = sum(1 for s in range(4) if Card.of(s, ACE) not in h.played) - 1
        return 13 - h.played_count[seat] - 1 > unplayed_aces

    def _prove_earlier(self, seat: int, c: int, out: list[Event]) -> bool:
        """Played mode: a card of a suit this seat claimed to lack proves an earlier revoke."""
        h = self.hand
        claim = h.voids[seat].get(c // 13)
        if claim is None:
            return False
        del h.voids[seat][c // 13]
        if claim[1] in h.flagged_claims:
            return False  # flagged (and ruled on) when that card was played
        shown = not any(fd[1] == c for fd in h.face_down) or self.options.show_caller_discards
        self._flag_void_proof(seat, c, claim, shown, out)
        if self.options.revoke_penalty in (RevokePenalty.RANG, RevokePenalty.COURT):
            self._forfeit(seat, True, out, trick=claim[0])
            return True
        h.ruling_open = (seat, claim[0], h.trick_no)
        return False

    def _flag_void_proof(self, seat: int, c: int, claim: tuple[int, int | None, str], shown: bool,
                         out: list[Event]) -> None:
        """Flag the revoke a void claim hid, now that card ``c`` of that suit has appeared
        (played later, or shown at the hand's end)."""
        h = self.hand
        trick, card_then, rule = claim
        face_down = any(fd[1] == card_then for fd in h.face_down)
        held = Suit(c // 13).title
        detail = (f"asked for the trump in trick {trick} while holding {held}" if card_then is None
                  else f"held {held} when it did not play one in trick {trick}")
        flag_revoke(h, out, seat, None if face_down else card_then, trick, rule, c // 13, c, detail, proof_seen=shown)

    def _take_back(self, seat: int, out: list[Event]) -> None:
        h = self.hand
        pos = next(i for i, tc in enumerate(h.trick) if tc.seat == seat)
        tc = h.trick.pop(pos)
        h.played.discard(tc.card)
        h.played_count[seat] -= 1
        h.holdings[seat].add(tc.card)
        if tc.face_down:
            h.face_down = [fd for fd in h.face_down if fd[1] != tc.card]
        # Played mode: a card taken back claims nothing any more (no void from it).
        voids = h.voids[seat]
        for suit in [s for s, claim in voids.items() if claim[1] == tc.card]:
            del voids[suit]
        if h.pending is not None and h.pending.seat == seat:
            self._open_correction(seat)
        else:
            h.may_change.discard(seat)  # one change each
        out.append(CardTakenBack(seat, None if tc.face_down else CARDS[tc.card], h.trick_no))

    def _open_correction(self, seat: int) -> None:
        """The flagged seat has taken its card back: the flag is answered, and those who
        played after it may change their cards too (000)."""
        h = self.hand
        h.pending = None
        h.correction_from = h.place(seat)
        h.may_change = {t.seat for t in h.trick if h.place(t.seat) > h.correction_from}

    def _on_take_back(self, move: I.TakeBack, out: list[Event]) -> None:
        h = self.hand
        if self.phase is not Phase.PLAY:
            raise WrongPhase("there is no trick in play")
        if all(tc.seat != move.seat for tc in h.trick):
            raise InvalidChoice(f"{self._named(move.seat)} has no card in this trick")
        if not self._may_replace(move.seat):
            raise InvalidChoice(f"{self._named(move.seat)} may not take back a card now (only a flagged play, "
                                "and after it the cards played later in the trick)")
        self._take_back(move.seat, out)

    def _on_close(self, move: I.CloseTrick, out: list[Event]) -> None:
        h = self.hand
        if self.phase is not Phase.PLAY or len(h.trick) < 4 or (h.pending is None and h.correction_from is None):
            raise WrongPhase("there is no finished trick waiting to be confirmed")
        self._close_trick(out)

    def _on_penalty(self, move: I.ApplyPenalty, out: list[Event]) -> None:
        h = self.hand
        if self.phase is Phase.PLAY and h.pending is None and h.ruling_open is not None \
                and h.ruling_open[2] == h.trick_no:
            seat, trick, _ = h.ruling_open
            self._forfeit(seat, False, out, trick=trick)  # (only a flag-only penalty leaves one open)
            return
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
        self._resolve_trick(out)  # which also clears the flag and the correction

    def _resolve_trick(self, out: list[Event]) -> None:
        h = self.hand
        o = self.options
        order = sorted(h.trick, key=lambda tc: h.place(tc.seat))  # play order, also after a correction
        win = trick_winner(order)
        cut = is_cut(win, order[0])
        winner = win.seat
        show = o.show_caller_discards
        out.append(TrickWon(h.trick_no, winner,
                            tuple([(tc.seat, None if tc.face_down and not show else CARDS[tc.card]) for tc in order]),
                            o.collection is Collection.DOUBLE_SIR and h.trick_no < 13))
        h.trick_winners.append(winner)
        out += collect(h, o, winner, win.card)
        h.winning_cards.append((win.card, cut))
        if o.trick_streak:
            self._count_trick_streak(team_of(winner), out)
        h.trick = []
        h.pending = None
        h.correction_from = None
        h.may_change = set()
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
            self.hand.streak_courts[team] += 1
            out.append(award_courts(t, self.hand, team, 1, f"{self.options.trick_streak} tricks in a row"))


def _lowest_of(cards: set[int], suit: int) -> int | None:
    """The lowest card of ``suit`` among ``cards`` (the proof a revoke flag names)."""
    return min((x for x in cards if x // 13 == suit), default=None)
