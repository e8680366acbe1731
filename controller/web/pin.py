"""The table PIN that guards the admin page.

A fresh appliance must not ship with a default PIN everyone knows, so when the config
sets none we generate one, keep it in the state directory (so it survives restarts)
and tell the caller it is new, so the service can print it once on first start.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

PIN_FILE = "admin-pin"
PIN_DIGITS = 6


def valid_pin(pin: str) -> bool:
    """A PIN is 4 to 12 digits: typed on a phone keypad at the table."""
    return pin.isdigit() and 4 <= len(pin) <= 12


def generate_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def load_or_create_pin(state_dir: Path, configured: str | None = None) -> tuple[str, bool]:
    """The PIN to use and whether it was just generated.

    A PIN from the config wins. Otherwise the saved one is read, or a new 6-digit PIN is
    written with mode 0600 (the state directory may be readable by other users).
    """
    if configured:
        if not valid_pin(configured):
            raise ValueError("the admin PIN must be 4 to 12 digits")
        return configured, False
    path = Path(state_dir) / PIN_FILE
    try:
        saved = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        saved = ""
    if valid_pin(saved):
        return saved, False
    path.parent.mkdir(parents=True, exist_ok=True)
    pin = generate_pin()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(pin + "\n")
    return pin, True
