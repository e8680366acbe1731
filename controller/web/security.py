"""Admin sessions, CSRF tokens, PIN rate limiting and the same-origin check.

Why no library: the needs are small (an HMAC over a random id) and the standard
library's ``hmac`` does it without another dependency on the Pi.

- Every browser gets a session id in a signed, HttpOnly, SameSite=Strict cookie. A
  session becomes *admin* only after a correct PIN, and the id is rotated then (no
  session fixation). Sessions live in memory: a restart logs everyone out.
- The CSRF token is an HMAC of the session id; every POST must carry it (form field
  ``csrf`` or header ``X-CSRF-Token``), and a POST whose ``Origin`` names another site
  is refused outright.
- Wrong PINs slow down the address that typed them, with delays that double, so the
  8-digit PIN cannot be walked from a phone on the same Wi-Fi, and a guesser cannot
  lock the organiser out (there is no table-wide lock).
"""

from __future__ import annotations

import collections
import hashlib
import hmac
import ipaddress
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

SECRET_FILE = "web-secret"
SESSION_COOKIE = "cp_session"
SESSION_TTL = 12 * 3600.0

Clock = Callable[[], float]


def load_or_create_secret(state_dir: Path | None) -> bytes:
    """The signing key: kept in the state directory so cookies survive a restart of the page."""
    if state_dir is None:
        return secrets.token_bytes(32)
    path = Path(state_dir) / SECRET_FILE
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            return data
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    data = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return data


class Sessions:
    """Signed session cookies; which of them are admin is kept here, in memory."""

    def __init__(self, secret: bytes, *, ttl: float = SESSION_TTL, clock: Clock = time.time) -> None:
        self._secret = secret
        self._ttl = ttl
        self._clock = clock
        self._admins: dict[str, float] = {}
        self._lock = threading.Lock()

    def _mac(self, purpose: str, value: str) -> str:
        return hmac.new(self._secret, f"{purpose}|{value}".encode(), hashlib.sha256).hexdigest()

    def new_cookie(self) -> tuple[str, str]:
        """A fresh (session id, cookie value)."""
        sid = secrets.token_urlsafe(18)
        return sid, f"{sid}.{self._mac('session', sid)}"

    def sid_of(self, cookie: str | None) -> str | None:
        """The session id if the cookie is ours and untampered, else None."""
        if not cookie or "." not in cookie:
            return None
        sid, _, mac = cookie.rpartition(".")
        if not sid or not hmac.compare_digest(mac, self._mac("session", sid)):
            return None
        return sid

    def csrf_token(self, sid: str) -> str:
        return self._mac("csrf", sid)

    def csrf_ok(self, sid: str | None, token: str | None) -> bool:
        return bool(sid and token) and hmac.compare_digest(str(token), self.csrf_token(str(sid)))

    def grant_admin(self, sid: str) -> None:
        with self._lock:
            self._admins[sid] = self._clock() + self._ttl

    def revoke(self, sid: str | None) -> None:
        with self._lock:
            self._admins.pop(sid or "", None)

    def is_admin(self, sid: str | None) -> bool:
        if not sid:
            return False
        with self._lock:
            expires = self._admins.get(sid)
            if expires is None:
                return False
            if expires < self._clock():
                del self._admins[sid]
                return False
            return True


#: Wrong PINs table-wide within ``BUSY_WINDOW`` seconds past which no address has free tries.
BUSY_AFTER = 30
BUSY_WINDOW = 600.0


@dataclass
class _Bucket:
    failures: int = 0
    locked_until: float = 0.0
    last: float = 0.0


