"""Every rule point as an option with a default; presets are named bundles of options.

Where the sources disagree, each way is a value of one option and a preset picks one.
Options carry kebab-case names (``hand-end``) so the CLI, the config file and the
dashboard all speak the same words.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from enum import Enum, StrEnum
from typing import Any


class Direction(StrEnum):
    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter-clockwise"


class CallerRule(StrEnum):
    DEALER_NEXT = "dealer-next"  # the player after the dealer calls trump
    BIDDING = "bidding"  # an auction of 9..13 tricks decides the caller (band rung)
    NONE = "none"  # no caller: trump set by the first void play (be-ranga)


class CallerRotation(StrEnum):
    BY_DEALER = "by-dealer"  # the caller is always the player after the dealer
    ROUND_ROBIN = "round-robin"  # the caller moves one seat on every hand


class TrumpCall(StrEnum):
    ANNOUNCED = "announced"  # the caller names a suit
    SHOWN = "shown"  # the caller lays one of his five face up; it stays his
    DEFERRED = "deferred"  # the caller's first card of the next batch is turned up
    CARD_NUMBER = "card-number"  # the caller names his 7th or 10th card, turned up
    HIDDEN = "hidden"  # a card laid face down, revealed on request
    FIRST_VOID = "first-void"  # the first card played by someone who cannot follow


class FirstLead(StrEnum):
    CALLER = "caller"
    DEALER_NEXT = "dealer-next"


class Collection(StrEnum):
    EACH_TRICK = "each-trick"  # every trick goes to its winner
    DOUBLE_SIR = "double-sir"  # tricks pile in the centre until one player wins two running


class PileWait(StrEnum):
    """Double sir with a trump not yet known: from which trick a pile may be taken."""

    NO = "no"  # piles are taken as usual
    REVEAL_TRICK = "reveal-trick"  # from the trick in which trump becomes known (hidden rung)
    NEXT_TRICK = "next-trick"  # only from the trick after that one (be-ranga)


class HandEnd(StrEnum):
    ALL = "all"  # play all 13 (a 7-0 start may stop early, see sweep-stop)
    SEVEN = "seven"  # stop as soon as a team holds 7 tricks
    BID = "bid"  # stop as soon as the bid is made or broken


class Scoring(StrEnum):
    COURTS = "courts"
    ONLINE_SIMPLE = "online-simple"
    ONLINE_COURTS = "online-courts"
    BID = "bid"


class RevokePenalty(StrEnum):
    FLAG = "flag"  # record and show; the table may correct before the trick ends
    RANG = "rang"  # correct before the trick ends, else the hand is forfeit plus a court
    COURT = "court"  # a caught misplay ends the hand and the opponents score a court


class AskRule(StrEnum):
    MAY = "may"  # a player who cannot follow may ask for the hidden trump
    OPPONENTS_MUST = "opponents-must"  # the caller's opponents must ask; his partner plays freely


class DealerRule(StrEnum):
    WINNER = "winner"  # losers deal: dealer's team won -> next seat; court -> partner; else same
    BID_THRESHOLDS = "bid-thresholds"  # band rung: switch dealers when the score crosses 52 / 0


class MatchEnd(StrEnum):
    TIME = "time"  # agreed time: the hand in progress is finished, most courts wins
    HANDS = "hands"  # a number of hands
    POINTS = "points"  # first to a number of courts or points


class Draw(StrEnum):
    NONE = "none"
    DEALER = "dealer"  # each draws a card; the lowest deals first
    DEALER_AND_PARTNERS = "dealer-and-partners"  # and the two lowest play together


def _opt(default: Any, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True)
class Options:
    """The complete rule set of a match. Defaults are the common ground of all sources."""

    direction: Direction = _opt(Direction.COUNTER_CLOCKWISE, "direction of the deal and play")
    deal_batches: tuple[int, ...] = _opt((5, 4, 4), "cards to each seat per round of the deal")
    caller: CallerRule = _opt(CallerRule.DEALER_NEXT, "who calls trump")
    caller_rotation: CallerRotation = _opt(CallerRotation.BY_DEALER, "how the caller moves between hands")
    trump_calls: frozenset[TrumpCall] = _opt(frozenset({TrumpCall.ANNOUNCED}), "ways the caller may set trump")
    trump_card_numbers: tuple[int, ...] = _opt((7, 10), "card numbers the caller may name (card-number call)")
    first_lead: FirstLead = _opt(FirstLead.CALLER, "who leads to the first trick")
    collection: Collection = _opt(Collection.EACH_TRICK, "how finished tricks are collected")
    pickup_not_first_two: bool = _opt(False, "double sir: winning tricks 1 and 2 does not take the pile")
    pickup_not_eleven_twelve: bool = _opt(False, "double sir: winning tricks 11 and 12 does not take the pile")
    pickup_not_two_aces: bool = _opt(False, "double sir: two running wins with aces do not take the pile")
    pile_waits_for_trump: PileWait = _opt(PileWait.NO, "double sir: no pile is taken while trump is unknown; "
                                          "the first may be the trick that makes it known, or the one after")
    pile_minimum: int = _opt(2, "double sir: tricks the pile must hold to be taken (bigger piles)")
    ace_rules: bool = _opt(False, "band rung: a non-cut ace win followed by an ace lead must be withdrawn")
    hand_end: HandEnd = _opt(HandEnd.SEVEN, "when a hand stops")
    sweep_stop: bool = _opt(False, "with hand-end all: stop after 7 tricks if one team took all seven")
    play_on: bool = _opt(True, "winners of a 7-0 start may choose to play on for all 13")
    scoring: Scoring = _opt(Scoring.COURTS, "what a hand scores")
    court_first_seven: int = _opt(1, "courts for taking the first seven tricks")
    court_all_thirteen: int = _opt(52, "courts for taking all thirteen tricks (total for the hand)")
    goon_court: int = _opt(0, "courts when the dealer's team takes all 13 (0: no goon court)")
    all_thirteen_resets_streak: bool = _opt(False, "taking all 13 resets the count of hands won")
    hand_streak: int = _opt(0, "hands won in a row that score a court (0: off)")
    trick_streak: int = _opt(0, "tricks won in a row by one team, across hands, that score a court (0: off)")
    revoke_penalty: RevokePenalty = _opt(RevokePenalty.FLAG, "what a revoke costs")
    ask_rule: AskRule = _opt(AskRule.MAY, "hidden trump: who asks for the reveal")
    must_trump_after_ask: bool = _opt(True, "hidden trump: a player who asked must trump if able")
    caller_face_down: bool = _opt(True, "hidden trump: the caller, unable to follow, may discard face down")
    face_down_trump: bool = _opt(False, "hidden trump: the caller's face-down discard may be a trump "
                                 "(else he must reveal the trump to play one)")
    reveal_on_lead: bool = _opt(True, "hidden trump: the caller may reveal when leading, then leads trump")
    show_caller_discards: bool = _opt(False, "hidden trump: the caller's face-down discards are shown at once")
    reveal_at_hand_end: bool = _opt(True, "a hidden trump and face-down discards are shown when the hand ends")
    show_at_hand_end: bool = _opt(True, "played mode: when the hand ends, a seat that played off a suit and "
                                  "never showed it since shows its remaining cards")
    redeal_low_five: bool = _opt(False, "the caller may ask for a redeal when his five are all below a jack")
    redeal_seven_trumps: bool = _opt(False, "redeal when the caller holds 7 or more trumps")
    bid_min: int = _opt(9, "band rung: lowest bid")
    bid_max: int = _opt(13, "band rung: highest bid")
    dealer_forced_bid: bool = _opt(True, "band rung: if all pass, the dealer is caller at the lowest bid")
    open_challenge: bool = _opt(True, "band rung: over a 13 bid, the next may challenge with an open trump")
    thirteen_reveal: bool = _opt(True, "band rung: a 13 bidder may reveal trump after seeing all 13 cards")
    thirteen_score: int = _opt(52, "band rung: a 13 bid scores this either way")
    lost_bid_multiplier: int = _opt(2, "band rung: opponents score this times the bid when it is lost")
    unrevealed_trump_callers_win: bool = _opt(False, "band rung: if trump is never revealed the callers win")
    online_caller_win: int = _opt(1, "online simple: caller's team winning a round")
    online_opponent_win: int = _opt(2, "online simple: opponents winning a round")
    online_court_bonus: int = _opt(2, "online simple: added for a court")
    online_caller_court: int = _opt(1, "online courts: caller's team court")
    online_opponent_court: int = _opt(3, "online courts: opponents' (goon) court")
    dealer_rule: DealerRule = _opt(DealerRule.WINNER, "how the deal passes")
    dealer_threshold: int = _opt(52, "band rung: score at which the dealer's partner takes over")
    match_end: MatchEnd = _opt(MatchEnd.TIME, "when the match ends")
    match_target: int = _opt(0, "hands, points or minutes for match-end hands/points/time (0: none; "
                             "a time without minutes is called by hand)")
    draw: Draw = _opt(Draw.NONE, "drawing cards for the first dealer and partnerships")
    move_timer: int = _opt(0, "seconds a player has to play (0: off); enforced by the referee")

    def with_changes(self, **changes: Any) -> Options:
        return dataclasses.replace(self, **{k: _coerce(k, v) for k, v in changes.items()})

    def changed_from_default(self) -> dict[str, Any]:
        base = Options()
        return {
            option_name(f.name): to_plain(getattr(self, f.name))
            for f in fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        }

    def to_dict(self) -> dict[str, Any]:
        return {option_name(f.name): to_plain(getattr(self, f.name)) for f in fields(self)}


def option_name(attr: str) -> str:
    return attr.replace("_", "-")


def attr_name(option: str) -> str:
    return option.replace("-", "_")


def to_plain(value: Any) -> Any:
    """Options as JSON-able data (for logs, the CLI and the dashboard)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(to_plain(v) for v in value)
    if isinstance(value, tuple):
        return [to_plain(v) for v in value]
    return value


