"""``courtpiece export``: write the journal as a table log (the format ``replay`` reads).

Export only reads. It opens the journal with SQLite's read-only mode, which never
checkpoints or deletes the write-ahead log (a normal connection, closing last, would
fold the log into the file -- and drop every frame after a damaged one). A journal on
read-only media is read from a private copy; a damaged journal is read from its bytes
(:mod:`controller.referee.salvage`) with a warning, never repaired here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from controller.referee.journal import Entry
    from controller.referee.matches import MatchLog


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="write the table's journal as a table log (JSON lines)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--config", help="the table's config file (its state directory holds the journal)")
    g.add_argument("--state-dir", help="the state directory holding journal.sqlite3")
    p.add_argument("-o", "--output", help="file to write (default: standard output)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--match", metavar="N|current",
                       help="only this match (1 = the oldest in the journal; see --list); default: all")
    which.add_argument("--list", action="store_true", help="list the matches in the journal and stop")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from controller.config import ConfigError, load_config
    from controller.referee.journal import JournalError

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
        header, entries = read_journal(path)
    except JournalError as err:
        print(f"courtpiece export: {err}", file=sys.stderr)
        return 2
    if args.list or args.match:
        from controller.referee.matches import split_matches

        matches = split_matches(entries)
        if args.list:
            print_matches(matches)
            return 0
        try:
            number = len(matches) if args.match == "current" else int(args.match)
            chosen = matches[number - 1] if number >= 1 else None
        except (ValueError, IndexError):
            chosen = None
        if chosen is None:
            print(f"courtpiece export: no match {args.match!r}; the journal holds {len(matches)} "
                  "(see --list)", file=sys.stderr)
            return 2
        entries = chosen.entries
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            n = write_log(header, entries, f)
    else:
        n = write_log(header, entries, sys.stdout)
    print(f"{n} inputs exported", file=sys.stderr)
    return 0


def read_journal(path: Path) -> tuple[dict[str, Any], list[Entry]]:
    """The header and entries of the journal at ``path``, without changing a byte of it."""
    import shutil
    import tempfile

    from controller.referee.journal import Journal, JournalError
    from controller.referee.salvage import damage, salvage

    reason = damage(path)
    if reason is not None:
        rescued = salvage(path)
        print(f"courtpiece export: journal damaged ({reason}); exporting the {len(rescued.entries)} "
              "inputs read from its bytes", file=sys.stderr)
        return rescued.header, rescued.entries
    try:
        with Journal.open_readonly(path) as journal:
            return journal.header, list(journal.entries())
    except JournalError:
        pass  # read-only media without a -shm file: read a private copy instead
    with tempfile.TemporaryDirectory(prefix="courtpiece-export-") as tmp:
        for suffix in ("-wal", ""):  # the log first: a checkpoint in between loses nothing
            part = Path(str(path) + suffix)
            if part.exists():
                shutil.copyfile(part, Path(tmp) / (path.name + suffix))
        with Journal.open_readonly(Path(tmp) / path.name) as journal:
            return journal.header, list(journal.entries())


def print_matches(matches: list[MatchLog]) -> None:
    """One line per match: its number for --match, when it began, its preset and size."""
    import time

    print("match  started (UTC)        preset          inputs  seq")
    for m in matches:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(m.started_at))
        print(f"{m.number:>5}  {when}  {m.preset:<14}  {len(m.entries):>6}  "
              f"{m.entries[0].seq}-{m.entries[-1].seq}")


def write_log(header: dict[str, Any], entries: list[Entry], file: TextIO) -> int:
    """The table log: the header line, then one line per input (``journal.export_log``'s framing)."""
    import json

    from controller.referee.journal import LOG_VERSION, write_entries

    line = json.dumps({**header, "type": "header", "version": LOG_VERSION}, sort_keys=True, separators=(",", ":"))
    file.write(line + "\n")
    return write_entries(entries, file)
