"""Helpers that set up exact deals and play scripted tricks against the rules engine.

Tests describe a table the way a person would (four 13-card hands as text, the tricks as
cards in playing order); these helpers turn that into the engine's inputs. They never
decide a rule question themselves: every result a test checks comes from the engine.

Conventions (the engine's): seats 0-3 in order of play, teams are ``seat % 2``, the deal
goes out in batches starting at the seat after the dealer. A hand's text lists its
cards in the order the seat receives them, so the first five words are the first batch
of a 5-4-4 or 5-8 deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from controller.rules import CARDS, Card, Match, Phase, Suit, card, cards
from controller.rules import inputs as I
from controller.rules.events import Event

E = TypeVar("E", bound=Event)

HandsSpec = Sequence[str] | Sequence[Sequence[Card]]


def parse_hands(hands: HandsSpec) -> list[list[Card]]:
    """Four hands (text or card lists) as card lists; checks the 52 cards are a deck."""
    parsed = [cards(h) if isinstance(h, str) else list(h) for h in hands]
    if len(parsed) != 4 or any(len(h) != 13 for h in parsed):
        raise ValueError("a deal is four hands of thirteen cards")
    if len({int(c) for h in parsed for c in h}) != 52:
        raise ValueError("the four hands must hold 52 different cards")
    return parsed


def deal_order(dealer: int, batches: Sequence[int]) -> list[int]:
    """The seat receiving each of the 52 cards: batch by batch from the dealer's next seat."""
    order: list[int] = []
    for batch in batches:
        for step in range(1, 5):
            order.extend([(dealer + step) % 4] * batch)
    return order


def deal_inputs(hands: HandsSpec, dealer: int, batches: Sequence[int]) -> list[I.Deal]:
    """The 52 ``Deal`` inputs that give each seat exactly its hand, in deal order."""
    parsed = parse_hands(hands)
    taken = [0, 0, 0, 0]
    out: list[I.Deal] = []
    for seat in deal_order(dealer, batches):
        out.append(I.Deal(parsed[seat][taken[seat]]))
        taken[seat] += 1
    return out


def deal(m: Match, hands: HandsSpec, upto: int = 52) -> list[Event]:
    """Feed the deal of the current hand from where it stands up to card number ``upto``."""
    inputs = deal_inputs(hands, m.hand.dealer, m.options.deal_batches)
    events: list[Event] = []
    for move in inputs[m.hand.deal_index:upto]:
        events += m.apply(move)
    return events


def deal_first_batch(m: Match, hands: HandsSpec) -> list[Event]:
    """Deal only the first batch (the cards the trump caller sees before calling)."""
    return deal(m, hands, 4 * m.options.deal_batches[0])


def play(m: Match, text: str | Iterable[Card]) -> list[Event]:
    """Play cards in order, each by the seat whose turn it is."""
    events: list[Event] = []
    for c in cards(text) if isinstance(text, str) else text:
        seat = m.turn()
        if seat is None:
            raise AssertionError(f"no seat is due to play {c} (phase {m.phase})")
        events += m.apply(I.Play(seat, c))
    return events


def play_script(m: Match, plays: Iterable[tuple[int, Card]]) -> list[Event]:
    """Play (seat, card) pairs exactly as given."""
    events: list[Event] = []
    for seat, c in plays:
        events += m.apply(I.Play(seat, c))
    return events


