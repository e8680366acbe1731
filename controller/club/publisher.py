"""The table side: a referee's public events and state, out to the club's broker.

One thread, the pump, owns both the :class:`Outbox` and the paho client, driving paho's
external-loop calls (``loop_read``, ``loop_write``, ``loop_misc``) itself. A batch handed
to paho is then written to the socket in the same call, not left for a second network
thread to notice: on a Pi that also runs the readers, the rules and the web server, that
hand-over between threads was the slowest part of a card's way to the club. paho's
callbacks (connected, lost, acknowledged, resend asked) run inside the pump's own reads
and only leave notes for its next round. The referee's subscriber callback only wakes the
pump, so a slow or absent broker never slows the referee: the table keeps refereeing and
the journal holds what is owed.
"""

from __future__ import annotations

import logging
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.club.link import BrokerLink, make_client
from controller.club.outbox import MARK_FILE, MarkFile, Outbox
from controller.club.topics import (
    DEFAULT_PREFIX,
    EVENTS,
    OFFLINE,
    ONLINE,
    RESEND,
    STATE,
    STATUS,
    StateMessage,
    StatusMessage,
    parse_resend,
    topic,
)
from controller.referee.referee import Referee

log = logging.getLogger(__name__)

#: Batches handed to paho per pump round (bounded work; the pump comes straight back).
ROUND = 256
#: Seconds between two state messages: a state is a few kilobytes and a busy table changes
#: it with every card, while a scoreboard page redraws every second or two. The events
#: themselves are never held back; the state after the last input is always sent.
STATE_EVERY = 0.25
#: Most seconds between paho's housekeeping calls (keepalive pings, a broker gone quiet);
#: a short keepalive makes them more often (a quarter of it), as the broker drops a client
#: silent for one and a half keepalives.
MISC_EVERY = 1.0
#: Seconds to wait before dialling the broker again, doubling up to the second figure
#: (paho's own loop waits the same way).
RETRY_FIRST, RETRY_MOST = 1.0, 4.0


