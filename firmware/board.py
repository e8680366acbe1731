"""Building the readers from ``config``: the only place that knows the hardware API.

``machine`` and the reader classes are handed in rather than imported, so this module
imports nothing (on the Pico its neighbours are top-level modules, under CPython they
are ``firmware.*``) and the tests can build a hub on stand-in pins.
"""


def make_spi(machine, config):
    """The shared SPI bus, mode 0, at the reader kind's clock."""
    return machine.SPI(
        config.SPI_ID,
        baudrate=config.BAUDRATE[config.READER],
        polarity=0,
        phase=0,
        sck=machine.Pin(config.SCK),
        mosi=machine.Pin(config.MOSI),
        miso=machine.Pin(config.MISO),
    )


def make_readers(machine, config, reader_classes, clock):
    """One reader object per configured zone, each with its own chip select.

    ``clock`` is MicroPython's ``time`` (or a stand-in): ``sleep_ms`` for the PN532's
    waits, ``ticks_ms``/``ticks_diff`` for the RC522's deadlines.
    """
    kind = config.READER
    if kind not in reader_classes:
        raise ValueError("unknown READER " + repr(kind))
    if config.RESET is not None:
        machine.Pin(config.RESET, machine.Pin.OUT, value=1)  # readers out of reset
    spi = make_spi(machine, config)
    cls = reader_classes[kind]
    readers = []
    for zone, pin in config.CHIP_SELECTS:
        cs = machine.Pin(pin, machine.Pin.OUT, value=1)
        if kind == "pn532":
            readers.append(cls(spi, cs, zone, clock.sleep_ms))
        else:
            readers.append(cls(spi, cs, zone, clock.ticks_ms, clock.ticks_diff))
    return readers
