"""``[hub] port = "virtual"``: the service drives a simulated table instead of a hub.

Like OctoPrint's virtual printer behind a special port name: the whole Pi service
(journal, web, watchdog, GPIO if any) runs exactly as on a real table, but its reader
hub is the simulator's virtual hub (a real pseudo-terminal speaking the hub protocol)
and four bots play at it -- a demo table, or a soak test of the real service.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from controller.decks.deckmap import DeckMap, DeckStore
from controller.readers.virtual_hub import VirtualHub
from controller.referee.service import TableService
from controller.sim.simulator import SimSettings, SimulatedTable, simulated_deck

#: the port name that selects the simulated table
VIRTUAL_PORT = "virtual"


@dataclass
class VirtualTable:
    hub: VirtualHub
    sim: SimulatedTable

    def start(self, stop: threading.Event) -> None:
        """Let the bots play (they resume a match in progress) until ``stop`` is set."""
        threading.Thread(target=self.sim.run, args=(stop,), daemon=True, name="virtual-table").start()

    def close(self) -> None:
        self.hub.stop()


def open_virtual_table(service: TableService, *, speed: float = 1.0) -> VirtualTable:
    """The virtual hub with the simulated deck enrolled, and bots playing the config's match."""
    deck = simulated_deck()
    DeckStore(service.config.state_dir).save(deck)
    service.decks = DeckMap([deck], deck.name)
    hub = VirtualHub(link_path=service.config.state_dir / "virtual-hub").start()
    m = service.config.match
    settings = SimSettings(preset=m.preset, knowledge=m.knowledge, variants=list(m.variants),
                           options=dict(m.options), seats=list(m.seats), speed=speed, matches=10**9)
    return VirtualTable(hub, SimulatedTable(service.referee, hub, deck, settings))