def client_key(address: str) -> str:
    """The address a lockout applies to: IPv4 as is, IPv6 by its /64.

    A phone with IPv6 can pick any address in its network's /64 at will; the /64 is
    what it cannot change without leaving the table's network.
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class RateLimiter:
    """Wrong PINs slow down the address that typed them, and nobody else.

    The first ``max_failures`` wrong PINs from an address are free (a fumbled keypad);
    each one after that locks that address out for ``delay`` seconds, doubling every
    time, up to ``max_delay``. An address that stays quiet for ``forget`` seconds
    starts afresh, and a right PIN clears it. There is no table-wide lock: a guesser
    on the Wi-Fi must never be able to lock the organiser out.

    Many addresses guessing at once (more than ``busy_after`` wrong PINs table-wide in
    ``busy_window`` seconds: a guesser with hundreds of addresses on a big Wi-Fi) take the
    free tries away from every address: each wrong PIN then waits, doubling. Still no
    address is locked for another's guesses, and a right PIN always gets in.

    The address is the TCP peer (the server does not trust ``X-Forwarded-For``). The
    clock is injected so tests need no waiting; at most ``max_tracked`` addresses are
    remembered, dropping those not seen for longest.
    """

    def __init__(self, *, max_failures: int = 3, delay: float = 2.0, max_delay: float = 900.0,
                 forget: float = 3600.0, max_tracked: int = 4096, busy_after: int = BUSY_AFTER,
                 busy_window: float = BUSY_WINDOW, clock: Clock = time.monotonic) -> None:
        self.max_failures = max_failures
        self.busy_after = busy_after
        self.busy_window = busy_window
        #: when wrong PINs were typed lately, from any address (``busy_after``)
        self._recent: collections.deque[float] = collections.deque()
        self.delay = delay
        self.max_delay = max_delay
        self.forget = forget
        self.max_tracked = max_tracked
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}
        #: addresses with a PIN being checked now (:meth:`begin`)
        self._checking: set[str] = set()
        self._lock = threading.Lock()

    def _bucket(self, client: str, now: float) -> _Bucket | None:
        b = self._buckets.get(client_key(client))
        if b is not None and now - b.last > self.forget and b.locked_until <= now:
            del self._buckets[client_key(client)]
            return None
        return b

    def retry_after(self, client: str) -> float:
        """Seconds until this client may try again (0: it may try now)."""
        now = self._clock()
        with self._lock:
            b = self._bucket(client, now)
            return max(0.0, b.locked_until - now) if b else 0.0

    def begin(self, client: str) -> float:
        """Take a PIN check for this address: 0, and the check is its one in flight, or
        the seconds it must wait first. One check per address at a time, ended by
        :meth:`failure`, :meth:`success` or :meth:`abandon`: guesses sent together are
        counted one by one, not all hashed before the first wrong one is counted (64
        guesses sent at once were all checked, and only then was the address locked)."""
        now = self._clock()
        with self._lock:
            b = self._bucket(client, now)
            if b is not None and b.locked_until > now:
                return b.locked_until - now
            key = client_key(client)
            if key in self._checking:
                return 1.0
            self._checking.add(key)
            return 0.0

    def abandon(self, client: str) -> None:
        """End a check that came to no answer (the hash failed)."""
        with self._lock:
            self._checking.discard(client_key(client))

    def failure(self, client: str) -> float:
        """Count a wrong PIN; returns the seconds this address must now wait."""
        now = self._clock()
        with self._lock:
            self._checking.discard(client_key(client))
            b = self._bucket(client, now)
            if b is None:
                if len(self._buckets) >= self.max_tracked:
                    oldest = min(self._buckets, key=lambda k: self._buckets[k].last)
                    del self._buckets[oldest]
                b = self._buckets.setdefault(client_key(client), _Bucket())
            b.failures += 1
            b.last = now
            self._recent.append(now)
            while self._recent and now - self._recent[0] > self.busy_window:
                self._recent.popleft()
            free = 0 if len(self._recent) > self.busy_after else self.max_failures
            over = b.failures - free
            if over > 0:
                b.locked_until = now + min(self.max_delay, self.delay * 2 ** min(over - 1, 30))
            return max(0.0, b.locked_until - now)

    def success(self, client: str) -> None:
        with self._lock:
            self._checking.discard(client_key(client))
            self._buckets.pop(client_key(client), None)


def same_origin(origin: str | None, referer: str | None, host: str | None) -> bool:
    """False when the browser says the request came from another site.

    Browsers send ``Origin`` on every POST; non-browser clients may send neither header,
    and they still need the CSRF token, which a foreign page cannot read.
    """
    source = origin if origin and origin != "null" else referer
    if origin == "null":
        return False
    if not source:
        return True
    return bool(host) and urlsplit(source).netloc.lower() == str(host).lower()
