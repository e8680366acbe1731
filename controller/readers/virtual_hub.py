"""A simulated reader hub on a real pseudo-terminal, for the simulator and the tests.

Like OctoPrint's virtual printer or a Klipper simulated MCU, it sits *behind* the real
serial code: the driver opens ``hub.port`` with pyserial exactly as it would open
``/dev/ttyACM0`` on the Pi. ``hub.port`` is a symlink in a private temp directory
that points at the current pty, so :meth:`VirtualHub.unplug` (the pty closes, the link
vanishes) and :meth:`VirtualHub.replug` (a new pty, the link points at it again) look
to the driver like a USB device going away and coming back at the same path.

Behaviour, chosen to match the firmware:

* ``place`` sends TAG at once and the hub re-sends TAG for every lying tag each
  ``repeat_interval``; ``remove`` sends GONE; a heartbeat every
  ``heartbeat_interval``; HELLO every ``hello_interval``.
* Like USB CDC with no one listening, nothing is written while no host has the port
  open (the pty master reports POLLHUP); lines are held instead. When a host opens
  the port the hub sends HELLO and a snapshot (TAG for every lying tag, FAULT for every
  broken reader), then what it held. A replug is a hub reboot: the sequence restarts
  at 0 and lines in flight at the unplug are lost, but the snapshot re-reports every
  tag still lying, so no card on the table is lost.
* Sequence numbers are given when a line is written, so they are always in order.
* It reads the host's commands like firmware 1.1: ``ZONES`` narrows the readers
  polled (answered by a ZONES line, or ERR for a zone it lacks, a damaged line or an
  unknown command). A tag put on a zone that is not polled is not reported until the
  zone is polled again. ``commands=HubCommands.IGNORED`` plays older firmware, which
  reads nothing; ``REFUSED`` one that answers every command with ERR.
* ``reader_turn`` (seconds) models the readers' turns (``hub_poll_model``): a tag is
  then read only if it lay on its reader through one of that reader's turns, and
  GONE comes from the debounce, so a card slid past quickly can be missed, fewer
  polled zones mean more turns each, and ``bench/dealing.py`` measures the difference.
  Without it (the default) every tag put down is read at once.

One daemon thread writes to the pty; every public method may be called from any
thread and returns at once (use :meth:`drain` to wait until everything is written).

Use::

    with VirtualHub() as hub:                      # plugged in, pty behind hub.port
        driver = HubDriver(HubConfig(port=hub.port), on_event=handle).start()
        hub.place("seat0", "04A1B2C3")             # TagSeen(seat0, 04A1B2C3)
        hub.remove("seat0")
        hub.unplug(); hub.replug()                 # the driver reconnects by itself
        driver.stop()
"""

from __future__ import annotations

import contextlib
import enum
import errno
import fcntl
import os
import select
import shutil
import tempfile
import threading
import time
import tty
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from controller.readers.hub_framing import LineAssembler
from controller.readers.hub_poll_model import PollModel, Reading
from controller.readers.hub_protocol import (
    SEQ_MODULUS,
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
    decode_command,
    encode,
)
from controller.readers.sightings import ALL_ZONES

MessageMaker = Callable[[int], HubMessage]


class HubCommands(enum.Enum):
    """How the hub takes the host's commands: which firmware it plays."""

    TAKEN = "taken"  # firmware 1.1 and later: ZONES is carried out and answered
    IGNORED = "ignored"  # firmware 1.0: reads nothing the host sends
    REFUSED = "refused"  # answers every command with ERR unknown
Mangler = Callable[[bytes], bytes]


@dataclass(frozen=True, slots=True)
class _Line:
    """A message to send; its sequence number is given when it is written."""

    make: MessageMaker
    mangle: Mangler | None = None


@dataclass(frozen=True, slots=True)
class _Raw:
    """Bytes put on the wire as they are (garbage, a cut-off line)."""

    data: bytes


@dataclass(frozen=True, slots=True)
class _Skip:
    """Advance the sequence counter without sending: an injected gap."""

    count: int


