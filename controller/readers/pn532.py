"""Direct PN532 reader on a serial line in HSU mode: one reader, one zone.

Two layers, so each can be tested on its own:

* :class:`Pn532Link` does one request/response transaction at a time over any
  serial-like object (wake-up, command frame, ACK, response, NACK to ask for a damaged
  response again, ACK to abort a command that hangs). It knows frames, not tags.
* :class:`Pn532Reader` configures the chip and polls it with InListPassiveTarget,
  turning answers into :class:`~controller.readers.sightings.TagSeen` once per placement and
  every problem into a :class:`~controller.readers.sightings.ReaderFault`.

The serial port comes from an injectable factory (``serial_factory``); by default it is
pyserial's ``serial_for_url``, so the simulator's pseudo-terminal path, a real
``/dev/serial0`` or any pyserial URL works unchanged.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol, cast

from controller.readers.pn532_commands import (
    RETRY_FOREVER,
    FirmwareVersion,
    PayloadError,
    decode_targets,
    in_list_passive_target_params,
    max_retries_params,
    sam_configuration_params,
)
from controller.readers.pn532_frames import (
    ACK,
    NACK,
    PN532_TO_HOST,
    WAKEUP,
    Command,
    Event,
    FrameDecoder,
    FrameError,
    FrameErrorKind,
    FrameKind,
    build_command,
)
from controller.readers.polling import PollingReader, SerialPort, open_idle_serial
from controller.readers.sightings import ALL_ZONES, ReaderFault, TagSeen

DEFAULT_PORT = "/dev/serial0"
DEFAULT_BAUDRATE = 115200
#: Read time-out of the port: this much silence means "the line went idle", which is
#: how the decoder tells a truncated frame from one still arriving. At 115200 Bd a
#: 40-byte answer takes 3.5 ms, so 20 ms of silence is a real gap.
IDLE_GAP = 0.02


class SerialLike(SerialPort, Protocol):
    """A PN532 link also writes commands and drops stale input before each one."""

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...


SerialFactory = Callable[[str, int], SerialLike]


def open_serial(port: str, baudrate: int) -> SerialLike:
    return cast(SerialLike, open_idle_serial(port, baudrate, IDLE_GAP))


class Pn532Error(Exception):
    """A transaction with the PN532 failed."""


class Pn532Timeout(Pn532Error):
    """The PN532 did not acknowledge or did not answer in time."""


class Pn532ErrorFrame(Pn532Error):
    """The PN532 answered with its application-level error frame (syntax error)."""


class Pn532ProtocolError(Pn532Error):
    """The PN532 answered something that makes no sense for the command."""


class Pn532Link:
    """Request/response transactions with one PN532 over HSU.

    Every frame error the decoder finds is passed to ``on_error`` (the reader turns it
    into a ReaderFault), including damage the link then repairs with a NACK.
    """

    def __init__(
        self,
        port: SerialLike,
        *,
        on_error: Callable[[FrameError], None] | None = None,
        ack_timeout: float = 0.1,
        resend_limit: int = 2,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._port = port
        self._decoder = FrameDecoder()
        self._on_error = on_error or (lambda _e: None)
        self.ack_timeout = ack_timeout
        self.resend_limit = resend_limit
        self._now = monotonic

    @property
    def decoder(self) -> FrameDecoder:
        return self._decoder

    def wake(self) -> None:
        """Send the HSU wake-up sequence (SAMConfiguration must follow)."""
        self._port.write(WAKEUP)

    def call(self, command: int, params: bytes = b"", *, timeout: float = 1.0) -> bytes:
        """Send ``command`` and return its answer payload (after the response code)."""
        command = int(command)
        self._drain()
        frame = build_command(command, params)
        self._port.write(frame)
        sent_at = self._now()
        acked = False
        damaged = False
        resends = 0  # our frame again, because the PN532 NACKed it
        nacks = 0  # NACKs we sent to have a damaged answer repeated
        deadline = sent_at + self.ack_timeout + timeout
        while True:
            events, idle = self._pump()
            for ev in events:
                if isinstance(ev, FrameError):
                    self._on_error(ev)
                    if ev.kind is not FrameErrorKind.NOISE:
                        damaged = True
                    continue
                if ev.kind is FrameKind.ACK:
                    acked = True
                    deadline = self._now() + timeout
                elif ev.kind is FrameKind.NACK:
                    if resends >= self.resend_limit:
                        raise Pn532Error(
                            f"PN532 refused command {command:#04x} {resends + 1} times (NACK)"
                        )
                    resends += 1
                    acked = damaged = False
                    self._port.write(frame)
                    sent_at = self._now()
                    deadline = sent_at + self.ack_timeout + timeout
                elif ev.kind is FrameKind.ERROR:
                    raise Pn532ErrorFrame(f"PN532 sent its error frame for command {command:#04x}")
                elif ev.tfi == PN532_TO_HOST and ev.data[:1] == bytes([(command + 1) & 0xFF]):
                    return ev.data[1:]
                else:
                    # A late answer to an earlier, abandoned command: not ours, skip it.
                    continue
            now = self._now()
            if idle and damaged and acked:
                if nacks >= self.resend_limit:
                    raise Pn532Error(f"answer to command {command:#04x} damaged {nacks + 1} times")
                nacks += 1
                damaged = False
                self._port.write(NACK)  # "say that again"
                deadline = now + timeout
            if not acked and not damaged and now - sent_at > self.ack_timeout:
                raise Pn532Timeout(f"no ACK for command {command:#04x}: PN532 not answering")
            if now > deadline:
                self._port.write(ACK)  # an ACK from the host aborts the running command
                raise Pn532Timeout(f"no answer to command {command:#04x}")

    def _pump(self) -> tuple[list[Event], bool]:
        """One read: whatever arrived (decoded), and whether the line was idle."""
        waiting = self._port.in_waiting
        data = self._port.read(waiting if waiting > 0 else 1)
        if data:
            return self._decoder.feed(data), False
        return self._decoder.flush(), True

    def _drain(self) -> None:
        """Before a new command: settle leftovers (a late answer, line noise)."""
        waiting = self._port.in_waiting
        events = self._decoder.feed(self._port.read(waiting)) if waiting else []
        events += self._decoder.flush()
        for ev in events:
            if isinstance(ev, FrameError):
                self._on_error(ev)

    # -- the commands a card table needs

    def firmware_version(self, timeout: float = 0.5) -> FirmwareVersion:
        return FirmwareVersion.decode(self.call(Command.GET_FIRMWARE_VERSION, timeout=timeout))

    def sam_configuration(self, timeout: float = 0.5) -> None:
        self.call(Command.SAM_CONFIGURATION, sam_configuration_params(), timeout=timeout)

    def set_passive_retries(self, retries: int, timeout: float = 0.5) -> None:
        self.call(Command.RF_CONFIGURATION, max_retries_params(retries), timeout=timeout)

    def list_passive_target(self, timeout: float = 1.0) -> str | None:
        """The tag id of the one type A tag on the reader, or None."""
        payload = self.call(
            Command.IN_LIST_PASSIVE_TARGET, in_list_passive_target_params(1), timeout=timeout
        )
        try:
            targets = decode_targets(payload)
        except PayloadError as exc:
            raise Pn532ProtocolError(str(exc)) from exc
        return targets[0].tag_id if targets else None


class Presence:
    """One sighting per placement: a tag counts as removed after N polls without it.

    Why N and not 1: a card lying at the edge of the antenna field can miss a poll, and
    a second sighting of the same card would look to the referee like a second play.
    """

    def __init__(self, removal_polls: int = 3) -> None:
        if removal_polls < 1:
            raise ValueError("removal_polls must be at least 1")
        self.removal_polls = removal_polls
        self.current: str | None = None
        self._misses = 0

    def update(self, tag: str | None) -> bool:
        """Record one poll's result; True when ``tag`` is a new placement."""
        if tag is None:
            if self.current is not None:
                self._misses += 1
                if self._misses >= self.removal_polls:
                    self.current = None
            return False
        self._misses = 0
        if tag == self.current:
            return False
        self.current = tag
        return True


