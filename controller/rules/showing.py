"""Played mode, at the hand's end: the suspected seats show what is left in their hands.

When only played cards are seen, a seat that plays off the led suit claims it holds none;
a later card of that suit proves the revoke. If the hand stops first (seven tricks, a
court, a forfeit), real tables settle it the way players always have: the suspected
player shows his remaining cards. The referee asks exactly the seats with an open claim,
reads the cards on their own spots, stops asking a seat at the first card of a claimed
suit (proof) or once every card it has left has been seen (cleared), and only then scores
the hand -- with the revoke's penalty when one was proven, since no correction is
possible any more.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from . import inputs as I
from .cards import CARDS, Suit
from .errors import THE_CARD, CardSeenTwice, InvalidChoice, NotInHand, WrongPhase
from .events import (
    CardShown,
    Event,
    HandResultChanged,
    ShowAsked,
    ShowingSkipped,
    SuspicionCleared,
)
from .hand import Hand, Phase, team_of
from .options import Options, RevokePenalty, Scoring
from .scoring import Outcome


class Showing:
    """Match methods for showing hands at the hand's end (mixed into ``Match``)."""

    # The match state these methods work on (set up by ``Match.__init__``).
    options: Options
    hand: Hand
    phase: Phase
    dealt_mode: bool
    _named: Callable[[int | None], str]  # from Calling
    _end_hand: Callable[[Outcome, list[Event]], None]  # from Ending
    _forfeit_outcome: Callable[..., Outcome]  # from Ending
    _flag_void_proof: Callable[[int, int, tuple[int, int, str], bool, list[Event]], None]  # from Playing

    def _ask_to_show(self, outcome: Outcome, out: list[Event]) -> bool:
        """At the hand's end: ask the suspected seats to show, and hold the result until
        they have. False when there is nobody to ask (the hand is scored at once)."""
        h = self.hand
        if h.show_done or h.dealt_mode or not self.options.show_at_hand_end:
            return False
        # A seat that has played all its cards has nothing left to hide: a card of the
        # claimed suit would have come out in a later trick and proven the revoke then.
        # (Its claim is not always spent: a revoke proven in the thirteenth trick ends
        # the hand before the last seats play, and their cards are still unseen.)
        # Every open claim is asked about, even on a side that already forfeits the hand:
        # the score may not change, but every revoke is proven and on the record. Not a
        # claim whose card was flagged when played (a card the referee knew proved it):
        # that revoke is on the record already, and was ruled on, or let go, then, as in
        # dealt mode.
        claims = {seat: {s: claim for s, claim in h.voids[seat].items() if claim[1] not in h.flagged_claims}
                  for seat in range(4)}
        self._clear_spent_claims(claims, out)
        asked = {seat: theirs for seat, theirs in claims.items() if theirs and h.played_count[seat] < 13}
        if not asked:
            return False
        h.show_done = True
        h.show_asked = asked
        h.show_outcome = outcome
        self.phase = Phase.SHOW
        for seat, theirs in sorted(asked.items()):
            suits = sorted(theirs, key=lambda s: theirs[s][0])
            out.append(ShowAsked(seat, tuple(Suit(s) for s in suits), tuple(theirs[s][0] for s in suits)))
        return True

    def _clear_spent_claims(self, claims: dict[int, dict[int, tuple[int, int, str]]], out: list[Event]) -> None:
        """Clear, without asking, a claim no card could prove: every card of its suit has
        been played, or is known to be in another seat's hand (shown at the hand's end
        too). Asking that seat would keep the table waiting for a card that cannot
        exist."""
        h = self.hand
        o = self.options
        # only what the whole table knows: a face-down trump or discard still hidden is
        # left out, or clearing a claim on its account would tell everyone its suit
        hidden = {c for _, c, _ in h.face_down} if not (o.reveal_at_hand_end or o.show_caller_discards) else set()
        if h.trump_card is not None and not h.trump_public:
            hidden.add(h.trump_card)
        for seat in sorted(claims):
            elsewhere = set(h.played).union(*(h.holdings[x] | h.shown[x] for x in range(4) if x != seat)) - hidden
            for suit in list(claims[seat]):  # in the order they were made
                if all(suit * 13 + r in elsewhere for r in range(13)):
                    out.append(SuspicionCleared(seat, Suit(suit)))
                    del h.voids[seat][suit]
                    del claims[seat][suit]

    def _on_show_card(self, move: I.ShowCard, out: list[Event]) -> None:
        h = self.hand
        if self.phase is not Phase.SHOW:
            raise WrongPhase("nobody is showing cards now")
        seat, c = move.seat, int(move.card)
        name = self._named(seat)
        if seat not in h.show_asked:
            raise InvalidChoice(f"{name} was not asked to show cards")
        if c in h.played:
            raise CardSeenTwice(f"{THE_CARD} was played earlier in this hand, so it cannot be in {name}'s hand", c)
        if c in h.shown[seat]:
            raise CardSeenTwice(f"{name} has already shown {THE_CARD}", c)
        for other in range(4):
            if other != seat and (c in h.shown[other] or c in h.holdings[other]):
                raise NotInHand(f"{THE_CARD} is {self._named(other)}'s card, so it cannot be in {name}'s hand", c)
        self._take_shown(seat, c, out)
        # the card may have been the last one another asked seat could prove its claim with
        self._clear_spent_claims(h.show_asked, out)
        for done in [s for s, claims in h.show_asked.items() if not claims]:
            del h.show_asked[done]
        if not h.show_asked:
            self._finish_showing(out)

    def _take_shown(self, seat: int, c: int, out: list[Event]) -> None:
        """A card shown: it proves a claim of its suit, or counts toward a clean hand."""
        h = self.hand
        h.shown[seat].add(c)
        out.append(CardShown(seat, CARDS[c]))
        claims = h.show_asked[seat]
        claim = claims.get(c // 13)
        if claim is not None:  # a card of a suit he said he had none of: the revoke is proven
            del h.voids[seat][c // 13]
            self._flag_void_proof(seat, c, claim, True, out)
            h.show_proven.append((seat, claim[0]))
            del h.show_asked[seat]
        elif len(h.shown[seat]) >= 13 - h.played_count[seat]:
            for suit in sorted(claims):
                out.append(SuspicionCleared(seat, Suit(suit)))
                del h.voids[seat][suit]
            del h.show_asked[seat]

    def _on_skip_showing(self, move: I.SkipShowing, out: list[Event]) -> None:
        h = self.hand
        if self.phase is not Phase.SHOW:
            raise WrongPhase("nobody is showing cards now")
        out.append(ShowingSkipped(tuple(sorted(h.show_asked))))
        h.show_asked = {}
        self._finish_showing(out)

    def _finish_showing(self, out: list[Event]) -> None:
        """Score the held hand. A revoke proven now is penalised as in play, except that
        it can no longer be corrected; if the hand was already forfeit for another revoke,
        the earlier of the two decides."""
        h = self.hand
        outcome = h.show_outcome
        assert isinstance(outcome, Outcome)
        h.show_outcome = None
        if h.show_proven:
            changed = self._penalise_shown_revoke(outcome)
            if changed.winner != outcome.winner:
                out.append(HandResultChanged(outcome.winner, changed.winner, changed.revoke_reason or changed.reason))
            outcome = changed  # (a court added to the winners' is no change of result)
        self._end_hand(outcome, out)

    def _penalise_shown_revoke(self, outcome: Outcome) -> Outcome:
        """The result once the earliest revoke proven by showing is penalised.

        If the revoker's side had won, it forfeits the hand, as when a revoke is found in
        play (unless the hand was already forfeit for an earlier revoke). If his side had
        lost anyway, the result stands and, where the penalty is a court (000, 003), the
        other side scores it on top of what the hand gave them; if his side had forfeit
        it for a later revoke, the result is named for his, the earlier."""
        h = self.hand
        o = self.options
        seat, trick = min(h.show_proven, key=lambda p: (p[1], p[0]))
        court = o.revoke_penalty is not RevokePenalty.FLAG
        how = f" in trick {trick}, proven when the hand ended"
        if outcome.winner != team_of(seat):
            if outcome.forfeit_by is not None and outcome.revoke_trick is not None and trick < outcome.revoke_trick:
                # his side had forfeit the hand for a later revoke found in play: the
                # earlier decides, the same result, named for his
                return self._forfeit_outcome(seat, court, trick, how)
            if not court or o.scoring is not Scoring.COURTS or outcome.revoke_court:
                return outcome
            why = f"revoke by {self._named(seat)}{how}"
            return replace(outcome, revoke_court=True, forfeit_by=seat, revoke_trick=trick, revoke_reason=why)
        if outcome.forfeit_by is not None and outcome.revoke_trick is not None and outcome.revoke_trick <= trick:
            return outcome
        return self._forfeit_outcome(seat, court, trick, how)
