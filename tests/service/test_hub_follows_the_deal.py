"""The referee tells the reader hub which zones matter: the deal spot alone while the
cards of a read deal come (plus the trump spot once a trump may be put down), every
zone otherwise. Against the real chain: virtual hub on a pty, driver, deck map, referee.
(The referee's answer alone, in process: test_zones_in_use.py.)"""

from __future__ import annotations

from controller.readers.sightings import ALL_ZONES
from controller.referee.referee import SIGHTING
from controller.rules import Phase
from tests.readers.test_hub_driver import wait_until
from tests.service.tablekit import STORY_HANDS, deal_sightings, new_match_args


def test_the_hub_polls_the_deal_spot_alone_while_the_cards_come_over_it(table) -> None:  # type: ignore[no-untyped-def]
    service, hub, driver, deck = table
    r = service.referee
    wait_until(lambda: driver.status().takes_commands is True)
    assert hub.polled == ALL_ZONES
    r.command("new-match", new_match_args("court-piece"))
    wait_until(lambda: hub.polled == ("deal",))
    order = deal_sightings(STORY_HANDS)

    def dealt() -> int:
        return sum(1 for e in r.journal.entries() if e.kind == SIGHTING)  # type: ignore[union-attr]

    for i, card in enumerate(order[:20]):
        hub.place("deal", deck.tag_of(card))
        wait_until(lambda i=i: dealt() == i + 1)
    wait_until(lambda: hub.polled == ("deal", "trump"))
    r.command("call-trump", {"suit": "S"})
    wait_until(lambda: hub.polled == ("deal",))
    for i, card in enumerate(order[20:], start=20):
        hub.place("deal", deck.tag_of(card))
        wait_until(lambda i=i: dealt() == i + 1)
    wait_until(lambda: hub.polled == ALL_ZONES and driver.status().polled is None)
    assert r.match is not None and r.match.phase is Phase.PLAY
