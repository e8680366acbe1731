"""How fast a dealer may slide cards over the deal spot before the hub misses one.

A reader hub polls its readers one at a time, one turn each (field on, hold, read, field
off; ``--turn-ms``, 25 ms by default, so six readers take 150 ms a round). A card is
read only if it lies on the deal reader through one of that reader's turns. This bench
deals cards over the deal spot of the virtual hub, which models those turns
(``controller/readers/hub_poll_model.py``), behind the real hub driver on a real
pseudo-terminal, at rising speed (cards per second), twice:

* ``all_zones``: the hub polls all six readers (older firmware, or no ZONES sent);
* ``deal_only``: the host has told the hub ``ZONES deal``, as the referee does while a
  read deal is under way; the deal reader gets every turn.

Each card is over the spot for ``--over`` of its beat (0.5: half the time between two
cards; the other half the dealer's hand is on the way to the next player). For each
mode the figure is the fastest speed at which a whole deal (``--cards``) was read
without a missed card; the speeds are tried in order and a mode stops at its first miss
(deal_only starts from all_zones' figure: one reader polled more often never reads less).
The last line is the summary; ``ratio`` is deal_only over all_zones, both measured in
this run::

    dealing all_zones_cps=2.8 deal_only_cps=9.3 ratio=3.33 turn_ms=25 cards=52 over=0.5

    python bench/dealing.py [--cards 52] [--turn-ms 25] [--over 0.5] [--start 1.5] [--step 1.2]
"""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Iterator

from controller.readers.hub import HubConfig, HubDriver
from controller.readers.hub_tracker import HubEvent
from controller.readers.sightings import TagSeen
from controller.readers.virtual_hub import VirtualHub

SENTINEL = "0DEADBEE"


class DealSpot:
    """The tags the driver reported on the deal spot, with a wait for one of them."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self._cond = threading.Condition()

    def __call__(self, event: HubEvent) -> None:
        if isinstance(event, TagSeen) and event.zone == "deal":
            with self._cond:
                self.seen.add(event.tag)
                self._cond.notify_all()

    def wait(self, tag: str, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: tag in self.seen, timeout)

    def count(self, tags: list[str]) -> int:
        with self._cond:
            return sum(t in self.seen for t in tags)


def speeds(start: float, step: float, top: float) -> Iterator[float]:
    cps = start
    while cps <= top:
        yield round(cps, 2)
        cps *= step


def deal(hub: VirtualHub, spot: DealSpot, tags: list[str], cps: float, over: float,
         settle: float) -> int:
    """Slide ``tags`` over the deal spot at ``cps``; returns how many the driver reported."""
    beat = 1.0 / cps
    start = time.monotonic() + 0.05
    for i, tag in enumerate(tags):
        on = start + i * beat
        time.sleep(max(0.0, on - time.monotonic()))
        placed = time.monotonic()
        hub.place("deal", tag)
        # timed from the moment it was put down: a late thread never shortens a card's stay
        time.sleep(max(0.0, placed + over * beat - time.monotonic()))
        hub.remove("deal")
    # A card left lying until it is read: every line before its TAG has been read too.
    hub.place("deal", SENTINEL)
    found = spot.wait(SENTINEL, settle)
    hub.remove("deal")
    if not found:
        raise SystemExit("the hub never reported the closing card: is the machine overloaded?")
    time.sleep(settle / 4)  # its GONE, so the next deal starts on an empty spot
    with spot._cond:
        spot.seen.discard(SENTINEL)
    return spot.count(tags)


def fastest(mode: str, args: argparse.Namespace, start: float) -> float:
    """The fastest speed with every card read, for one mode."""
    turn = args.turn_ms / 1000
    best = 0.0
    with VirtualHub(reader_turn=turn, heartbeat_interval=0.5) as hub:
        spot = DealSpot()
        driver = HubDriver(HubConfig(port=hub.port, removal_silence=None), spot).start()
        try:
            if not hub.wait_host(10):
                raise SystemExit("the driver never opened the virtual hub")
            if mode == "deal_only":
                driver.poll_zones(["deal"])
            deadline = time.monotonic() + 10
            while driver.status().takes_commands is not True and time.monotonic() < deadline:
                time.sleep(0.01)
            expected = ("deal",) if mode == "deal_only" else hub.zones
            if hub.polled != expected:
                raise SystemExit(f"{mode}: the hub polls {hub.polled}, not {expected}")
            settle = 10 * turn * len(hub.polled) + 1.0
            for run, cps in enumerate(speeds(start, args.step, args.top)):
                tags = [f"D{mode == 'deal_only':d}{run:02X}{i:04X}" for i in range(args.cards)]
                got = deal(hub, spot, tags, cps, args.over, settle)
                print(f"{mode:9} {cps:6.2f} cards/s: {got}/{args.cards} read", flush=True)
                if got < args.cards:
                    break
                best = cps
        finally:
            driver.stop()
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", type=int, default=52, help="cards per deal (default 52)")
    ap.add_argument("--turn-ms", type=float, default=25.0,
                    help="one reader's turn: field on, hold, read, field off (default 25)")
    ap.add_argument("--over", type=float, default=0.5,
                    help="share of each card's beat it spends over the deal spot (default 0.5)")
    ap.add_argument("--start", type=float, default=1.5, help="first speed, cards per second")
    ap.add_argument("--step", type=float, default=1.2, help="each next speed is this times faster")
    ap.add_argument("--top", type=float, default=40.0, help="fastest speed tried")
    args = ap.parse_args()
    every = fastest("all_zones", args, args.start)
    alone = fastest("deal_only", args, max(every, args.start))
    ratio = alone / every if every else float("inf")
    print(f"dealing all_zones_cps={every:g} deal_only_cps={alone:g} ratio={ratio:.2f} "
          f"turn_ms={args.turn_ms:g} cards={args.cards} over={args.over:g}")


if __name__ == "__main__":
    main()
