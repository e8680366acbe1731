"""The uvicorn server, set up to hold on a club's network.

Why each setting:

- **Connections are capped** (``max_connections`` in all, ``max_per_client`` from one
  address; ``backlog`` bounds how many are accepted at once) well below the service's
  file limit (``LimitNOFILE`` in the unit), so a flood of
  connections can never use up the file handles the journal and the reader hub need
  (a hub that is replugged must be able to reopen its serial port). When the cap is
  reached, the oldest connection that has not yet sent a whole request is dropped to
  make room, so half-open connections cannot keep players out.
- **Headers have a deadline** (``header_timeout``): a connection that has not finished
  its request line and headers in time is closed. uvicorn alone waits forever.
- **Bodies have a deadline too** (``body_timeout``): from the end of its headers, a
  request's whole body must arrive in time, or the connection is closed. Without it a
  client dripping one byte every few seconds holds a connection (and a route's task)
  forever: the header deadline no longer applies once the headers are in, and uvicorn
  keeps reading a body the route never asked for until its last byte.
- **Small limits on what is buffered**: h11's incomplete-event size (request line and
  headers), WebSocket messages (``ws_max_size``); bodies are limited by
  :class:`controller.web.body_limit.BodyLimit`.
- **Client address = TCP peer**: ``proxy_headers`` is off, so ``X-Forwarded-For`` cannot
  dodge the per-address PIN delays.
- **A Host allowlist** (:mod:`controller.web.hosts`) against DNS rebinding.
- **A log that cannot be flooded**: repeated server warnings are rate limited.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from controller.web.hosts import HostAllowlist
from controller.web.security import client_key


@dataclass(frozen=True)
class WebLimits:
    """How much of the Pi one network may use; the defaults suit a club room."""

    #: above a club Wi-Fi's 254 addresses (a /24; an IPv6 /64 counts as one), so that
    #: a flood of one WebSocket from every address cannot fill it, and holding more
    #: makes an address the busiest (:func:`_as_held`); 256 was filled by 260 addresses
    #: holding one each, and a phone joining then was put out again and again
    max_connections: int = 512
    max_per_client: int = 64
    header_timeout: float = 10.0
    #: seconds for a whole request body after its headers: a 12 MB calibration photo
    #: needs only ~0.4 MB/s to make it over a phone's Wi-Fi
    body_timeout: float = 30.0
    keep_alive: int = 5
    max_header_bytes: int = 16 * 1024
    ws_max_size: int = 64 * 1024
    #: connections the kernel queues and asyncio accepts in one go, before the cap above
    #: can close any, and how far over the cap room may be made a moment later (see
    #: ``_make_room``): worst case ~ max_connections + 3 * backlog files
    backlog: int = 64
    allowed_hosts: tuple[str, ...] = field(default_factory=tuple)
    #: uvicorn's own cap (None: :data:`UVICORN_CAP_TIMES` ``× max_connections``)
    uvicorn_cap: int | None = None


def _client_of(proto: Any) -> str | None:
    client = getattr(proto, "client", None)
    return client[0] if client else None


#: The table screen's own browser, on the Pi: loopback exactly (a guest could not be it).
KIOSK = frozenset({client_key("127.0.0.1"), client_key("::1")})


def _key_of(proto: Any) -> str:
    """The address a connection counts against (:func:`client_key`: an IPv6 /64 is one),
    worked out once per connection: every new one is counted against all the others."""
    key = getattr(proto, "_client_key", None)
    if key is None:
        key = client_key(_client_of(proto) or "")
        proto._client_key = key
    return key


def _close_unless_shaken(transport: asyncio.Transport) -> None:
    """Close ``transport`` if its WebSocket's opening handshake has not completed."""
    if transport.is_closing():
        return
    ws = transport.get_protocol()
    done = getattr(ws, "handshake_complete", None)  # websockets' sans-io protocol
    if done is None:
        event = getattr(ws, "handshake_completed_event", None)  # the legacy one
        done = event.is_set() if event is not None else True
    if not done:
        transport.close()


