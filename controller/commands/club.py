"""``courtpiece club --config FILE``: the club scoreboard (docs/club.md)."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("club", help="the club scoreboard: every table through the MQTT broker")
    p.add_argument("--config", required=True, help="club config (TOML): broker, tables, web, director's PIN")
    p.add_argument("--broker-files", metavar="DIR",
                   help="write Mosquitto's password file, ACL and config for these tables into DIR, then exit")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import logging
    import signal
    import threading
    from pathlib import Path

    from controller.club.broker_files import BrokerSetup, write_broker_files
    from controller.club.link import BrokerLink, tls_problem
    from controller.club.scoreboard import Scoreboard, quick_handoffs
    from controller.club.settings import load_club_config
    from controller.club.store import ClubStore
    from controller.club.topics import SCOREBOARD_USER
    from controller.club.web import create_club_app
    from controller.config import ConfigError
    from controller.runtime import serve_web
    from controller.web.pin import PIN_FILE, PinCheck, PinError, PinFile, PlainPin

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        cfg = load_club_config(args.config)
    except ConfigError as err:
        print(f"courtpiece club: {err}", file=sys.stderr)
        return 2
    b = cfg.broker
    if args.broker_files:
        if not b.password:
            print("courtpiece club: set [broker] password (the scoreboard's) first", file=sys.stderr)
            return 2
        conf = write_broker_files(Path(args.broker_files), prefix=cfg.club.prefix, tables=cfg.tables,
                                  scoreboard_password=b.password,
                                  setup=BrokerSetup(b.listen, b.port, tls_cert=b.server_cert, tls_key=b.server_key,
                                                    tls_ca=b.client_ca, require_certificate=bool(b.client_ca)))
        print(f"wrote {conf} and its password file and ACL for {len(cfg.tables)} tables")
        return 0
    state = cfg.state_dir
    state.mkdir(parents=True, exist_ok=True)
    # The director's PIN: as the table's, only a salted hash in STATE/admin-pin (0600),
    # made at first start and printed once; `courtpiece pin --reset --state-dir STATE`
    # makes a new one that the running scoreboard takes at the next sign-in. A PIN in
    # the club's config (which must not be world-readable) is used as it is.
    pin: PinCheck
    try:
        if cfg.club.pin:
            pin, new = PlainPin(cfg.club.pin), None
        else:
            pin = PinFile(state)
            new = pin.load_or_create()
    except PinError as err:
        print(f"courtpiece club: [club] pin: {err}", file=sys.stderr)
        return 2
    if new:
        print(f"director's PIN: {new}  (shown once; only its hash is kept in {state / PIN_FILE}; "
              f"a new one: courtpiece pin --reset --state-dir {state})", flush=True)
    store = ClubStore(state / "club.sqlite3")
    link = BrokerLink(b.host, b.port, SCOREBOARD_USER, b.password, b.tls_ca, b.tls_cert, b.tls_key, b.keepalive)
    why = tls_problem(link)
    if why is not None:  # the broker is up and the link would never work: say so now
        print(f"courtpiece club: {why}", file=sys.stderr)
        store.close()
        return 2
    quick_handoffs()  # the broker's thread must not wait 5 ms behind a page being made
    board = Scoreboard(store, link, prefix=cfg.club.prefix).start()
    app = create_club_app(board, admin_pin=pin, club_name=cfg.club.name, state_dir=state)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print(f"club scoreboard: http://{cfg.web.host}:{cfg.web.port}/  (broker {b.host}:{b.port})", flush=True)
    try:
        serve_web(app, cfg.web.host, cfg.web.port, stop)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        board.stop()
        store.close()
    return 0
