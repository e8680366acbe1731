"""``courtpiece export``: write the journal as a table log (the format ``replay`` reads)."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="write the table's journal as a table log (JSON lines)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--config", help="the table's config file (its state directory holds the journal)")
    g.add_argument("--state-dir", help="the state directory holding journal.sqlite3")
    p.add_argument("-o", "--output", help="file to write (default: standard output)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from controller.config import ConfigError, load_config
    from controller.journal import Journal, JournalError, export_log

    try:
        state = Path(args.state_dir) if args.state_dir else load_config(args.config).state_dir
    except ConfigError as err:
        print(f"courtpiece export: {err}", file=sys.stderr)
        return 2
    path = state / "journal.sqlite3"
    if not path.exists():
        print(f"courtpiece export: no journal at {path}", file=sys.stderr)
        return 2
    try:
        journal = Journal.open(path)
    except JournalError as err:
        print(f"courtpiece export: {err}", file=sys.stderr)
        return 2
    try:
        if args.output:
            with open(args.output, "w", encoding="utf-8") as f:
                n = export_log(journal, f)
        else:
            n = export_log(journal, sys.stdout)
    finally:
        journal.close()
    print(f"{n} inputs exported", file=sys.stderr)
    return 0
