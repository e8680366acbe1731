"""What the host makes of a hub's line stream: sightings, faults, counters.

Pure and single-threaded: bytes and the time go in, :class:`TagSeen` and
:class:`ReaderFault` come out. Keeping it apart from the serial thread lets the
property tests push tens of thousands of lines through the very logic the driver runs,
in milliseconds, with a clock they control.

Rules it applies (see ``docs/hub-protocol.md``):

* every bad fragment is counted by kind and reported as a ReaderFault, at most one
  report per ``bad_line_report_interval`` (the report says how many were folded in),
  so a noisy cable cannot flood the journal;
* sequence numbers must follow on; a jump forward is a gap (lines lost or corrupted),
  a jump back is a rewind. A HELLO with seq 0 (hub boot) and the first line after a
  (re)connect set a new baseline instead;
* a tag lying on a reader is one sighting however often it is read. It counts again
  only after the hub said GONE, another tag was read in that zone, or it has not been
  read for the removal silence (the silence clock stops while the link is down);
* the silence clock runs on time the host heard the hub: between two lines, at most one
  ``repeat`` interval counts. A host that stalled (a busy SD card, a starved process)
  reads the hub's backlog all at once, and the gap before it is no proof that a card
  lying there was lifted; without this every card lying on a reader counted again;
* no heartbeat for ``heartbeat_timeout`` is a fault (once, until heartbeats return);
* a zone the hub does not poll now (``ZONES``, see ``hub_zones``) keeps what lay on it:
  its silence clock stops until the hub polls it again, as while the link is down.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from controller.readers.hub_framing import LineAssembler
from controller.readers.hub_protocol import (
    PROTOCOL_VERSION,
    SEQ_MODULUS,
    BadLineKind,
    Fault,
    Heartbeat,
    Hello,
    HubLineError,
    HubMessage,
    Recover,
    Refused,
    TagGone,
    TagRead,
    Zones,
    decode_line,
)
from controller.readers.hub_zones import ZoneRequest
from controller.readers.sightings import ReaderFault, TagSeen

HubEvent = TagSeen | ReaderFault

#: The TAG repeat interval a hub that does not announce one keeps (docs/hub-protocol.md).
DEFAULT_REPEAT = 0.5


@dataclass(slots=True)
class HubStats:
    """Counters since the tracker was made. ``HubDriver.stats()`` hands out copies."""

    bytes_read: int = 0
    lines_ok: int = 0
    bad_lines: int = 0
    bad_by_kind: Counter[BadLineKind] = field(default_factory=Counter)
    seq_gaps: int = 0
    lines_missing: int = 0
    seq_rewinds: int = 0
    tag_reads: int = 0
    tags_seen: int = 0
    repeats_dropped: int = 0
    removals: int = 0
    silence_expiries: int = 0
    heartbeats: int = 0
    heartbeat_losses: int = 0
    hellos: int = 0
    hub_faults: int = 0
    connects: int = 0
    disconnects: int = 0
    open_failures: int = 0
    faults_reported: int = 0
    commands_sent: int = 0
    commands_answered: int = 0
    commands_refused: int = 0

    def copy(self) -> HubStats:
        return replace(self, bad_by_kind=Counter(self.bad_by_kind))


@dataclass(frozen=True, slots=True)
class HubStatus:
    """A snapshot of the link: for a status page and for tests."""

    connected: bool
    alive: bool
    hello: Hello | None
    faulty: dict[str | None, str]
    present: dict[str, str]
    #: the zones the hub said it polls now; None: every reader
    polled: tuple[str, ...] | None = None
    #: the hub answers ZONES (True), does not (False: older firmware), not known yet (None)
    takes_commands: bool | None = None


@dataclass(slots=True)
class _Presence:
    tag: str
    last_read: float  # on the silence clock (``HubTracker._heard``), not the host's


class HubTracker:
    """Turns hub bytes into events. Times: ``now`` monotonic seconds, ``wall`` for ``at``."""

    def __init__(
        self,
        source: str = "rfid-hub",
        *,
        removal_silence: float | None = 1.5,
        heartbeat_timeout: float | None = 3.0,
        bad_line_report_interval: float = 1.0,
        answer_timeout: float = 1.0,
    ) -> None:
        self.source = source
        self.removal_silence = removal_silence
        self.heartbeat_timeout = heartbeat_timeout
        self.bad_line_report_interval = bad_line_report_interval
        self.stats = HubStats()
        self.hello: Hello | None = None
        self.connected = False
        self._assembler = LineAssembler()
        self._expected_seq: int | None = None
        self._present: dict[str, _Presence] = {}
        #: the silence clock: seconds the host heard the hub (see the module's rules)
        self._heard = 0.0
        self._last_line: float | None = None
        self._faulty: dict[str | None, str] = {}
        self._last_heartbeat = 0.0
        self._alive = False
        self._bad_pending: Counter[BadLineKind] = Counter()
        self._bad_last = b""
        self._next_bad_report = float("-inf")
        self.zones = ZoneRequest(answer_timeout=answer_timeout)

    # --- link state ---------------------------------------------------------------

    def on_connected(self, now: float) -> list[HubEvent]:
        """The port is open again: new sequence baseline, clocks restarted."""
        self.connected = True
        self.stats.connects += 1
        self._expected_seq = None
        self._last_heartbeat = now
        self._alive = True
        self._last_line = now  # the silence clock does not run while unplugged
        self.zones.on_connected()
        return []

    def zone_command(self, now: float) -> bytes | None:
        """A ZONES command line the driver should write now, if any."""
        line = self.zones.due(now, self.hello.zones if self.hello else None)
        if line is not None:
            self.stats.commands_sent += 1
        return line

    def on_disconnected(self, now: float, wall: float, reason: str) -> list[HubEvent]:
        """The port failed. An unfinished line is still used if its checksum holds."""
        events: list[HubEvent] = []
        for fragment in self._assembler.flush():
            try:
                msg = decode_line(fragment)
            except HubLineError:
                self._bad(fragment, TruncatedAtDisconnect(fragment), now, wall, events)
            else:
                self._message(msg, now, wall, events)
        events.extend(self._flush_bad_report(wall))
        self.connected = False
        self._alive = False
        self.stats.disconnects += 1
        events.append(self._fault(f"hub disconnected: {reason}", wall))
        return events

    def on_open_failed(self, wall: float, reason: str, *, report: bool) -> list[HubEvent]:
        """The port could not be opened; reported once per outage, counted always."""
        self.stats.open_failures += 1
        return [self._fault(f"cannot open hub port: {reason}", wall)] if report else []

    # --- input ----------------------------------------------------------------------

    def feed(self, data: bytes, now: float, wall: float) -> list[HubEvent]:
        """Bytes from the port; returns the events they complete, in order."""
        self.stats.bytes_read += len(data)
        events: list[HubEvent] = []
        for fragment in self._assembler.feed(data):
            try:
                msg = decode_line(fragment)
            except HubLineError as err:
                self._bad(fragment, err, now, wall, events)
            else:
                self._message(msg, now, wall, events)
        return events

    def tick(self, now: float, wall: float) -> list[HubEvent]:
        """Called often (every read timeout): heartbeat watch, delayed bad-line report."""
        events: list[HubEvent] = []
        if self._bad_pending and now >= self._next_bad_report:
            events.extend(self._flush_bad_report(wall))
            self._next_bad_report = now + self.bad_line_report_interval
        if (
            self.connected
            and self._alive
            and self.heartbeat_timeout is not None
            and now - self._last_heartbeat > self.heartbeat_timeout
        ):
            self._alive = False
            self.stats.heartbeat_losses += 1
            events.append(self._fault(f"no heartbeat for {self.heartbeat_timeout:g} s", wall))
        return events

    def status(self) -> HubStatus:
        return HubStatus(
            connected=self.connected,
            alive=self.connected and self._alive,
            hello=self.hello,
            faulty=dict(self._faulty),
            present={zone: p.tag for zone, p in self._present.items()},
            polled=self.zones.polled,
            takes_commands=self.zones.takes_commands,
        )

    # --- internals ------------------------------------------------------------------

    def _fault(self, message: str, wall: float, zone: str | None = None) -> ReaderFault:
        self.stats.faults_reported += 1
        return ReaderFault(source=self.source, message=message, at=wall, zone=zone)

    def _bad(
        self, fragment: bytes, err: HubLineError, now: float, wall: float, events: list[HubEvent]
    ) -> None:
        self.stats.bad_lines += 1
        self.stats.bad_by_kind[err.kind] += 1
        self._bad_pending[err.kind] += 1
        self._bad_last = fragment
        if now >= self._next_bad_report:
            events.extend(self._flush_bad_report(wall))
            self._next_bad_report = now + self.bad_line_report_interval

    def _flush_bad_report(self, wall: float) -> list[HubEvent]:
        if not self._bad_pending:
            return []
        total = sum(self._bad_pending.values())
        kinds = ", ".join(f"{k.value} x{n}" for k, n in self._bad_pending.most_common())
        self._bad_pending.clear()
        noun = "bad line" if total == 1 else f"{total} bad lines"
        return [self._fault(f"{noun} from hub ({kinds}); last {self._bad_last[:48]!r}", wall)]

    def _check_seq(self, msg: HubMessage, wall: float, events: list[HubEvent]) -> None:
        expected = self._expected_seq
        self._expected_seq = (msg.seq + 1) % SEQ_MODULUS
        if expected is None or msg.seq == expected:
            return
        if isinstance(msg, Hello) and msg.seq == 0:
            return  # the hub restarted: a new count, not lost lines
        ahead = (msg.seq - expected) % SEQ_MODULUS
        if ahead < SEQ_MODULUS // 2:
            self.stats.seq_gaps += 1
            self.stats.lines_missing += ahead
            events.append(
                self._fault(
                    f"sequence gap: {ahead} line(s) lost (expected {expected}, got {msg.seq})",
                    wall,
                )
            )
        else:
            self.stats.seq_rewinds += 1
            events.append(
                self._fault(f"sequence went back (expected {expected}, got {msg.seq})", wall)
            )

    def _silence(self) -> float | None:
        """The removal silence, never shorter than the hub's own repeat could allow."""
        if self.removal_silence is None:
            return None
        repeat = self.hello.repeat_ms if self.hello else None
        if repeat:
            return max(self.removal_silence, 2.5 * repeat / 1000)
        return self.removal_silence

    def _repeat(self) -> float:
        """The hub's TAG repeat interval (seconds): it reads a lying tag at least this often."""
        repeat = self.hello.repeat_ms if self.hello else None
        return repeat / 1000 if repeat else DEFAULT_REPEAT

    def _hear(self, now: float) -> float:
        """The silence clock at a line heard ``now``: a longer gap than one repeat
        interval since the last line counts as one interval (the host was not listening,
        or the link was quiet: neither shows a card was lifted)."""
        if self._last_line is not None:
            self._heard += min(max(now - self._last_line, 0.0), self._repeat())
        self._last_line = now
        return self._heard

    def _message(self, msg: HubMessage, now: float, wall: float, events: list[HubEvent]) -> None:
        self.stats.lines_ok += 1
        heard = self._hear(now)
        self._check_seq(msg, wall, events)
        if isinstance(msg, TagRead):
            self.stats.tag_reads += 1
            seen = self._present.get(msg.zone)
            if seen is not None and seen.tag == msg.tag:
                silence = self._silence()
                if silence is None or heard - seen.last_read <= silence:
                    self.stats.repeats_dropped += 1
                    seen.last_read = heard
                    return
                self.stats.silence_expiries += 1
            self._present[msg.zone] = _Presence(msg.tag, heard)
            self.stats.tags_seen += 1
            events.append(TagSeen(zone=msg.zone, tag=msg.tag, at=wall, source=self.source))
        elif isinstance(msg, Heartbeat):
            self.stats.heartbeats += 1
            self._last_heartbeat = now
            self._alive = True
        elif isinstance(msg, TagGone):
            seen = self._present.get(msg.zone)
            if seen is not None and seen.tag == msg.tag:
                del self._present[msg.zone]
                self.stats.removals += 1
        elif isinstance(msg, Fault):
            self.stats.hub_faults += 1
            if self._faulty.get(msg.zone) != msg.code:
                self._faulty[msg.zone] = msg.code
                text = f"reader fault {msg.code}" + (f": {msg.detail}" if msg.detail else "")
                where = msg.zone if msg.zone is not None else "hub"
                events.append(self._fault(f"{where} {text}", wall, zone=msg.zone))
        elif isinstance(msg, Recover):
            self._faulty.pop(msg.zone, None)
        elif isinstance(msg, Zones):
            self.stats.commands_answered += 1
            self._polling(self.zones.polled, msg, now)
        elif isinstance(msg, Refused):
            self.stats.commands_refused += 1
            self.zones.on_refused(msg.code)
        elif isinstance(msg, Hello):
            self.stats.hellos += 1
            self.hello = msg
            if msg.seq == 0:  # booted: every reader is polled again
                self._resume(self.zones.polled, None, now)
                self.zones.on_reboot()
            if msg.proto != PROTOCOL_VERSION:
                events.append(
                    self._fault(
                        f"hub speaks protocol {msg.proto}, this host {PROTOCOL_VERSION}", wall
                    )
                )


    def _polling(self, before: tuple[str, ...] | None, msg: Zones, now: float) -> None:
        self.zones.on_answer(msg.zones, self.hello.zones if self.hello else None)
        self._resume(before, self.zones.polled, now)

    def _resume(
        self, before: tuple[str, ...] | None, after: tuple[str, ...] | None, now: float
    ) -> None:
        """Zones polled again start their silence clock afresh: nobody looked meanwhile."""
        for zone, presence in self._present.items():
            paused = before is not None and zone not in before
            if paused and (after is None or zone in after):
                presence.last_read = self._heard


class TruncatedAtDisconnect(HubLineError):
    """The part of a line that was on the wire when the port went away."""

    kind = BadLineKind.TRUNCATED

    def __init__(self, line: bytes) -> None:
        super().__init__("line cut off by a disconnect", line)