def _cut_short(line: bytes) -> bytes:
    """A line that lost its tail (a hub reset mid-write), ended by a line end."""
    return line[: max(1, len(line) // 2)] + b"\n"


def _break_checksum(line: bytes) -> bytes:
    """The same line with one checksum digit changed."""
    digit = line[-2:-1]
    return line[:-2] + (b"0" if digit != b"0" else b"1") + b"\n"


class VirtualHub:
    """A hub you can drive by hand: place and remove tags, break things, unplug it."""

    def __init__(
        self,
        *,
        zones: Iterable[str] = ALL_ZONES,
        firmware: str = "virtual-1.0",
        heartbeat_interval: float = 1.0,
        repeat_interval: float | None = 0.5,
        hello_interval: float | None = 10.0,
        link_path: str | os.PathLike[str] | None = None,
        connect_settle: float = 0.05,
        commands: HubCommands = HubCommands.TAKEN,
        reader_turn: float | None = None,
        gone_misses: int = 3,
    ) -> None:
        self.zones = tuple(zones)
        unknown = set(self.zones) - set(ALL_ZONES)
        if unknown:
            raise ValueError(f"unknown zones {sorted(unknown)}")
        self.firmware = firmware
        self.heartbeat_interval = heartbeat_interval
        self.repeat_interval = repeat_interval
        self.hello_interval = hello_interval
        self.connect_settle = connect_settle
        self.commands = commands
        self.reader_turn = reader_turn
        self.gone_misses = gone_misses
        self._tmpdir: str | None = None
        if link_path is None:
            self._tmpdir = tempfile.mkdtemp(prefix="virtual-hub-")
            link_path = Path(self._tmpdir) / "hub"
        self.port = str(link_path)

        self._lock = threading.Condition()
        self._tags: dict[str, str] = {}
        self._faulty: dict[str | None, tuple[str, str]] = {}
        self._out: deque[_Line | _Raw] = deque()
        self._wbuf = bytearray()
        self._seq = 0
        self._boot = time.monotonic()
        self._master: int | None = None
        self._pty_name: str | None = None
        self._host_open = False
        self._host_since = 0.0
        self._greeted = False
        self._heartbeats = True
        self._next_hb = self._next_repeat = self._next_hello = 0.0
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = os.pipe()
        for fd in (self._wake_r, self._wake_w):
            fcntl.fcntl(fd, fcntl.F_SETFL, os.O_NONBLOCK)
        self.lines_written = 0
        self.host_connects = 0
        self.commands_read: list[list[str]] = []
        self._polled = self.zones
        self._inbox = LineAssembler()
        self._model = (
            None
            if reader_turn is None
            else PollModel(self.zones, reader_turn, repeat_interval, gone_misses)
        )

    # --- life cycle -------------------------------------------------------------------

    def start(self) -> VirtualHub:
        """Plug the hub in and start its writer thread."""
        if self._thread is not None:
            raise RuntimeError("virtual hub already started")
        self.replug()
        self._thread = threading.Thread(target=self._run, name="virtual-hub", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread, close the pty, remove the link and its temp directory."""
        with self._lock:
            self._stopping = True
        self._wake()
        if self._thread is not None:
            self._thread.join(5)
        self.unplug()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)

    def __enter__(self) -> VirtualHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- the table ----------------------------------------------------------------------

    def place(self, zone: str, tag: str, *, reads: int = 1) -> None:
        """A tag is put on a zone's reader (replacing any tag there); read ``reads`` times."""
        self._check_zone(zone)
        tag = tag.upper()
        with self._lock:
            self._tags[zone] = tag
            if self._model is not None:
                self._model.place(zone, tag, time.monotonic())
                return
            if zone not in self._polled:
                return  # nobody looks there now: read when the zone is polled again
            for _ in range(reads):
                self._queue(_Line(lambda seq, z=zone, t=tag: TagRead(seq, z, t)))

    def read_again(self, zone: str, times: int = 1) -> None:
        """Duplicate reads: the lying tag is read ``times`` more times."""
        with self._lock:
            tag = self._tags[zone]
            for _ in range(times):
                self._queue(_Line(lambda seq, z=zone, t=tag: TagRead(seq, z, t)))

    def remove(self, zone: str) -> None:
        """The tag lying on a zone's reader is taken away (GONE)."""
        with self._lock:
            tag = self._tags.pop(zone, None)
            if self._model is not None:
                self._model.remove(zone, time.monotonic())
                return
            if tag is not None and zone in self._polled:
                self._queue(_Line(lambda seq, z=zone, t=tag: TagGone(seq, z, t)))

    def lying(self) -> dict[str, str]:
        """Which tag lies where (put down and not lifted)."""
        with self._lock:
            return dict(self._tags)

    # --- faults to inject -----------------------------------------------------------

    def fail_reader(
        self, zone: str | None, code: str = "noresp", detail: str = "reader not responding"
    ) -> None:
        """A reader dies (``zone`` None: the hub itself). Its tag is no longer read."""
        if zone is not None:
            self._check_zone(zone)
        with self._lock:
            self._faulty[zone] = (code, detail)
            self._queue(_Line(lambda seq: Fault(seq, zone, code, detail)))

    def recover_reader(self, zone: str | None) -> None:
        with self._lock:
            if self._faulty.pop(zone, None) is not None:
                self._queue(_Line(lambda seq: Recover(seq, zone)))

    def inject_garbage(self, data: bytes) -> None:
        """Raw bytes on the line (noise, a boot banner, half a line with no end)."""
        with self._lock:
            self._queue(_Raw(bytes(data)))

    def inject_truncated(self, zone: str = "deal", tag: str = "DEADBEEF") -> None:
        """A TAG line cut in half. It takes a sequence number, as a real lost line would."""
        with self._lock:
            self._queue(_Line(lambda seq: TagRead(seq, zone, tag), _cut_short))

    def inject_bad_checksum(self) -> None:
        """A heartbeat whose checksum is wrong. It takes a sequence number."""
        with self._lock:
            self._queue(_Line(self._heartbeat, _break_checksum))

    def skip_sequence(self, count: int = 1) -> None:
        """The next ``count`` sequence numbers are never sent: the host must see a gap."""
        with self._lock:
            self._queue(_Skip(count))  # in the queue, so it falls after lines already queued

    def pause_heartbeats(self) -> None:
        with self._lock:
            self._heartbeats = False

    def resume_heartbeats(self) -> None:
        with self._lock:
            self._heartbeats = True
            self._next_hb = time.monotonic()
        self._wake()

    def send(self, message: MessageMaker) -> None:
        """Send any message, built from the sequence number it will carry."""
        with self._lock:
            self._queue(_Line(message))

    # --- the cable ----------------------------------------------------------------------

    @property
    def polled(self) -> tuple[str, ...]:
        """The zones whose readers take turns now (all of them unless ZONES said less)."""
        with self._lock:
            return self._polled

    @property
    def turns(self) -> int:
        """Reader turns taken so far (with ``reader_turn``)."""
        with self._lock:
            return self._model.turns_run if self._model is not None else 0

    @property
    def plugged(self) -> bool:
        with self._lock:
            return self._master is not None

    @property
    def host_open(self) -> bool:
        """A host has the port open (and the hub has greeted it)."""
        with self._lock:
            return self._master is not None and self._host_open and self._greeted

    def unplug(self) -> None:
        """The USB cable is pulled: the pty closes, the path vanishes, lines in flight die."""
        with self._lock:
            master = self._master
            self._master = None
            self._pty_name = None
            self._host_open = False
            self._greeted = False
            self._out.clear()
            self._wbuf.clear()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.port)
            if master is not None:
                os.close(master)
            self._lock.notify_all()
        self._wake()

    def replug(self) -> None:
        """The cable goes back in: a fresh pty at the same path and a rebooted hub."""
        with self._lock:
            if self._master is not None:
                raise RuntimeError("virtual hub is already plugged in")
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no line editing before the host configures it
            name = os.ttyname(slave)
            os.close(slave)  # so POLLHUP on the master tells whether a host has it open
            fcntl.fcntl(master, fcntl.F_SETFL, fcntl.fcntl(master, fcntl.F_GETFL) | os.O_NONBLOCK)
            tmp = f"{self.port}.new"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            os.symlink(name, tmp)
            os.replace(tmp, self.port)
            self._master = master
            self._pty_name = name
            self._seq = 0
            self._boot = time.monotonic()
            self._host_open = False
            self._greeted = False
            self._polled = self.zones  # a rebooted hub polls every reader
            self._inbox = LineAssembler()
            if self._model is not None:
                self._model.restart(self._boot)
        self._wake()

    def wait_host(self, timeout: float | None = None) -> bool:
        """Wait until a host has opened the port and been greeted."""
        with self._lock:
            return self._lock.wait_for(
                lambda: self._master is not None and self._host_open and self._greeted, timeout
            )

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until every queued line has been written to the pty."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._out and not self._wbuf, timeout)

    # --- internals ------------------------------------------------------------------

    def _check_zone(self, zone: str) -> None:
        if zone not in self.zones:
            raise ValueError(f"this hub drives {self.zones}, not {zone!r}")

    def _queue(self, item: _Line | _Raw | _Skip, *, front: bool = False) -> None:
        if self._master is None:
            return  # unplugged: the hub's state changes, nothing reaches the host
        if front:
            self._out.appendleft(item)
        else:
            self._out.append(item)
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._wake_w, b"x")

    def _heartbeat(self, seq: int) -> Heartbeat:
        return Heartbeat(seq, int(time.monotonic() - self._boot))

    def _hello(self, seq: int) -> Hello:
        return Hello(
            seq=seq,
            firmware=self.firmware,
            zones=self.zones,
            heartbeat_ms=round(self.heartbeat_interval * 1000),
            repeat_ms=None if self.repeat_interval is None else round(self.repeat_interval * 1000),
        )

    def _snapshot(self) -> list[_Line]:
        """HELLO plus the current state: what a host that just connected must learn."""
        items = [_Line(self._hello)]
        for zone, tag in self._tags.items():
            if zone in self._polled:
                items.append(_Line(lambda seq, z=zone, t=tag: TagRead(seq, z, t)))
        for zone, (code, detail) in self._faulty.items():
            items.append(_Line(lambda seq, z=zone, c=code, d=detail: Fault(seq, z, c, d)))
        return items

    def _render(self, item: _Line | _Raw | _Skip) -> bytes:
        if isinstance(item, _Raw):
            return item.data
        if isinstance(item, _Skip):
            self._seq = (self._seq + item.count) % SEQ_MODULUS
            return b""
        seq = self._seq
        self._seq = (seq + 1) % SEQ_MODULUS
        line = encode(item.make(seq))
        return item.mangle(line) if item.mangle else line

    def _run(self) -> None:
        while True:
            with self._lock:
                if self._stopping:
                    return
                master = self._master
                timeout = 1.0  # unplugged: replug() and stop() wake the thread
                if master is not None:
                    timeout = self._step(master, time.monotonic())
                pending = bool(self._out or self._wbuf)
                watch = master if master is not None and self._greeted else None
            self._wait(watch, pending, timeout)

    def _step(self, master: int, now: float) -> float:
        """Notice the host coming and going, fire timers, write. Returns the next wait."""
        host = not (_poll_master(master) & select.POLLHUP)
        if host and not self._host_open:
            self._host_open, self._host_since, self._greeted = True, now, False
        elif not host and self._host_open:
            self._host_open = self._greeted = False
            self._wbuf.clear()  # the part of a line the host did not read is gone
        if not self._host_open:
            if self._model is not None:
                self._model.idle(now)
            return 0.01
        if not self._greeted:
            greet_at = self._host_since + self.connect_settle
            if now < greet_at:
                return greet_at - now  # let pyserial flush its input before we speak
            for item in reversed(self._snapshot()):
                self._queue(item, front=True)
            self._greeted = True
            self.host_connects += 1
            self._next_hb = now
            self._next_repeat = now + (self.repeat_interval or 0)
            self._next_hello = now + (self.hello_interval or 0)
            self._lock.notify_all()
        if now >= self._next_hb:
            if self._heartbeats:
                self._queue(_Line(self._heartbeat))
            self._next_hb = now + self.heartbeat_interval
        self._read_commands(master)
        deadlines = [self._next_hb]
        if self._model is not None:
            self._turns(now)
            deadlines.append(self._model.next_turn_end)
        elif self.repeat_interval is not None:
            if now >= self._next_repeat:
                for zone, tag in self._tags.items():
                    if zone in self._polled:
                        self._queue(_Line(lambda seq, z=zone, t=tag: TagRead(seq, z, t)))
                self._next_repeat = now + self.repeat_interval
            deadlines.append(self._next_repeat)
        if self.hello_interval is not None:
            if now >= self._next_hello:
                self._queue(_Line(self._hello))
                self._next_hello = now + self.hello_interval
            deadlines.append(self._next_hello)
        self._write(master)
        return max(0.0, min(deadlines) - now)

    def _turns(self, now: float) -> None:
        """The reader turns that ended by now, as lines (with ``reader_turn``)."""
        assert self._model is not None
        for report in self._model.run(now):
            kind = TagRead if report.kind is Reading.TAG else TagGone
            self._queue(_Line(lambda seq, k=kind, z=report.zone, t=report.tag: k(seq, z, t)))

    def _read_commands(self, master: int) -> None:
        """Take the host's command lines from the pty, as the firmware does between turns."""
        try:
            data = os.read(master, 4096)
        except (BlockingIOError, OSError):
            return
        if self.commands is HubCommands.IGNORED:
            return
        for line in self._inbox.feed(data):
            self._command(line)

    def _command(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            words = decode_command(line)
        except HubLineError as err:
            self._queue(_Line(lambda seq, d=str(err): Refused(seq, "frame", d[:64])))
            return
        self.commands_read.append(words)
        if self.commands is HubCommands.REFUSED or words[0] != "ZONES" or len(words) != 2:
            self._queue(_Line(lambda seq, w=words[0][:32]: Refused(seq, "unknown", w)))
            return
        wanted = self.zones if words[1] == "all" else tuple(words[1].split(","))
        missing = [z for z in wanted if z not in self.zones]
        if missing:
            detail = "no reader for " + ",".join(missing)
            self._queue(_Line(lambda seq: Refused(seq, "zone", detail[:64])))
            return
        self._choose(tuple(z for z in self.zones if z in wanted))

    def _choose(self, zones: tuple[str, ...]) -> None:
        resumed = [z for z in zones if z not in self._polled]
        self._polled = zones
        self._queue(_Line(lambda seq: Zones(seq, zones)))
        if self._model is not None:
            self._model.choose(zones)
            return
        for zone in resumed:  # the first turn there reads what lies there now
            tag = self._tags.get(zone)
            if tag is not None:
                self._queue(_Line(lambda seq, z=zone, t=tag: TagRead(seq, z, t)))

    def _write(self, master: int) -> None:
        """Write as much as the pty takes without blocking (called with the lock held)."""
        while True:
            if not self._wbuf:
                if not self._out:
                    self._lock.notify_all()
                    return
                self._wbuf += self._render(self._out.popleft())
                if not self._wbuf:
                    continue
                self.lines_written += 1
            try:
                written = os.write(master, self._wbuf)
            except BlockingIOError:
                return
            except OSError as err:
                if err.errno in (errno.EIO, errno.EAGAIN):
                    return
                raise
            del self._wbuf[:written]

    def _wait(self, master: int | None, pending: bool, timeout: float) -> None:
        poller = select.poll()
        poller.register(self._wake_r, select.POLLIN)
        if master is not None:
            # POLLIN: a command from the host is read (and answered) at once
            poller.register(master, select.POLLIN | (select.POLLOUT if pending else 0))
        poller.poll(timeout * 1000)
        with contextlib.suppress(BlockingIOError, OSError):
            os.read(self._wake_r, 4096)


def _poll_master(master: int) -> int:
    poller = select.poll()
    poller.register(master, 0)
    events = poller.poll(0)
    return events[0][1] if events else 0
