"""A stand-in for ``select`` on the Pico's USB serial: what the host types, on a schedule.

Runs under real MicroPython and under CPython. The firmware's ``main.py`` asks
``select.poll()`` whether a character is waiting on stdin and reads it with
``read(1)`` from the object the poll hands back; here that object is a script of
``(from ms, text)`` lines that become readable once the hub's clock reaches them.
"""

POLLIN = 1


class Typing:
    """The host's side of the cable: each line can be read once its time has come."""

    def __init__(self, clock, script):
        self.clock = clock  # a function giving the hub's ticks in ms
        self.script = list(script)
        self.waiting = ""

    def _due(self):
        while self.script and self.script[0][0] <= self.clock():
            self.waiting += self.script.pop(0)[1]
        return self.waiting

    def read(self, n=1):
        text = self._due()[:n]
        self.waiting = self.waiting[len(text):]
        return text


class Poll:
    def __init__(self, typing):
        self.typing = typing
        self.registered = []

    def register(self, obj, mask=POLLIN):
        self.registered.append(obj)

    def poll(self, timeout=-1):
        if not self.registered or not self.typing._due():
            return []
        return [(self.typing, POLLIN)]


class Select:
    """Put in ``sys.modules["select"]`` before the firmware's ``main`` is imported."""

    POLLIN = POLLIN

    def __init__(self, clock, script=()):
        self.typing = Typing(clock, script)

    def poll(self):
        return Poll(self.typing)
