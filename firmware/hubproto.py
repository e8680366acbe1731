"""Hub side of the reader-hub line protocol (docs/hub-protocol.md): the encoder, and
the reader of the host's few commands (``ZONES``).

MicroPython subset on purpose: no dataclasses, no typing, no imports at all, so the
same file runs on the Pico and under CPython in the project's tests, which feed every
line it makes to the host decoder. The host's strict decoder lives in
controller/readers/hub_protocol.py; the two are kept in step by those tests.
"""

PROTOCOL_VERSION = 1
SEQ_MODULUS = 65536
MAX_DETAIL = 64
MAX_LINE = 160  # longest command line kept, like the longest line the hub sends


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

    def zones(self, zones):
        """The answer to ZONES: the zones whose readers take turns from now on."""
        return self._send(self._head("ZONES") + " " + ",".join(zones))

    def error(self, code, detail=""):
        """The answer to a command the hub cannot carry out (``code`` a token)."""
        body = self._head("ERR") + " " + code
        detail = clean_text(detail)
        if detail:
            body += " " + detail
        return self._send(body)


def command_body(line):
    """The body of one command line from the host, or ``(None, why)`` for a bad one.

    The host frames its commands like the hub's lines (``$ZONES deal*XXXX``) and the
    checksum is checked; a bare body (``ZONES deal``) is taken as it is, so a person
    at a terminal can type one. Returns ``(body, None)`` or ``(None, reason)``: no
    exception classes, which MicroPython makes awkward to give attributes.
    """
    line = line.strip()
    if not line.startswith("$"):
        return line, None
    star = line.rfind("*")
    if star < 0 or len(line) - star != 5:
        return None, "no checksum"
    body = line[1:star]
    try:
        crc = int(line[star + 1 :], 16)
    except ValueError:
        return None, "checksum not hex"
    if crc != crc16(body.encode()):
        return None, "checksum mismatch"
    return body, None


class CommandReader:
    """Characters from the host in, whole command lines out (without the line end).

    The host's bytes arrive a few at a time; the unfinished tail is kept between
    calls. A run longer than any command is dropped up to its line end, so noise on
    the port cannot make the hub hoard memory.
    """

    def __init__(self, limit=MAX_LINE):
        self.limit = limit
        self.pending = ""
        self.overlong = False

    def feed(self, text):
        lines = []
        for ch in text:
            if ch == "\n":
                if not self.overlong and self.pending.strip():
                    lines.append(self.pending.strip())
                self.pending = ""
                self.overlong = False
            elif not self.overlong:
                self.pending += ch
                if len(self.pending) > self.limit:
                    self.pending = ""
                    self.overlong = True
        return lines
