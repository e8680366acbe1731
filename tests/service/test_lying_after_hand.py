"""The last trick's cards lie on the seat readers after a hand ends, in played mode,
until someone gathers them. Read again then (a reader that missed one a while, a host
that stalled, a restarted service), they are the same cards still lying there: the
table must not hear "hand 1 is over" refusals for cards nobody touched."""

from __future__ import annotations

import random

from controller.readers.sightings import CardSeen
from controller.referee.actions import table_input
from controller.referee.journal import Journal
from controller.referee.referee import SIGHTING, Referee
from controller.rules import Phase
from controller.rules.cards import CARDS
from controller.sim.bots import BotTable
from controller.sim.simulator import SimSettings, SimulatedTable

from .tablekit import feed, new_match_args


def play_to_hand_end(r: Referee) -> None:
    bots, n = BotTable(r.match, random.Random(1)), 0
    while r.match.hand.number == 1:
        bots.match = r.match
        kind, payload = table_input(bots.next_input())
        n += 1
        feed(r, kind, payload, 10.0 + n)


def lying(r: Referee) -> dict[str, str]:
    """The card last put on each seat's spot: the last trick, still lying there."""
    out = {}
    for e in r.journal.entries():
        if e.kind == SIGHTING and e.payload["zone"].startswith("seat"):
            out[e.payload["zone"]] = e.payload["card"]
    return out


def test_a_card_of_the_last_trick_read_again_before_the_next_hand_is_a_repeat(tmp_path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        r = Referee(journal)
        r.command("new-match", new_match_args("court-piece", "played", hands=2), at=1.0)
        play_to_hand_end(r)
        assert r.match.phase is Phase.CALL and not r.match.hand.started
        last_trick = lying(r)
        assert len(last_trick) == 4
        for zone, card in last_trick.items():
            out = r.sighting(CardSeen(zone, card, 500.0, "hub"))
            assert [e["event"] for e in out] == ["duplicate-read"], out
        # another card put down there now is still refused: the hand is over
        zone, card = next(iter(last_trick.items()))
        other = next(str(c) for c in CARDS if str(c) != card)
        out = r.sighting(CardSeen(zone, other, 501.0, "hub"))
        assert out[0]["event"] == "impossible" and "hand 1 is over" in out[0]["message"]
        # and after a restart, the card still lying there is still a repeat
        restarted = Referee(journal)
        restarted.restore()
        out = restarted.sighting(CardSeen(zone, card, 502.0, "hub"))
        assert [e["event"] for e in out] == ["duplicate-read"], out


def test_the_simulator_sees_the_sighting_that_ended_a_hand(tmp_path) -> None:
    """The bots wait for each card they put down to be seen; the one that ended a hand
    was never found (the referee's list of inputs starts again at a hand's start), so
    they sat out their whole wait with the last trick lying on the readers."""
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        r = Referee(journal)
        r.command("new-match", new_match_args("court-piece", "played", hands=2), at=1.0)
        sim = SimulatedTable(r, hub=None, deck=None, settings=SimSettings())  # type: ignore[arg-type]
        bots = BotTable(r.match, random.Random(1))
        ended = 0
        while r.match.hand.number == 1:
            bots.match = r.match
            before = r.last_seq
            kind, payload = table_input(bots.next_input())
            feed(r, kind, payload, 10.0 + before)
            if kind == SIGHTING:
                assert sim._seen_since(before, payload["card"]), (r.match.hand.number, payload)
                ended += r.match.hand.number == 2
        assert ended == 1
