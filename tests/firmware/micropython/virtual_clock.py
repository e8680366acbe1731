"""``time`` for the firmware under test: milliseconds that move only when it sleeps.

Shared by the session scripts; each says what happens at a tick (cards put down or
lifted, the end of the run) through ``on_sleep(now, slept_ms)``.
"""


class VirtualTime:
    def __init__(self, on_sleep):
        self.now = 0
        self._on_sleep = on_sleep

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def ticks_add(self, a, b):
        return a + b

    def sleep_ms(self, ms):
        self.now += ms
        self._on_sleep(self.now, ms)
