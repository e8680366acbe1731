"""More verdicts of the hand's and the match's end that mutation testing found unpinned:
who won the match as the screens show it, and what a declined play-on is recorded as
where tricks go to piles (source 002's Double Sir). See docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import of_type, run_hand, strong_hands  # noqa: E402

from controller.rules import Match, Phase, preset  # noqa: E402
from controller.rules.events import HandWon, MatchOver, PlayOnChosen  # noqa: E402
from controller.rules.options import MatchEnd  # noqa: E402


def test_the_match_winner_is_on_every_screen_when_the_match_ends() -> None:
    """A one-hand match: Asif's side (seat 0 holds the top cards) takes seven tricks and
    the court, and with it the match; the views say so, not just the event."""
    m = Match(preset("court-piece", match_end=MatchEnd.HANDS, match_target=1), first_dealer=3)
    events = run_hand(m, strong_hands(0), [0] * 13)
    (over,) = of_type(events, MatchOver)
    assert over.winner == 0 and m.phase is Phase.OVER
    assert m.winner == 0
    assert m.public_view()["match_over"]["winner"] == 0


def test_a_declined_play_on_over_piles_is_seven_tricks_not_a_first_seven() -> None:
    """Double Sir (002): tricks pile in the centre, so nobody "takes the first seven" one
    by one. Asif's side reaches seven without the others taking any and declines to play
    on: the hand is won as plain seven tricks, with no sweep court."""
    m = Match(preset("double-sir"), first_dealer=3)
    events = run_hand(m, strong_hands(0), [0] * 13)
    assert of_type(events, PlayOnChosen) == [PlayOnChosen(0, False)]
    (won,) = of_type(events, HandWon)
    assert (won.team, won.reason) == (0, "seven tricks")
    assert m.history[-1]["reason"] == "seven tricks"
