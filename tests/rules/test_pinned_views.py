"""What the public screen shows, key by key, at moments mutation testing found no test
looking at: an auction under way and one settled by an open challenge, a flagged play
waiting for a ruling, a trick led from another seat than 0, the 7-0 choice, a match over,
and the kind of score each preset keeps. See docs/mutation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from tablehelp import (  # noqa: E402
    banded_hands,
    card,
    deal,
    deal_first_batch,
    play,
    play_script,
    script_tricks,
    strong_hands,
)

from controller.rules import Match, Suit, preset  # noqa: E402
from controller.rules import inputs as I  # noqa: E402
from controller.rules.events import HandWon, PlayOnChosen  # noqa: E402


def shows(m: Match, **expected: Any) -> None:
    """The public view holds exactly these values under these keys."""
    view = m.public_view()
    assert {k: view[k] for k in expected} == expected


def test_an_auction_under_way() -> None:
    """004: seat 1 bid 9, seat 2 went to 10; seat 3 is to speak. Nobody is caller yet."""
    m = Match(preset("band-rung"), first_dealer=0)
    deal_first_batch(m, strong_hands(2))
    m.apply(I.Bid(1, 9))
    m.apply(I.Bid(2, 10))
    shows(m, phase="call", knowledge="dealt", direction="counter-clockwise", hand=1, dealer=0,
          caller=None, bid=None, bid_open=False, trump=None, trump_card=None, trump_hidden=False,
          trump_how=None, cards_dealt=20, turn=None, score_kind="net", play_on_team=None,
          playing_on=False, history=[], last_hand=None, match_over=None,
          auction={"turn": 3, "high": 10, "high_seat": 2, "open_suit": None, "passed": [], "done": False},
          match_end={"kind": "points", "target": 104, "time_up": False})


def test_an_auction_won_by_an_open_challenge() -> None:
    """004: over a hidden 13, the next bidder names hearts openly and takes the call."""
    m = Match(preset("band-rung"), first_dealer=0)
    deal_first_batch(m, strong_hands(2))
    m.apply(I.Pass(1))
    m.apply(I.Bid(2, 13))
    m.apply(I.OpenChallenge(3, Suit.H))
    shows(m, caller=3, bid=13, bid_open=True, trump="H", trump_hidden=False,
          auction={"turn": None, "high": 13, "high_seat": 3, "open_suit": "H", "passed": [1], "done": True})


def court_piece_flag() -> Match:
    """Dealer 3, clubs trump: seat 0 leads the 9 of hearts, seat 1 throws the 8 of spades
    while holding hearts."""
    hands = banded_hands()
    m = Match(preset("court-piece"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    play(m, "9H")
    m.apply(I.Play(1, card("8S")))
    return m


def test_a_flagged_play_waiting_for_a_ruling() -> None:
    m = court_piece_flag()
    shows(m, phase="play", caller=0, trump="C", trump_how="announced", cards_dealt=52, turn=2,
          score_kind="courts", auction=None,
          pending_revoke={"seat": 1, "card": "8S", "rule": "follow-suit", "suit": "H", "proof": None,
                          "detail": "did not follow hearts"},
          trick={"number": 1, "leader": 0, "cards": [
              {"seat": 0, "card": "9H", "face_down": False}, {"seat": 1, "card": "8S", "face_down": False}]},
          match_end={"kind": "time", "target": 0, "time_up": False})


def test_a_trick_is_shown_in_playing_order_from_its_leader() -> None:
    """Seat 2 won the first trick and leads the second: seats 2, 3, 0 in that order."""
    hands = banded_hands()
    m = Match(preset("court-piece"), first_dealer=3)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(0, Suit.C))
    deal(m, hands)
    play(m, "9H 8H QH JH QD JD AD")
    shows(m, trick={"number": 2, "leader": 2, "cards": [
        {"seat": 2, "card": "QD", "face_down": False}, {"seat": 3, "card": "JD", "face_down": False},
        {"seat": 0, "card": "AD", "face_down": False}]}, turn=1, tricks_by_seat=[0, 0, 1, 0])


def test_the_seven_nil_choice_and_the_match_over() -> None:
    """001: seat 1's team took the first seven; the screen names the team that chooses.
    They play on; then the table ends the match before any court is scored: no winner."""
    hands = strong_hands(1)
    m = Match(preset("court-piece"), first_dealer=0)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(1, Suit.S))
    deal(m, hands)
    play_script(m, script_tricks(hands, 1, [1] * 7, trump=Suit.S))
    shows(m, phase="play-on", play_on_team=1, playing_on=False, turn=None, tricks=[0, 7])
    m.apply(I.PlayOn(True))
    shows(m, phase="play", play_on_team=None, playing_on=True)
    m.apply(I.EndMatch())
    shows(m, phase="over", match_over={"winner": None, "reason": "ended by the table"})


def test_a_finished_hand_is_the_last_hand_of_the_history() -> None:
    hands = strong_hands(1)
    m = Match(preset("court-piece"), first_dealer=0)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(1, Suit.S))
    deal(m, hands)
    play_script(m, script_tricks(hands, 1, [1] * 7, trump=Suit.S))
    m.apply(I.PlayOn(False))
    view = m.public_view()
    assert len(view["history"]) == 1 and view["last_hand"] == view["history"][0]
    assert view["hand"] == 2 and view["cards_dealt"] == 0 and view["score"] == [0, 1]


def test_each_preset_names_the_score_it_keeps() -> None:
    kinds = {name: Match(preset(name), knowledge="played").public_view()["score_kind"]
             for name in ("court-piece", "online-points", "band-rung")}
    assert kinds == {"court-piece": "courts", "online-points": "points", "band-rung": "net"}
    assert Match(preset("court-piece"), knowledge="played").public_view()["cards_dealt"] is None
    assert Match(preset("court-piece"), knowledge="played").public_view()["knowledge"] == "played"


def test_stopping_at_seven_nil_is_won_by_the_first_seven_tricks() -> None:
    """001: the winners of a 7-0 start stop there; the hand is won by the first seven."""
    hands = strong_hands(1)
    m = Match(preset("court-piece"), first_dealer=0)
    deal_first_batch(m, hands)
    m.apply(I.CallTrump(1, Suit.S))
    deal(m, hands)
    play_script(m, script_tricks(hands, 1, [1] * 7, trump=Suit.S))
    events = m.apply(I.PlayOn(False))
    assert [(e.team, e.play_on) for e in events if isinstance(e, PlayOnChosen)] == [(1, False)]
    assert [(e.team, e.tricks, e.reason) for e in events if isinstance(e, HandWon)] == [
        (1, (0, 7), "first seven tricks")]
