"""The hub's chip drivers against chips simulated at the SPI byte level.

The PN532 stand-in is checked against Adafruit's independent PN532 driver first, so
it is not merely built to agree with ours. The MFRC522 stand-in models the registers
the datasheet describes and ISO 14443-A cards with 4, 7 and 10-byte UIDs.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from controller.readers import hub_protocol as host
from firmware import board, config, hubproto, pn532, rc522
from firmware.poller import Poller

# --- a shared SPI bus with chip selects ---------------------------------------------


class Chip:
    """A device on the bus: one byte in, one byte out, within a chip-select window."""

    def begin(self) -> None: ...

    def exchange(self, byte: int) -> int:
        raise NotImplementedError

    def end(self) -> None: ...


class Ticks:
    """A clock in microseconds that the bus moves on: each SPI byte takes 2 µs (4 MHz)."""

    def __init__(self) -> None:
        self.us = 0

    def ticks_ms(self) -> int:
        return self.us // 1000

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def sleep_ms(self, ms: int) -> None:
        self.us += ms * 1000


class Bus:
    """An SPI bus in both dialects: MicroPython ``machine.SPI`` and CircuitPython busio."""

    def __init__(self, ticks: Ticks | None = None) -> None:
        self.selected: Chip | None = None
        self.ticks = ticks or Ticks()

    def _xfer(self, out: bytes) -> bytes:
        assert self.selected is not None, "SPI traffic with no chip selected"
        self.ticks.us += 2 * len(out)
        return bytes(self.selected.exchange(b) for b in out)

    # machine.SPI
    def write(self, buf: bytes) -> None:
        self._xfer(bytes(buf))

    def read(self, n: int, write: int = 0) -> bytes:
        return self._xfer(bytes([write]) * n)

    # busio.SPI
    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None: ...

    def configure(self, **_: object) -> None: ...

    def readinto(self, buf: bytearray, write_value: int = 0) -> None:
        buf[:] = self._xfer(bytes([write_value]) * len(buf))

    def write_readinto(self, out: bytes, into: bytearray) -> None:
        into[:] = self._xfer(bytes(out))


class Pin:
    """A chip select, MicroPython style: ``value(0)`` selects."""

    def __init__(self, bus: Bus, chip: Chip) -> None:
        self.bus, self.chip, self.level = bus, chip, 1

    def value(self, v: int | None = None) -> int:
        if v is None:
            return self.level
        if v == 0 and self.level == 1:
            assert self.bus.selected is None, "two chips selected at once"
            self.bus.selected = self.chip
            self.chip.begin()
        elif v == 1 and self.level == 0:
            self.chip.end()
            self.bus.selected = None
        self.level = v
        return v


class DigitalPin:
    """The same chip select, CircuitPython ``digitalio`` style."""

    def __init__(self, pin: Pin) -> None:
        self.pin = pin

    def switch_to_output(self, value: bool = True) -> None:
        self.pin.value(int(value))

    @property
    def value(self) -> bool:
        return bool(self.pin.level)

    @value.setter
    def value(self, v: bool) -> None:
        self.pin.value(int(v))


# --- a PN532 ----------------------------------------------------------------------------


def rev(b: int) -> int:
    return int(f"{b:08b}"[::-1], 2)


class FakePN532(Chip):
    """PN532 SPI as in its user manual: op byte first, LSB first, ACK then answer."""

    def __init__(self, uid: bytes | None = None, more: tuple[bytes, ...] = ()) -> None:
        self.uid = uid
        self.more = more  # other cards in the field, after ``uid``
        self.alive = True
        self.field = False
        self.max_retries = 0xFF  # MxRtyPassiveActivation: 0xFF waits for a card for ever
        self.commands: list[int] = []
        self.out: list[bytes] = []
        self.op: int | None = None
        self.pos = 0
        self.incoming = bytearray()

    def begin(self) -> None:
        self.op, self.pos, self.incoming = None, 0, bytearray()

    def exchange(self, byte: int) -> int:
        byte = rev(byte)
        if self.op is None:
            self.op = byte
            return 0
        if self.op == 0x01:
            self.incoming.append(byte)
            return 0
        if self.op == 0x02:
            return rev(0x01 if self.alive and self.out else 0x00)
        if self.op == 0x03 and self.out:
            frame = self.out[0]
            value = frame[self.pos] if self.pos < len(frame) else 0
            self.pos += 1
            return rev(value)
        return 0

    def end(self) -> None:
        if self.op == 0x01 and self.alive:
            self._command(bytes(self.incoming))
        elif self.op == 0x03 and self.out and self.pos:
            self.out.pop(0)

    def _command(self, frame: bytes) -> None:
        assert frame[:3] == b"\x00\x00\xff"
        length, lcs = frame[3], frame[4]
        assert (length + lcs) & 0xFF == 0
        body = frame[5 : 5 + length]
        assert (sum(body) + frame[5 + length]) & 0xFF == 0
        assert body[0] == 0xD4
        cmd, params = body[1], body[2:]
        self.commands.append(cmd)
        if cmd == 0x02:
            data = b"\x32\x01\x06\x07"
        elif cmd == 0x14:
            data = b""
        elif cmd == 0x32:
            if params[:1] == b"\x01":
                self.field = bool(params[1])
            if params[:1] == b"\x05":
                self.max_retries = params[3]
            data = b""
        elif cmd == 0x4A:
            if self.uid is None and self.max_retries == 0xFF:
                self.out = [pn532.ACK]  # keeps looking: no answer until a card comes
                return
            max_targets = params[0]
            assert 1 <= max_targets <= 2 and params[1] == 0x00  # ISO 14443-A, 106 kbit/s
            uids = ([self.uid] if self.uid else []) + list(self.more)
            uids = uids[:max_targets]
            data = bytes([len(uids)])
            for number, uid in enumerate(uids, 1):
                data += bytes([number, 0x00, 0x44, 0x00, len(uid)]) + uid
        else:
            raise AssertionError(f"unexpected PN532 command {cmd:#x}")
        answer = bytes([0xD5, cmd + 1]) + data
        frame_out = (
            b"\x00\x00\xff"
            + bytes([len(answer), -len(answer) & 0xFF])
            + answer
            + bytes([-sum(answer) & 0xFF, 0])
        )
        self.out = [pn532.ACK, frame_out]


def test_the_pn532_stand_in_satisfies_adafruits_driver() -> None:
    from adafruit_pn532.spi import PN532_SPI

    bus = Bus()
    chip = FakePN532(uid=bytes.fromhex("04A1B2C3D4E5F6"))
    reader = PN532_SPI(bus, DigitalPin(Pin(bus, chip)))
    assert reader.firmware_version == (0x32, 0x01, 0x06, 0x07)
    assert bytes(reader.read_passive_target(timeout=0.5)) == bytes.fromhex("04A1B2C3D4E5F6")
    chip.uid = None
    assert reader.read_passive_target(timeout=0.05) is None


def test_frames_and_bit_order_match_adafruit() -> None:
    from adafruit_pn532.adafruit_pn532 import PN532 as AdafruitPN532
    from adafruit_pn532.spi import reverse_bit

    assert pn532.reverse_bits(bytes(range(256))) == bytes(reverse_bit(i) for i in range(256))
    for command, data in [(0x02, b""), (0x14, b"\x01\x14\x01"), (0x4A, b"\x01\x00")]:
        sent: list[bytes] = []
        stub = SimpleNamespace(debug=False, _write_data=sent.append)
        AdafruitPN532._write_frame(stub, bytearray([0xD4, command]) + data)
        assert pn532.build_frame(command, data) == sent[0]


def make_pn532(uid: bytes | None) -> tuple[pn532.PN532, FakePN532]:
    bus = Bus()
    chip = FakePN532(uid)
    return pn532.PN532(bus, Pin(bus, chip), "trump", sleep_ms=lambda ms: None), chip


def test_pn532_reads_a_uid_with_the_field_only_on_its_turn() -> None:
    reader, chip = make_pn532(bytes.fromhex("0A0B0C0D"))
    reader.init()
    assert chip.commands[:3] == [0x02, 0x14, 0x32] and not chip.field
    reader.activate()
    assert chip.field
    assert reader.read_uid() == bytes.fromhex("0A0B0C0D")
    reader.deactivate()
    assert not chip.field
    chip.uid = None
    assert reader.read_uid() is None


def test_pn532_two_cards_are_a_pile_not_the_one_the_chip_picked() -> None:
    reader, chip = make_pn532(bytes.fromhex("04A1B2C3D4E5F6"))
    reader.init()
    reader.activate()
    chip.more = (bytes.fromhex("CAFEBABE"),)
    with pytest.raises(pn532.PN532Error) as caught:
        reader.read_uid()
    assert caught.value.code == "pile"
    chip.more = ()
    assert reader.read_uid() == bytes.fromhex("04A1B2C3D4E5F6")


def test_a_silent_pn532_is_a_noresp_fault() -> None:
    reader, chip = make_pn532(None)
    chip.alive = False
    with pytest.raises(pn532.PN532Error) as caught:
        reader.init()
    assert caught.value.code == "noresp"


def test_pn532_answer_parsing_refuses_damage() -> None:
    good = b"\x00\x00\xff\x03\xfd\xd5\x4b\x00\xe0\x00"
    assert pn532.parse_response(good, 0x4A) == b"\x00"
    for bad in (good[:6], good[:3] + b"\x04" + good[4:], good[:-2] + b"\x01\x00", b"\x00" * 10):
        with pytest.raises(pn532.PN532Error):
            pn532.parse_response(bad, 0x4A)
    with pytest.raises(pn532.PN532Error):
        pn532.parse_response(good, 0x02)  # an answer to another command


# --- an MFRC522 -------------------------------------------------------------------------


def test_crc_a_known_values() -> None:
    # ISO/IEC 14443-3 annex B examples.
    assert rc522.crc_a(b"\x00\x00") == b"\xa0\x1e"
    assert rc522.crc_a(b"\x12\x34") == b"\x26\xcf"


class Card:
    """An ISO 14443-A card: answers REQA, anticollision and select, level by level."""

    def __init__(self, uid: bytes) -> None:
        assert len(uid) in (4, 7, 10)
        parts = {4: [uid], 7: [b"\x88" + uid[:3], uid[3:]], 10: []}[len(uid)]
        if len(uid) == 10:
            parts = [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]
        self.levels = parts

    def respond(self, frame: bytes, last_bits: int) -> bytes | None:
        if last_bits == 7:
            return b"\x44\x00" if frame == b"\x26" else None
        level = (0x93, 0x95, 0x97).index(frame[0])
        part = self.levels[level]
        bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
        if frame[1] == 0x20:
            return part + bytes([bcc])
        if frame[1] == 0x70 and frame[2:7] == part + bytes([bcc]):
            assert rc522.crc_a(frame[:7]) == frame[7:9]
            sak = bytes([0x04 if level + 1 < len(self.levels) else 0x08])
            return sak + rc522.crc_a(sak)
        return None


class FakeMFRC522(Chip):
    """The registers the driver uses, with the FIFO and the transceive command.

    With ``ticks``, a frame no card answers raises TimerIRq only when the chip's 15 ms
    card timer has run out on that clock, as on the real chip; without, at once.
    ``cards``: more than one card in the field, which collide on ANTICOLLISION.
    """

    def __init__(
        self,
        card: Card | None = None,
        version: int = 0x92,
        ticks: Ticks | None = None,
        cards: tuple[Card, ...] = (),
    ) -> None:
        self.regs = [0] * 64
        self.regs[rc522.VERSION] = version
        self.fifo: list[int] = []
        self.card = card
        self.cards = cards
        self.ticks = ticks
        self.timer_due: int | None = None
        self.irq_polls = 0
        self.hung = False
        self.transceives = 0
        self.field_on_at_transceive: list[bool] = []
        self.bytes: list[int] = []

    def begin(self) -> None:
        self.bytes = []

    def exchange(self, byte: int) -> int:
        self.bytes.append(byte)
        if len(self.bytes) == 1:
            return 0
        addr = (self.bytes[0] >> 1) & 0x3F
        if self.bytes[0] & 0x80:
            return self._read(addr)
        self._write(addr, byte)
        return 0

    def _read(self, reg: int) -> int:
        if reg == rc522.COM_IRQ:
            self.irq_polls += 1
            if self.ticks and self.timer_due is not None and self.ticks.us >= self.timer_due:
                self.regs[reg] |= 0x01
                self.timer_due = None
        if reg == rc522.FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == rc522.FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def _write(self, reg: int, value: int) -> None:
        if reg == rc522.COMMAND and value == rc522.CMD_SOFT_RESET:
            version = self.regs[rc522.VERSION]
            self.regs = [0] * 64
            self.regs[rc522.VERSION] = version
            return
        if reg == rc522.FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
            return
        if reg == rc522.FIFO_DATA:
            self.fifo.append(value)
            return
        if reg == rc522.COM_IRQ:
            if value & 0x80:
                self.regs[reg] |= value & 0x7F
            else:
                self.regs[reg] &= ~value & 0x7F
            return
        self.regs[reg] = value
        start = reg == rc522.BIT_FRAMING and value & 0x80
        if start and self.regs[rc522.COMMAND] == rc522.CMD_TRANSCEIVE and not self.hung:
            self._transceive(value & 0x07)

    def _transceive(self, last_bits: int) -> None:
        self.transceives += 1
        frame, self.fifo = bytes(self.fifo), []
        field = self.regs[rc522.TX_CONTROL] & 0x03 == 0x03
        self.field_on_at_transceive.append(field)
        self.regs[rc522.ERROR] = 0  # cleared when a command starts
        if field and len(self.cards) > 1:
            answers = {c.respond(frame, last_bits) for c in self.cards}
            if len(answers) > 1:  # different bits on air at once
                self.regs[rc522.ERROR] |= 0x08
            self.fifo = list(sorted(a for a in answers if a)[0])
            self.regs[rc522.COM_IRQ] |= 0x30
            return
        answer = self.card.respond(frame, last_bits) if self.card and field else None
        if answer is None and self.ticks is not None:
            self.timer_due = self.ticks.us + 15_000  # the card timer starts
        elif answer is None:
            self.regs[rc522.COM_IRQ] |= 0x01  # the timer ran out
        else:
            self.fifo = list(answer)
            self.regs[rc522.COM_IRQ] |= 0x30


def make_rc522(card: Card | None, **chip: object) -> tuple[rc522.RC522, FakeMFRC522]:
    bus = Bus()
    fake = FakeMFRC522(card, **chip)  # type: ignore[arg-type]
    ticks = bus.ticks
    return rc522.RC522(bus, Pin(bus, fake), "seat0", ticks.ticks_ms, ticks.ticks_diff), fake


@pytest.mark.parametrize("uid", ["DEADBEEF", "04A1B2C3D4E5F6", "0102030405060708090A"])
def test_rc522_reads_4_7_and_10_byte_uids(uid: str) -> None:
    reader, chip = make_rc522(Card(bytes.fromhex(uid)))
    reader.init()
    reader.activate()
    assert reader.read_uid() == bytes.fromhex(uid)
    reader.deactivate()
    assert all(chip.field_on_at_transceive)
    assert reader.read_uid() is None  # field off: the card has no power


def test_rc522_no_card_is_none_not_an_error() -> None:
    reader, _ = make_rc522(None)
    reader.init()
    reader.activate()
    assert reader.read_uid() is None


def test_rc522_missing_or_hung_chip_raises_with_a_code() -> None:
    reader, _ = make_rc522(None, version=0x00)
    with pytest.raises(rc522.RC522Error) as caught:
        reader.init()
    assert caught.value.code == "noresp"
    reader, chip = make_rc522(Card(b"\x01\x02\x03\x04"))
    reader.init()
    reader.activate()
    chip.hung = True
    with pytest.raises(rc522.RC522Error) as caught:
        reader.read_uid()
    assert caught.value.code == "timeout"


def test_rc522_waits_for_the_card_timer_by_the_clock_not_a_poll_count() -> None:
    """An empty read polls until the chip's 15 ms timer ends, however many polls that is."""
    bus = Bus()
    fake = FakeMFRC522(None, ticks=bus.ticks)
    reader = rc522.RC522(bus, Pin(bus, fake), "seat0", bus.ticks.ticks_ms, bus.ticks.ticks_diff)
    reader.init()
    reader.activate()
    assert reader.read_uid() is None  # no card: not a "timeout" fault
    assert fake.irq_polls > 400  # the old fixed count would have given up here


