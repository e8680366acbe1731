"""Who wins a trick.

A card counts as trump only if trump was public when it landed (source 002's timing
rule), which ``TrickCard.trump`` records at that moment. When trump is the led suit,
every card of that suit competes by rank alone, whenever it landed: following suit
never depended on knowing the trump, so the reveal cannot reorder those cards.
"""

from __future__ import annotations

from .hand import TrickCard


def trick_winner(cards: list[TrickCard]) -> TrickCard:
    """``cards`` in play order (the lead first). The lead is never face down: only a card
    that does not follow a suit already led can be."""
    lead = cards[0]
    led = lead.card // 13
    best = lead
    best_key = -1
    for tc in cards:
        if tc.face_down:
            continue
        suit = tc.card // 13
        if suit == led:
            key = tc.card % 13
        elif tc.trump:
            key = 100 + tc.card % 13
        else:
            continue
        if key > best_key:
            best, best_key = tc, key
    return best


def is_cut(winner: TrickCard, leader_card: TrickCard) -> bool:
    """A trump played on a trick led in another suit."""
    return winner.trump and winner.card // 13 != leader_card.card // 13
