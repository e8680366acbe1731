"""Wiring and timing of one reader hub. Edit this file to match the board you built.

Plain data, no imports: the tests check it (zones known, no pin used twice) and
``main.py`` builds the hub from it. Pin numbers are RP2040 GPIO numbers (GPn).
"""

#: "rc522" (MFRC522 boards) or "pn532" (PN532 boards with the switches set to SPI).
READER = "rc522"

#: One SPI bus shared by every reader: SPI0 on its default pins.
SPI_ID = 0
SCK = 18  # GP18, pin 24
MOSI = 19  # GP19, pin 25
MISO = 16  # GP16, pin 21
#: SPI clock: RC522 manages 10 MHz but wires under a table do not; PN532 tops at 5 MHz.
BAUDRATE = {"rc522": 4000000, "pn532": 1000000}

#: RC522 RST (NRSTPD) of all readers, driven high. None if tied to 3V3 (PN532: unused).
RESET = 15  # GP15, pin 20

#: One chip select per zone, polled in this order.
CHIP_SELECTS = (
    ("seat0", 17),  # GP17, pin 22
    ("seat1", 20),  # GP20, pin 26
    ("seat2", 21),  # GP21, pin 27
    ("seat3", 22),  # GP22, pin 29
    ("deal", 26),  # GP26, pin 31
    ("trump", 27),  # GP27, pin 32
)

#: Field on this long before a read, so a card in the field powers up.
HOLD_MS = 8
#: Pause between one reader's turn and the next.
GAP_MS = 1
#: A lying tag is sent again this often (the host's removal silence must be longer).
REPEAT_MS = 500
#: A tag is GONE after this many turns in a row without it.
GONE_MISSES = 3
HEARTBEAT_MS = 1000
HELLO_MS = 10000
#: A broken reader is set up and tried again this often.
RETRY_MS = 2000
#: At most one FAULT line per reader this often (a loose wire must not flood the host).
FAULT_MS = 10000
#: Reboot if the main loop hangs this long (RP2040 maximum is 8388 ms). None: off.
WATCHDOG_MS = 8000
