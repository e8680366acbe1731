"""More verdicts of the hand's and the match's end that mutation testing found unpinned:
who won the match as the screens show it, what a declined play-on is recorded as where
tricks go to piles (source 002's Double Sir), and rang's first-seven court (000) when the
hand is played out. See docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import banded_hands, card, of_type, run_hand, strong_hands  # noqa: E402

from controller.rules import Match, Phase, Suit, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import (  # noqa: E402
    CourtsScored,
    Event,
    HandWon,
    MatchOver,
    PlayOnChosen,
    PlayOnOffered,
    StreakUpdated,
)
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
    assert of_type(events, StreakUpdated) == [StreakUpdated(0, 1)]  # one hand won in a row


def test_the_first_seven_still_score_a_court_when_the_hand_is_played_to_the_end() -> None:
    """Rang (000) pays a court for taking the first seven tricks. At a table that does not
    stop at 7-0, Asif's side takes tricks 1 to 7, loses the 8th and wins on tricks at the
    end: the court for the first seven is still theirs."""
    m = Match(preset("rang", sweep_stop=False), first_dealer=3)
    events = run_hand(m, banded_hands(), [0] * 7 + [1] + [None] * 5)
    (won,) = of_type(events, HandWon)
    assert (won.team, won.reason) == (0, "more tricks")
    assert [(c.team, c.courts, c.reason) for c in of_type(events, CourtsScored)] == [(0, 1, "first seven tricks")]


def test_all_thirteen_in_one_last_pile_is_no_chance_to_play_on() -> None:
    """Double Sir (002): partners who never win two tricks running pick up nothing until
    the last trick takes the whole pile. Asif and Chetan alternate their wins, so their
    side first holds tricks at the end, all thirteen at once: the hand is over and the
    all-thirteen court is theirs -- there is nothing left to play on for."""
    m = Match(preset("double-sir"), first_dealer=3, knowledge="played")
    m.apply(I.CallTrump(0, Suit.C))
    events: list[Event] = []
    for trick in ("AS 2S 3S 4S", "5S 6S KS 7S", "8S 9S QS TS", "2H 3H AH 4H", "5H 6H KH 7H",
                  "8H 9H QH TH", "2D 3D AD 4D", "5D 6D KD 7D", "8D 9D QD TD", "2C 3C AC 4C",
                  "5C 6C KC 7C", "8C 9C QC TC", "JC JS JH JD"):
        for text in trick.split():
            events += m.apply(I.Play(m.turn(), card(text)))  # type: ignore[arg-type]
    assert not of_type(events, PlayOnOffered)
    assert of_type(events, HandWon) == [HandWon(1, 0, (13, 0), "seven tricks", Suit.C)]
    assert [(c.team, c.courts, c.reason) for c in of_type(events, CourtsScored)] == [(0, 1, "all thirteen tricks")]


def test_a_seven_nil_start_at_a_table_that_never_plays_on_scores_the_first_seven_court() -> None:
    """Court Piece (001): a court for the first seven tricks. Where the winners are never
    offered to play on, the hand stops at 7-0 with that court."""
    m = Match(preset("court-piece", play_on=False), first_dealer=3)
    events = run_hand(m, strong_hands(0), [0] * 13)
    assert of_type(events, HandWon) == [HandWon(1, 0, (7, 0), "seven tricks", Suit.S)]
    assert [(c.team, c.courts, c.reason) for c in of_type(events, CourtsScored)] == [(0, 1, "first seven tricks")]


def test_all_thirteen_played_out_pay_the_all_thirteen_court() -> None:
    """Rang (000) at a table that never stops at 7-0: Asif's side takes all thirteen tricks
    and the hand is won on tricks at the end, with the court for all thirteen."""
    m = Match(preset("rang", sweep_stop=False), first_dealer=3)
    events = run_hand(m, strong_hands(0), [0] * 13)
    assert of_type(events, HandWon) == [HandWon(1, 0, (13, 0), "more tricks", Suit.S)]
    assert [(c.team, c.courts, c.reason) for c in of_type(events, CourtsScored)] == \
        [(0, m.options.court_all_thirteen, "all thirteen tricks")]