def of_type(events: Iterable[Any], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def apply_all(m: Match, moves: Iterable[Any]) -> list[Event]:
    events: list[Event] = []
    for move in moves:
        events += m.apply(move)
    return events


# ---------------------------------------------------------------------------- deals

SUITS = "SHDC"
RANKS_HIGH_FIRST = "AKQJT98765432"


def _interleave(hand: list[Card]) -> list[Card]:
    """Order a hand suit by suit in rotation, lowest first within each suit, so the first
    batch of five holds a card of every suit (handy for calls and hidden trumps)."""
    by_suit = [sorted((c for c in hand if c.suit == s), key=int) for s in Suit]
    out: list[Card] = []
    while any(by_suit):
        for pile in by_suit:
            if pile:
                out.append(pile.pop(0))
    return out


def strong_hands(strong: int) -> list[list[Card]]:
    """A deal where ``strong`` holds the ace, king and queen of every suit plus the jack of
    spades, and every other seat holds at least three cards of each suit. Whoever leads,
    the strong seat can win any of the first twelve tricks with everyone following suit,
    and no seat holds more than four of a suit (so no seven-trump redeal)."""
    hands: list[list[Card]] = [[], [], [], []]
    hands[strong] = [card(r + s) for s in SUITS for r in "AKQ"] + [card("JS")]
    others = [(strong + i) % 4 for i in (1, 2, 3)]
    rest = sorted((c for c in CARDS if c not in hands[strong]), key=lambda c: (c.suit, -c.rank))
    for i, c in enumerate(rest):
        hands[others[i % 3]].append(c)
    return [_interleave(h) for h in hands]


def banded_hands() -> list[list[Card]]:
    """A deal with every suit split in rank bands: seat 0 holds A 9 5, seat 1 K 8 4,
    seat 2 Q 7 3, seat 3 J 6 2 of each suit, and seat s also the ten of suit s. Any seat
    can win a trick in a suit depending on the cards chosen, so a script can steer who
    takes which trick while everyone follows suit."""
    bands = ["A95", "K84", "Q73", "J62"]
    hands: list[list[Card]] = [[], [], [], []]
    for seat in range(4):
        hands[seat] = [card(r + s) for s in SUITS for r in bands[seat]] + [card("T" + SUITS[seat])]
    return [_interleave(h) for h in hands]


# ---------------------------------------------------------------------------- scripts

def _winner(trick: list[tuple[int, Card]], trump: Suit | None) -> int:
    led = trick[0][1].suit
    best_seat, best_key = trick[0][0], -1
    for seat, c in trick:
        if c.suit == led:
            key = c.rank
        elif trump is not None and c.suit == trump:
            key = 100 + c.rank
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


def script_tricks(hands: HandsSpec, leader: int, winners: Sequence[int | None], *,
                  trump: Suit | None = None, follow_only: bool = False,
                  first_card: Card | None = None, ace_rules: bool = False,
                  always_follow: Iterable[int] = (), budget: int = 200_000) -> list[tuple[int, Card]]:
    """Find legal plays (everyone follows suit when able) for len(winners) tricks such that
    trick i is won by winners[i] (None: anyone). ``follow_only`` keeps every trick to one
    suit. The trump is treated as public from the start. ``ace_rules`` keeps a seat that
    won with an ace (not a trump cut) from leading another ace next (band rung 6.3).
    Seats in ``always_follow`` must hold the led suit every time (a hidden-trump opponent
    who never has to ask). Raises if no script exists."""
    held = [set(h) for h in parse_hands(hands)]
    followers = set(always_follow)
    nodes = 0

    def options_for(seat: int, led: Suit | None, want_high: bool) -> list[Card]:
        mine = held[seat]
        if led is not None:
            same = [c for c in mine if c.suit == led]
            pool = same if same else ([] if follow_only or seat in followers else list(mine))
        else:
            pool = list(mine)
        return sorted(pool, key=lambda c: (c.rank, c.suit), reverse=want_high)

    def solve(index: int, lead_seat: int, last_win: Card | None = None,
              last_cut: bool = False) -> list[tuple[int, Card]] | None:
        nonlocal nodes
        if index == len(winners):
            return []
        target = winners[index]
        trick: list[tuple[int, Card]] = []

        def fill(pos: int) -> list[tuple[int, Card]] | None:
            nonlocal nodes
            nodes += 1
            if nodes > budget:
                raise RuntimeError("script search gave up: choose a different deal or winners")
            if pos == 4:
                w = _winner(trick, trump)
                if target is not None and w != target:
                    return None
                win_card = next(c for s, c in trick if s == w)
                cut = win_card.suit != trick[0][1].suit
                for s, c in trick:
                    held[s].discard(c)
                rest = solve(index + 1, w, win_card, cut)
                for s, c in trick:
                    held[s].add(c)
                return None if rest is None else list(trick) + rest
            seat = (lead_seat + pos) % 4
            led = trick[0][1].suit if trick else None
            if pos == 0 and index == 0 and first_card is not None:
                choices = [first_card]
            else:
                choices = options_for(seat, led, want_high=(seat == target))
                if pos == 0 and ace_rules and last_win is not None and last_win.rank == 12 and not last_cut:
                    choices = [c for c in choices if c.rank != 12]
            for c in choices:
                trick.append((seat, c))
                found = fill(pos + 1)
                trick.pop()
                if found is not None:
                    return found
            return None

        return fill(0)

    result = solve(0, leader)
    if result is None:
        raise ValueError(f"no legal script gives trick winners {list(winners)}")
    return result


def script_cards(hands: HandsSpec, leader: int, winners: Sequence[int | None], **kw: Any) -> list[Card]:
    return [c for _, c in script_tricks(hands, leader, winners, **kw)]


def complete_deal(partial: Sequence[str], voids: dict[int, str] | None = None) -> list[list[Card]]:
    """Four hands from the cards each seat must hold (in order, first batch first) plus the
    rest of the deck handed out so that no seat gets a suit listed in ``voids``."""
    voids = voids or {}
    hands = [cards(p) for p in partial]
    used = {int(c) for h in hands for c in h}
    rest = [c for c in CARDS if int(c) not in used]

    def allowed(c: Card) -> list[int]:
        return [s for s in range(4) if c.suit.name not in voids.get(s, "")]

    rest.sort(key=lambda c: (len(allowed(c)), int(c)))
    for c in rest:
        seats = [s for s in allowed(c) if len(hands[s]) < 13]
        if not seats:
            raise ValueError(f"no seat can take {c} under voids {voids}")
        hands[max(seats, key=lambda s: 13 - len(hands[s]))].append(c)
    return parse_hands(hands)


def run_hand(m: Match, hands: HandsSpec, winners: Sequence[int | None], *, trump: Suit = Suit.S,
             play_on: bool = False) -> list[Event]:
    """Deal ``hands`` for the current hand, let the caller name ``trump``, and play a script
    in which trick i goes to winners[i], until the engine ends the hand. At a 7-0 start the
    winners choose ``play_on``. For presets where the trump is named aloud."""
    h = m.hand
    events = deal_first_batch(m, hands)
    events += m.apply(I.CallTrump(h.caller, trump))  # type: ignore[arg-type]
    events += deal(m, hands)
    for seat, c in script_tricks(hands, h.leader, winners, trump=trump):
        if m.phase is Phase.PLAY_ON:
            events += m.apply(I.PlayOn(play_on))
        if m.hand is not h or m.phase is not Phase.PLAY:
            break
        events += m.apply(I.Play(seat, c))
    if m.hand is h and m.phase is Phase.PLAY_ON:
        events += m.apply(I.PlayOn(play_on))
    if m.hand is h and m.phase is not Phase.OVER:
        raise AssertionError("the script ran out before the engine ended the hand")
    return events


def rotate(hands: HandsSpec, k: int) -> list[list[Card]]:
    """The same deal moved ``k`` seats on: seat s gets what seat s-k had."""
    parsed = parse_hands(hands)
    return [parsed[(s - k) % 4] for s in range(4)]


def sweep_hands(caller: int) -> list[list[Card]]:
    """A deal where ``caller`` holds A K Q J of spades and A K Q of the other suits, and
    both opponents hold exactly the suit lengths of the caller (4-3-3-3), so the caller can
    take all thirteen tricks with the opponents always following (no ask needed)."""
    hands: list[list[Card]] = [[], [], [], []]
    hands[caller] = cards("AS KS QS JS AH KH QH AD KD QD AC KC QC")
    hands[(caller + 1) % 4] = cards("TS 9S 8S 7S JH TH 9H JD TD 9D JC TC 9C")
    hands[(caller + 3) % 4] = cards("6S 5S 4S 3S 8H 7H 6H 8D 7D 6D 8C 7C 6C")
    hands[(caller + 2) % 4] = cards("2S 5H 4H 3H 2H 5D 4D 3D 2D 5C 4C 3C 2C")
    return [_interleave(h) for h in hands]


def band_rung_auction(m: Match, bidder: int, bid: int) -> list[Event]:
    """Everyone passes except ``bidder``, who bids ``bid`` on its first turn."""
    h = m.hand
    events: list[Event] = []
    while h.auction is not None and not h.auction.done:
        seat = h.auction.turn
        events += m.apply(I.Bid(seat, bid) if seat == bidder and h.auction.high == 0 else I.Pass(seat))
    return events


def band_rung_hand(m: Match, bidding_team: int, bid: int, made: bool) -> list[Event]:
    """One band-rung hand (dealt mode): the first seat of ``bidding_team`` after the dealer
    bids, the others pass. If ``made``, the caller holds the top cards and takes every
    trick with everyone following suit; otherwise the opponent after the caller holds
    them, the caller opens with its face-down trump card (which turns trump up) and the
    opponents take tricks in pairs until the bid is broken."""
    h = m.hand
    bidder = next(s for s in ((h.dealer + i) % 4 for i in (1, 2, 3, 4)) if s % 2 == bidding_team)
    strong = bidder if made else (bidder + 1) % 4
    hands = sweep_hands(bidder) if made else strong_hands(strong)
    events = deal_first_batch(m, hands)
    events += band_rung_auction(m, bidder, bid)
    assert h.caller == bidder
    hidden = hands[bidder][1] if made else hands[bidder][0]  # a heart / the lowest spade
    events += m.apply(I.HideTrump(bidder, hidden))
    events += deal(m, hands)
    if made:
        plays = script_tricks(hands, bidder, [bidder] * 13, ace_rules=True,
                              always_follow=((bidder + 1) % 4, (bidder + 3) % 4))
    else:
        plays = script_tricks(hands, bidder, [strong] * 4, trump=hidden.suit, follow_only=True,
                              first_card=hidden, ace_rules=True)
    for seat, c in plays:
        if m.hand is not h or m.phase is Phase.OVER:
            break
        events += m.apply(I.Play(seat, c))
    assert m.hand is not h or m.phase is Phase.OVER, "the hand should have ended"
    return events


def snapshot(m: Match) -> tuple[int, int, dict[str, Any], str]:
    """What must not change when the engine refuses an input."""
    return (len(m.inputs), len(m.events), m.public_view(), m.phase.value)


__all__ = [
    "apply_all", "rotate", "band_rung_auction", "band_rung_hand", "sweep_hands", "banded_hands", "complete_deal", "run_hand", "deal", "deal_first_batch", "deal_inputs", "deal_order", "of_type",
    "parse_hands", "play", "play_script", "script_cards", "script_tricks", "snapshot", "strong_hands",
    "Card", "Suit", "card", "cards",
]


def change_flagged_at_once(m: Match) -> tuple[list[int], list[Event]]:
    """Played mode, the first trick led with the king of hearts: the second seat plays off
    hearts and corrects with the four; the third, who played the six after him, changes it
    for a diamond, holding the six he took back: flagged at once. (The seats in playing
    order, the events of the change.)"""
    seats = [(m.hand.turn() + k) & 3 for k in range(4)]
    m.apply(I.Play(seats[0], card("KH")))
    m.apply(I.Play(seats[1], card("3C")))
    m.apply(I.Play(seats[2], card("6H")))
    m.apply(I.Play(seats[1], card("4H")))  # the revoker corrects
    return seats, m.apply(I.Play(seats[2], card("2D")))  # off hearts, holding the 6H
