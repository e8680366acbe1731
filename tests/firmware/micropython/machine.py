"""A stand-in for MicroPython's ``machine`` on the RP2040: pins, one SPI bus, a watchdog.

Runs under real MicroPython (the WebAssembly port) and under CPython alike, so the
firmware's ``main.py`` runs unchanged in the tests. Only what the firmware calls is
here, with the RP2040 port's signatures. A chip on the bus is any object with
``begin()``, ``exchange(byte) -> byte`` and ``end()``, attached to its chip-select
pin number with :func:`attach`; driving that pin low selects it.
"""

_chips = {}
_selected = []


def attach(pin_number, chip):
    """Put ``chip`` on the SPI bus behind the chip select ``pin_number``."""
    _chips[pin_number] = chip


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, id, mode=-1, value=None):
        self.id = id
        self.mode = mode
        self.level = 1 if value is None else value

    def value(self, v=None):
        if v is None:
            return self.level
        chip = _chips.get(self.id)
        if chip is not None:
            if v == 0 and self.level == 1:
                if _selected:
                    raise OSError("two chips selected at once")
                _selected.append(chip)
                chip.begin()
            elif v == 1 and self.level == 0:
                chip.end()
                _selected.pop()
        self.level = v
        return v

    def toggle(self):
        self.level = 1 - self.level


class SPI:
    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None, miso=None):
        if not isinstance(sck, Pin) or not isinstance(mosi, Pin) or not isinstance(miso, Pin):
            raise TypeError("sck, mosi and miso must be Pin objects")
        self.id = id
        self.baudrate = baudrate

    def _xfer(self, out):
        if not _selected:
            raise OSError("SPI traffic with no chip selected")
        chip = _selected[0]
        return bytes([chip.exchange(b) for b in out])

    def write(self, buf):
        self._xfer(bytes(buf))

    def read(self, nbytes, write=0):
        return self._xfer(bytes([write]) * nbytes)

    def readinto(self, buf, write=0):
        buf[:] = self._xfer(bytes([write]) * len(buf))

    def write_readinto(self, write_buf, read_buf):
        read_buf[:] = self._xfer(bytes(write_buf))


class WDT:
    def __init__(self, id=0, timeout=5000):
        if not 1 <= timeout <= 8388:
            raise ValueError("RP2040 watchdog timeout out of range")
        self.timeout = timeout

    def feed(self):
        pass
