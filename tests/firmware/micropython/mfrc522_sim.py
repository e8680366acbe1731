"""An MFRC522 at the SPI byte level, with ISO 14443-A cards: for the firmware tests.

MicroPython-subset on purpose (no annotations, no imports), so it runs with the
firmware under real MicroPython as well as under CPython. It models the registers
the driver uses, the FIFO and the Transceive command; a card answers REQA,
anticollision and select level by level, only while the antenna is on.
"""

COMMAND = 0x01
COM_IRQ = 0x04
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
BIT_FRAMING = 0x0D
TX_CONTROL = 0x14
VERSION = 0x37
ERROR = 0x06
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F


def crc_a(data):
    crc = 0x6363
    for b in data:
        b = (b ^ (crc & 0xFF)) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


class Card:
    """A card with a 4, 7 or 10-byte UID."""

    def __init__(self, uid):
        if len(uid) == 4:
            self.levels = [uid]
        elif len(uid) == 7:
            self.levels = [b"\x88" + uid[:3], uid[3:]]
        else:
            self.levels = [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]

    def respond(self, frame, last_bits):
        if last_bits == 7:
            return b"\x44\x00" if frame == b"\x26" else None
        if frame[0] not in (0x93, 0x95, 0x97):
            return None
        level = (0x93, 0x95, 0x97).index(frame[0])
        part = self.levels[level]
        bcc = bytes([part[0] ^ part[1] ^ part[2] ^ part[3]])
        if frame[1] == 0x20:
            return part + bcc
        if frame[1] == 0x70 and frame[2:7] == part + bcc and crc_a(frame[:7]) == frame[7:9]:
            sak = bytes([0x04 if level + 1 < len(self.levels) else 0x08])
            return sak + crc_a(sak)
        return None


class MFRC522:
    """One chip; ``card`` is the Card in its field, a list of them (a pile) or None.

    Version 0 is a dead chip. Cards of a pile whose answers differ collide: the chip
    sets CollErr in ErrorReg, as the real one does.
    """

    def __init__(self, version=0x92):
        self.regs = [0] * 64
        self.version = version
        self.regs[VERSION] = version
        self.fifo = []
        self.card = None
        self.bytes = []

    def begin(self):
        self.bytes = []

    def end(self):
        pass

    def exchange(self, byte):
        self.bytes.append(byte)
        if len(self.bytes) == 1:
            return 0
        addr = (self.bytes[0] >> 1) & 0x3F
        if self.bytes[0] & 0x80:
            return self._read(addr)
        self._write(addr, byte)
        return 0

    def _read(self, reg):
        if reg == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def _write(self, reg, value):
        if reg == COMMAND and value == CMD_SOFT_RESET:
            self.regs = [0] * 64
            self.regs[VERSION] = self.version
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo = []
        elif reg == FIFO_DATA:
            self.fifo.append(value)
        elif reg == COM_IRQ:
            if value & 0x80:
                self.regs[reg] |= value & 0x7F
            else:
                self.regs[reg] &= ~value & 0x7F
        else:
            self.regs[reg] = value
            start = reg == BIT_FRAMING and value & 0x80
            if start and self.regs[COMMAND] == CMD_TRANSCEIVE:
                self._transceive(value & 0x07)

    def _transceive(self, last_bits):
        frame = bytes(self.fifo)
        self.fifo = []
        field = self.regs[TX_CONTROL] & 0x03 == 0x03
        self.regs[ERROR] = 0
        if field and isinstance(self.card, list):
            answers = [c.respond(frame, last_bits) for c in self.card]
            if answers[0] != answers[1]:
                self.regs[ERROR] |= 0x08  # CollErr
            self.fifo = list(answers[0] or b"")
            self.regs[COM_IRQ] |= 0x30
            return
        answer = self.card.respond(frame, last_bits) if self.card and field else None
        if answer is None:
            self.regs[COM_IRQ] |= 0x01  # the timer ran out
        else:
            self.fifo = list(answer)
            self.regs[COM_IRQ] |= 0x30
