"""Round-robin polling of the hub's readers, with the debounce that decides TAG and GONE.

Plain MicroPython-subset module: no ``machine``, no ``time``, no imports. The clock,
the readers and the line writer are handed in, so the project's tests drive it under
CPython with fake readers and a fake clock, and ``main.py`` drives it on the Pico.

Why one reader at a time, each with a hold: readers 10 cm apart on 13.56 MHz detune
each other when their fields are on together, so only one field is on at any moment.
A reader's turn is: ``activate()`` (field on), wait ``hold_ms`` so a card in the field
powers up, ``read_uid()``, ``deactivate()`` (field off, which also resets the card so
the next turn's REQA sees it again). :meth:`Poller.step` does half a turn and returns
how long to sleep before the next half, so the caller's loop is three lines.

Debounce, per reader:

* a new UID is reported at once (TAG); a different UID replacing it sends GONE for
  the old one first;
* a lying tag is re-sent every ``repeat_ms`` so a host that lost a line or connected
  late learns it;
* it is GONE only after ``gone_misses`` turns in a row without it, so one missed read
  (a card being straightened) is not a removal.

A reader that raises is reported once (FAULT, with the exception's ``code`` attribute
if it has one) and retried every ``retry_ms``; when it answers again, RECOVER.
FAULT lines are rate-limited per reader: one that fails again within ``fault_ms`` of
its last FAULT (a loose wire coming and going) is not announced, nor is its recovery;
the next FAULT that is sent says how many went unsaid.

A pile (two or more cards in one field, which neither chip can read as one: the
driver raises with ``code == "pile"``) is not a broken reader: it is sent as
``FAULT zone pile …`` and RECOVER once a single card or none is read, but the reader
is neither set up again nor rested, and the tag that lay there before is kept (it is
most likely under the new card), so no GONE is sent for it while the pile lasts.
Times are MicroPython ticks, only combined through the given ``ticks_diff`` and
``ticks_add``, so the 30-bit wrap of ``time.ticks_ms`` on the Pico is harmless.

Which readers take turns: all of them after boot; the host narrows that with the
``ZONES`` command (:meth:`Poller.command`). A brisk deal slides a card over the deal
spot in less time than a round of six readers takes, so while the cards are dealt the
host asks for the deal spot alone and the deal reader gets every turn. A reader left
out keeps what it knew (its lying tag, its fault) untouched, and no GONE is sent for
it: nobody looked, so nothing is known to have left.
"""

FIRMWARE_VERSION = "1.1.0"

_CODE_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_-."


def _plain_diff(a, b):
    return a - b


def _plain_add(a, b):
    return a + b


def fault_code(err):
    """A protocol token for an exception: its ``code`` attribute, else a generic one."""
    code = getattr(err, "code", None)
    if isinstance(code, str) and code and len(code) <= 32:
        if all(ch in _CODE_CHARS for ch in code.lower()):
            return code
    if isinstance(err, OSError):
        return "io"
    return "error"


class ZoneState:
    """What the hub believes about one reader."""

    def __init__(self, reader):
        self.reader = reader
        self.zone = reader.zone
        self.uid = None  # hex text of the lying tag, or None
        self.misses = 0
        self.last_sent = 0
        self.faulty = False
        self.announced = False  # the host was told of the current fault (FAULT sent)
        self.fault_sent = None  # ticks of the last FAULT line, or None
        self.unsaid = 0  # faults not announced since the last FAULT line
        self.next_retry = 0
        self.needs_init = True