class TablePublisher:
    def __init__(self, referee: Referee, link: BrokerLink, table: str, *, prefix: str = DEFAULT_PREFIX,
                 state_dir: Path | None = None, tick: float = 1.0, state_every: float = STATE_EVERY,
                 clock: Callable[[], float] = time.time) -> None:
        self.referee = referee
        self.link = link
        self.table = table
        self.prefix = prefix
        self.tick = tick
        self.state_every = state_every
        self._state_at = -state_every  # monotonic time of the last state message
        self._timeout = tick
        self.clock = clock
        self.marks = MarkFile(Path(state_dir) / MARK_FILE, f"{link.key}/{prefix}/{table}") if state_dir else None
        mark = self.marks.load() if self.marks else 0
        if mark > referee.last_seq:  # a new journal under an old mark: start over
            mark = 0
        self.outbox = Outbox(table, referee, mark=mark)
        self._saved = mark
        self._notes: deque[tuple[str, Any]] = deque()
        # the pump sleeps in select() on the broker's socket and this pair; a byte on it
        # means the referee has something new (written once until the pump takes it)
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._woken = False
        self._stop = threading.Event()
        self._retry = RETRY_FIRST
        self._dialled = False  # the first dial goes at once; later ones wait their pause
        self._refused = ""  # the broker's last reason for refusing us, once logged
        self._connected = False
        self._state_sent = -1
        self._mids: dict[int, int] = {}
        self.sent = 0  # messages handed to paho (events), for figures
        self.client = make_client(link, f"courtpiece-table-{table}")
        self.client.will_set(self._topic(STATUS), StatusMessage(OFFLINE).to_bytes(), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"club-{table}")
        self._unsubscribe: Callable[[], None] | None = None

    def _topic(self, kind: str) -> str:
        return topic(self.prefix, self.table, kind)

    # ------------------------------------------------------------------ life
    def start(self) -> TablePublisher:
        self._unsubscribe = self.referee.subscribe(lambda _e: self._poke())
        self.client.connect_async(self.link.host, self.link.port, self.link.keepalive)
        self._thread.start()
        return self

    def _poke(self) -> None:
        """Wake the pump (any thread). Clearing ``_woken`` before it reads the referee makes
        a lost wake-up impossible: an event after that clearing writes a byte again."""
        if self._woken:
            return
        self._woken = True
        try:
            self._wake_w.send(b"!")
        except (BlockingIOError, OSError):
            pass

    def stop(self, timeout: float = 3.0) -> None:
        """Say goodbye (status offline, retained) and close the link."""
        if self._unsubscribe:
            self._unsubscribe()
        self._stop.set()
        self._woken = False
        self._poke()
        if self._thread.is_alive():
            self._thread.join(timeout)
        if not self._thread.is_alive():  # the client is this thread's now
            if self._connected and self.client.socket() is not None:
                info = self.client.publish(self._topic(STATUS), StatusMessage(OFFLINE, self.clock()).to_bytes(),
                                           qos=1, retain=True)
                deadline = time.monotonic() + timeout
                while not info.is_published() and time.monotonic() < deadline:
                    if not self._serve_socket(min(0.1, max(0.0, deadline - time.monotonic()))):
                        break
            self.client.disconnect()
        self._save()
        self._wake_r.close()
        self._wake_w.close()

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def published_upto(self) -> int:
        return self.outbox.mark

    # ------------------------------------------------------------------ paho's callbacks: notes only
    def _note(self, kind: str, value: Any = None) -> None:
        self._notes.append((kind, value))

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any = None) -> None:
        if reason.is_failure:  # said once per reason, and the redials slow down as for a lost link
            self._retry = min(self._retry * 2, RETRY_MOST)
            if str(reason) != self._refused:
                self._refused = str(reason)
                log.warning("club broker %s refused table %s: %s. Check [club] table and password in this "
                            "table's config: they must match the table's entry in the club's club.toml",
                            self.link.key, self.table, reason)
            return
        self._refused = ""
        client.subscribe(self._topic(RESEND), qos=1)
        self._retry = RETRY_FIRST
        self._note("connected")

    def _on_disconnect(self, _c: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any = None) -> None:
        self._note("lost", str(reason))

    def _on_publish(self, _c: mqtt.Client, _u: Any, mid: int, _r: Any = None, _p: Any = None) -> None:
        self._note("acked", mid)

    def _on_message(self, _c: mqtt.Client, _u: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            self._note("resend", parse_resend(msg.payload))
        except (ValueError, KeyError, TypeError):
            log.warning("table %s: a bad resend request was ignored", self.table)

    # ------------------------------------------------------------------ the pump
    def _run(self) -> None:
        misc_at = 0.0
        misc_every = min(MISC_EVERY, self.link.keepalive / 4) if self.link.keepalive > 0 else MISC_EVERY
        while not self._stop.is_set():
            if self.client.socket() is None and not self._dial():
                self._safe_round()  # a lost link's note still counts
                continue
            now = time.monotonic()
            wait = max(0.0, min(self._timeout, misc_at + misc_every - now))
            self._timeout = self.tick
            if self._serve_socket(wait) and time.monotonic() - misc_at >= misc_every:
                misc_at = time.monotonic()
                self.client.loop_misc()
            self._safe_round()

    def _safe_round(self) -> None:
        self._woken = False
        try:
            self._round()
        except Exception:  # the referee must go on whatever the link does
            log.exception("club publisher round failed")

    def _dial(self) -> bool:
        """One try at (re)connecting, after the retry pause when a link was lost or
        refused; False when the broker could not be reached (paho says why, or, on a
        TLS link, the watch does)."""
        if self._stop.wait(self._retry if self._dialled else 0.0):
            return False
        self._dialled = True
        try:
            self.client.reconnect()
            return True
        except OSError as err:
            log.debug("club broker %s unreachable for table %s: %s", self.link.key, self.table, err)
            failed = self.client.on_connect_fail
            if failed is not None:
                failed(self.client, None)
            self._retry = min(self._retry * 2, RETRY_MOST)
            return False

    def _serve_socket(self, wait: float) -> bool:
        """Sleep until the broker's socket or the referee has something, at most ``wait``
        seconds; read and write what is due. False when the link is gone (paho has already
        called ``on_disconnect``)."""
        sock = self.client.socket()
        if sock is None:
            return False
        writes = [sock] if self.client.want_write() else []
        # TLS: bytes already decrypted into the SSL object never make the socket readable
        buffered = getattr(sock, "pending", lambda: 0)() > 0
        try:
            readable, writable, _ = select.select([sock, self._wake_r], writes, [], 0.0 if buffered else wait)
        except (OSError, ValueError):  # closed under us: paho's next call says so
            readable, writable = [sock], []
        if buffered and sock not in readable:
            readable = [*readable, sock]
        if self._wake_r in readable:
            try:
                while self._wake_r.recv(4096):
                    pass
            except (BlockingIOError, OSError):
                pass
        if sock in readable and self.client.loop_read() != mqtt.MQTT_ERR_SUCCESS:
            return False
        if (sock in writable or self.client.want_write()) and self.client.loop_write() != mqtt.MQTT_ERR_SUCCESS:
            return False
        return self.client.socket() is not None

    def _round(self) -> None:
        box = self.outbox
        while self._notes:
            kind, value = self._notes.popleft()
            if kind == "connected":
                self._connected = True
                self._mids.clear()
                box.rewind()
                self._state_sent = -1
                self.client.publish(self._topic(STATUS), StatusMessage(ONLINE, self.clock()).to_bytes(),
                                    qos=1, retain=True)
            elif kind == "lost":
                self._connected = False
            elif kind == "acked":
                seq = self._mids.pop(value, None)
                if seq is not None:
                    box.acked(seq)
            elif kind == "resend":
                box.rewind(value)
                self._state_sent = -1
        box.refresh()
        if self._connected:
            self._send()
        self._save()

    def _send(self) -> None:
        box = self.outbox
        batches = box.pending(ROUND)
        for b in batches:
            b = replace(b, sent=self.clock())
            info = self.client.publish(self._topic(EVENTS), b.to_bytes(), qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                self._connected = False  # the connect note will rewind and send it again
                return
            self._mids[info.mid] = b.seq
            box.handed(b)
            self.sent += 1
        if len(batches) == ROUND:
            self._timeout = 0.0  # more to send: come straight back after the notes
            return
        if self.referee.last_seq == self._state_sent:
            return
        wait = self._state_at + self.state_every - time.monotonic()
        if wait > 0:  # sent one a moment ago: come back for the latest when it is due
            self._timeout = min(self._timeout, wait)
            return
        state = self.referee.public_state()
        msg = StateMessage(self.table, int(state["seq"]), box.last, self.clock(), state, self.referee.journal_id)
        info = self.client.publish(self._topic(STATE), msg.to_bytes(), qos=1, retain=True)
        if info.rc == mqtt.MQTT_ERR_SUCCESS:
            self._state_sent = msg.seq
            self._state_at = time.monotonic()

    def _save(self) -> None:
        if self.marks is not None and self.outbox.mark != self._saved:
            self.marks.save(self.outbox.mark)
            self._saved = self.outbox.mark


def start_publisher(referee: Referee, club: Any, state_dir: Path) -> TablePublisher:
    """The table's publisher from its ``[club]`` config section (``controller.config.ClubSection``)."""
    link = BrokerLink(club.host, club.port, club.table, club.password, club.tls_ca, club.tls_cert, club.tls_key,
                      club.keepalive)
    return TablePublisher(referee, link, club.table, prefix=club.prefix, state_dir=state_dir).start()
