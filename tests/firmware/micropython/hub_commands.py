"""A hub session with the host's commands: the firmware's main.py told which zones matter.

Like hub_session.py (real main.py, simulated MFRC522 chips, a clock that moves only
when the firmware sleeps), run under real MicroPython and under CPython; both must
write the same bytes. Six cards pass over the deal spot while all six readers take
turns, then six more after the host's ``ZONES deal``; a card lifted from seat1 while
only the deal spot is polled; three commands the hub must refuse; ``ZONES all``.
"""

import sys

import config
import hubproto
import machine
import mfrc522_sim
import usb_host
from virtual_clock import Stop, VirtualTime

END_MS = 1700
SEAT1_CARD = b"\x04\xa1\xb2\xc3\xd4\xe5\xf6"


chips = {}
for zone, pin in config.CHIP_SELECTS:
    chips[zone] = mfrc522_sim.MFRC522(version=0x92)
    machine.attach(pin, chips[zone])


def deal_burst(start, first_byte):
    """Six cards slid over the deal spot, each in the field for 20 ms, 40 ms apart."""
    out = []
    for i in range(6):
        uid = bytes([0x0D, first_byte + i, 0x00, 0x01])
        out.append((start + 40 * i, "deal", mfrc522_sim.Card(uid)))
        out.append((start + 40 * i + 20, "deal", None))
    return out


# (from ms, zone, card or None): what lies on the table from then on.
TABLE = [(100, "seat1", mfrc522_sim.Card(SEAT1_CARD))]
TABLE += deal_burst(400, 0x10)  # all six readers take turns: the deal reader misses some
TABLE += deal_burst(800, 0x20)  # only the deal reader: it sees every card
TABLE += [(1050, "seat1", None)]  # lifted while nobody looks at seat1

HOST = [
    (700, hubproto.frame("ZONES deal").decode()),
    (1100, "ZONES seat9\n"),  # a zone this hub has no reader for
    (1110, "$ZONES deal*0000\n"),  # a damaged line
    (1120, "PING\n"),  # a command it does not know
    (1200, hubproto.frame("ZONES all").decode()),
]


clock = VirtualTime(TABLE, chips, END_MS)
sys.modules["time"] = clock
sys.modules["select"] = usb_host.Select(clock.ticks_ms, HOST)
try:
    import main  # noqa: F401 - runs the hub until the clock says stop
except Stop:
    pass
