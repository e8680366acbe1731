"""``time`` for the firmware under test: milliseconds that move only when it sleeps.

Shared by the session scripts. While it sleeps, the cards of the script's table (a
list of (from ms, zone, card or None)) are put down on or lifted from the simulated
chips, and at ``end_ms`` the run stops with :class:`Stop`.
"""


class Stop(Exception):
    pass


class VirtualTime:
    def __init__(self, table, chips, end_ms):
        self.now = 0
        self.table = table
        self.chips = chips
        self.end_ms = end_ms

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def ticks_add(self, a, b):
        return a + b

    def sleep_ms(self, ms):
        self.now += ms
        for at, zone, card in self.table:
            if at <= self.now and at > self.now - ms:
                self.chips[zone].card = card
        if self.now >= self.end_ms:
            raise Stop()
