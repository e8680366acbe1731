"""A flagged seventh trick that makes a 7-0 start (court piece, the flag-only penalty).

After a revoke is flagged the trick stays open for a correction; the winner's card on
his own spot closes it and leads the next. When that closed trick is the seventh of a
7-0 start, the winners are offered to play on, and a card played over the offer is the
choice to play on (as at any other trick): the winner's lead must count, not be set
aside as if the hand had ended.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import deal, deal_first_batch, of_type, sweep_hands  # noqa: E402

from controller.rules import CARDS, Match, Phase, Suit, card, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    CardNotCounted,
    HandWon,
    PlayAccepted,
    PlayOnChosen,
    PlayOnOffered,
    RevokeFlagged,
    TrickWon,
)


def seventh_trick_flagged(**options: object) -> Match:
    """The caller (seat 0) takes six tricks with everyone following, then leads the queen
    of hearts; his partner, who still holds hearts, throws a diamond: flagged, and the
    trick is held for a correction nobody makes."""
    m = Match(preset("court-piece", **options), first_dealer=3)
    hands = sweep_hands(0)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.S))
    deal(m, hands)
    for lead in ("AS", "KS", "QS", "JS", "AH", "KH", "QH"):
        m.apply(I.Play(0, card(lead)))
        for seat in (1, 2, 3):
            legal = m.legal_plays(seat)
            if lead == "QH" and seat == 2:
                off = sorted(c for c in m.hand.holdings[seat] if CARDS[c] not in legal)
                flagged = m.apply(I.Play(seat, CARDS[off[0]]))
                assert of_type(flagged, RevokeFlagged), "the partner's discard must be flagged"
                continue
            m.apply(I.Play(seat, legal[-1]))
    assert m.phase is Phase.PLAY and len(m.hand.trick) == 4  # held open
    return m


def test_the_winners_lead_over_the_offer_is_the_choice_to_play_on():
    m = seventh_trick_flagged()
    h = m.hand
    out = m.apply(I.Play(0, card("AD")))
    assert [(t.trick, t.winner) for t in of_type(out, TrickWon)] == [(7, 0)]
    assert of_type(out, PlayOnOffered) == [PlayOnOffered(0)]
    assert of_type(out, PlayOnChosen) == [PlayOnChosen(0, True)]
    assert [(p.seat, p.card) for p in of_type(out, PlayAccepted)] == [(0, card("AD"))]
    assert not of_type(out, CardNotCounted)
    assert m.hand is h and m.phase is Phase.PLAY and m.turn() == 1  # the trick goes on


def test_a_card_after_a_held_trick_ended_the_hand_says_the_hand_is_over():
    """Without play-on, the same seventh trick ends the hand on a 7-0 start: the card is
    on the table but counts for nothing, and the reason is not a revoke."""
    m = seventh_trick_flagged(play_on=False)
    out = m.apply(I.Play(0, card("AD")))
    won = of_type(out, HandWon)
    assert len(won) == 1 and not won[0].reason.startswith("revoke")
    assert of_type(out, CardNotCounted) == [CardNotCounted(0, card("AD"), "the hand is over")]


def test_a_card_after_a_revoke_ended_the_hand_says_so():
    """Rang's penalty: a revoke left uncorrected when its trick closes forfeits the hand,
    so the winner's lead that closed it is on the table for nothing, because of the revoke."""
    m = seventh_trick_flagged(revoke_penalty="rang")
    out = m.apply(I.Play(0, card("AD")))
    won = of_type(out, HandWon)
    assert len(won) == 1 and won[0].reason.startswith("revoke") and won[0].team == 1
    assert of_type(out, CardNotCounted) == [CardNotCounted(0, card("AD"), "the hand ended with the revoke")]
