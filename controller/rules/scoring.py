"""What a finished hand scores, and who deals next.

Three scoring systems (courts; online points; band rung's bid score) and two ways the
deal moves (losers deal; band rung's thresholds). Each function reads the hand's result
and the running tally and returns the events that explain every change.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .events import CourtsScored, DealPasses, Event, PointsScored, StreakUpdated
from .hand import Hand, team_of
from .options import CallerRotation, CallerRule, DealerRule, Options, Scoring


@dataclass(slots=True)
class Outcome:
    """How a hand ended, before scoring."""

    winner: int  # team
    tricks: tuple[int, int]
    reason: str
    forfeit_by: int | None = None  # seat whose revoke ended the hand
    revoke_trick: int | None = None  # the trick of that revoke
    revoke_court: bool = False
    revoke_reason: str = ""  # what the revoke's court is for (default: ``reason``)
    sweep: bool = False  # the winners took the first seven tricks
    all_thirteen: bool = False


@dataclass(slots=True)
class Tally:
    """The running score of the match."""

    score: list[int] = field(default_factory=lambda: [0, 0])  # courts or points
    net: int = 0  # band rung: team 0's lead (negative: team 1 leads)
    streak_team: int | None = None
    streak: int = 0
    trick_streak_team: int | None = None
    trick_streak: int = 0
    hands_played: int = 0

    def shown_score(self, opts: Options) -> tuple[int, int]:
        """Band rung shows one net figure on the leading side, as in source 004's table."""
        if opts.scoring is Scoring.BID:
            return (max(self.net, 0), max(-self.net, 0))
        return (self.score[0], self.score[1])


def score_hand(tally: Tally, hand: Hand, out: Outcome, opts: Options) -> list[Event]:
    if opts.scoring is Scoring.COURTS:
        return _courts(tally, hand, out, opts)
    if opts.scoring is Scoring.BID:
        return _bid(tally, hand, out, opts)
    return _online(tally, hand, out, opts)


def award_courts(tally: Tally, hand: Hand, team: int, courts: int, reason: str) -> CourtsScored:
    """Every court goes through here, whenever in the hand it is scored, so the deal
    passing at the hand's end sees all of them (000, 003: a court moves the deal)."""
    tally.score[team] += courts
    hand.courts_won[team] += courts
    return CourtsScored(team, courts, reason)


def _courts(tally: Tally, hand: Hand, out: Outcome, opts: Options) -> list[Event]:
    events: list[Event] = []
    w = out.winner
    if out.revoke_court:  # "revoke by <seat's name>"
        events.append(award_courts(tally, hand, w, 1, out.revoke_reason or out.reason))
    # A forfeited hand has neither a sweep nor all thirteen; a hand the revoker's side had
    # already lost keeps the courts it earned, and the revoke's court comes on top.
    if out.all_thirteen and (opts.court_all_thirteen or opts.goon_court):
        goon = opts.goon_court and team_of(hand.dealer) == w
        total = opts.goon_court if goon else opts.court_all_thirteen
        total -= hand.streak_courts[w]  # trick-streak courts already given this hand
        if total > 0:
            events.append(award_courts(tally, hand, w, total, "goon court: dealer's team took all 13" if goon else "all thirteen tricks"))
    elif out.sweep and opts.court_first_seven:
        events.append(award_courts(tally, hand, w, opts.court_first_seven, "first seven tricks"))
    if opts.hand_streak:
        if tally.streak_team == w:
            tally.streak += 1
        else:
            tally.streak_team, tally.streak = w, 1
        if tally.streak >= opts.hand_streak:
            events.append(award_courts(tally, hand, w, 1, f"{opts.hand_streak} hands in a row"))
            tally.streak = 0
        if out.all_thirteen and opts.all_thirteen_resets_streak and not out.revoke_court:
            tally.streak = 0
        events.append(StreakUpdated(tally.streak_team, tally.streak))
    return events


def _online(tally: Tally, hand: Hand, out: Outcome, opts: Options) -> list[Event]:
    w = out.winner
    caller_team = team_of(hand.caller) if hand.caller is not None else team_of(hand.dealer + 1)
    court = out.tricks[1 - w] == 0
    if opts.scoring is Scoring.ONLINE_SIMPLE:
        points = opts.online_caller_win if w == caller_team else opts.online_opponent_win
        if court:
            points += opts.online_court_bonus
        reason = ("caller's team" if w == caller_team else "opponents") + (" won with a court" if court else " won the round")
    else:
        if not court:
            return []
        points = opts.online_caller_court if w == caller_team else opts.online_opponent_court
        reason = "court" if w == caller_team else "goon court"
    tally.score[w] += points
    return [PointsScored(w, points, reason)]


def _bid(tally: Tally, hand: Hand, out: Outcome, opts: Options) -> list[Event]:
    caller_team = team_of(hand.caller if hand.caller is not None else hand.dealer)
    big = hand.bid >= opts.bid_max
    if out.winner == caller_team:
        points = opts.thirteen_score if big else hand.bid
        reason = f"bid of {hand.bid} made"
    else:
        points = opts.thirteen_score if big else opts.lost_bid_multiplier * hand.bid
        reason = f"bid of {hand.bid} lost"
    tally.score[out.winner] += points  # each side's own total (the screens show ``net``)
    tally.net += points if out.winner == 0 else -points
    return [PointsScored(out.winner, points, reason)]


def next_dealer(tally: Tally, hand: Hand, out: Outcome, opts: Options, net_before: int) -> DealPasses:
    d = hand.dealer
    if opts.caller_rotation is CallerRotation.ROUND_ROBIN and hand.caller is not None:
        caller = (hand.caller + 1) & 3
        return DealPasses((caller - 1) & 3, caller, "the caller moves on one seat")
    if opts.dealer_rule is DealerRule.BID_THRESHOLDS:
        return _threshold_dealer(d, tally.net, net_before, opts)
    court = hand.courts_won[out.winner] > 0
    if team_of(d) == out.winner:
        nd, reason = (d + 1) & 3, "the dealer's team won: the deal passes on"
    elif court:
        nd, reason = (d + 2) & 3, "a court was scored: the dealer's partner deals"
    else:
        nd, reason = d, "the dealer's team lost: the same dealer deals again"
    return DealPasses(nd, (nd + 1) & 3 if opts.caller is CallerRule.DEALER_NEXT else None, reason)


def _threshold_dealer(d: int, net: int, net_before: int, opts: Options) -> DealPasses:
    """Band rung: the dealing side keeps the deal while behind; the score is read from the
    non-dealing side (positive: the dealers are behind by that much)."""
    sign = 1 if team_of(d) == 1 else -1
    behind_now, behind_before = sign * net, sign * net_before
    if behind_now < 0:
        nd, reason = (d + 1) & 3, "the dealing side went ahead: the deal crosses over"
    elif behind_now // opts.dealer_threshold > max(behind_before, 0) // opts.dealer_threshold:
        nd, reason = (d + 2) & 3, f"the score passed {opts.dealer_threshold}: the dealer's partner deals"
    else:
        nd, reason = d, "the same dealer deals again"
    return DealPasses(nd, None, reason)
