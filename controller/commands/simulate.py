"""``courtpiece simulate``: a bot-played table through the virtual reader hub."""

from __future__ import annotations

import argparse
import json


class _SaysDefaults(argparse.HelpFormatter):
    """A default only where it tells something and the help has not already said it
    (argparse's own formatter printed "(default: random) (default: None)")."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        quiet = action.default is None or action.default is False or action.default in ("", [])
        if "(default" in text or quiet or action.default is argparse.SUPPRESS:
            return text
        return text + " (default: %(default)s)"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="referee a bot-played table through a virtual reader hub",
                       description="Four bots play a real deck through the virtual reader hub (the real "
                       "wire protocol over a pseudo-terminal); the referee judges every card and the "
                       "dashboard shows it.", formatter_class=_SaysDefaults)
    p.add_argument("--preset", default="court-piece", help="the rules the table plays ('courtpiece presets' lists them)")
    p.add_argument("--knowledge", choices=["dealt", "played"], default="dealt",
                   help="dealt: cards are read as they are dealt; played: only played cards are seen")
    p.add_argument("--variant", action="append", default=[], help="a preset variant (repeatable)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="override an option")
    p.add_argument("--hands", type=int, help="end each match after this many hands")
    p.add_argument("--matches", type=int, help="matches to play (default: 1 without the web, endless with it)")
    p.add_argument("--speed", type=float, default=1.0, help="1 = human pace; 20 = twenty times faster")
    p.add_argument("--revokes", type=float, default=0.02, help="chance a bot revokes on a play")
    p.add_argument("--misreads", type=float, default=0.0, help="chance a card is misread (then undone)")
    p.add_argument("--duplicates", type=float, default=0.0, help="chance a card is read again several times")
    p.add_argument("--garbage", type=float, default=0.0, help="chance of garbage bytes on the serial line")
    p.add_argument("--unplug-every", type=float, default=0.0, metavar="SECONDS", help="pull the hub's cable")
    p.add_argument("--seed", type=int, help="shuffle and bot choices from this seed (default: random)")
    p.add_argument("--state-dir", help="keep the journal here (default: a fresh temporary folder)")
    p.add_argument("--no-web", action="store_true", help="no dashboard, terminal only")
    p.add_argument("--host", default="127.0.0.1", help="address the dashboard listens on")
    p.add_argument("--port", type=int, default=8000, help="port of the dashboard")
    p.add_argument("--pin", default="", help="admin PIN (default: generated and printed)")
    p.add_argument("--json", action="store_true", help="print public table events as JSON lines")
    p.add_argument("--voice", choices=["en", "ur"], help="speak the referee's announcements (needs espeak-ng)")
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import signal
    import sys
    import tempfile
    import threading
    from pathlib import Path

    from controller.config import Config
    from controller.decks.deckmap import DeckMap, DeckStore
    from controller.readers.virtual_hub import VirtualHub
    from controller.referee.service import TableService
    from controller.referee.table_events import PUBLIC, TableEvent, sees
    from controller.runtime import (
        make_web_app,
        serve_web,
        start_hub,
        start_match_clock,
        start_move_timer,
    )
    from controller.signals.narrate import describe
    from controller.sim.simulator import SimSettings, SimulatedTable, simulated_deck

    options: dict[str, object] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name.strip()] = value.strip()
    if args.hands:
        options["match-end"] = "hands"
        options["match-target"] = args.hands
    if not args.no_web and (busy := port_in_use(args.host, args.port)):
        print(f"courtpiece simulate: cannot serve the dashboard on {args.host}:{args.port} ({busy}); "
              "choose another with --port", file=sys.stderr)
        return 2
    scratch = None if args.state_dir else tempfile.TemporaryDirectory(prefix="courtpiece-sim-")
    state = Path(args.state_dir or scratch.name)  # type: ignore[union-attr]
    state.mkdir(parents=True, exist_ok=True)
    deck = simulated_deck()
    DeckStore(state).save(deck)
    cfg = Config()
    cfg.table.state_dir = str(state)
    cfg.web.host = args.host  # the table screen's QR code shows where phones can reach it
    hub = VirtualHub(link_path=state / "hub").start()
    service = TableService.open(cfg, DeckMap([deck], deck.name))
    seats = ["Asha", "Bilal", "Chetan", "Dua"]

    def show(e: TableEvent) -> None:
        if args.quiet or not sees(PUBLIC, e):
            return
        if args.json:
            print(json.dumps(e.to_dict()), flush=True)
            return
        line = describe(e, seats)
        if line:
            print(line, flush=True)

    service.referee.subscribe(show)
    voice = None
    if args.voice:
        from controller.runtime import start_voice

        cfg.voice.language = args.voice
        voice = start_voice(service)
    driver = start_hub(service, hub.port, source="virtual-hub")
    web = None if args.no_web else make_web_app(service, args.pin, voice=voice)
    matches = args.matches if args.matches is not None else (1 if web is None else 10**9)
    settings = SimSettings(preset=args.preset, knowledge=args.knowledge, variants=args.variant, options=options,
                           seats=seats, speed=args.speed, revoke_rate=args.revokes, misread_rate=args.misreads,
                           duplicate_rate=args.duplicates, garbage_rate=args.garbage,
                           unplug_every=args.unplug_every, seed=args.seed, matches=matches)
    sim = SimulatedTable(service.referee, hub, deck, settings, say=(lambda t: None) if args.quiet else print)
    stop = threading.Event()
    start_move_timer(service, stop)
    start_match_clock(service, stop)
    # SIGTERM (a terminal closing, `timeout`, a service manager) ends the run like Ctrl-C,
    # so the temporary journal folder is removed either way.
    signal.signal(signal.SIGTERM, _interrupt)
    print(f"simulated table: {args.preset} ({args.knowledge} mode); journal in {state}", flush=True)
    try:
        if web is not None:
            app, _pin = web
            print(f"dashboard: http://{args.host}:{args.port}/  table screen: /table  admin: /admin", flush=True)
            sim_thread = threading.Thread(target=sim.run, args=(stop,), daemon=True, name="simulator")
            sim_thread.start()
            serve_web(app, args.host, args.port, stop)
        else:
            sim.run(stop)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        driver.stop()
        hub.stop()
        stats = driver.stats()
        if not args.quiet:
            print(f"hub: {stats}", flush=True)
            print(f"referee: {service.referee.counters}; injected: {sim.injected}", flush=True)
        service.close()
        if scratch is not None:  # a run without --state-dir leaves nothing behind
            scratch.cleanup()
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def port_in_use(host: str, port: int) -> str | None:
    """Why the dashboard could not listen there, or None: checked before anything starts,
    so a busy port is one line instead of a dealt hand and a traceback."""
    import socket

    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as err:
        return err.strerror or str(err)
    return None
