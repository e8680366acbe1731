"""``courtpiece replay LOG``: run a table log headless and print the table events."""

from __future__ import annotations

import argparse
import json
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="referee a table log (JSON lines) and print the table events as JSON lines")
    p.add_argument("log", help="table log file ('-' for standard input)")
    p.add_argument("--audience", default="admin", metavar="WHO",
                   help="whose events to print: public, admin (default: every event, each refusal "
                        "once in its full text) or seat:N (the public ones and seat N's own)")
    p.add_argument("--public", dest="audience", action="store_const", const="public",
                   help="same as --audience public")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from controller.referee.journal import LogFormatError, import_log
    from controller.referee.referee import Referee
    from controller.referee.table_events import parse_audience, sees

    try:
        audience = parse_audience(args.audience)
    except ValueError as err:
        print(f"courtpiece replay: {err}", file=sys.stderr)
        return 2

    try:
        if args.log == "-":
            log = import_log(sys.stdin)
        else:
            with open(args.log, encoding="utf-8") as f:
                log = import_log(f)
    except (OSError, LogFormatError) as err:
        print(f"courtpiece replay: {err}", file=sys.stderr)
        return 2
    referee = Referee()
    for event in referee.replay(log.entries):
        if sees(audience, event):
            print(json.dumps(event.to_dict(), sort_keys=True))
    return 0