def test_rc522_two_cards_in_the_field_are_a_pile_not_nothing() -> None:
    cards = (Card(bytes.fromhex("04A1B2C3D4E5F6")), Card(b"\xca\xfe\xba\xbe"))
    reader, _ = make_rc522(None, cards=cards)
    reader.init()
    reader.activate()
    with pytest.raises(rc522.RC522Error) as caught:
        reader.read_uid()
    assert caught.value.code == "pile"


# --- the whole hub: config -> board -> poller -> lines ---------------------------------


class StandInMachine:
    """Just enough of ``machine`` for board.py: pins become chip selects on one bus."""

    def __init__(self, chips: dict[int, Chip]) -> None:
        self.bus = Bus()
        self.chips = chips
        self.spi_args: dict[str, object] = {}
        self.driven_high: list[int] = []
        machine = self

        class _Pin:
            OUT = 1

            def __new__(cls, number, mode=None, value=None):  # type: ignore[no-untyped-def]
                if mode is None:
                    return number
                if number in machine.chips:
                    return Pin(machine.bus, machine.chips[number])
                machine.driven_high.append(number)
                return number

        self.Pin = _Pin

    def SPI(self, bus_id: int, **kwargs: object) -> Bus:  # noqa: N802 - machine's name
        self.spi_args = {"id": bus_id, **kwargs}
        return self.bus