#: WebSockets opened a minute past which an address counts as reconnecting without
#: pause: a phone opens one per page load (a reload, another); a flood of 300 addresses
#: reconnecting made about 36 each. Only upgrades count: a phone's page requests, and
#: its tries the server turned away while full, made it "reconnecting" for good.
RECONNECTING = 12
#: A connection that has not sent its request yet is let go first to make room, but only
#: from this many seconds old: a request comes within milliseconds, a half-open one never;
#: younger, a phone's connections opened together (and the table screen's) put each
#: other out before any request was read.
IDLE_GRACE = 1.0
#: Connections a browser opens at once to load a page (Chromium's six to one host): up
#: to this many, an address counts as holding one when room is made, or a phone loading
#: the dashboard on a full server put out its own second connection every time.
BROWSER_SOCKETS = 6
#: A connection of a page being loaded (a request line, headers, a page or module being
#: sent) is not put out for another address's newcomer until it is this many seconds
#: old: closed mid-request, a module script failed and the phone's page stayed dead
#: until someone reloaded it (a flood paced under RECONNECTING did it to 5 of 7 page
#: loads). A request dripped on purpose is old enough to go after that, and one whose
#: body is still on the way is not let be at all.
LOADING_GRACE = 3.0
#: An address the server put a connection of out this many seconds ago or less: of the
#: connections that have sent nothing yet, past the cap, its go before a new phone's.
PUT_OUT_LATELY = 60.0
#: uvicorn's own cap on connections and tasks, past which it answers every request 503
#: itself: a backstop over ours, for tasks, which outlive their connections. At
#: ``max_connections + 16`` a flood of WebSocket churn (405 tasks) or slow uploads (399)
#: passed it, and new phones and the table screen reloading got 503 on every page.
UVICORN_CAP_TIMES = 4
#: An address that connects again sooner than this after the server put one of its
#: connections out came straight back, as a flood does: a browser's page waits longer
#: before it reconnects (the dashboard's live.js 0.3 s at the least).
CAME_BACK_AT_ONCE = 0.2


class RecentOpens:
    """How many WebSockets each address opened in the last ``window`` seconds (a sliding
    window from two fixed ones). A phone opens one and holds it; a flood reconnects
    without pause. When the server is full, an address past :data:`RECONNECTING` loses a
    connection first: with hundreds of addresses reconnecting, "the oldest goes" dropped
    every player's phone in turn (theirs are the oldest) while the flood's own came and
    went."""

    def __init__(self, window: float = 60.0, most: int = 4096) -> None:
        self.window = window
        self.most = most
        self._start = time.monotonic()
        self._now: dict[str, int] = {}
        self._before: dict[str, int] = {}

    def _roll(self, now: float) -> float:
        gone = now - self._start
        if gone >= self.window:
            self._before = self._now if gone < 2 * self.window else {}
            self._now = {}
            self._start = now if gone >= 2 * self.window else self._start + self.window
        return (now - self._start) / self.window

    def opened(self, key: str, now: float | None = None) -> None:
        self._roll(time.monotonic() if now is None else now)
        if key not in self._now and len(self._now) >= self.most:
            return  # a flood of new addresses: the ones already counted stay counted
        self._now[key] = self._now.get(key, 0) + 1

    def count(self, key: str, now: float | None = None) -> float:
        into = self._roll(time.monotonic() if now is None else now)
        return self._now.get(key, 0) + self._before.get(key, 0) * (1.0 - into)


def _as_held(conns: list[Any]) -> int:
    """How many connections an address holding ``conns`` counts as: a browser's few
    plain ones (:data:`BROWSER_SOCKETS`, a page being loaded) as one, but each
    WebSocket as one of its own. A phone's page holds one WebSocket; with every
    WebSocket counted among a browser's few, an address holding two to six was as a
    phone, and the newest phone went for it."""
    sockets = sum(1 for p in conns if _is_websocket(p))
    plain = len(conns) - sockets
    return max(1, sockets) if plain <= BROWSER_SOCKETS else sockets + plain


