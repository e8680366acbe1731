"""How a hand ends (seven tricks, all thirteen, the bid, a forfeit, the play-on choice),
what it scores, who deals next, and how the match ends."""

from __future__ import annotations

from collections.abc import Callable

from . import inputs as I
from .cards import CARDS, Suit
from .errors import (
    WrongPhase,
)
from .events import (
    Event,
    FaceDownShown,
    HandWon,
    MatchOver,
    MoveTimedOut,
    PlayOnChosen,
    PlayOnOffered,
    StreakUpdated,
    SuspicionCleared,
    TimeUpNoted,
)
from .hand import Hand, Phase, team_of
from .options import (
    Collection,
    HandEnd,
    MatchEnd,
    Options,
    Scoring,
)
from .proofs import show_proofs_at_hand_end
from .scoring import Outcome, Tally, next_dealer, score_hand


class Ending:
    """Match methods for the end of hands and of the match (mixed into ``Match``)."""

    # The match state these methods work on (set up by ``Match.__init__``).
    options: Options
    hand: Hand
    phase: Phase
    dealt_mode: bool
    tally: Tally
    seat_names: tuple[str, ...]
    _named: Callable[[int | None], str]  # from Calling: a seat as the table calls it
    _ask_to_show: Callable[[Outcome, list[Event]], bool]  # from Showing

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
            self._end_hand(Outcome(ct, (c0, c1), "bid made"), out)
        elif theirs >= need_them and broken_counts:
            self._end_hand(Outcome(1 - ct, (c0, c1), "bid broken"), out)
        elif finished == 13:
            # After 13 tricks a bid not made is broken, so only a break that does not
            # count yet gets here: the trump stayed hidden and the callers win then.
            self._end_hand(Outcome(ct, (c0, c1), "trump never revealed"), out)

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

    def _forfeit(self, seat: int, court: bool, out: list[Event], *, trick: int | None = None) -> None:
        """The revoking side loses the hand. ``trick``: when the revoke happened (default:
        this trick)."""
        self._end_hand(self._forfeit_outcome(seat, court, trick), out)

    def _forfeit_outcome(self, seat: int, court: bool, trick: int | None, how: str = "") -> Outcome:
        """The hand's result when ``seat``'s revoke forfeits it; ``how``: how the revoke
        came to light, added to the reason (showing at the hand's end says so)."""
        h = self.hand
        w = 1 - team_of(seat)
        o = self.options
        c0, c1 = h.captured
        return Outcome(w, (c0, c1), f"revoke by {self._named(seat)}{how}", forfeit_by=seat,
                       revoke_trick=h.trick_no if trick is None else trick,
                       revoke_court=court and o.scoring is Scoring.COURTS)

    def _end_hand(self, outcome: Outcome, out: list[Event]) -> None:
        h = self.hand
        o = self.options
        if not h.show_done:
            if o.reveal_at_hand_end:
                if h.trump is not None and not h.trump_public:
                    # told as of the last trick played (not the 14th, which never comes)
                    self._reveal("the hand is over", out, h.trick_no if h.trick else h.trick_no - 1)
                for seat, c, trick in h.face_down:
                    if not o.show_caller_discards:
                        out.append(FaceDownShown(seat, CARDS[c], trick))
            show_proofs_at_hand_end(h, o, out)
            if self._ask_to_show(outcome, out):
                return
        if not h.dealt_mode:
            for seat in range(4):
                for suit in sorted(h.voids[seat]):
                    if h.voids[seat][suit][1] not in h.flagged_claims:  # (else proven: flagged)
                        out.append(SuspicionCleared(seat, Suit(suit)))
                h.voids[seat].clear()
        # a hidden trump the table keeps hidden after the hand (reveal_at_hand_end off,
        # never asked for) is no part of the hand's public record: its suit is the secret
        shown_trump = Suit(h.trump) if h.trump is not None and h.trump_public else None
        out.append(HandWon(h.number, outcome.winner, outcome.tricks, outcome.reason, shown_trump))
        net_before = self.tally.net
        scored = score_hand(self.tally, h, outcome, o)
        out += scored
        self.tally.hands_played += 1
        self.history.append({
            "hand": h.number,
            "dealer": h.dealer,
            "caller": h.caller,
            "bid": h.bid or None,
            "trump": shown_trump.name if shown_trump is not None else None,
            "tricks": list(outcome.tricks),
            "winner": outcome.winner,
            "reason": outcome.reason,
            "scored": [e.to_dict() for e in scored if not isinstance(e, StreakUpdated)],
            "score": list(self.tally.shown_score(o)),
        })
        passes = next_dealer(self.tally, h, outcome, o, net_before)
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
