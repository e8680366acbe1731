"""The online preset's move timer at a physical table.

The referee cannot play a card for a slow player, so when a seat's time runs out it
records a ``move-timeout`` command (journaled like a button press, so replays show it)
and the screens say whose time ran out. One timeout per turn: the clock starts again
when the turn moves on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from controller.referee.referee import Referee
from controller.rules import Phase


class MoveTimer:
    def __init__(self, referee: Referee, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.referee = referee
        self.clock = clock
        self._turn_key: tuple[int, int, int | None] | None = None
        self._since = clock()
        self._fired = False

    def tick(self) -> bool:
        """Check the clock once; True if a timeout was recorded."""
        m = self.referee.match
        if m is None or m.options.move_timer <= 0 or m.phase is not Phase.PLAY:
            self._turn_key = None
            return False
        key = (m.deals_started, m.hand.trick_no, m.turn())
        now = self.clock()
        if key != self._turn_key:
            self._turn_key, self._since, self._fired = key, now, False
            return False
        if self._fired or key[2] is None or now - self._since < m.options.move_timer:
            return False
        self._fired = True
        self.referee.command("move-timeout", {"seat": key[2]}, source="timer")
        return True

    def run(self, stop: threading.Event, interval: float = 0.5) -> None:
        while not stop.wait(interval):
            self.tick()
