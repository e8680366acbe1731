"""The club side: every table's messages in, one consistent picture out.

Each table's events arrive as a chain (``seq``, ``prev``). A batch whose ``seq`` is
already held is a duplicate and is dropped; one whose ``prev`` is not yet held waits in
memory while the table is asked to send again from what is held (a broker that died
after acknowledging, a retransmission out of order). The state message's ``last`` shows
a lost tail the same way. So the scoreboard counts every input once, in journal order,
whatever the broker or the Wi-Fi did.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt

from controller.club.ledger import MatchRecord, TableLedger
from controller.club.link import BrokerLink, make_client
from controller.club.store import ARCHIVE, ClubStore
from controller.club.topics import (
    DEFAULT_PREFIX,
    EVENTS,
    OFFLINE,
    RESEND,
    STATE,
    STATUS,
    Batch,
    StateHead,
    StatusMessage,
    parse_topic,
    resend_request,
    topic,
)
from controller.web.broadcast import RECENT

log = logging.getLogger(__name__)

#: Seconds between two resend requests to the same table for the same gap.
ASK_AGAIN = 1.0
#: A table with no event for this long, or no match going, is shown as idle.
IDLE_AFTER = 120.0
#: Seconds the writer waits after the first message of a burst, so one SQLite transaction
#: takes the whole burst (the pages read memory, so this delays nothing they show).
FLUSH_AFTER = 0.05
#: Seconds between two log lines about ignored messages on one topic.
BAD_MESSAGE_EVERY = 60.0
#: A table's public state is a few kilobytes on a club night (a bot's match of two
#: thousand hands, its history and all: 330 kB). One far past that is someone holding a
#: table's password filling the scoreboard's memory, database and every spectator's page.
MAX_STATE_BYTES = 4 * 1024 * 1024
#: One input's public events: a few hundred bytes, a hand's end a few kilobytes. Batches
#: of 8 MB each (the broker's limit), chained one after another with a table's password,
#: took the scoreboard from 130 to 742 MB and its database to 521 MB in 40 messages.
MAX_BATCH_BYTES = 64 * 1024
#: All the batches one table may send while the scoreboard runs: a night of play is
#: about a megabyte, resends included; this is fifty nights, and then no more.
MAX_TABLE_BYTES = 64 * 1024 * 1024

BatchHook = Callable[[str, Batch, float], None]

#: The interpreter's thread switch interval on the club server, in seconds. Python's
#: default lets a busy thread (a page computing the standings, the writer staging a
#: burst for SQLite) keep the GIL for 5 ms while the broker's thread waits with a
#: message in hand; a club of fifty busy tables then shows it in its slowest messages
#: (bench/club.py: p99 3.3-3.5 ms at 5 ms, 2.6-2.9 ms at 1 ms, same machine and hour).
SWITCH_INTERVAL = 0.001


def quick_handoffs() -> None:
    """Shorten the thread switch interval for a process whose job is the scoreboard."""
    sys.setswitchinterval(SWITCH_INTERVAL)


@dataclass
class LiveTable:
    name: str
    have: int = 0  # every batch up to here is held, in order
    last: int = 0  # the newest batch the table says it has sent
    status: str = "unknown"
    status_since: float | None = None
    state_json: bytes | None = None  # the table's public state as it came (see StateHead)
    state_at: float | None = None
    last_event_at: float | None = None
    waiting: dict[int, Batch] = field(default_factory=dict)  # prev -> batch that came early
    asked: tuple[int, float] = (-1, 0.0)  # (have when asked, when)
    duplicates: int = 0
    #: bytes of event batches heard from this table since the scoreboard started
    heard: int = 0
    #: the table's referee is behind what is held, or speaks from another journal: its
    #: journal began again (a new SD card, a spare Pi), or what is held went beyond what
    #: its journal says (a message forged with its password). Until the director starts it
    #: afresh, nothing it sends is counted (see :meth:`Scoreboard.start_afresh`).
    restarted: bool = False
    journal: str = ""  # the journal the held batches came from ("" from tables before ids)
    other: str = ""  # another journal heard under this table's name, not taken
    said: int = 0  # the input the table's latest state says its referee is at
    #: the table's latest public events, as the table screen's own feed keeps them: its
    #: renderer finds the last trick taken and a standing revoke flag there
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=RECENT))

    _decoded: tuple[bytes | None, dict[str, Any] | None] = field(default=(None, None), repr=False)

    @property
    def state(self) -> dict[str, Any] | None:
        """The table's public state, decoded on first reading after it changed."""
        if self._decoded[0] is not self.state_json:
            try:
                state = json.loads(self.state_json) if self.state_json else None
            except (ValueError, RecursionError):  # RecursionError: nested past Python's depth
                log.warning("table %s sent a state that is not JSON; not shown", self.name)
                state = None
            if not isinstance(state, dict) or any(
                    not isinstance(state.get(k), dict | None) for k in ("view", "setup")):
                # what the table's referee writes is an object whose view and setup are
                # objects; anything else (sent with its password) is no state to show
                state = None
            self._decoded = (self.state_json, state)
        return self._decoded[1]

    @property
    def behind(self) -> bool:
        return bool(self.waiting) or self.last > self.have

    def shown_status(self, now: float) -> str:
        if self.status == OFFLINE:
            return "offline"
        if self.status != "online":
            return "unknown"
        view = (self.state or {}).get("view")
        if view is None or view.get("phase") == "over":
            return "idle"
        if self.last_event_at is not None and now - self.last_event_at > IDLE_AFTER:
            return "idle"
        return "playing"