_FIELDS = {f.name: f for f in fields(Options)}


class OptionError(ValueError):
    """A bad option name or value, said in the option's own words."""


def _coerce(attr: str, value: Any) -> Any:
    """Turn config/CLI text or JSON into the option's type, or say what is wrong."""
    f = _FIELDS.get(attr)
    if f is None:
        raise OptionError(f"unknown option {option_name(attr)!r}")
    default = f.default
    name = option_name(attr)
    try:
        if isinstance(default, Enum):
            return type(default)(value)
        if isinstance(default, bool):
            if isinstance(value, bool):
                return value
            if str(value).lower() in ("true", "yes", "on", "1"):
                return True
            if str(value).lower() in ("false", "no", "off", "0"):
                return False
            raise ValueError(value)
        if isinstance(default, int):
            if isinstance(value, bool):
                raise ValueError(value)
            return int(value)
        if isinstance(default, frozenset):
            items = value.split(",") if isinstance(value, str) else value
            enum_type = type(next(iter(default)))
            return frozenset(v if isinstance(v, enum_type) else enum_type(str(v).strip()) for v in items)
        if isinstance(default, tuple):
            items = value.split(",") if isinstance(value, str) else value
            return tuple(int(v) for v in items)
    except (ValueError, TypeError):
        choices = ""
        if isinstance(default, Enum):
            choices = " (one of: " + ", ".join(m.value for m in type(default)) + ")"
        elif isinstance(default, frozenset):
            enum_type = type(next(iter(default)))
            choices = " (a list of: " + ", ".join(m.value for m in enum_type) + ")"
        raise OptionError(f"bad value {value!r} for option {name!r}{choices}") from None
    return value


