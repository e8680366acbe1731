"""Bot players at a simulated table.

The bots stand in for four people with a real deck: ``BotTable`` shuffles, knows the
true hands (even when the engine is in 'played' mode and does not), and proposes the
next thing that happens at the table as an engine input. It can be told to revoke now
and then, so the simulator, the property tests and the benchmark all exercise the
referee's penalty paths. Randomness comes only from the ``random.Random`` it is given.
"""

from __future__ import annotations

import random
from typing import Any

from controller.rules import inputs as I
from controller.rules.cards import CARDS, Card, Suit
from controller.rules.events import (
    CardShown,
    FaceDownPlayed,
    FaceDownShown,
    HandStarted,
    PlayAccepted,
)
from controller.rules.hand import Hand, Phase, team_of
from controller.rules.match import Match
from controller.rules.options import AskRule, CallerRule, TrumpCall


class BotTable:
    def __init__(self, match: Match, rng: random.Random, *, revoke_rate: float = 0.0,
                 correct_rate: float = 0.5, skip_show_rate: float = 0.0) -> None:
        self.match = match
        self.rng = rng
        self.revoke_rate = revoke_rate
        self.correct_rate = correct_rate
        self.skip_show_rate = skip_show_rate
        self._deal_seen = -1
        self.hands: list[set[int]] = [set(), set(), set(), set()]
        self.deck: list[int] = []

    # -- the physical deal
    def sync(self) -> None:
        h = self.match.hand
        if self.match.deals_started == self._deal_seen:
            return
        self._deal_seen = self.match.deals_started
        deck = list(range(52))
        self.rng.shuffle(deck)
        self.deck = deck
        self.hands = [set(), set(), set(), set()]
        for c, seat in zip(deck, h.deal_order, strict=True):
            self.hands[seat].add(c)

    def take_over(self) -> None:
        """Sit down at a hand already under way (a simulated table resumed from its journal).

        The cards each seat is known to have had this hand -- still held, played, laid
        face down or shown -- stay that seat's; the rest are shuffled into the places of
        the deal not yet seen, so the bots play on from where the table stopped."""
        m = self.match
        h = m.hand
        if m.phase is Phase.DRAW:
            return
        known: list[list[int]] = [sorted(h.holdings[s]) for s in range(4)]
        for e in reversed(m.events):
            if isinstance(e, HandStarted):
                break
            card, seat = getattr(e, "card", None), getattr(e, "seat", None)
            if isinstance(e, (PlayAccepted, FaceDownPlayed, FaceDownShown, CardShown)) and card is not None \
                    and seat is not None and int(card) not in known[seat]:
                known[seat].append(int(card))
        taken = {c for cards in known for c in cards}
        rest = [c for c in range(52) if c not in taken]
        self.rng.shuffle(rest)
        deck: list[int] = []
        for seat in h.deal_order:
            deck.append(known[seat].pop(0) if known[seat] else rest.pop())
        self.deck = deck
        self.hands = [set(), set(), set(), set()]
        for c, seat in zip(deck, h.deal_order, strict=True):
            self.hands[seat].add(c)
        self._deal_seen = m.deals_started

    def first_cards(self, seat: int) -> list[int]:
        h = self.match.hand
        got = [c for c, s in zip(self.deck, h.deal_order, strict=True) if s == seat]
        return got[: h.first_batch]

    def nth_card(self, seat: int, n: int) -> int:
        h = self.match.hand
        got = [c for c, s in zip(self.deck, h.deal_order, strict=True) if s == seat]
        return got[n - 1]

    # -- deciding the next input
    def next_input(self) -> Any:
        m = self.match
        self.sync()
        h = m.hand
        if m.phase is Phase.DRAW:
            seat = next(s for s in range(4) if s not in m.draws)
            used = set(m.draws.values())
            return I.DrawCard(seat, self.rng.choice([c for c in CARDS if c not in used]))
        if m.phase is Phase.PLAY_ON:
            return I.PlayOn(self.rng.random() < 0.5)
        if m.phase in (Phase.DEAL, Phase.CALL):
            return self._before_play(h)
        if m.phase is Phase.PLAY:
            return self._in_play(h)
        if m.phase is Phase.SHOW:
            return self._show(h)
        raise RuntimeError("the match is over")

    def _show(self, h: Hand) -> Any:
        """A suspected seat lays its remaining cards face up, one at a time, in any order."""
        if self.rng.random() < self.skip_show_rate:
            return I.SkipShowing()
        seat = min(h.show_asked)
        left = sorted(self.hands[seat] - h.played - h.shown[seat])
        return I.ShowCard(seat, CARDS[self.rng.choice(left)])

    def _before_play(self, h: Hand) -> Any:
        m = self.match
        o = m.options
        first = 4 * h.first_batch
        if m.dealt_mode and h.deal_index < first:
            return I.Deal(CARDS[self.deck[h.deal_index]])
        a = h.auction
        if a is not None and not a.done:
            return self._bid(h)
        if o.caller is not CallerRule.NONE and h.trump is None and h.card_number_call is None:
            return self._call(h)
        if m.dealt_mode and h.deal_index < 52:
            return I.Deal(CARDS[self.deck[h.deal_index]])
        if h.card_number_call is not None and h.trump is None:
            return I.TrumpCardTurned(CARDS[self.nth_card(h.caller, h.card_number_call)])  # type: ignore[arg-type]
        raise RuntimeError(f"bots do not know what to do in phase {m.phase}")

    def _bid(self, h: Hand) -> Any:
        o = self.match.options
        a = h.auction
        assert a is not None
        seat = a.turn
        if a.high == o.bid_max and a.open_suit is None and o.open_challenge and self.rng.random() < 0.2:
            return I.OpenChallenge(seat, Suit(self.rng.randrange(4)))
        if a.high < o.bid_max and self.rng.random() < 0.45:
            return I.Bid(seat, self.rng.randint(max(a.high + 1, o.bid_min), o.bid_max))
        return I.Pass(seat)

    def _call(self, h: Hand) -> Any:
        o = self.match.options
        seat = h.caller
        assert seat is not None
        five = self.first_cards(seat)
        how = self.rng.choice(sorted(o.trump_calls - {TrumpCall.FIRST_VOID}, key=lambda t: t.value))
        best = max(range(4), key=lambda s: sum(1 for c in five if c // 13 == s))
        if how is TrumpCall.ANNOUNCED:
            return I.CallTrump(seat, Suit(best))
        if how is TrumpCall.SHOWN:
            return I.ShowTrump(seat, CARDS[self.rng.choice(five)])
        if how is TrumpCall.DEFERRED:
            return I.CallTrumpByCard(seat, h.first_batch + 1)
        if how is TrumpCall.CARD_NUMBER:
            return I.CallTrumpByCard(seat, self.rng.choice(o.trump_card_numbers))
        if how is TrumpCall.HIDDEN:
            return I.HideTrump(seat, CARDS[self.rng.choice(five)])
        raise RuntimeError(how)

    def _legal(self, seat: int, h: Hand) -> list[int]:
        mine = sorted(self.hands[seat] - h.played)
        led = h.led_suit()
        if not h.trick or led is None or led < 0:
            return mine
        follow = [c for c in mine if c // 13 == led]
        if follow:
            return follow
        if h.must_trump == seat and h.trump_public:
            trumps = [c for c in mine if c // 13 == h.trump]
            if trumps:
                return trumps
        return mine

    def _in_play(self, h: Hand) -> Any:
        m = self.match
        o = m.options
        rng = self.rng
        if h.pending is not None:
            if rng.random() < self.correct_rate:
                seat = h.pending.seat
                # the revoker's card counts as still in hand for choosing a replacement
                mine = sorted((self.hands[seat] - h.played) | {h.pending.card})
                legal = [c for c in self._legal_for_replacement(seat, h, mine)]
                choice = [c for c in legal if c != h.pending.card] or legal
                return I.Play(seat, CARDS[rng.choice(choice)])
            if len(h.trick) == 4:
                return I.CloseTrick() if rng.random() < 0.7 else I.ApplyPenalty()
        elif len(h.trick) == 4:
            return I.CloseTrick()
        seat = h.turn()
        assert seat is not None
        led = h.led_suit()
        mine = sorted(self.hands[seat] - h.played)
        hidden = h.trump is not None and not h.trump_public
        void = bool(h.trick) and led is not None and led >= 0 and not any(c // 13 == led for c in mine)
        if hidden and void and h.caller is not None and seat != h.caller and h.asked != seat:
            opponent = team_of(seat) != team_of(h.caller)
            if (o.ask_rule is AskRule.OPPONENTS_MUST and opponent) or (o.ask_rule is AskRule.MAY and rng.random() < 0.6):
                return I.AskTrump(seat)
        if hidden and void and seat == h.caller and h.must_trump != seat and rng.random() < 0.3:
            return I.RevealTrump(seat)
        if hidden and not h.trick and seat == h.caller and o.reveal_on_lead and rng.random() < 0.05:
            return I.RevealTrump(seat)
        if h.caller_revealed_on_lead and not h.trick and seat == h.caller:
            trumps = [c for c in mine if c // 13 == h.trump]
            if trumps and rng.random() >= self.revoke_rate:
                return I.Play(seat, CARDS[rng.choice(trumps)])
        if rng.random() < self.revoke_rate:
            return I.Play(seat, CARDS[rng.choice(mine)])
        legal = self._legal(seat, h)
        if o.ace_rules and not h.trick and h.trick_winners and h.trick_winners[-1] == seat:
            prev, cut = h.winning_cards[-1]
            if prev % 13 == 12 and not cut:
                legal = [c for c in legal if c % 13 != 12] or legal
        return I.Play(seat, CARDS[rng.choice(legal)])

    def _legal_for_replacement(self, seat: int, h: Hand, mine: list[int]) -> list[int]:
        lead_tc = next((tc for tc in h.trick if tc.seat == h.leader), None)
        if lead_tc is None or lead_tc.seat == seat:
            return [c for c in mine if c % 13 != 12] or mine
        led = lead_tc.card // 13
        follow = [c for c in mine if c // 13 == led]
        return follow or mine


def play_match(match: Match, rng: random.Random, *, revoke_rate: float = 0.0,
               max_inputs: int = 200_000) -> BotTable:
    """Play bots until the match is over (or ``max_inputs``), for tests and benchmarks."""
    table = BotTable(match, rng, revoke_rate=revoke_rate)
    for _ in range(max_inputs):
        if match.phase is Phase.OVER:
            break
        match.apply(table.next_input())
    return table


__all__ = ["BotTable", "play_match", "Card"]