def test_config_names_known_zones_and_distinct_pins() -> None:
    zones = [z for z, _ in config.CHIP_SELECTS]
    assert set(zones) <= set(host.ALL_ZONES) and len(set(zones)) == len(zones)
    pins = [p for _, p in config.CHIP_SELECTS] + [config.SCK, config.MOSI, config.MISO]
    pins += [config.RESET] if config.RESET is not None else []
    assert len(set(pins)) == len(pins)
    assert config.READER in config.BAUDRATE


def test_board_builds_a_hub_that_reads_through_to_the_host() -> None:
    cards = {"seat1": Card(bytes.fromhex("04A1B2C3D4E5F6")), "trump": Card(b"\xca\xfe\xba\xbe")}
    chips = {pin: FakeMFRC522(cards.get(zone)) for zone, pin in config.CHIP_SELECTS}
    chips[dict(config.CHIP_SELECTS)["deal"]].regs[rc522.VERSION] = 0x00  # a dead reader
    machine = StandInMachine(chips)
    cfg = SimpleNamespace(**{k: getattr(config, k) for k in dir(config) if k.isupper()})
    cfg.READER = "rc522"
    readers = board.make_readers(machine, cfg, {"rc522": rc522.RC522}, machine.bus.ticks)
    assert [r.zone for r in readers] == [z for z, _ in config.CHIP_SELECTS]
    assert machine.spi_args["baudrate"] == config.BAUDRATE["rc522"]
    assert machine.driven_high == [config.RESET]
    lines: list[bytes] = []
    now = [0]
    hub = Poller(readers, hubproto.LineWriter(lines.append), lambda: now[0])
    for _ in range(60):
        now[0] += hub.step() or 1
    messages = [host.decode_line(line[:-1]) for line in lines]
    assert {(m.zone, m.tag) for m in messages if isinstance(m, host.TagRead)} == {
        ("seat1", "04A1B2C3D4E5F6"),
        ("trump", "CAFEBABE"),
    }
    assert [(m.zone, m.code) for m in messages if isinstance(m, host.Fault)] == [("deal", "init")]