def option_help() -> list[tuple[str, str, Any]]:
    """(name, help, default) for every option, in declaration order."""
    return [(option_name(f.name), f.metadata["help"], to_plain(f.default)) for f in fields(Options)]


# ---------------------------------------------------------------------------
# Presets. Each is the options that differ from the defaults, plus the named
# switches ("variants") a table may turn on, each itself a bundle of options.

_DOUBLE_SIR = dict(
    collection=Collection.DOUBLE_SIR,
    court_first_seven=0,
    court_all_thirteen=1,
    goon_court=3,
    all_thirteen_resets_streak=True,
    hand_streak=7,
)


@dataclass(frozen=True)
class Preset:
    name: str
    summary: str
    options: Options
    variants: dict[str, dict[str, Any]] = field(default_factory=dict)


def _preset(name: str, summary: str, variants: dict[str, dict[str, Any]] | None = None, **changes: Any) -> Preset:
    return Preset(name, summary, Options().with_changes(**changes), variants or {})


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        _preset(
            "rang",
            "Rang (source 000): clockwise, 5 then 8, dealer's left calls and leads, all 13 "
            "played unless 7-0, courts for 7-0 and seven hands in a row, revoke correction "
            "or forfeit plus a court",
            direction=Direction.CLOCKWISE,
            deal_batches=(5, 8),
            hand_end=HandEnd.ALL,
            sweep_stop=True,
            hand_streak=7,
            revoke_penalty=RevokePenalty.RANG,
        ),
        _preset(
            "court-piece",
            "Court Piece (source 001): counter-clockwise, 5-4-4, dealer's right calls and "
            "leads, stop at 7, court for 7-0, 52 for all 13",
            variants={
                "trump-card-show": {"trump_calls": frozenset({TrumpCall.SHOWN})},
                "trump-deferred": {"trump_calls": frozenset({TrumpCall.ANNOUNCED, TrumpCall.DEFERRED})},
                "double-sir": dict(_DOUBLE_SIR),
            },
        ),
        _preset(
            "double-sir",
            "Double Sir (source 002): tricks pile in the centre until one player wins two "
            "running; court for all 13 (goon court 3 when the dealer's team does it); seven "
            "hands in a row",
            variants={
                "no-pickup-first-two": {"pickup_not_first_two": True},
                "no-pickup-eleven-twelve": {"pickup_not_eleven_twelve": True},
                "no-pickup-two-aces": {"pickup_not_two_aces": True},
                "goon-ten": {"goon_court": 10},
                "trump-card-number": {"trump_calls": frozenset({TrumpCall.ANNOUNCED, TrumpCall.CARD_NUMBER})},
            },
            **_DOUBLE_SIR,
        ),
        _preset(
            "hidden-rung",
            "Hidden rung (source 002): Double Sir with the trump laid face down, revealed on "
            "request; a card counts as trump only from the moment trump is revealed",
            trump_calls=frozenset({TrumpCall.HIDDEN}),
            pile_waits_for_trump=PileWait.REVEAL_TRICK,
            **_DOUBLE_SIR,
        ),
        _preset(
            "be-ranga",
            "Be-ranga (source 002): no caller, all 13 dealt, the first card played by a "
            "player who cannot follow sets trump; no pile before the trick after that",
            caller=CallerRule.NONE,
            trump_calls=frozenset({TrumpCall.FIRST_VOID}),
            first_lead=FirstLead.DEALER_NEXT,
            pile_waits_for_trump=PileWait.NEXT_TRICK,
            **_DOUBLE_SIR,
        ),
        _preset(
            "online-points",
            "Online rung (source 002): first team to 10 points; simple scoring (caller's "
            "team 1, opponents 2, +2 for a court) or courts-only",
            variants={
                "courts-scoring": {"scoring": Scoring.ONLINE_COURTS},
                "redeal": {"redeal_low_five": True},
                "round-robin": {"caller_rotation": CallerRotation.ROUND_ROBIN},
                "bigger-piles": {"pile_minimum": 3},
                "single-sir": {"collection": Collection.EACH_TRICK},
            },
            collection=Collection.DOUBLE_SIR,
            scoring=Scoring.ONLINE_SIMPLE,
            play_on=False,
            court_first_seven=0,
            match_end=MatchEnd.POINTS,
            match_target=10,
        ),
        _preset(
            "trick-streak",
            "Court Piece (source 003): a court for 7 tricks in a row by one team, counted "
            "across hands; a caught misplay ends the hand and gives the opponents a court",
            first_lead=FirstLead.DEALER_NEXT,
            hand_end=HandEnd.ALL,
            sweep_stop=True,
            court_first_seven=0,
            trick_streak=7,
            revoke_penalty=RevokePenalty.COURT,
        ),
        _preset(
            "band-rung",
            "Band rung (source 004): bidding 9-13, hidden trump revealed when an opponent "
            "asks, double sar with the ace rules, net score with double on a lost bid, "
            "104 ends the game",
            caller=CallerRule.BIDDING,
            trump_calls=frozenset({TrumpCall.HIDDEN}),
            collection=Collection.DOUBLE_SIR,
            ace_rules=True,
            hand_end=HandEnd.BID,
            play_on=False,
            scoring=Scoring.BID,
            court_first_seven=0,
            court_all_thirteen=0,
            ask_rule=AskRule.OPPONENTS_MUST,
            face_down_trump=True,
            reveal_on_lead=False,
            redeal_seven_trumps=True,
            unrevealed_trump_callers_win=True,
            dealer_rule=DealerRule.BID_THRESHOLDS,
            match_end=MatchEnd.POINTS,
            match_target=104,
        ),
    )
}


def preset(name: str, *variants: str, **overrides: Any) -> Options:
    """The options of a preset, with named variants switched on and any option overridden."""
    try:
        p = PRESETS[name]
    except KeyError:
        raise OptionError(f"unknown preset {name!r} (one of: {', '.join(PRESETS)})") from None
    opts = p.options
    for v in variants:
        try:
            opts = opts.with_changes(**p.variants[v])
        except KeyError:
            known = ", ".join(p.variants) or "none"
            raise OptionError(f"preset {name!r} has no variant {v!r} (variants: {known})") from None
    if overrides:
        opts = opts.with_changes(**{attr_name(k): v for k, v in overrides.items()})
    return opts
