"""MFRC522 (RC522 boards) over SPI: just enough ISO 14443-A to read a tag's UID.

No ``machine`` import: the SPI bus and the chip-select pin are handed in (anything
with ``write``/``read`` and ``value``), so this runs under CPython against a fake chip
in the tests and against ``machine.SPI``/``machine.Pin`` on the Pico.

One read is: REQA (7-bit short frame), then per cascade level ANTICOLLISION and
SELECT, until the SAK says the UID is complete (4, 7 or 10 bytes). The antenna is on
only during the reader's turn (``activate``/``deactivate``); switching it off resets
the card, so the next turn's REQA finds it again without a HALT/WUPA dance.

Waiting for the chip is on a clock (``ticks_ms``/``ticks_diff`` handed in), not a
count of polls: a poll takes microseconds on an RP2040, so any fixed count may end
before the chip's own 15 ms card timer does, and every empty read would then be a
"timeout" fault. Two or more cards in the field answer ANTICOLLISION together; the
chip flags the collision and the read raises ``RC522Error("pile")`` (the poller
reports that, rather than "no card").
"""

# Registers (datasheet section 9).
COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

CMD_IDLE = 0x00
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F

PICC_REQA = 0x26
CASCADE = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88

#: Chip versions seen in the wild (NXP 1.0/2.0, common clones).
KNOWN_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0x12, 0xB2)

#: The chip's card timer gives up after 15 ms; past this the chip itself is dead.
TRANSCEIVE_TIMEOUT_MS = 40
COLL_ERR = 0x08  # ErrorReg: a bit collision (two cards answering at once)


class RC522Error(Exception):
    """The chip (not the card) misbehaves. ``code`` becomes the FAULT code."""

    def __init__(self, code, detail):
        super().__init__(detail)
        self.code = code


def crc_a(data):
    """ISO/IEC 14443-3 CRC_A (init 0x6363), low byte first as sent on air."""
    crc = 0x6363
    for b in data:
        b = (b ^ (crc & 0xFF)) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


class RC522:
    """One reader on a shared SPI bus with its own chip select."""

    def __init__(self, spi, cs, zone, ticks_ms, ticks_diff, timeout_ms=TRANSCEIVE_TIMEOUT_MS):
        self.spi = spi
        self.cs = cs
        self.zone = zone
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.timeout_ms = timeout_ms
        cs.value(1)

    # --- registers ------------------------------------------------------------------

    def _write(self, reg, value):
        self.cs.value(0)
        try:
            self.spi.write(bytes(((reg << 1) & 0x7E, value & 0xFF)))
        finally:
            self.cs.value(1)

    def _read(self, reg):
        self.cs.value(0)
        try:
            self.spi.write(bytes((((reg << 1) & 0x7E) | 0x80,)))
            return self.spi.read(1)[0]
        finally:
            self.cs.value(1)

    def _set(self, reg, mask):
        self._write(reg, self._read(reg) | mask)

    def _clear(self, reg, mask):
        self._write(reg, self._read(reg) & ~mask)

    # --- life cycle -------------------------------------------------------------------

    def init(self):
        """Reset and configure; raises RC522Error if no MFRC522 answers."""
        self._write(COMMAND, CMD_SOFT_RESET)
        for _ in range(100):
            if not self._read(COMMAND) & 0x10:  # PowerDown bit clears when ready
                break
        else:
            raise RC522Error("noresp", "RC522 stays in soft reset")
        version = self._read(VERSION)
        if version not in KNOWN_VERSIONS:
            raise RC522Error("noresp", f"no RC522 on SPI (version 0x{version:02X})")
        self._write(T_MODE, 0x8D)  # timer starts after each transmission...
        self._write(T_PRESCALER, 0x3E)  # ...ticking at ~2 kHz...
        self._write(T_RELOAD_H, 0)
        self._write(T_RELOAD_L, 30)  # ...so a card has 15 ms to answer
        self._write(TX_ASK, 0x40)  # 100 % ASK
        self._write(MODE, 0x3D)  # CRC preset 0x6363
        self.deactivate()

    def activate(self):
        self._set(TX_CONTROL, 0x03)

    def deactivate(self):
        self._clear(TX_CONTROL, 0x03)

    # --- talking to a card ------------------------------------------------------------

    def _transceive(self, data, last_bits=0):
        """Send a frame; the card's answer as bytes, or None if there was none or bad.

        Raises RC522Error("pile") when cards collided, ("timeout") when the chip hangs.
        """
        self._write(COMMAND, CMD_IDLE)
        self._write(COM_IRQ, 0x7F)
        self._write(FIFO_LEVEL, 0x80)
        for b in data:
            self._write(FIFO_DATA, b)
        self._write(BIT_FRAMING, last_bits)
        self._write(COMMAND, CMD_TRANSCEIVE)
        self._set(BIT_FRAMING, 0x80)  # StartSend
        start = self.ticks_ms()
        while True:
            irq = self._read(COM_IRQ)
            if irq & 0x30:  # RxIRq or IdleIRq: an answer came
                break
            if irq & 0x01:  # TimerIRq: no card answered
                return None
            if self.ticks_diff(self.ticks_ms(), start) > self.timeout_ms:
                raise RC522Error("timeout", "RC522 never finished a transceive")
        self._clear(BIT_FRAMING, 0x80)
        error = self._read(ERROR)
        if error & COLL_ERR:
            raise RC522Error("pile", "two or more cards on the reader: none can be read")
        if error & 0x13:  # buffer overflow, parity, protocol
            return None
        count = self._read(FIFO_LEVEL)
        return bytes(self._read(FIFO_DATA) for _ in range(count))

    def read_uid(self):
        """The UID of the card in the field, or None. Raises only for a broken chip."""
        atqa = self._transceive(bytes((PICC_REQA,)), last_bits=7)
        if atqa is None or len(atqa) != 2:
            return None
        uid = b""
        for sel in CASCADE:
            answer = self._transceive(bytes((sel, 0x20)))
            if answer is None or len(answer) != 5:
                return None
            if answer[0] ^ answer[1] ^ answer[2] ^ answer[3] != answer[4]:
                return None  # BCC wrong: a garbled read
            select = bytes((sel, 0x70)) + answer
            sak = self._transceive(select + crc_a(select))
            if sak is None or len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
                return None
            if answer[0] == CASCADE_TAG:
                uid += answer[1:4]
                if not sak[0] & 0x04:
                    return None  # a cascade tag but the card says it is complete
                continue
            return uid + answer[:4]
        return None
