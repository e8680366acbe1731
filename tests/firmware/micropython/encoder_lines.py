"""Every kind of line from the firmware's encoder, for the host decoder to read back.

Run under real MicroPython and under CPython (see hub_session.py); it writes raw
protocol lines to stdout, including a sequence wrap and a FAULT detail full of
characters a line may not carry.
"""

import sys

import hubproto

out = getattr(sys.stdout, "buffer", None)
write = out.write if out is not None else (lambda line: sys.stdout.write(line.decode()))
w = hubproto.LineWriter(write, seq=65533)
w.hello("1.0.0", ["seat0", "deal"], 1000, 500)
w.tag("seat0", b"\x04\xa1\xb2\xc3\xd4\xe5\xf6")
w.gone("seat0", "04A1B2C3D4E5F6")
w.heartbeat(42)
w.fault("deal", "timeout", "RC522 $never* finished\ta transceive \u00e9" + "x" * 80)
w.fault(None, "io")
w.recover("deal")