class Scoreboard:
    def __init__(self, store: ClubStore, link: BrokerLink | None = None, *, prefix: str = DEFAULT_PREFIX,
                 clock: Callable[[], float] = time.time, on_batch: BatchHook | None = None,
                 client_id: str = "courtpiece-scoreboard") -> None:
        self.store = store
        self.link = link
        self.prefix = prefix
        self.clock = clock
        self.on_batch = on_batch
        self.tables: dict[str, LiveTable] = {}
        self.ledgers: dict[str, TableLedger] = {}
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self.connected = False
        self._bad: dict[str, tuple[float, int]] = {}  # topic -> (last reported, ignored since)
        self.version = 0  # bumped on every change the pages show
        #: table name -> journals whose chains were archived under it: a Pi still running
        #: the old journal is not news, it is kept already
        self.retired: dict[str, set[str]] = {}
        self._load()
        self.client: mqtt.Client | None = None
        if link is not None:
            self.client = make_client(link, client_id)
            self.client.on_connect = self._on_connect
            self.client.on_disconnect = self._on_disconnect
            self.client.on_message = self._on_message
        self._ticker = threading.Thread(target=self._tick_loop, daemon=True, name="scoreboard-tick")
        self._dirty = threading.Event()
        self._writer = threading.Thread(target=self._write_loop, daemon=True, name="scoreboard-writer")

    # ---------------------------------------------------------------- start-up from SQLite
    def _load(self) -> None:
        for row in self.store.table_rows():
            if ARCHIVE in row.name and row.journal:
                self.retired.setdefault(row.name.split(ARCHIVE)[0], set()).add(row.journal)
            t = LiveTable(row.name, row.have, row.last, row.status, row.status_at, row.state_json, row.state_at,
                          journal=row.journal)
            self.tables[row.name] = t
            self._rebuild(row.name)

    def _rebuild(self, name: str) -> None:
        stored = self.store.batches(name)
        night_of = {b.seq: n for b, n in stored}
        ledger = TableLedger(name).fold(b for b, _ in stored)
        for m in ledger.matches:
            m.night = night_of.get(m.seq, 0)
        self.ledgers[name] = ledger
        t = self.tables[name]
        t.recent.clear()
        for b, _ in stored[-RECENT:]:
            t.recent.extend(b.events)
        if stored:
            ats = [e.get("at") for e in stored[-1][0].events if isinstance(e.get("at"), int | float)]
            t.last_event_at = max(ats) if ats else t.last_event_at

    # ---------------------------------------------------------------- broker
    def start(self) -> Scoreboard:
        if self.client is not None and self.link is not None:
            self.client.connect_async(self.link.host, self.link.port, self.link.keepalive)
            self.client.loop_start()
        self._ticker.start()
        self._writer.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()
        self._dirty.set()
        for thread in (self._ticker, self._writer):
            if thread.is_alive():
                thread.join(5)
        self.store.flush()

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any = None) -> None:
        if reason.is_failure:
            log.warning("the broker refused the scoreboard: %s", reason)
            return
        self.connected = True
        now = self.clock()
        with self._lock:
            for t in self.tables.values():
                t.asked = (-1, 0.0)  # whatever was asked before the link dropped is asked again
                # A broker that died sent no last wills: every table counts as offline until
                # its retained status (re-sent on subscribing) or its reconnection says otherwise.
                if t.status != OFFLINE:
                    t.status, t.status_since = OFFLINE, now
            self.version += 1
        client.subscribe([(topic(self.prefix, "+", k), 1) for k in (EVENTS, STATE, STATUS)])

    def _on_disconnect(self, *_a: Any) -> None:
        self.connected = False

    def _on_message(self, _c: mqtt.Client, _u: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            self.handle(msg.topic, msg.payload)
        except (ValueError, KeyError, TypeError) as err:  # not what a table writes
            self._bad_message(msg.topic, f"{type(err).__name__}: {err}", with_trace=False)
        except Exception as err:  # one bad message must not stop the scoreboard
            self._bad_message(msg.topic, f"{type(err).__name__}: {err}", with_trace=True)

    def _bad_message(self, where: str, why: str, *, with_trace: bool) -> None:
        """One line per topic a minute at most: a table (or anyone holding its password)
        sending junk must not fill the club server's log and disk."""
        now = time.monotonic()
        last, quiet = self._bad.get(where, (float("-inf"), 0))
        if now - last < BAD_MESSAGE_EVERY:
            self._bad[where] = (last, quiet + 1)
            return
        self._bad[where] = (now, 0)
        more = f" ({quiet} more since the last report)" if quiet else ""
        log.warning("a message on %s was ignored: %s%s", where, why[:200], more, exc_info=with_trace)

    def _ask(self, t: LiveTable, now: float) -> None:
        if self.client is None or (t.asked[0] == t.have and now - t.asked[1] < ASK_AGAIN):
            return
        t.asked = (t.have, now)
        self.client.publish(topic(self.prefix, t.name, RESEND), resend_request(t.have), qos=1)

    def _tick_loop(self) -> None:
        while not self._stop.wait(ASK_AGAIN / 2):
            now = self.clock()
            with self._lock:
                for t in self.tables.values():
                    if t.behind and self.connected:
                        self._ask(t, now)

    def _write_loop(self) -> None:
        """SQLite off the message path: one transaction per burst of messages."""
        while not self._stop.is_set():
            self._dirty.wait()
            self._stop.wait(FLUSH_AFTER)
            self._dirty.clear()
            try:
                self.store.flush()
            except Exception:  # a full disk must not stop the scoreboard showing the night
                log.exception("the club store could not write; kept in memory and tried again")
                self._dirty.set()
                self._stop.wait(1.0)

    # ---------------------------------------------------------------- messages
    def handle(self, name: str, payload: bytes) -> None:
        where = parse_topic(self.prefix, name)
        if where is None:
            return
        table, kind = where
        now = self.clock()
        with self._lock:
            t = self.tables.get(table)
            if t is None:
                t = self.tables[table] = LiveTable(table)
                self.ledgers[table] = TableLedger(table)
            if kind == EVENTS:
                if len(payload) > MAX_BATCH_BYTES:
                    raise ValueError(f"a batch of {len(payload)} bytes, past the {MAX_BATCH_BYTES} one input's "
                                     "events could be: not kept")
                if t.heard + len(payload) > MAX_TABLE_BYTES:
                    raise ValueError(f"past {MAX_TABLE_BYTES} bytes of events from one table since the "
                                     "scoreboard started (a night is about one MB): not kept")
                t.heard += len(payload)
                self._batch(t, Batch.from_bytes(payload), now)
            elif kind == STATE:
                if len(payload) > MAX_STATE_BYTES:
                    raise ValueError(f"a state of {len(payload)} bytes, past the {MAX_STATE_BYTES} a table's "
                                     "state could be: not kept")
                self._state(t, StateHead.from_bytes(payload), now)
            elif kind == STATUS:
                s = StatusMessage.from_bytes(payload)
                if s.status != t.status:
                    t.status, t.status_since = s.status, s.at or now
                    self.store.set_status(table, t.status, t.status_since)
                    self.version += 1
        self._dirty.set()

    def _ours(self, t: LiveTable, journal: str, *, adopt: bool, judge: bool) -> bool:
        """Is a message from the journal whose batches are held? A message of another is
        not counted, and the director is told once.

        A table with no journal named yet takes the first one heard when ``adopt`` (a
        first batch, or a state that agrees with what is held). One held from a club
        file written before journal ids (``have`` > 0) keeps going as before on a batch;
        a state behind what it holds (``judge``) marks another journal, as the input
        numbers alone did then."""
        if not journal or journal == t.journal:
            return True
        if journal in self.retired.get(t.name, ()):
            t.duplicates += 1
            return False
        if not t.journal:
            if adopt:
                t.journal = journal
                self.store.set_journal(t.name, journal)
                return True
            if not judge:
                return True
        if t.other != journal:
            t.other = journal
            t.restarted = True
            self.version += 1
            log.warning("table %s: messages from another journal than the one held (a new SD card or a second "
                        "referee under this name); none is counted until the director starts it afresh", t.name)
        return False

    def _batch(self, t: LiveTable, b: Batch, now: float) -> None:
        if b.table != t.name:
            raise ValueError(f"a batch for {b.table!r} on {t.name!r}'s topic")
        if not self._ours(t, b.journal, adopt=t.have == 0, judge=False):
            return
        if t.restarted:  # held beyond what the table's journal says: nothing counts until the director acts
            return
        if b.seq <= t.have:
            t.duplicates += 1
            return
        if b.prev != t.have:
            t.waiting[b.prev] = b
            self._ask(t, now)
            return
        self._take(t, b, now)
        while t.have in t.waiting:
            self._take(t, t.waiting.pop(t.have), now)
        t.waiting = {p: w for p, w in t.waiting.items() if w.seq > t.have}

    def _take(self, t: LiveTable, b: Batch, now: float) -> None:
        night = self.store.night
        self.store.add_batch(b, now, night)
        t.have = b.seq
        t.recent.extend(b.events)
        ats = [e["at"] for e in b.events if isinstance(e.get("at"), int | float)]
        if ats:
            t.last_event_at = max(ats)
        if any(e.get("event") == "undone" for e in b.events):
            self._rebuild(t.name)
        else:
            ledger = self.ledgers.setdefault(t.name, TableLedger(t.name))
            before = len(ledger.matches)
            ledger.fold([b])
            for m in ledger.matches[before:]:
                m.night = night
        self.version += 1
        if self.on_batch is not None:
            self.on_batch(t.name, b, now)

    def _state(self, t: LiveTable, s: StateHead, now: float) -> None:
        if not self._ours(t, s.journal, adopt=s.seq >= t.have, judge=True):
            return
        if s.seq < t.have and not t.restarted:
            log.warning("table %s says it is at input %d but %d are held: more than its journal holds was "
                        "counted; the director must start it afresh", t.name, s.seq, t.have)
        t.restarted = s.seq < t.have or bool(t.other)
        t.said = s.seq
        t.state_json, t.state_at, t.last = s.state_json, s.at, max(t.last, s.last)
        self.store.set_state(t.name, t.last, s.state_json, s.at)
        if t.behind:
            self._ask(t, now)
        self.version += 1

    def start_afresh(self, name: str) -> dict[str, Any]:
        """The director's answer to a table marked *journal began again*.

        - Another journal speaks under its name (a new SD card, a spare Pi): what is held
          moves to an archive name (its matches stay in the standings and statistics) and
          the new journal is taken from its first input on: ``{"archived_as": NAME~N}``.
        - Its own journal is behind what is held (a message forged with the table's
          password jumped ahead): what the journal never reached is forgotten and the
          table goes on from there: ``{"taken_back_to": SEQ}``. Nothing is taken twice.

        Any other table is refused (ValueError): starting it afresh would count its
        matches twice."""
        with self._lock:
            if name not in self.tables:
                raise KeyError(name)
            t = self.tables[name]
            if t.other:
                return {"archived_as": self._archive(t)}
            if t.restarted:
                t.have = self.store.take_back(name, t.said)
                t.last, t.restarted, t.waiting, t.asked = min(t.last, t.have), False, {}, (-1, 0.0)
                self._rebuild(name)
                self.version += 1
                self._ask(t, self.clock())
                return {"taken_back_to": t.have}
            raise ValueError(f"table {name} is not waiting to be started afresh: its journal and what is "
                             "held agree, and taking it again would count its matches twice")

    def seatable(self) -> list[str]:
        """The tables a round can be seated at: not an archive (``NAME~2``)."""
        with self._lock:
            return sorted(n for n in self.tables if ARCHIVE not in n)

    def _archive(self, t: LiveTable) -> str:
        if t.journal:
            self.retired.setdefault(t.name, set()).add(t.journal)
        old = self.store.archive_table(t.name)
        self.tables.pop(t.name)
        self.ledgers.pop(t.name, None)
        self.tables[old] = LiveTable(old, t.have, t.have, OFFLINE, t.status_since, journal=t.journal)
        self._rebuild(old)
        self.store.set_journal(t.name, t.other)
        fresh = self.tables[t.name] = LiveTable(t.name, status=t.status, status_since=t.status_since,
                                                journal=t.other)
        self.ledgers[t.name] = TableLedger(t.name)
        self.version += 1
        self._ask(fresh, self.clock())
        return old

    # ---------------------------------------------------------------- what the pages read
    def matches(self, night: int | None = None) -> list[MatchRecord]:
        with self._lock:
            out = [m for ledger in self.ledgers.values() for m in ledger.matches]
        return [m for m in out if night is None or m.night == night]

    def snapshot(self) -> list[dict[str, Any]]:
        now = self.clock()
        with self._lock:
            return [self._summary(t, now) for t in sorted(self.tables.values(), key=lambda t: t.name)]

    def table(self, name: str) -> dict[str, Any] | None:
        now = self.clock()
        with self._lock:
            t = self.tables.get(name)
            if t is None:
                return None
            out = self._summary(t, now)
            out["state"] = t.state
            out["recent"] = list(t.recent)
            ledger = self.ledgers.get(name)
            out["matches"] = [m.to_dict() for m in ledger.matches] if ledger else []
            return out

    def _summary(self, t: LiveTable, now: float) -> dict[str, Any]:
        state = t.state or {}
        view = state.get("view") or {}
        setup = state.get("setup") or {}
        return {"name": t.name, "status": t.shown_status(now), "since": t.status_since,
                "seats": setup.get("seats"), "preset": setup.get("preset"), "score": view.get("score"),
                "score_kind": view.get("score_kind"), "hand": view.get("hand"), "trump": view.get("trump"),
                "phase": view.get("phase"), "match_over": view.get("match_over"), "have": t.have, "last": t.last,
                "behind": t.behind, "restarted": t.restarted, "last_event_at": t.last_event_at}
