"""A simulated PN532 (HSU mode) on a real pseudo-terminal.

The driver, Adafruit's driver or a person with ``picocom`` opens :attr:`SimulatedPn532.port`
exactly as they would open ``/dev/serial0``: the same pyserial code, the same bytes.
A test places and removes tags, and can make the chip misbehave the ways a real line
does (NACK, error frame, broken checksums, silence, junk) to prove the driver copes.

Behaviour follows the PN532 user manual where it matters to a host:

* asleep at start: bytes are ignored until the HSU wake-up (a 0x55 byte);
* every good command frame is ACKed, then answered; frames with bad checksums are
  ignored, as the chip does;
* a NACK from the host makes it send its last answer again; an ACK aborts a waiting
  command;
* InListPassiveTarget with the default retry count (0xFF) waits until a tag arrives;
  after RFConfiguration MaxRetries it answers "no target" at once;
* stricter than some chips: InListPassiveTarget before SAMConfiguration, an unknown
  command or bad parameters get the error frame, so a driver that skips set-up fails
  here rather than on the table.
"""

from __future__ import annotations

import os
import random
import select
import threading
import tty
from collections import deque
from collections.abc import Callable
from enum import Enum

from controller.readers.pn532_commands import (
    CFG_MAX_RETRIES,
    RETRY_FOREVER,
    FirmwareVersion,
    TypeATarget,
    encode_targets,
)
from controller.readers.pn532_frames import (
    ACK,
    ERROR_FRAME,
    HOST_TO_PN532,
    NACK,
    Command,
    Frame,
    FrameDecoder,
    FrameKind,
    build_response,
)

DEFAULT_FIRMWARE = FirmwareVersion(0x32, 0x01, 0x06, 0x07)  # what a PN532 C106 reports


