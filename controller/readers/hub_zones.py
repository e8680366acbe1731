"""Telling the hub which zones matter now: the host's side of the ``ZONES`` command.

Why: a hub polls its readers one at a time (one field on at once), about 25 ms each,
so with six readers the deal reader listens a sixth of the time, and a card slid
briskly over the deal spot can pass unseen. While the cards are dealt only the deal
spot (and the trump spot, once a trump may be put down) means anything, so the host
asks the hub to poll just those; when play starts it asks for every reader again.

Pure and single-threaded, like :class:`HubTracker`, which owns one of these and
feeds it the hub's answers; the driver's thread asks :meth:`ZoneRequest.due` for a
command line to write. Rules (``docs/hub-protocol.md``):

* the wish is sent after every (re)connect, after the hub rebooted (HELLO seq 0,
  which polls every reader again) and whenever it changes;
* unanswered, it is sent again after ``answer_timeout``, at most ``tries`` times in
  all; then, or when the hub refuses it (ERR), the host gives up until the next
  connect or reboot: a hub with older firmware, which reads no commands, goes on
  polling every reader and the table works as before, only with the slower deal;
* what the hub polls is only what it last confirmed (its ZONES answer); until then
  the host assumes every reader, which is what a hub does after boot.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from controller.readers.hub_protocol import zones_command
from controller.readers.sightings import ALL_ZONES

#: Seconds to wait for the hub's answer before asking again.
ANSWER_TIMEOUT = 1.0
#: Commands sent per connection before the host decides the hub does not take them.
TRIES = 3


def zone_tuple(zones: Iterable[str] | None) -> tuple[str, ...] | None:
    """Zones in the table's order, duplicates dropped; None (every zone) stays None."""
    if zones is None:
        return None
    wanted = set(zones)
    unknown = wanted - set(ALL_ZONES)
    if unknown:
        raise ValueError(f"unknown zones {sorted(unknown)}")
    return tuple(z for z in ALL_ZONES if z in wanted)


@dataclass(slots=True)
class ZoneRequest:
    """The zones the host wants polled, and how far the hub has gone along with it."""

    answer_timeout: float = ANSWER_TIMEOUT
    tries: int = TRIES
    #: what the host wants polled; None: every reader
    wanted: tuple[str, ...] | None = None
    #: what the hub last said it polls; None: every reader (or not known yet)
    polled: tuple[str, ...] | None = None
    #: the hub refused or never answered: no more commands until a reconnect or reboot
    gave_up: bool = False
    #: the hub answered a ZONES command since the link (or the hub) last started
    answered: bool = False
    _pending: bool = True
    _sent_at: float | None = None
    _sent_wish: tuple[str, ...] | None = None
    _left: int = field(default=TRIES)

    def __post_init__(self) -> None:
        self._left = self.tries

    def want(self, zones: Iterable[str] | None) -> bool:
        """Ask for ``zones`` (None: every reader). Returns whether the wish changed."""
        wish = zone_tuple(zones)
        if wish == self.wanted:
            return False
        self.wanted = wish
        self._pending, self._sent_at, self._left = True, None, self.tries
        return True

    def due(self, now: float, hub_zones: tuple[str, ...] | None = None) -> bytes | None:
        """The command line to write now, if any. ``hub_zones``: the readers HELLO named."""
        if self.gave_up or not self._pending:
            return None
        if self._sent_at is not None and now - self._sent_at < self.answer_timeout:
            return None
        if self._left <= 0:
            self.gave_up = True
            return None
        self._left -= 1
        self._sent_at = now
        self._sent_wish = self.wanted
        return zones_command(self._for_hub(hub_zones))

    def _for_hub(self, hub_zones: tuple[str, ...] | None) -> tuple[str, ...] | None:
        """The wish limited to the readers this hub has (all of them if none is left)."""
        if self.wanted is None or hub_zones is None:
            return self.wanted
        mine = tuple(z for z in self.wanted if z in hub_zones)
        return mine or None

    @property
    def takes_commands(self) -> bool | None:
        """True once the hub answered, False once the host gave up, None before either."""
        if self.answered:
            return True
        return False if self.gave_up else None

    def give_up(self) -> None:
        """The hub does not take commands (a write that never finished): stop sending."""
        self.gave_up = True

    # --- what the hub says ----------------------------------------------------------

    def on_answer(self, zones: tuple[str, ...], hub_zones: tuple[str, ...] | None) -> None:
        """The hub polls ``zones`` now (its ZONES line)."""
        self.answered = True
        every = hub_zones is not None and set(zones) >= set(hub_zones)
        self.polled = None if every else zones
        if self._sent_wish == self.wanted:
            self._pending = False
        else:
            self._sent_at = None  # an answer to an older wish: send the new one now

    def on_refused(self, code: str) -> None:
        """ERR: a damaged command is sent again; any other refusal ends the asking."""
        if code == "frame":
            self._sent_at = None
        else:
            self.gave_up = True

    def on_connected(self) -> None:
        """A new link: the hub's polling is not known; say the wish once more."""
        self.restart()

    def on_reboot(self) -> None:
        """HELLO seq 0: the hub polls every reader again; say the wish once more."""
        self.restart()

    def restart(self) -> None:
        self.polled = None
        self.gave_up = self.answered = False
        self._pending, self._sent_at, self._left = True, None, self.tries
