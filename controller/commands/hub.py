"""``courtpiece hub flash`` and ``courtpiece hub check``: the reader hub's firmware.

``flash`` copies firmware/ onto a Pico that runs MicroPython (with mpremote, the
project's ``hub`` extra), resets it, and waits for the hub's HELLO; ``check`` only
waits for the HELLO. The work is in ``controller.readers.hub_flash``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import TextIO

DEFAULT_PORT = "/dev/courtpiece-hub"
#: Seconds to wait for HELLO: the firmware says it every 10 s, and after a reset the
#: Pico first re-enumerates on USB.
HELLO_TIMEOUT = 25.0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "hub",
        help="the reader hub: flash its firmware, check it answers",
        description="Put the reader hub firmware on a Raspberry Pi Pico running MicroPython, "
        "or check that a hub answers (firmware/README.md).",
    )
    sub = p.add_subparsers(dest="hub_command", metavar="ACTION", required=True)
    flash = sub.add_parser(
        "flash",
        help="copy the firmware onto the Pico with mpremote, reset it, wait for HELLO",
        description="Stop the referee first (sudo systemctl stop courtpiece): it holds the port.",
    )
    _port_options(flash)
    flash.add_argument(
        "--board-config",
        type=Path,
        metavar="FILE",
        help="a config.py edited for this board (reader kind, pins), copied instead of firmware/config.py",
    )
    flash.add_argument(
        "--mpremote", metavar="PATH", help="the mpremote program (default: the project's own)"
    )
    flash.add_argument(
        "--dry-run", action="store_true", help="print the mpremote command, do nothing"
    )
    flash.set_defaults(handler=run_flash)
    check = sub.add_parser("check", help="wait for the hub's HELLO and say what it reported")
    _port_options(check)
    check.set_defaults(handler=run_check)


def _port_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--port",
        help=f"the hub's serial port (default: {DEFAULT_PORT}, the udev rule's name for the Pico)",
    )
    p.add_argument(
        "--hello-timeout",
        type=float,
        default=HELLO_TIMEOUT,
        metavar="SECONDS",
        help=f"how long to wait for the hub's HELLO (default {HELLO_TIMEOUT:g})",
    )


def run_flash(
    args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    from controller.readers.hub_flash import (
        FlashError,
        check_port_free,
        find_mpremote,
        firmware_dir,
        flash_command,
    )

    out = out or sys.stdout
    err = err or sys.stderr
    port = args.port or DEFAULT_PORT
    mpremote = args.mpremote or find_mpremote()
    if mpremote is None:
        print(
            "hub flash: mpremote is not installed; hardware/install.sh installs it, or: "
            ".venv/bin/pip install 'courtpiece-referee[hub]'",
            file=err,
        )
        return 1
    if args.board_config is not None and not args.board_config.is_file():
        print(f"hub flash: no board config at {args.board_config}", file=err)
        return 1
    cmd = flash_command(mpremote, port, firmware_dir(), args.board_config)
    if args.dry_run:
        print(" ".join(cmd), file=out)
        return 0
    try:
        check_port_free(port)
    except FlashError as exc:
        hint = (
            ""
            if args.port
            else " (is the Pico plugged in, and hardware/install.sh run? else name it: --port /dev/ttyACM0)"
        )
        print(f"hub flash: {exc}{hint}", file=err)
        return 1
    print(f"Copying the hub firmware to {port} ...", file=out, flush=True)
    done = subprocess.run(cmd, check=False)
    if done.returncode != 0:
        print(
            f"hub flash: mpremote failed (exit {done.returncode}); is MicroPython on the Pico? "
            "(firmware/README.md, Flashing, step 1)",
            file=err,
        )
        return 1
    return _check(port, args, out, err, what="hub flash")


def run_check(
    args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    import os

    from controller.readers.hub_flash import FlashError, check_port_free

    out, err = out or sys.stdout, err or sys.stderr
    port = args.port or DEFAULT_PORT
    if os.path.exists(port):
        try:
            check_port_free(port)  # held by the service: say so now, not after the wait
        except FlashError as exc:
            print(f"hub check: {exc}", file=err)
            return 1
    return _check(port, args, out, err, what="hub check")


def _check(port: str, args: argparse.Namespace, out: TextIO, err: TextIO, *, what: str) -> int:
    from controller.readers.hub_finder import DEFAULT_SEARCH
    from controller.readers.hub_flash import FlashError, wait_for_hello

    print(
        f"Waiting for the hub's HELLO (it says it every 10 s) on {port} ...", file=out, flush=True
    )
    try:
        answer = wait_for_hello(
            port, args.hello_timeout, search=() if args.port else DEFAULT_SEARCH
        )
    except FlashError as exc:
        print(f"{what}: {exc}", file=err)
        return 1
    print(answer.text(), file=out)
    return 0
