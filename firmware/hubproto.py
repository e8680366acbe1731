"""Hub side of the reader-hub line protocol (docs/hub-protocol.md): the encoder.

MicroPython subset on purpose: no dataclasses, no typing, no imports at all, so the
same file runs on the Pico and under CPython in the project's tests, which feed every
line it makes to the host decoder. The host's strict decoder lives in
controller/readers/hub_protocol.py; the two are kept in step by those tests.
"""

PROTOCOL_VERSION = 1
SEQ_MODULUS = 65536
MAX_DETAIL = 64


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_TABLE = _crc_table()


def crc16(data):
    """CRC-16/CCITT-FALSE of a bytes-like object (init 0xFFFF, poly 0x1021)."""
    crc = 0xFFFF
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def frame(body):
    """A complete line (bytes, with the line end) for a body string."""
    raw = body.encode()
    return b"$" + raw + (f"*{crc16(raw):04X}\n").encode()


def uid_hex(uid):
    """Tag UID bytes as the upper-case hex the protocol carries."""
    return "".join(f"{b:02X}" for b in uid)


def clean_text(text, limit=MAX_DETAIL):
    """Free text made safe for a line: printable ASCII without the framing characters."""
    out = []
    for ch in str(text):
        code = ord(ch)
        if 0x20 <= code < 0x7F and ch != "$" and ch != "*":
            out.append(ch)
        else:
            out.append("?")
    return "".join(out)[:limit].strip()


class LineWriter:
    """Numbers and frames every line, then hands it to ``out`` (a bytes sink).

    One writer per hub: the sequence number runs across all message types, which is
    what lets the host count lost lines.
    """

    def __init__(self, out, seq=0):
        self.out = out
        self.seq = seq % SEQ_MODULUS

    def _send(self, body):
        line = frame(body)
        self.seq = (self.seq + 1) % SEQ_MODULUS
        self.out(line)
        return line

    def _head(self, kind):
        return kind + " " + str(self.seq)

    def hello(self, firmware, zones, heartbeat_ms=None, repeat_ms=None):
        body = self._head("HELLO") + " proto=" + str(PROTOCOL_VERSION)
        body += " fw=" + firmware + " zones=" + ",".join(zones)
        if heartbeat_ms is not None:
            body += " hb=" + str(int(heartbeat_ms))
        if repeat_ms is not None:
            body += " repeat=" + str(int(repeat_ms))
        return self._send(body)

    def tag(self, zone, uid):
        """TAG for ``uid`` given as bytes or as hex text."""
        text = uid if isinstance(uid, str) else uid_hex(uid)
        return self._send(self._head("TAG") + " " + zone + " " + text)

    def gone(self, zone, uid):
        text = uid if isinstance(uid, str) else uid_hex(uid)
        return self._send(self._head("GONE") + " " + zone + " " + text)

    def heartbeat(self, uptime_s):
        return self._send(self._head("HB") + " " + str(int(uptime_s)))

    def fault(self, zone, code, detail=""):
        """FAULT for a reader (``zone`` None: the hub itself)."""
        body = self._head("FAULT") + " " + (zone or "-") + " " + code
        detail = clean_text(detail)
        if detail:
            body += " " + detail
        return self._send(body)

    def recover(self, zone):
        return self._send(self._head("RECOVER") + " " + (zone or "-"))
