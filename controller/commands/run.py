"""``courtpiece run --config FILE``: the referee service on the Pi."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="run the referee service")
    p.add_argument("--config", help="table config (TOML); defaults work with the simulator")
    p.add_argument("-v", "--verbose", action="store_true", help="print table events as sentences")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import logging
    import signal
    import threading

    from controller.config import ConfigError, load_config
    from controller.decks.deckmap import DeckError, DeckMap
    from controller.health import Liveness, wait_until_serving
    from controller.referee.service import TableService
    from controller.referee.table_events import PUBLIC, sees
    from controller.runtime import (
        make_web_app,
        serve_web,
        start_camera,
        start_gpio,
        start_hub,
        start_match_clock,
        start_move_timer,
        start_oled,
        start_voice,
    )
    from controller.sdnotify import Notifier
    from controller.signals.narrate import describe
    from controller.sim.virtual_table import VIRTUAL_PORT, open_virtual_table

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        cfg = load_config(args.config)
    except ConfigError as err:
        print(f"courtpiece run: {err}", file=sys.stderr)
        return 2
    simulated = cfg.hub.enabled and cfg.hub.port == VIRTUAL_PORT
    try:
        decks = DeckMap.load(cfg.state_dir, cfg.table.deck or None)
    except (DeckError, OSError) as err:
        # a simulated table enrols its own deck (open_virtual_table); a camera-only table
        # (no hub) reads no tags
        if not simulated and cfg.hub.enabled:
            logging.warning("no deck map (%s): every tag will be reported as unknown; run 'courtpiece enroll'",
                            err)
        decks = None
    service = TableService.open(cfg, decks)
    service.start_default_match()
    if args.verbose:
        seats = cfg.match.seats
        service.referee.subscribe(lambda e: (print(line, flush=True) if sees(PUBLIC, e) and (
            line := describe(e, seats)) else None))
    virtual = None
    if simulated:  # a simulated table (controller/virtual_table.py)
        virtual = open_virtual_table(service)
        driver = start_hub(service, virtual.hub.port, source="virtual-hub")
    else:
        driver = start_hub(service, cfg.hub.port, search=cfg.hub.search) if cfg.hub.enabled else None
    signals = start_gpio(service) if cfg.gpio.enabled else None
    if cfg.oled.enabled:
        start_oled(service)
    voice = start_voice(service) if cfg.voice.enabled else None
    camera = start_camera(service) if cfg.camera.enabled else None
    club = None
    if cfg.club.enabled:  # this table on the club's scoreboard (docs/club.md)
        from controller.club.publisher import start_publisher

        club = start_publisher(service.referee, cfg.club, cfg.state_dir)
    notifier = Notifier()
    stop = threading.Event()
    web = make_web_app(service, cfg.table.pin, camera=camera, voice=voice) if cfg.web.enabled else None
    liveness = Liveness(service.referee, (cfg.web.host, cfg.web.port) if web is not None else None)

    def watchdog() -> None:
        # Fed only while the referee and the web loop both answer: a deadlock gets the
        # restart the unit promises. Kept while halted: a restart cannot cure a full
        # card, and the journal is retried here until it writes again.
        interval = (notifier.watchdog_timeout() or 20.0) / 3
        while not stop.wait(interval):
            problem = liveness.check()
            if problem is not None:
                logging.error("not feeding the watchdog: %s", problem)
                notifier.status(problem)
                continue
            if service.referee.halted:
                service.referee.retry_journal()
            notifier.watchdog()
            if service.referee.halted:
                notifier.status(service.referee.halted)

    def ready() -> None:
        # READY=1 only once the dashboard answers: systemd starts the kiosk on it.
        if web is None or wait_until_serving(cfg.web.host, cfg.web.port, stop):
            notifier.ready("refereeing")

    threading.Thread(target=watchdog, daemon=True, name="watchdog").start()
    if virtual is not None:
        virtual.start(stop)
    threading.Thread(target=ready, daemon=True, name="ready").start()
    start_move_timer(service, stop)
    start_match_clock(service, stop)
    # systemd stops the service with SIGTERM: close the journal and readers cleanly.
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        if web is not None:
            from controller.web.server import WebLimits

            limits = WebLimits(max_connections=cfg.web.max_connections, header_timeout=cfg.web.header_timeout,
                               body_timeout=cfg.web.body_timeout,
                               allowed_hosts=tuple(cfg.web.allowed_hosts))
            serve_web(web[0], cfg.web.host, cfg.web.port, stop, limits)
        else:
            stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        notifier.stopping()
        if driver is not None:
            driver.stop()
        if virtual is not None:
            virtual.close()
        if signals is not None:
            signals.close()
        if camera is not None:
            camera.close()
        if club is not None:
            club.stop()
        service.close()
    return 0