class Poller:
    """Takes turns over the readers; every line goes through ``writer`` (a LineWriter)."""

    def __init__(
        self,
        readers,
        writer,
        ticks_ms,
        ticks_diff=_plain_diff,
        ticks_add=_plain_add,
        hold_ms=8,
        gap_ms=1,
        repeat_ms=500,
        gone_misses=3,
        heartbeat_ms=1000,
        hello_ms=10000,
        retry_ms=2000,
        fault_ms=10000,
        firmware=FIRMWARE_VERSION,
    ):
        if not readers:
            raise ValueError("a hub needs at least one reader")
        zones = [r.zone for r in readers]
        if len(set(zones)) != len(zones):
            raise ValueError("two readers for one zone")
        self.states = [ZoneState(r) for r in readers]
        self.polled = list(self.states)  # the readers taking turns (ZONES narrows them)
        self.writer = writer
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.ticks_add = ticks_add
        self.hold_ms = hold_ms
        self.gap_ms = gap_ms
        self.repeat_ms = repeat_ms
        self.gone_misses = gone_misses
        self.heartbeat_ms = heartbeat_ms
        self.hello_ms = hello_ms
        self.retry_ms = retry_ms
        self.fault_ms = fault_ms
        self.firmware = firmware
        self._index = 0
        self._active = None  # the state whose field is on, between the two half-turns
        self._started = False
        self._last_tick = 0
        self._uptime_ms = 0
        self._next_hb = 0
        self._next_hello = 0

    @property
    def zones(self):
        return [s.zone for s in self.states]

    def command(self, body, problem=None):
        """Carry out one command from the host; every command is answered.

        ``body`` is the command's text (``hubproto.command_body`` takes it out of its
        line), or None for a damaged line, with ``problem`` saying how.

        ``ZONES all`` or ``ZONES deal,trump``: poll those readers only, answered by a
        ZONES line naming them. Anything the hub cannot do is answered by ERR (``frame``:
        a damaged line; ``unknown``: a command it does not know; ``zone``: a zone it has
        no reader for), and nothing changes.
        """
        if not self._started:
            self.start()
        if body is None:
            self.writer.error("frame", problem or "damaged line")
            return
        words = body.split(" ")
        if words[0] == "ZONES" and len(words) == 2:
            self._choose(words[1])
        else:
            self.writer.error("unknown", words[0])

    def _choose(self, names):
        if names == "all":
            chosen = list(self.states)
        else:
            wanted = names.split(",")
            missing = [z for z in wanted if z not in self.zones]
            if missing:
                self.writer.error("zone", "no reader for " + ",".join(missing))
                return
            chosen = [s for s in self.states if s.zone in wanted]
        self.polled = chosen
        self._index = 0
        self.writer.zones([s.zone for s in chosen])

    def start(self):
        """HELLO (seq 0), then initialise every reader, reporting those that fail."""
        now = self.ticks_ms()
        self._last_tick = now
        self._next_hb = now
        self._next_hello = self.ticks_add(now, self.hello_ms)
        self._hello()
        for state in self.states:
            self._init(state, now)
        self._started = True

    def step(self):
        """Half a reader's turn; returns the milliseconds to sleep before the next call."""
        if not self._started:
            self.start()
        now = self.ticks_ms()
        self._housekeeping(now)
        if self._active is None:
            return self._begin_turn(now)
        state = self._active
        self._active = None
        return self._finish_turn(state, now)

    # --- a turn ---------------------------------------------------------------------

    def _begin_turn(self, now):
        polled = self.polled
        state = polled[self._index % len(polled)]
        self._index = (self._index + 1) % len(polled)
        if state.faulty and self.ticks_diff(now, state.next_retry) < 0:
            return 0  # not yet time to try the broken reader again
        if state.needs_init and not self._init(state, now):
            return 0
        activate = getattr(state.reader, "activate", None)
        if activate is not None:
            try:
                activate()
            except Exception as err:  # noqa: BLE001 - any reader failure is a FAULT
                self._failed(state, err, now)
                return 0
        self._active = state
        return self.hold_ms

    def _finish_turn(self, state, now):
        try:
            uid = state.reader.read_uid()
        except Exception as err:  # noqa: BLE001
            if fault_code(err) == "pile":
                self._deactivate(state)
                self._fault(state, "pile", str(err) or "pile", now)
                state.misses = 0  # the lying tag is most likely in the pile
                return self.gap_ms
            self._failed(state, err, now)
            self._deactivate(state)
            return self.gap_ms
        self._deactivate(state)
        if state.faulty:
            state.faulty = False
            if state.announced:
                self.writer.recover(state.zone)
        self._seen(state, uid, now)
        return self.gap_ms

    def _deactivate(self, state):
        deactivate = getattr(state.reader, "deactivate", None)
        if deactivate is not None:
            try:
                deactivate()
            except Exception as err:  # noqa: BLE001
                self._failed(state, err, self.ticks_ms())

    def _seen(self, state, uid, now):
        if uid is None or len(uid) == 0:
            if state.uid is not None:
                state.misses += 1
                if state.misses >= self.gone_misses:
                    self.writer.gone(state.zone, state.uid)
                    state.uid = None
                    state.misses = 0
            return
        text = uid if isinstance(uid, str) else "".join(f"{b:02X}" for b in uid)
        if text == state.uid:
            state.misses = 0
            if self.ticks_diff(now, state.last_sent) >= self.repeat_ms:
                self.writer.tag(state.zone, text)
                state.last_sent = now
            return
        if state.uid is not None:
            self.writer.gone(state.zone, state.uid)
        state.uid = text
        state.misses = 0
        state.last_sent = now
        self.writer.tag(state.zone, text)

    # --- faults -----------------------------------------------------------------------

    def _init(self, state, now):
        init = getattr(state.reader, "init", None)
        if init is not None:
            try:
                init()
            except Exception as err:  # noqa: BLE001
                self._failed(state, err, now, code="init")
                return False
        state.needs_init = False
        return True

    def _failed(self, state, err, now, code=None):
        state.next_retry = self.ticks_add(now, self.retry_ms)
        state.needs_init = True  # a reader that failed is set up again before use
        self._fault(state, code or fault_code(err), str(err) or type(err).__name__, now)

    def _fault(self, state, code, detail, now):
        """Mark the reader faulty; send FAULT unless one went out within ``fault_ms``."""
        if state.faulty:
            return
        state.faulty = True
        recent = state.fault_sent is not None and self.ticks_diff(now, state.fault_sent) < self.fault_ms
        state.announced = not recent
        if recent:
            state.unsaid += 1
            return
        if state.unsaid:
            detail = "(" + str(state.unsaid) + " more not sent) " + detail
            state.unsaid = 0
        state.fault_sent = now
        self.writer.fault(state.zone, code, detail)

    # --- timers -------------------------------------------------------------------------

    def _housekeeping(self, now):
        self._uptime_ms += self.ticks_diff(now, self._last_tick)
        self._last_tick = now
        if self.ticks_diff(now, self._next_hb) >= 0:
            self.writer.heartbeat(self._uptime_ms // 1000)
            self._next_hb = self.ticks_add(now, self.heartbeat_ms)
        if self.ticks_diff(now, self._next_hello) >= 0:
            self._hello()
            self._next_hello = self.ticks_add(now, self.hello_ms)

    def _hello(self):
        self.writer.hello(self.firmware, self.zones, self.heartbeat_ms, self.repeat_ms)
