"""A deal the reader saw only in part, at the table: the first card played ends the deal
and the hand goes on refereed from the played cards (issues 12 and 16)."""

from __future__ import annotations

import random

from controller.readers.sightings import CardSeen
from controller.referee.referee import Referee

from .tablekit import new_match_args


def test_a_missed_deal_read_does_not_stick_the_hand() -> None:
    r = Referee()
    r.command("new-match", new_match_args("court-piece"), at=1.0)
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in "AKQJT98765432"]
    random.Random(4).shuffle(deck)
    for i, card in enumerate(deck):
        if i == 20:
            r.command("call-trump", {"suit": "S"}, at=2.0)
        if i != 30:  # the reader misses the 31st card
            r.sighting(CardSeen("deal", card, 2.0 + i / 100, "test"))
    assert r.match is not None
    leader = r.match.hand.leader
    lead = next(c for c in deck[20:] if c != deck[30])  # a card the leader may hold or not: unknown now
    out = r.sighting(CardSeen(f"seat{leader}", lead, 5.0, "test"))
    kinds = [e["event"] for e in out]
    assert kinds[:2] == ["deal-fell-short", "play-accepted"], out
    assert out[0]["seen"] == 51
    assert r.public_state()["view"]["hand_knowledge"] == "played"
