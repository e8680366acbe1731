"""The state of one hand, as plain data. The logic that moves it lives in ``match``."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Phase(StrEnum):
    DRAW = "draw"  # drawing cards for the first dealer
    DEAL = "deal"  # dealt mode: cards are coming over the deal spot
    CALL = "call"  # waiting for the trump call or the auction
    PLAY = "play"
    PLAY_ON = "play-on"  # the winners of a 7-0 start are choosing
    SHOW = "show"  # played mode, hand over: suspected seats show their remaining cards
    OVER = "over"  # the match is over


def team_of(seat: int) -> int:
    return seat & 1


@dataclass(slots=True)
class TrickCard:
    seat: int
    card: int
    face_down: bool
    #: Whether this card counts as trump: true only if trump was public when it landed
    #: (or it is of the led suit and trump turns out to be the led suit).
    trump: bool


@dataclass(slots=True)
class Pending:
    """A flagged play that the table may still correct before the trick ends."""

    seat: int
    card: int
    rule: str
    proof: int | None = None
    detail: str = ""


@dataclass(slots=True)
class Auction:
    turn: int
    high: int = 0
    high_seat: int | None = None
    open_suit: int | None = None
    passed: set[int] = field(default_factory=set)
    done: bool = False


@dataclass(slots=True)
class Hand:
    number: int
    dealer: int
    caller: int | None
    first_leader: int | None
    dealt_mode: bool
    deal_order: tuple[int, ...] = ()
    deal_index: int = 0
    first_batch: int = 5
    #: dealt mode: cards each seat holds now; played mode: cards known to be held
    #: (a shown or turned trump, a card taken back).
    holdings: list[set[int]] = field(default_factory=lambda: [set(), set(), set(), set()])
    dealt: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    dealt_set: set[int] = field(default_factory=set)
    played: set[int] = field(default_factory=set)
    played_count: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    trump: int | None = None
    trump_public: bool = False
    trump_card: int | None = None
    trump_how: str = ""
    #: trick number in which trump became public (0: before the first trick)
    trump_known_trick: int | None = None
    card_number_call: int | None = None
    auction: Auction | None = None
    bid: int = 0
    bid_open: bool = False
    bid_forced: bool = False
    leader: int = 0
    trick_no: int = 1
    trick: list[TrickCard] = field(default_factory=list)
    asked: int | None = None  # seat that asked for the trump in this trick
    must_trump: int | None = None  # seat that must trump if able in this trick
    caller_revealed_on_lead: bool = False
    trick_winners: list[int] = field(default_factory=list)
    winning_cards: list[tuple[int, bool]] = field(default_factory=list)  # (card, was a cut)
    captured: list[int] = field(default_factory=lambda: [0, 0])
    pile: int = 0
    run_seat: int | None = None
    run_length: int = 0
    #: played mode: suit -> (trick, card then played or None for an ask, rule) for each
    #: suit a seat claimed to hold none of
    voids: list[dict[int, tuple[int, int | None, str]]] = field(default_factory=lambda: [{}, {}, {}, {}])
    #: the cards whose claim was proven false at once (a card he was known to hold): the
    #: claim stays (no new one for that suit), but proving it again flags nothing new,
    #: and it is neither asked about nor cleared at the hand's end
    flagged_claims: set[int] = field(default_factory=set)
    #: played mode under a flag-only penalty: a revoke proven by a later card, (seat, its
    #: trick, the trick the proof landed in), for the table to rule on until that trick
    #: is over, as a flag in dealt mode can be while its trick is held
    ruling_open: tuple[int, int, int] | None = None
    pending: Pending | None = None
    #: Rang's correction window: the revoker's place in the order of play (0 = the leader)
    #: once he has taken his card back; every seat from that place on may re-place its card.
    correction_from: int | None = None
    #: The seats that played between the revoke and its correction: 000 lets them change
    #: their cards (each once); whoever played after the correction already saw it.
    may_change: set[int] = field(default_factory=set)
    face_down: list[tuple[int, int, int]] = field(default_factory=list)  # (seat, card, trick)
    #: revoke proofs still secret: (seat, card, trick of the flag); see ``proofs``
    hidden_proofs: list[tuple[int, int, int]] = field(default_factory=list)
    play_on_team: int | None = None
    playing_on: bool = False
    streak_courts: list[int] = field(default_factory=lambda: [0, 0])  # trick-streak courts
    courts_won: list[int] = field(default_factory=lambda: [0, 0])  # every court of this hand
    started: bool = False  # any input has touched this hand
    #: Showing at the hand's end: the voids each asked seat still has to answer for,
    #: the cards each seat has shown, and the revokes proven so far (seat, trick).
    show_asked: dict[int, dict[int, tuple[int, int | None, str]]] = field(default_factory=dict)
    shown: list[set[int]] = field(default_factory=lambda: [set(), set(), set(), set()])
    show_proven: list[tuple[int, int]] = field(default_factory=list)
    show_done: bool = False
    show_outcome: object | None = None  # the hand's result, held while seats show

    @property
    def deal_complete(self) -> bool:
        return not self.dealt_mode or self.deal_index >= 52

    def place(self, seat: int) -> int:
        """A seat's place in this trick's order of play (0 = the leader)."""
        return (seat - self.leader) & 3

    def may_fill_gap(self, seat: int) -> bool:
        """During a correction, a seat in the window whose card is off the table may put one
        down at once: the seats after the revoker need not wait for each other."""
        return (self.correction_from is not None and self.pending is None
                and self.place(seat) >= self.correction_from
                and all(tc.seat != seat for tc in self.trick))

    def turn(self) -> int | None:
        """The seat that must play next in this trick (the first gap from the leader)."""
        n = len(self.trick)
        if n >= 4:
            return None
        if self.pending is None and self.correction_from is None:
            return (self.leader + n) & 3  # no gaps without a correction
        taken = {tc.seat for tc in self.trick}
        for i in range(4):
            s = (self.leader + i) & 3
            if s not in taken:
                return s
        return None

    def led_suit(self) -> int | None:
        for tc in self.trick:
            if tc.seat == self.leader:
                return -1 if tc.face_down else tc.card // 13
        return None
