"""PN532 over SPI: firmware check, SAM set-up and InListPassiveTarget for a UID.

No ``machine`` import: the SPI bus, the chip-select pin and a ``sleep_ms`` are handed
in. The PN532 speaks SPI least-significant bit first, which the RP2040's SPI block
cannot do, so every byte is bit-reversed in software (a 256-byte table).

SPI framing (PN532 user manual 6.2.5): the first byte of each chip-select window says
what follows: 0x01 data write, 0x02 status read (bit 0 = a frame is ready), 0x03
data read. A command is an information frame ``00 00 FF LEN LCS D4 CMD DATA DCS 00``;
the chip answers with an ACK frame, then, when ready, ``… D5 CMD+1 DATA …``.
"""

SPI_DATA_WRITE = 0x01
SPI_STATUS_READ = 0x02
SPI_DATA_READ = 0x03

HOST_TO_PN532 = 0xD4
PN532_TO_HOST = 0xD5
ACK = b"\x00\x00\xff\x00\xff\x00"

CMD_GET_FIRMWARE_VERSION = 0x02
CMD_SAM_CONFIGURATION = 0x14
CMD_RF_CONFIGURATION = 0x32
CMD_IN_LIST_PASSIVE_TARGET = 0x4A


def _reversed_byte(value):
    out = 0
    for _ in range(8):
        out = (out << 1) | (value & 1)
        value >>= 1
    return out


_REVERSE = bytes(_reversed_byte(i) for i in range(256))


class PN532Error(Exception):
    """The chip (not the card) misbehaves. ``code`` becomes the FAULT code."""

    def __init__(self, code, detail):
        super().__init__(detail)
        self.code = code


def reverse_bits(data):
    """Each byte's bits in the other order (LSB-first SPI on an MSB-first bus)."""
    table = _REVERSE
    return bytes(table[b] for b in data)


def build_frame(command, data=b""):
    """The information frame carrying ``command`` and its parameters, host to PN532."""
    payload = bytes((HOST_TO_PN532, command)) + bytes(data)
    length = len(payload)
    if length > 254:
        raise ValueError("frame too long")
    dcs = (-sum(payload)) & 0xFF
    return b"\x00\x00\xff" + bytes((length, (-length) & 0xFF)) + payload + bytes((dcs, 0))


def parse_response(raw, command):
    """The data of the PN532's answer to ``command`` from the bytes read after 0x03."""
    start = raw.find(b"\x00\xff")
    if start < 0 or len(raw) < start + 4:
        raise PN532Error("frame", "no start code in answer")
    length = raw[start + 2]
    if (length + raw[start + 3]) & 0xFF:
        raise PN532Error("frame", "bad length checksum")
    body = raw[start + 4 : start + 4 + length]
    if len(body) != length or len(raw) < start + 5 + length:
        raise PN532Error("frame", "answer cut short")
    if (sum(body) + raw[start + 4 + length]) & 0xFF:
        raise PN532Error("frame", "bad data checksum")
    if length < 2 or body[0] != PN532_TO_HOST or body[1] != command + 1:
        raise PN532Error("frame", "answer to another command")
    return body[2:]


class PN532:
    """One PN532 (switches set to SPI) on a shared bus with its own chip select."""

    def __init__(self, spi, cs, zone, sleep_ms, timeout_ms=50):
        self.spi = spi
        self.cs = cs
        self.zone = zone
        self.sleep_ms = sleep_ms
        self.timeout_ms = timeout_ms
        cs.value(1)

    # --- the SPI link -----------------------------------------------------------------

    def _write_frame(self, frame):
        self.cs.value(0)
        try:
            self.spi.write(reverse_bits(bytes((SPI_DATA_WRITE,)) + frame))
        finally:
            self.cs.value(1)

    def _ready(self):
        self.cs.value(0)
        try:
            self.spi.write(reverse_bits(bytes((SPI_STATUS_READ,))))
            return reverse_bits(self.spi.read(1))[0] & 0x01
        finally:
            self.cs.value(1)

    def _read(self, count):
        self.cs.value(0)
        try:
            self.spi.write(reverse_bits(bytes((SPI_DATA_READ,))))
            return reverse_bits(self.spi.read(count))
        finally:
            self.cs.value(1)

    def _wait_ready(self, what):
        for _ in range(self.timeout_ms):
            if self._ready():
                return
            self.sleep_ms(1)
        raise PN532Error("noresp", "PN532 not ready for " + what)

    def call(self, command, data=b"", answer_max=32):
        """Send a command, check the ACK, return the answer's data bytes."""
        self._write_frame(build_frame(command, data))
        self._wait_ready("ACK")
        if self._read(len(ACK)) != ACK:
            raise PN532Error("nack", f"PN532 did not acknowledge 0x{command:02X}")
        self._wait_ready("answer")
        return parse_response(self._read(answer_max + 8), command)

    # --- life cycle -------------------------------------------------------------------

    def init(self):
        self.cs.value(0)  # a falling chip select wakes it from power-down
        self.sleep_ms(2)
        self.cs.value(1)
        version = self.call(CMD_GET_FIRMWARE_VERSION)
        if len(version) != 4 or version[0] != 0x32:
            raise PN532Error("noresp", "not a PN532 (IC 0x%02X)" % (version[0] if version else 0))
        self.call(CMD_SAM_CONFIGURATION, b"\x01\x14\x01")  # normal mode, no IRQ wait
        # One passive activation attempt, so an empty reader answers at once.
        self.call(CMD_RF_CONFIGURATION, b"\x05\xff\x01\x01")
        self.deactivate()

    def activate(self):
        self.call(CMD_RF_CONFIGURATION, b"\x01\x01")  # RF field on

    def deactivate(self):
        self.call(CMD_RF_CONFIGURATION, b"\x01\x00")  # RF field off

    def read_uid(self):
        """The UID of the ISO 14443-A card in the field, or None.

        Asks for up to two targets: with one, the chip would quietly pick one card of a
        pile by its own anticollision and the others would go unseen. Two or more
        raise PN532Error("pile"), which the poller reports as such.
        """
        answer = self.call(CMD_IN_LIST_PASSIVE_TARGET, b"\x02\x00", answer_max=64)
        if not answer or answer[0] == 0:
            return None
        if answer[0] > 1:
            raise PN532Error("pile", "two or more cards on the reader: none can be read")
        # NbTg, Tg, SENS_RES(2), SEL_RES, NFCIDLength, NFCID…
        if len(answer) < 6 or len(answer) < 6 + answer[5]:
            raise PN532Error("frame", "short InListPassiveTarget answer")
        return bytes(answer[6 : 6 + answer[5]])
