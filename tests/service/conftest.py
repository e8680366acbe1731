"""Fixtures shared by the service tests."""

from __future__ import annotations

import pytest

from controller.config import Config
from controller.decks.deckmap import DeckMap
from controller.readers.virtual_hub import VirtualHub
from controller.referee.service import TableService
from controller.runtime import start_hub
from controller.sim.simulator import simulated_deck


@pytest.fixture
def table(tmp_path):  # type: ignore[no-untyped-def]
    """A table service fed by the virtual hub through the real driver on a
    pseudo-terminal, with the simulated deck enrolled: (service, hub, driver, deck)."""
    deck = simulated_deck()
    cfg = Config()
    cfg.table.state_dir = str(tmp_path)
    hub = VirtualHub(link_path=tmp_path / "hub", heartbeat_interval=0.2).start()
    service = TableService.open(cfg, DeckMap([deck], deck.name))
    driver = start_hub(service, hub.port, source="virtual-hub")
    assert hub.wait_host(10)
    yield service, hub, driver, deck
    driver.stop()
    hub.stop()
    service.close()
