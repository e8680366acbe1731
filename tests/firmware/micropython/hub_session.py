"""A hub session: the firmware's own main.py on stand-in hardware and a virtual clock.

Run as a script with firmware/ and this folder on the module path, under real
MicroPython (tests/firmware/micropython/run.mjs) or under CPython; both must write
the very same bytes. ``time`` is replaced by a clock that moves only when the
firmware sleeps, so the session is exact: the table below says when which card is
put down or lifted, and the session ends after END_MS of hub time.

The six readers are simulated MFRC522 chips (config.py's chip selects); the deal
spot's chip is dead, so its reader is a FAULT from the start.
"""

import sys

import config
import machine
import mfrc522_sim
import usb_host
from virtual_clock import Stop, VirtualTime

END_MS = 3000
SEAT1_CARD = b"\x04\xa1\xb2\xc3\xd4\xe5\xf6"
TRUMP_CARD = b"\xca\xfe\xba\xbe"


chips = {}
for zone, pin in config.CHIP_SELECTS:
    chips[zone] = mfrc522_sim.MFRC522(version=0 if zone == "deal" else 0x92)
    machine.attach(pin, chips[zone])

# (from ms, zone, card or None): what lies on the table from then on.
TABLE = [
    (200, "seat1", mfrc522_sim.Card(SEAT1_CARD)),
    (300, "trump", mfrc522_sim.Card(TRUMP_CARD)),
    (1400, "seat1", None),
    (1500, "seat2", [mfrc522_sim.Card(SEAT1_CARD), mfrc522_sim.Card(TRUMP_CARD)]),  # a pile
    (2200, "seat2", mfrc522_sim.Card(SEAT1_CARD)),
]


clock = VirtualTime(TABLE, chips, END_MS)
sys.modules["time"] = clock
sys.modules["select"] = usb_host.Select(clock.ticks_ms)  # a host that sends nothing
try:
    import main  # noqa: F401 - runs the hub until the clock says stop
except Stop:
    pass
