"""A camera table with one RFID spot for the face-down trump (hidden-trump presets).

The camera cannot see a face-down card, so the trump spot keeps an RFID reader; plays
come from the camera as CardSeen and the trump from the reader as TagSeen, both through
the same TableService path."""

from __future__ import annotations

import json

from controller.config import Config
from controller.decks.deckmap import DeckMap
from controller.readers.sightings import CardSeen, TagSeen
from controller.referee.service import TableService
from controller.sim.simulator import simulated_deck


def test_camera_plays_and_an_rfid_trump_spot_referee_hidden_rung(tmp_path):
    deck = simulated_deck()
    cfg = Config()
    cfg.table.state_dir = str(tmp_path)
    service = TableService.open(cfg, DeckMap([deck], deck.name))
    r = service.referee
    r.command("new-match", {"preset": "hidden-rung", "knowledge": "played", "first_dealer": 0})
    service.on_reader_event(TagSeen("trump", deck.tag_of("7S"), 1.0, "rfid-trump"))
    view = r.public_state()["view"]
    assert view["trump_hidden"] and view["trump"] is None
    assert "7S" not in json.dumps(r.public_state()) + json.dumps([dict(e) for e in r.public_events()])
    for at, (zone, card) in enumerate([("seat1", "AH"), ("seat2", "5H"), ("seat3", "KH"), ("seat0", "2H")], 2):
        service.on_reader_event(CardSeen(zone, card, float(at), "camera"))
    plays = [(e["seat"], e["card"]) for e in r.events if e["event"] == "play-accepted"]
    assert plays == [(1, "AH"), (2, "5H"), (3, "KH"), (0, "2H")]
    assert [e["winner"] for e in r.events if e["event"] == "trick-won"] == [1]
    assert "7S" not in json.dumps([dict(e) for e in r.public_events()])
    service.close()


def test_a_tag_from_another_enrolled_deck_is_named_during_play(tmp_path):
    """Two decks enrolled, one active: a card of the other deck on the table is reported
    with that deck's name, never counted as a card of this game."""
    from controller.decks.deckmap import DECK_ORDER, Deck

    active = simulated_deck()
    blue = Deck("blue", {card: f"B1000{i:03X}" for i, card in enumerate(DECK_ORDER)})
    cfg = Config()
    cfg.table.state_dir = str(tmp_path)
    service = TableService.open(cfg, DeckMap([active, blue], active.name))
    r = service.referee
    r.command("new-match", {"preset": "court-piece"})
    service.on_reader_event(TagSeen("deal", blue.tag_of("7H"), 1.0, "rfid-hub"))
    public = [e for e in r.events if "private_to" not in e]
    assert [e["event"] for e in public][-1] == "other-deck-tag"
    assert "deck 'blue'" in public[-1]["message"] and "7H" not in json.dumps([dict(e) for e in public])
    assert r.match.hand.deal_index == 0
    service.close()