class PtyLine:
    """The device end of a real pseudo-terminal; a client opens :attr:`path` as a UART.

    Shared by the simulators in this package. The client side is put in raw mode at
    once (no echo, no newline translation) so bytes arrive untouched even before the
    client configures the port. Writes never block: like a UART with nobody listening,
    bytes that do not fit are lost.
    """

    def __init__(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self.bytes_dropped = 0

    def fileno(self) -> int:
        return self._master

    def read(self) -> bytes:
        try:
            return os.read(self._master, 4096)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:  # EIO: no client any more
            return b""

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                n = os.write(self._master, view)
            except BlockingIOError:
                self.bytes_dropped += len(view)
                return
            view = view[n:]

    def close(self) -> None:
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


class SimFault(Enum):
    """Misbehaviour to apply to the next command(s), one fault per command."""

    NACK = "nack"  # answer with NACK instead of ACK: the host must send the command again
    ERROR_FRAME = "error-frame"  # ACK, then the error frame instead of the answer
    BAD_LCS = "bad-lcs"  # ACK, then the answer with a broken length checksum
    BAD_DCS = "bad-dcs"  # ACK, then the answer with a broken data checksum
    SILENCE = "silence"  # no ACK, no answer
    NO_RESPONSE = "no-response"  # ACK, then nothing
    GARBAGE = "garbage"  # junk bytes on the line before the ACK


def uid_bytes(uid: bytes | str) -> bytes:
    """A UID given as bytes or hex text, checked for a length a type A tag can have."""
    raw = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
    if len(raw) not in (4, 7, 10):
        raise ValueError(f"a type A UID has 4, 7 or 10 bytes, not {len(raw)}")
    return raw


class SimulatedPn532:
    """A PN532 answering on a pseudo-terminal from its own thread."""

    def __init__(
        self,
        *,
        firmware: FirmwareVersion = DEFAULT_FIRMWARE,
        require_wakeup: bool = True,
        seed: int = 0,
    ) -> None:
        self.firmware = firmware
        self._line = PtyLine()
        self._decoder = FrameDecoder(filler=b"\x00\x55")
        self._rng = random.Random(seed)
        self._lock = threading.Condition()
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None
        self._stopping = False
        # chip state
        self.asleep = require_wakeup
        self.sam_configured = False
        self.passive_retries = RETRY_FOREVER
        self._tag: bytes | None = None
        self._pending_list = False  # an InListPassiveTarget waiting for a tag
        self._last_answer: bytes | None = None
        self._faults: deque[SimFault] = deque()
        # what happened, for tests
        self.commands: list[tuple[int, bytes]] = []
        self.wakeups = 0
        self.nacks_received = 0
        self.aborts = 0
        self.answers_with_tag: dict[bytes, int] = {}
        self.empty_answers = 0

    # -- life cycle

    @property
    def port(self) -> str:
        """Path of the pseudo-terminal to open, e.g. ``/dev/pts/7``."""
        return self._line.path

    def start(self) -> SimulatedPn532:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="pn532-sim", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stopping = True
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._line.close()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> SimulatedPn532:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what a test does to it

    def place(self, uid: bytes | str) -> None:
        """Put a tag on the reader (replacing any tag there)."""
        with self._lock:
            self._tag = uid_bytes(uid)
        self._poke()

    def remove(self) -> None:
        """Take the tag off the reader."""
        with self._lock:
            self._tag = None
        self._poke()

    @property
    def tag(self) -> bytes | None:
        return self._tag

    @property
    def waiting(self) -> bool:
        """An InListPassiveTarget is waiting for a tag (retries set to for ever)."""
        return self._pending_list

    def power_cycle(self) -> None:
        """Lose power and come back: asleep, unconfigured, default retries."""
        with self._lock:
            self.asleep = True
            self.sam_configured = False
            self.passive_retries = RETRY_FOREVER
            self._pending_list = False
            self._last_answer = None
            self._decoder = FrameDecoder(filler=b"\x00\x55")
            self._lock.notify_all()

    def inject(self, *faults: SimFault) -> None:
        """Apply these faults to the next commands, in order."""
        with self._lock:
            self._faults.extend(faults)

    def send_raw(self, data: bytes) -> None:
        """Put arbitrary bytes on the line (line noise, a stray frame)."""
        self._line.write(data)

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
        """Wait until ``predicate()`` holds (checked whenever the chip's state changes)."""
        with self._lock:
            return self._lock.wait_for(predicate, timeout=timeout)

    def reads_of(self, uid: bytes | str) -> int:
        """How many InListPassiveTarget answers reported this tag."""
        with self._lock:
            return self.answers_with_tag.get(uid_bytes(uid), 0)

    def tap(self, uid: bytes | str, *, empty_polls: int = 3, timeout: float = 5.0) -> None:
        """Place a tag until the host has read it, then remove it until the host has
        polled ``empty_polls`` times without it: one card tapped on the reader."""
        raw = uid_bytes(uid)
        before = self.reads_of(raw)
        self.place(raw)
        if not self.wait_for(lambda: self.answers_with_tag.get(raw, 0) > before, timeout):
            raise TimeoutError(f"host did not read tag {raw.hex().upper()}")
        with self._lock:
            empty_before = self.empty_answers
        self.remove()
        if not self.wait_for(lambda: self.empty_answers >= empty_before + empty_polls, timeout):
            raise TimeoutError("host did not poll the empty reader")

    # -- the chip

    def _poke(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    def _run(self) -> None:
        fd = self._line.fileno()
        while not self._stopping:
            try:
                ready, _, _ = select.select([fd, self._wake_r], [], [], 0.05)
            except (OSError, ValueError):
                return
            if self._wake_r in ready:
                try:
                    os.read(self._wake_r, 1024)
                except OSError:
                    return
            if fd in ready:
                data = self._line.read()
                if data:
                    self._receive(data)
            elif not ready:
                self._idle()
            self._serve_pending()

    def _receive(self, data: bytes) -> None:
        with self._lock:  # reentrant: _on_frame takes it again
            if self.asleep:
                at = data.find(0x55)
                if at < 0:
                    return
                data = data[at:]
                self.asleep = False
                self.wakeups += 1
                self._lock.notify_all()
            for ev in self._decoder.feed(data):
                if isinstance(ev, Frame):
                    self._on_frame(ev)

    def _idle(self) -> None:
        """The host went quiet: like the chip, give up on a half-received frame."""
        with self._lock:
            if self._decoder.pending:
                for ev in self._decoder.flush():
                    if isinstance(ev, Frame):
                        self._on_frame(ev)

    def _on_frame(self, frame: Frame) -> None:
        with self._lock:
            if frame.kind is FrameKind.ACK:
                if self._pending_list:
                    self._pending_list = False
                    self.aborts += 1
            elif frame.kind is FrameKind.NACK:
                self.nacks_received += 1
                if self._last_answer is not None:
                    self._line.write(self._last_answer)
            elif frame.kind is FrameKind.INFO and frame.tfi == HOST_TO_PN532 and frame.data:
                self._pending_list = False  # a new command ends a waiting one
                self.commands.append((frame.data[0], frame.data[1:]))
                self._command(frame.data[0], frame.data[1:])
            self._lock.notify_all()

    def _command(self, code: int, params: bytes) -> None:
        fault = self._faults.popleft() if self._faults else None
        if fault is SimFault.SILENCE:
            return
        if fault is SimFault.NACK:
            self._line.write(NACK)
            return
        if fault is SimFault.GARBAGE:
            junk = bytes(self._rng.randrange(1, 256) for _ in range(self._rng.randrange(3, 20)))
            self._line.write(junk.replace(b"\x00", b"\x01"))
        self._line.write(ACK)
        if fault is SimFault.NO_RESPONSE:
            return
        answer = self._answer(code, params)
        if answer is None:
            self._pending_list = True
            return
        self._send_answer(answer, fault)

    def _send_answer(self, answer: bytes, fault: SimFault | None) -> None:
        self._last_answer = answer
        if fault is SimFault.ERROR_FRAME:
            self._last_answer = ERROR_FRAME
            self._line.write(ERROR_FRAME)
        elif fault is SimFault.BAD_LCS:
            self._line.write(_corrupt(answer, 4))
        elif fault is SimFault.BAD_DCS:
            self._line.write(_corrupt(answer, len(answer) - 2))
        else:
            self._line.write(answer)

    def _answer(self, code: int, params: bytes) -> bytes | None:
        """The answer frame for a command, or None when it must wait for a tag."""
        if code == Command.GET_FIRMWARE_VERSION:
            return build_response(code, self.firmware.encode())
        if code == Command.SAM_CONFIGURATION:
            if not params or params[0] not in (1, 2, 3, 4):
                return ERROR_FRAME
            self.sam_configured = True
            return build_response(code)
        if code == Command.RF_CONFIGURATION:
            if not params:
                return ERROR_FRAME
            if params[0] == CFG_MAX_RETRIES:
                if len(params) != 4:
                    return ERROR_FRAME
                self.passive_retries = params[3]
            return build_response(code)
        if code == Command.IN_LIST_PASSIVE_TARGET:
            if (
                not self.sam_configured
                or len(params) < 2
                or params[0] not in (1, 2)
                or params[1] != 0
            ):
                return ERROR_FRAME
            if self._tag is None and self.passive_retries == RETRY_FOREVER:
                return None
            return self._targets_answer()
        if code == Command.IN_RELEASE:
            return build_response(code, b"\x00")
        if code == Command.POWER_DOWN:
            self.asleep = True
            return build_response(code, b"\x00")
        return ERROR_FRAME

    def _targets_answer(self) -> bytes:
        if self._tag is None:
            self.empty_answers += 1
            return build_response(Command.IN_LIST_PASSIVE_TARGET, encode_targets([]))
        uid = self._tag
        atqa = b"\x00\x04" if len(uid) == 4 else b"\x00\x44"
        sak = 0x08 if len(uid) == 4 else 0x00
        self.answers_with_tag[uid] = self.answers_with_tag.get(uid, 0) + 1
        return build_response(
            Command.IN_LIST_PASSIVE_TARGET, encode_targets([TypeATarget(1, atqa, sak, uid)])
        )

    def _serve_pending(self) -> None:
        with self._lock:
            if self._pending_list and self._tag is not None:
                self._pending_list = False
                self._send_answer(self._targets_answer(), None)
                self._lock.notify_all()


def _corrupt(frame: bytes, index: int) -> bytes:
    out = bytearray(frame)
    out[index] ^= 0x5A
    return bytes(out)