def _is_websocket(p: Any) -> bool:
    """Upgraded: uvicorn hands the connection to its WebSocket protocol (or it is our
    own protocol object mid-upgrade)."""
    return not isinstance(p, GuardedH11Protocol) or p._upgraded


def _closing(p: Any) -> bool:
    transport = getattr(p, "transport", None)
    return transport is not None and transport.is_closing()


def _receiving_body(p: Any) -> bool:
    return isinstance(p, GuardedH11Protocol) and p.receiving_body()


def _waits_for_body(ps: list[Any]) -> bool:
    """Whether one of ``ps`` is a request waiting for its body: among addresses holding
    as many, one of those goes before a WebSocket. A flood of POSTs whose bodies never
    come, each answered and reopened within a second, was always newer than a phone's
    WebSocket but for the moment after it opened, and the next newcomer came within
    it: a phone that joined during such a flood was put out as soon as it was in."""
    return any(_receiving_body(p) for p in ps)


def _loading(p: Any, now: float) -> bool:
    return isinstance(p, GuardedH11Protocol) and p.loading(now)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with header and body deadlines and a connection cap."""

    limits: WebLimits = WebLimits()
    #: one per server (:func:`make_server` gives each its own subclass)
    recent_opens: RecentOpens = RecentOpens()
    #: times each address came straight back after being put out (:data:`CAME_BACK_AT_ONCE`)
    came_back: RecentOpens = RecentOpens()
    #: when each address last had a connection put out
    put_out_at: dict[str, float] = {}

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.opened = time.monotonic()
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._upgraded = False
        self._served = False
        self._last_data = self.opened
        if _key_of(self) in KIOSK:
            # the table screen is never turned away by uvicorn's cap either: a kiosk
            # that reloaded during a flood got a 503 page and stayed on it for good
            self.limit_concurrency = None
        self._arm_header_timer()
        out_at = self.put_out_at.get(_key_of(self))
        if out_at is not None and self.opened - out_at < CAME_BACK_AT_ONCE:
            self.came_back.opened(_key_of(self), self.opened)
        self._make_room()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        self._cancel_body_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._last_data = time.monotonic()
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        self._watch_body()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._upgraded = True
        self._cancel_header_timer()  # the WebSocket protocol owns the connection now
        self._cancel_body_timer()
        super().handle_websocket_upgrade(event)
        # a WebSocket opened counts (a page's own requests do not: a phone loading the
        # dashboard makes several, a reload as many again)
        self.recent_opens.opened(_key_of(self))
        ws = self.transport.get_protocol()
        if ws is not self:  # the WebSocket keeps the connection's age and address
            ws.opened, ws._client_key = self.opened, _key_of(self)
        # ... but its handshake gets the same deadline: an upgrade the WebSocket library
        # turns down (a header line over its 8 KiB, over 128 headers) was neither answered
        # nor closed, and held its connection for good
        self.loop.call_later(self.limits.header_timeout, _close_unless_shaken, self.transport)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._served = True
        if not self.transport.is_closing():
            self._arm_header_timer()  # the next request on this connection gets its own deadline

    def served_one(self) -> bool:
        """True once a response has gone out whole on this connection (kept alive since)."""
        return self._served

    def waiting_for_headers(self) -> bool:
        """True while no complete request has arrived (nothing is being served)."""
        return self.conn.their_state is h11.IDLE and (self.cycle is None or self.cycle.response_complete)

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(self.limits.header_timeout, self._header_deadline)

    def _cancel_header_timer(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _header_deadline(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing() and self.waiting_for_headers():
            self.transport.close()

    def stalled(self, now: float) -> bool:
        """True while a body is due and nothing has come for :data:`IDLE_GRACE`: a real
        upload's bytes flow; a flood's headers whose body never comes hold their place
        as long as the body deadline lets them."""
        return self.receiving_body() and now - self._last_data >= IDLE_GRACE

    def receiving_body(self) -> bool:
        """True while a request's headers are in and its body is not (whether or not
        the route is reading it)."""
        return not self._upgraded and self.conn.their_state is h11.SEND_BODY

    def _watch_body(self) -> None:
        """One deadline per body, armed when its headers are complete: a total, not a
        per-byte timeout, so a byte every few seconds does not renew it."""
        if self.receiving_body():
            if self._body_timer is None:
                self._body_timer = self.loop.call_later(self.limits.body_timeout, self._body_deadline)
        else:
            self._cancel_body_timer()

    def _cancel_body_timer(self) -> None:
        timer = getattr(self, "_body_timer", None)
        if timer is not None:
            timer.cancel()
            self._body_timer = None

    def _body_deadline(self) -> None:
        self._body_timer = None
        if not self.transport.is_closing() and self.receiving_body():
            # The route (if it is still reading) gets http.disconnect, as for a client
            # that went away; nothing is parsed from the half body.
            self.transport.close()

    def _make_room(self, again: bool = False) -> None:
        """Over a cap: drop the oldest idle connection (of this address first; at least
        :data:`IDLE_GRACE` old, never the table screen's); over the total cap with none
        idle (every one a WebSocket held open), the newest of another address holding
        as many as this one or more (up to :data:`BROWSER_SOCKETS`, as one), the one
        reconnecting hardest first (:class:`RecentOpens`), then the one holding the
        most, then one waiting for a request's body, then one that came straight back
        after being put out (:data:`CAME_BACK_AT_ONCE`); else this one. A connection idle
        after an answer, or whose body has stopped coming, counts as idle. So a few
        addresses holding every WebSocket they may, many holding one each, or many
        reconnecting without pause, cannot keep a new player, or the table screen
        reloading, out, nor put out a player already in. Addresses count as the PIN
        delays count them (an IPv6 /64 is one).

        While other addresses' connections are pages being loaded or have sent nothing
        yet (:data:`LOADING_GRACE`), a held connection is not put out for them: the room
        is made :data:`LOADING_GRACE` later (``again``), when they have shown what they
        are (a WebSocket, the newest; idle; a page loaded), up to ``backlog`` over the
        cap; past that, the oldest that has sent nothing (under :data:`IDLE_GRACE`) goes.
        A flood's burst is all such: its connections were neither idle long enough nor
        settled, so the players' WebSockets were the only ones left to put out, all ten
        within a millisecond of a flood's start."""
        me = _key_of(self)
        # a WebSocket already let go stays in the set until its close is done: counted
        # on, it was picked again by the next newcomer, so a burst of them put out one
        # connection where it should have put out one each
        live = [p for p in self.connections if not _closing(p)]
        mine = [p for p in live if _key_of(p) == me]
        if len(mine) > self.limits.max_per_client:
            pool = mine
        elif len(live) > self.limits.max_connections:
            pool = live
        else:
            return
        now = time.monotonic()
        idle = [p for p in pool if p is not self and isinstance(p, GuardedH11Protocol)
                and (pool is mine or _key_of(p) not in KIOSK)  # the table screen's are never let go
                # the grace is for another address's page load: one address past its own
                # cap (a browser opens six at most) gives up its oldest idle one at once;
                # nor is one kept alive after an answer let be (a browser sends a request
                # again on a kept-alive connection closed under it); and a body that has
                # stopped coming is as idle (a flood of those put a phone out instead)
                and ((p.waiting_for_headers() and (pool is mine or p.served_one() or now - p.opened >= IDLE_GRACE))
                     or p.stalled(now))]
        victim = min(idle, key=lambda p: p.opened) if idle else self
        if not idle and pool is not mine:
            # the table screen (a browser on the Pi itself) is never the one let go
            held: dict[str, list[Any]] = {}
            for p in live:
                if p is not self and _key_of(p) not in KIOSK:
                    held.setdefault(_key_of(p), []).append(p)
            # an address holding as many as this one or more (with hundreds of addresses
            # holding one each, a tie went to the newcomer, so 256 addresses kept every
            # phone and the table screen out); the table screen itself always gets in
            # (a browser opens a few at once to load a page: up to BROWSER_SOCKETS count as one)
            parity = _as_held(mine)
            others = {k: v for k, v in held.items() if k != me and (_as_held(v) >= parity or me in KIOSK)}
            # a page being loaded is let be (LOADING_GRACE), unless for the table screen
            settled = {k: g for k, v in others.items() if (g := [p for p in v if not _loading(p, now)])}
            others = settled if settled or me not in KIOSK else others

            def newest(k: str) -> float:
                return max(getattr(p, "opened", 0.0) for p in others[k])

            if others:
                # first an address reconnecting without pause, then the one holding the
                # most (a browser's few as one), then one waiting for a body, then one
                # that came straight back after being put out, then the one whose
                # connections came last: a player's phone has held its socket longest, a
                # flood's come and go
                busiest = max(others, key=lambda k: (self._reconnecting(k), _as_held(held[k]),
                                                     _waits_for_body(others[k]), self.came_back.count(k),
                                                     newest(k)))
                # and a flood reconnecting never puts out an address that is not
                if me in KIOSK or self._reconnecting(busiest) >= self._reconnecting(me):
                    victim = max(others[busiest], key=lambda p: (_receiving_body(p), getattr(p, "opened", 0.0)))

            def flood_like(k: str) -> tuple[float, int, bool]:
                return (self._reconnecting(k), _as_held(held.get(k, [])),
                        now - self.put_out_at.get(k, -PUT_OUT_LATELY) < PUT_OUT_LATELY)

            spare = (victim is not self and me not in KIOSK and _is_websocket(victim)
                     and flood_like(_key_of(victim)) <= flood_like(me))
            if again and spare:
                # the room asked for a moment ago: a held WebSocket no more like a flood
                # than this newcomer is not put out for it (a flood of kept-alive pages,
                # each reopened at once, stays young and loading; the players' WebSockets
                # were all that was left, put out again and again); it waits instead
                # (gone meanwhile, or still loading: nothing, as below)
                victim = self
            if victim is not self and not again:
                # another address's pages being loaded, or connections that have sent
                # nothing yet: what they are is known LOADING_GRACE later
                young = [p for p in live if p is not self and _key_of(p) != me and _key_of(p) not in KIOSK
                         and _loading(p, now)]
                if young:
                    if len(live) <= self.limits.max_connections + self.limits.backlog:
                        self.loop.call_later(LOADING_GRACE, self._make_room, True)
                        return
                    # past that, one that has sent nothing goes first (a flood's many):
                    # of the address reconnecting hardest, then holding the most, then
                    # one put out lately, its oldest; but not one of an address that
                    # looks less like a flood than the one chosen above (a connection is
                    # silent only until its first read: a phone's page load, accepted in
                    # the same batch as a flood's, was the oldest as often as not)
                    silent = [p for p in young if p.waiting_for_headers() and now - p.opened < IDLE_GRACE]
                    if silent:
                        first = max(silent, key=lambda p: (flood_like(_key_of(p)), -p.opened))
                        if flood_like(_key_of(first)) >= flood_like(_key_of(victim)):
                            victim = first
                    if victim not in silent and spare:
                        # every other newcomer is mid-request: rather than put out a held
                        # WebSocket no more like a flood than this one, this one waits (a
                        # flood of kept-alive pages beyond the backlog, all reopened at
                        # once, put the players out again and again)
                        victim = self
            elif victim is self and again and (self.transport.is_closing() or self.loading(now)):
                # gone meanwhile (the room it asked for is made all the same: the server
                # may still be over its cap), or its page is being loaded: over the cap
                # until it is done
                return
        if victim is not self and _key_of(victim) != me and victim not in idle:
            # (not an idle one: a phone's browser opens another at once for its page,
            # and would count as a flood coming straight back)
            if len(self.put_out_at) >= 4096:
                self.put_out_at.clear()
            self.put_out_at[_key_of(victim)] = now
        if isinstance(victim, GuardedH11Protocol):
            # counted out at once (its close is not); a WebSocket's own connection_lost
            # removes it, and would fail on one already gone (a KeyError, its cleanup cut)
            victim.connections.discard(victim)
        victim.transport.close()

    def loading(self, now: float) -> bool:
        """True while this connection may be loading a page: a plain HTTP one (not a
        WebSocket) under :data:`LOADING_GRACE` old that is not waiting for a body (a
        page's requests have none; a flood of uploads whose bodies never come, each
        replaced within the grace, put out every player's WebSocket instead)."""
        return not self._upgraded and now - self.opened < LOADING_GRACE and not self.receiving_body()

    def _reconnecting(self, key: str) -> float:
        """How hard an address reconnects: its opens in the last minute, or 0 for an
        address at a phone's pace."""
        lately = self.recent_opens.count(key)
        return lately if lately > RECONNECTING else 0.0


class QuietRepeats(logging.Filter):
    """At most ``burst`` records per message per ``window`` seconds, then one line saying
    how many were left out: an attack must not bury the table's own log lines."""

    def __init__(self, burst: int = 5, window: float = 60.0) -> None:
        super().__init__()
        self.burst = burst
        self.window = window
        self._seen: dict[str, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = f"{record.name}:{record.msg}"
        now = time.monotonic()
        start, count = self._seen.get(key, (now, 0))
        if now - start > self.window:
            if count > self.burst:
                record.msg = f"{record.msg} (and {count - self.burst} more like it in the last {self.window:.0f} s)"
            start, count = now, 0
        self._seen[key] = (start, count + 1)
        if len(self._seen) > 1024:
            self._seen.clear()
        return count < self.burst or now - start > self.window


_QUIET = QuietRepeats()


def quiet_server_logs() -> None:
    """Install the repeat filter on the loggers a network can make talk (idempotent)."""
    for name in ("uvicorn.error", "asyncio"):
        logger = logging.getLogger(name)
        if _QUIET not in logger.filters:
            logger.addFilter(_QUIET)


class HeaderLimit:
    """A request whose line and headers come to more than ``most`` bytes: 431 (a
    WebSocket: closed). h11's own bound (``h11_max_incomplete_event_size``) holds only
    while the headers are incomplete: headers that arrived in one read were taken at any
    size (a 60 KB header was served)."""

    def __init__(self, app: Any, most: int) -> None:
        self.app = app
        self.most = most

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
            size += sum(len(k) + len(v) + 4 for k, v in scope.get("headers", []))
            if size > self.most:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                body = b"request headers too large"
                await send({"type": "http.response.start", "status": 431, "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()), (b"connection", b"close")]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def guarded_app(app: Any, limits: WebLimits) -> Any:
    """``app`` behind the header limit and the Host allowlist."""
    return HeaderLimit(HostAllowlist(app, limits.allowed_hosts), limits.max_header_bytes)


def make_server(app: Any, host: str, port: int, limits: WebLimits | None = None) -> Any:
    """A uvicorn server for ``app`` with the limits above (no per-message deflate either:
    on a Pi the CPU is scarcer than bandwidth on the LAN)."""
    import uvicorn

    limits = limits or WebLimits()
    protocol = type("TableH11Protocol", (GuardedH11Protocol,),
                    {"limits": limits, "recent_opens": RecentOpens(), "came_back": RecentOpens(),
                     "put_out_at": {}})
    quiet_server_logs()
    config = uvicorn.Config(
        guarded_app(app, limits), host=host, port=port, log_level="warning", http=protocol,
        ws_per_message_deflate=False, ws_max_size=limits.ws_max_size, proxy_headers=False,
        server_header=False, timeout_keep_alive=limits.keep_alive,
        h11_max_incomplete_event_size=limits.max_header_bytes, backlog=limits.backlog,
        # uvicorn's own cap answers 503 to whole requests (the table screen excepted,
        # GuardedH11Protocol): a backstop over ours for tasks, which outlive their
        # connections (UVICORN_CAP_TIMES)
        limit_concurrency=limits.uvicorn_cap or UVICORN_CAP_TIMES * limits.max_connections,
    )
    return uvicorn.Server(config)
