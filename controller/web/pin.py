"""The table PIN that guards the admin page: generated, hashed, checked.

A fresh appliance must not ship with a default PIN everyone knows, so when none is set
we generate one and tell the caller it is new, so the service can show it once (log and
table screen). Only a salted scrypt hash is kept (``STATE/admin-pin``, mode 0600): a
copied SD card or a backup of the state directory does not give the PIN away.

The running service re-reads the file when it changes, so ``courtpiece pin --reset``
takes effect without a restart.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from controller.atomic_file import replace_file

PIN_FILE = "admin-pin"
#: A guesser with hundreds of addresses on a big Wi-Fi still had about 7.5 PINs checked a
#: second (an outside attack, rotating addresses): some 135,000 in a five-hour night,
#: an eighth of a 6-digit PIN's million, and 0.14 % of these hundred million.
PIN_DIGITS = 8
#: scrypt cost: 16 MiB and ~50 ms on a laptop, a few hundred ms on a Pi Zero 2 W; a
#: login is rare, and wrong ones are slowed per address anyway (security.RateLimiter).
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
_PREFIX = "scrypt"


class PinError(ValueError):
    """A PIN that cannot be used, or a PIN file that cannot be read; the text says which."""


class PinCheck(Protocol):
    """Anything that can tell whether a typed PIN is the table's."""

    def verify(self, pin: str) -> bool: ...


def valid_pin(pin: str) -> bool:
    """A PIN is 4 to 12 digits: typed on a phone keypad at the table."""
    return pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12


def generate_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


# One scrypt at a time, always on the same thread: each takes 16 MiB, and a burst of
# logins must not add up. A lock alone is not enough: the C library keeps a freed 16 MiB
# in the allocation arena of the thread that used it, so 64 logins on 64 web worker
# threads, one after another, left the process about 480 MB bigger for good.
_SCRYPT_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pin-scrypt")


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return _SCRYPT_THREAD.submit(hashlib.scrypt, pin.encode("ascii"), salt=salt, n=n, r=r, p=p,
                                 maxmem=64 * 1024 * 1024, dklen=32).result()


@dataclass(frozen=True)
class PinHash:
    """A salted scrypt hash of a PIN, written as one line ``scrypt$n$r$p$salt$hash``."""

    salt: bytes
    digest: bytes
    n: int = SCRYPT_N
    r: int = SCRYPT_R
    p: int = SCRYPT_P

    @classmethod
    def of(cls, pin: str) -> PinHash:
        if not valid_pin(pin):
            raise PinError("the admin PIN must be 4 to 12 digits")
        salt = secrets.token_bytes(16)
        return cls(salt, _scrypt(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P))

    def verify(self, pin: str) -> bool:
        if not valid_pin(pin):
            return False
        return hmac.compare_digest(_scrypt(pin, self.salt, self.n, self.r, self.p), self.digest)

    def to_line(self) -> str:
        return f"{_PREFIX}${self.n}${self.r}${self.p}${_b64(self.salt)}${_b64(self.digest)}"

    @classmethod
    def from_line(cls, line: str) -> PinHash:
        parts = line.strip().split("$")
        try:
            if len(parts) != 6 or parts[0] != _PREFIX:
                raise ValueError
            n, r, p = (int(v) for v in parts[1:4])
            return cls(base64.b64decode(parts[4], validate=True), base64.b64decode(parts[5], validate=True), n, r, p)
        except ValueError:
            raise PinError("not a PIN hash") from None


class PlainPin:
    """A PIN known in memory only (``courtpiece simulate --pin``, tests): nothing is stored."""

    def __init__(self, pin: str) -> None:
        if not valid_pin(pin):
            raise PinError("the admin PIN must be 4 to 12 digits")
        self._pin = pin

    def verify(self, pin: str) -> bool:
        return hmac.compare_digest(pin.encode(), self._pin.encode())


class PinFile:
    """The hashed PIN in ``STATE/admin-pin``, re-read when the file changes."""

    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / PIN_FILE
        self._seen: tuple[int, int, int] | None = None
        self._hash: PinHash | None = None
        self._lock = threading.Lock()

    def load_or_create(self) -> str | None:
        """Make sure a PIN exists; return it only if it was just made (to show once).

        A PIN file from before hashing (plain digits) is hashed in place.
        """
        try:
            text = self.path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            text = ""
        except (OSError, UnicodeDecodeError) as err:
            raise PinError(f"cannot read {self.path}: {getattr(err, 'strerror', None) or err}") from None
        if valid_pin(text):  # the old plain-text file
            self.store(text)
            return None
        if text:
            PinHash.from_line(text)  # a damaged file is an error, not a silent new PIN
            return None
        pin = generate_pin()
        self.store(pin)
        return pin

    def store(self, pin: str) -> None:
        replace_file(self.path, PinHash.of(pin).to_line() + "\n", mode=0o600, encoding="ascii")

    def reset(self) -> str:
        """A new random PIN, stored; the running service picks it up at the next login."""
        pin = generate_pin()
        self.store(pin)
        return pin

    def current(self) -> PinHash:
        st = self.path.stat()
        key = (st.st_ino, st.st_mtime_ns, st.st_size)
        with self._lock:
            if key != self._seen or self._hash is None:
                self._hash = PinHash.from_line(self.path.read_text(encoding="ascii"))
                self._seen = key
            return self._hash

    def verify(self, pin: str) -> bool:
        try:
            current = self.current()
        except (OSError, PinError):
            return False  # no PIN file: nobody gets in (the log says why at start)
        return current.verify(pin)
