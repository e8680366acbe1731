"""``courtpiece enroll``: teach the referee a deck by tapping its 52 cards on a reader.

Readers: ``pn532`` (direct, HSU), ``rdm6300`` (125 kHz), ``sim`` (a simulated PN532
on a pseudo-terminal with a virtual hand tapping made-up tags: for trying the flow on
a laptop), ``hub`` (any reader of the reader hub: a seat spot, the deal or trump spot).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from controller.readers.hub import HubDriver

DEFAULT_PORTS = {"hub": "/dev/courtpiece-hub", "pn532": "/dev/serial0", "rdm6300": "/dev/serial0"}
#: Seconds the reader hub has to open before enroll gives up (a search of the USB serial
#: ports probes each for up to 2.5 s).
HUB_WAIT = 20.0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "enroll",
        help="enrol a deck: tap all 52 cards on a reader",
        description="Walk through tapping every card of a deck on one reader (AS, KS … 2S, then hearts, "
        "diamonds, clubs) and save the tag-to-card map as STATE/decks/NAME.json.",
    )
    p.add_argument(
        "--deck", required=True, metavar="NAME", help="deck name (letters, digits, - and _)"
    )
    state = os.environ.get("STATE_DIRECTORY")  # set by systemd and the admin `courtpiece`
    p.add_argument(
        "--state-dir",
        required=state is None,
        default=state,
        metavar="DIR",
        help="the referee's state directory" + (f" (default: {state})" if state else
                                                 " (or $STATE_DIRECTORY, which the Pi's own `courtpiece` sets)"),
    )
    p.add_argument("--reader", choices=("pn532", "rdm6300", "hub", "sim"), default="pn532")
    p.add_argument(
        "--port",
        help="serial port (default: /dev/serial0, the UART on GPIO14/15; for the hub "
        "/dev/courtpiece-hub, else the first USB serial port that speaks the hub protocol)",
    )
    p.add_argument("--replace", action="store_true", help="re-enrol a deck that already has a file")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    from controller.decks.deckmap import DeckError, DeckStore
    from controller.decks.enroll import EnrollmentIncomplete, Prompt, Step, enroll_deck

    out = out or sys.stdout
    err = err or sys.stderr
    def show_prompt(prompt: Prompt) -> None:
        print(prompt.text(), file=out, flush=True)

    def show_step(step: Step) -> None:
        if step.accepted:
            print(f"      ok  {step.message}", file=out, flush=True)
        else:
            print(f"      NO  {step.message}", file=out, flush=True)

    stop = threading.Event()
    store = DeckStore(args.state_dir)
    try:
        if store.exists(args.deck) and not args.replace:
            print(
                f"enroll: deck {args.deck!r} is already enrolled ({store.path(args.deck)}); "
                "pass --replace to enrol it again",
                file=err,
            )
            return 1
        tags, cleanup = _open_source(args, stop, err)
    except (DeckError, OSError) as exc:  # a bad name, a port that cannot be opened
        print(f"enroll: {exc}", file=err)
        return 1
    try:
        print(
            f"Enrolling deck {args.deck!r}: tap each card when asked, then lift it off.", file=out
        )
        deck, path = enroll_deck(
            args.deck,
            tags,
            store,
            replace=args.replace,
            on_prompt=show_prompt,
            on_step=show_step,
        )
    except EnrollmentIncomplete as exc:
        print(f"enroll: {exc}; nothing saved", file=err)
        return 1
    except DeckError as exc:
        print(f"enroll: {exc}", file=err)
        return 1
    except KeyboardInterrupt:
        print("\nenroll: interrupted; nothing saved", file=err)
        return 130
    finally:
        stop.set()
        cleanup()
    print(f"Deck {deck.name!r}: all {len(deck.cards)} cards enrolled, saved to {path}", file=out)
    return 0


def _open_source(
    args: argparse.Namespace, stop: threading.Event, err: TextIO
) -> tuple[Iterator[str], Callable[[], None]]:
    """Tag ids from the chosen reader, and a function that shuts it all down."""
    from controller.decks.deckmap import check_deck_name

    check_deck_name(args.deck)  # fail before touching any hardware
    if args.reader == "sim":
        return _simulated_source(args.deck, stop, err)
    port = args.port or DEFAULT_PORTS[args.reader]
    if args.reader == "hub":
        return _hub_source(port, stop, err, search=args.port is None)
    if args.reader == "pn532":
        from controller.readers.pn532 import Pn532Reader

        reader = Pn532Reader("deal", port, source=f"enroll:pn532:{port}")
    else:
        from controller.readers.rdm6300 import Rdm6300Reader

        reader = Rdm6300Reader("deal", port, source=f"enroll:rdm6300:{port}")
    reader.open()  # a wrong --port fails here, at once, rather than retrying for ever
    return _tags(reader.sightings(stop), err), reader.close


def _hub_source(
    port: str, stop: threading.Event, err: TextIO, *, search: bool = False
) -> tuple[Iterator[str], Callable[[], None]]:
    """Tags tapped on any reader of the reader hub (each tag counts once per placement).

    Any seat spot will do, or the deal or trump spot. Unlike the service, which waits
    for a hub for ever, this fails at once (OSError) when the port cannot be opened: a
    wrong ``--port``, no hub plugged in, or the referee service holding the hub.
    ``search``: no port was named, so a hub on another USB serial port is found too.
    """
    import queue

    from controller.readers.hub import HubConfig, HubDriver
    from controller.readers.hub_finder import DEFAULT_SEARCH

    config = HubConfig(
        port=port, source=f"enroll:hub:{port}", search=DEFAULT_SEARCH if search else ()
    )
    driver = HubDriver(config).start()
    try:
        early = _wait_for_hub(driver, HUB_WAIT)
    except OSError:
        driver.stop()
        raise

    def sightings() -> Iterator[object]:
        yield from early
        while not stop.is_set():
            try:
                yield driver.events.get(timeout=0.2)
            except queue.Empty:
                continue

    return _tags(sightings(), err), driver.stop


def _wait_for_hub(driver: HubDriver, timeout: float) -> list[object]:
    """Wait until the driver has the hub's port open; the events it gave meanwhile.

    Raises OSError, with what to do, as soon as the driver reports it cannot open it.
    """
    import queue
    import time

    from controller.readers.sightings import ReaderFault

    early: list[object] = []
    deadline = time.monotonic() + timeout
    while not driver.wait_connected(0.05):
        try:
            event = driver.events.get_nowait()
        except queue.Empty:
            if time.monotonic() > deadline:
                raise OSError(f"no reader hub answers at {driver.port}") from None
            continue
        if isinstance(event, ReaderFault) and event.message.startswith("cannot open hub port"):
            if "lock" in event.message:
                raise OSError(
                    f"the reader hub at {driver.port} is in use, most likely by the referee "
                    "service: sudo systemctl stop courtpiece, enrol, then start it again"
                )
            raise OSError(f"no reader hub at {driver.port}: {event.message}")
        early.append(event)
    return early


def _tags(sightings: Iterator[object], err: TextIO) -> Iterator[str]:
    """Tag ids out of a stream of sightings; faults go to the terminal, not the deck."""
    from controller.readers.sightings import ReaderFault, TagSeen

    for s in sightings:
        if isinstance(s, TagSeen):
            yield s.tag
        elif isinstance(s, ReaderFault):
            print(f"      reader: {s.message}", file=err, flush=True)


def _simulated_source(
    deck: str, stop: threading.Event, err: TextIO
) -> tuple[Iterator[str], Callable[[], None]]:
    """A simulated PN532 and a virtual hand tapping 52 made-up tags on it."""
    import random

    from controller.readers.pn532 import Pn532Reader
    from controller.readers.pn532_sim import SimulatedPn532

    rng = random.Random(f"courtpiece-sim-deck:{deck}")
    uids: list[bytes] = []
    while len(uids) < 52:
        uid = bytes([0x04]) + rng.randbytes(6)  # 7-byte UIDs, like NTAG stickers
        if uid not in uids:
            uids.append(uid)
    sim = SimulatedPn532().start()
    reader = Pn532Reader(
        "deal", sim.port, source="enroll:sim", poll_interval=0.002, removal_polls=2, ack_timeout=1.0
    )

    def hand() -> None:
        for i, uid in enumerate(uids):
            if stop.is_set():
                return
            try:
                # after the last card the reader stops: do not wait for its lifting
                sim.tap(uid, empty_polls=2 if i < len(uids) - 1 else 0, timeout=10)
            except TimeoutError:
                return

    threading.Thread(target=hand, name="virtual-hand", daemon=True).start()

    def cleanup() -> None:
        reader.close()
        sim.close()

    return _tags(reader.sightings(stop), err), cleanup
