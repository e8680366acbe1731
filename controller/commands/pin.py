"""``courtpiece pin --reset``: a new admin PIN for this table, printed once.

Why a command: only a hash of the PIN is kept (``STATE/admin-pin``), so a forgotten
PIN cannot be read back; the organiser makes a new one. The running service picks it
up at the next login (it re-reads the file when it changes); no restart is needed.
Run it as the service's user, who owns the state directory.
"""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("pin", help="the admin PIN: --reset prints a new one",
                       description="Only a salted hash of the admin PIN is stored, so it cannot be "
                       "shown again: --reset makes a new one, prints it once and stores its hash.")
    p.add_argument("--reset", action="store_true", help="make a new random PIN and print it")
    p.add_argument("--config", help="table config (TOML), for its state directory")
    p.add_argument("--state-dir", help="the state directory (default: the config's [table] state_dir)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from controller.config import ConfigError, load_config
    from controller.web.pin import PinFile

    if not args.reset:
        print("courtpiece pin: the PIN is stored only as a hash and cannot be shown; "
              "use --reset for a new one", file=sys.stderr)
        return 2
    try:
        state = Path(args.state_dir) if args.state_dir else load_config(args.config).state_dir
    except ConfigError as err:
        print(f"courtpiece pin: {err}", file=sys.stderr)
        return 2
    if not state.is_dir():
        print(f"courtpiece pin: no state directory {state} (start the service once, or give --state-dir)",
              file=sys.stderr)
        return 2
    try:
        pin = PinFile(state).reset()
    except OSError as err:
        print(f"courtpiece pin: cannot write {state}: {err.strerror or err} "
              "(run it as the service's user: sudo -u courtpiece ...)", file=sys.stderr)
        return 1
    print(f"new admin PIN: {pin}")
    return 0
