"""The table side: a referee's public events and state, out to the club's broker.

One thread (the pump) owns the :class:`Outbox`; paho's network thread only drops notes
into a queue (connected, lost, acknowledged, resend asked), because paho calls
``on_publish`` while holding its own lock and must not wait for ours. The referee's
subscriber callback only wakes the pump, so a slow or absent broker never slows the
referee: the table keeps refereeing and the journal holds what is owed.
"""

from __future__ import annotations

import logging
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
        self._wake = threading.Event()
        self._stop = threading.Event()
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
        self._unsubscribe = self.referee.subscribe(lambda _e: self._wake.set())
        self.client.connect_async(self.link.host, self.link.port, self.link.keepalive)
        self.client.loop_start()
        self._thread.start()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        """Say goodbye (status offline, retained) and close the link."""
        if self._unsubscribe:
            self._unsubscribe()
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        if self._connected:
            info = self.client.publish(self._topic(STATUS), StatusMessage(OFFLINE, self.clock()).to_bytes(),
                                       qos=1, retain=True)
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()
        self._save()

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def published_upto(self) -> int:
        return self.outbox.mark

    # ------------------------------------------------------------------ paho's thread: notes only
    def _note(self, kind: str, value: Any = None) -> None:
        self._notes.append((kind, value))
        self._wake.set()

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any = None) -> None:
        if reason.is_failure:
            log.warning("club broker refused table %s: %s", self.table, reason)
            return
        client.subscribe(self._topic(RESEND), qos=1)
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
        while not self._stop.is_set():
            self._wake.wait(self._timeout)
            self._wake.clear()
            self._timeout = self.tick
            try:
                self._round()
            except Exception:  # the referee must go on whatever the link does
                log.exception("club publisher round failed")

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
            self._wake.set()  # more to send: come straight back after the notes
            return
        if self.referee.last_seq == self._state_sent:
            return
        wait = self._state_at + self.state_every - time.monotonic()
        if wait > 0:  # sent one a moment ago: come back for the latest when it is due
            self._timeout = min(self._timeout, wait)
            return
        state = self.referee.public_state()
        msg = StateMessage(self.table, int(state["seq"]), box.last, self.clock(), state)
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