Sighting = TagSeen | ReaderFault


class Pn532Reader(PollingReader):
    """One PN532 on a serial port, reporting tags for one zone.

    Use :meth:`sightings` (a generator, runs in the caller's thread) or :meth:`start`
    (a background thread calling ``on_sighting``). :meth:`poll` does one round and is
    what both are made of.
    """

    def __init__(
        self,
        zone: str,
        port: str = DEFAULT_PORT,
        *,
        baudrate: int = DEFAULT_BAUDRATE,
        source: str | None = None,
        serial_factory: SerialFactory = open_serial,
        clock: Callable[[], float] = time.time,
        removal_polls: int = 3,
        poll_interval: float = 0.05,
        passive_retries: int = 1,
        response_timeout: float = 1.0,
        ack_timeout: float = 0.1,
        failures_before_reset: int = 2,
        reopen_delay: float = 1.0,
    ) -> None:
        if zone not in ALL_ZONES:
            raise ValueError(f"unknown zone {zone!r}; expected one of {', '.join(ALL_ZONES)}")
        self.zone = zone
        self.port_name = port
        self.baudrate = baudrate
        self.source = source or f"pn532:{port}"
        self._serial_factory = serial_factory
        self._clock = clock
        self.presence = Presence(removal_polls)
        self.poll_interval = poll_interval
        self.passive_retries = passive_retries
        self.response_timeout = response_timeout
        self.ack_timeout = ack_timeout
        self.failures_before_reset = failures_before_reset
        self.reopen_delay = reopen_delay
        self.firmware: FirmwareVersion | None = None
        self._port: SerialLike | None = None
        self._link: Pn532Link | None = None
        self._configured = False
        self._failures = 0
        self._pending: list[Sighting] = []
        self._init_polling()

    # -- life cycle

    def open(self) -> None:
        """Open the port (no talking yet; the first poll configures the chip)."""
        if self._port is None:
            self._port = self._serial_factory(self.port_name, self.baudrate)
            self._link = Pn532Link(
                self._port, on_error=self._frame_error, ack_timeout=self.ack_timeout
            )
            self._configured = False

    def close(self) -> None:
        self._stop_polling()
        if self._port is not None:
            try:
                self._port.close()
            finally:
                self._port = None
                self._link = None

    def __enter__(self) -> Pn532Reader:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def link(self) -> Pn532Link | None:
        return self._link

    # -- polling

    def configure(self) -> None:
        """Wake the chip and set it up for polling type A tags."""
        assert self._link is not None
        self._link.wake()
        self._link.sam_configuration()  # first: it also ends LowVbat mode after wake-up
        self.firmware = self._link.firmware_version()
        if self.passive_retries != RETRY_FOREVER:
            self._link.set_passive_retries(self.passive_retries)
        self._configured = True

    def poll(self) -> list[Sighting]:
        """One round: (re)configure if needed, ask for a tag, report what changed."""
        out: list[Sighting] = []
        try:
            self.open()
            if not self._configured:
                self.configure()
            assert self._link is not None
            tag = self._link.list_passive_target(timeout=self.response_timeout)
        except Pn532Error as exc:
            self._failures += 1
            if self._failures >= self.failures_before_reset:
                self._configured = False  # maybe it was power-cycled: wake it again
            out = self._take_pending()
            out.append(self._fault(str(exc)))
            return out
        except OSError as exc:  # port gone (USB pulled) or cannot open; SerialException is one
            self._drop_port()
            out = self._take_pending()
            out.append(self._fault(f"serial port {self.port_name}: {exc}"))
            return out
        self._failures = 0
        out = self._take_pending()
        if self.presence.update(tag):
            assert tag is not None
            out.append(TagSeen(zone=self.zone, tag=tag, at=self._clock(), source=self.source))
        return out


    # -- helpers

    def _drop_port(self) -> None:
        port, self._port, self._link = self._port, None, None
        self._configured = False
        if port is not None:
            try:
                port.close()
            except OSError:
                pass

    def _frame_error(self, err: FrameError) -> None:
        self._pending.append(self._fault(err.describe()))

    def _take_pending(self) -> list[Sighting]:
        out, self._pending = self._pending, []
        return out

    def _fault(self, message: str) -> ReaderFault:
        return ReaderFault(source=self.source, message=message, at=self._clock(), zone=self.zone)
