"""Signals at the table: seat LEDs, the buzzer and the three buttons.

The referee speaks in table terms (a play was accepted at seat 2, a revoke at seat 1,
team 0 scored a court) and never sees a pin. :class:`TableSignals` turns those calls
into gpiozero devices, and the buttons back into plain callbacks, so the same referee
code runs on a Pi (real pins), on a laptop (``MockFactory``) and in tests.

The pins are data (:class:`GpioPins`), with defaults documented in ``docs/gpio.md``
and ``hardware/README.md``; a table wired differently overrides them in the
``[gpio]`` table of its config file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

SEATS = 4
#: Seats of each team: partners sit opposite.
TEAM_SEATS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))

#: BCM numbers a 40-pin header offers as plain GPIO, minus the ones the appliance
#: reserves: 2/3 (I2C for the OLED), 7–11 (SPI0) and 14/15 (UART for a PN532 or RDM6300).
_USABLE_PINS = frozenset(range(28)) - {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15}


@dataclass(frozen=True, slots=True)
class GpioPins:
    """Which BCM pin drives what. Defaults: see ``docs/gpio.md`` (header pins 11–40)."""

    #: Green "play accepted" LED per seat 0–3 (header pins 29, 31, 33, 35).
    green: tuple[int, int, int, int] = (5, 6, 13, 19)
    #: Red "revoke" LED per seat 0–3 (header pins 37, 36, 38, 40).
    red: tuple[int, int, int, int] = (26, 16, 20, 21)
    #: Active buzzer through a transistor (header pin 12).
    buzzer: int = 18
    #: Undo button, hold to take back the last input (header pin 11).
    undo: int = 17
    #: Confirm / next hand button (header pin 13).
    confirm: int = 27
    #: Play on button: accept a flagged play and continue (header pin 15).
    play_on: int = 22

    def __post_init__(self) -> None:
        for name in ("green", "red"):
            if len(getattr(self, name)) != SEATS:
                raise ValueError(f"gpio.{name} needs one pin per seat ({SEATS})")
        used = self.all_pins()
        clashes = sorted({p for p in used if used.count(p) > 1})
        if clashes:
            raise ValueError(f"gpio pins used twice: {clashes}")
        bad = sorted(p for p in used if p not in _USABLE_PINS)
        if bad:
            raise ValueError(f"gpio pins {bad} are not free GPIO (I2C, SPI and UART are kept)")

    def all_pins(self) -> list[int]:
        """Every pin in use, in field order."""
        return [*self.green, *self.red, self.buzzer, self.undo, self.confirm, self.play_on]

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> GpioPins:
        """Build from the config file's ``[gpio]`` table; missing keys keep their default.

        Unknown keys are an error: a typo in a pin name must not silently leave a LED on
        its default pin.
        """
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(mapping) - known)
        if unknown:
            raise ValueError(f"unknown [gpio] keys: {unknown} (known: {sorted(known)})")
        values: dict[str, Any] = {}
        for key, value in mapping.items():
            if key in ("green", "red"):
                values[key] = tuple(_pin(key, v) for v in value)
            else:
                values[key] = _pin(key, value)
        return cls(**values)


def _pin(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"gpio.{name}: pin numbers are BCM integers, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class SignalTiming:
    """How the signals look and sound, in seconds. Tests shorten them; tables need not."""

    accept_flash: float = 0.6
    revoke_blink: float = 0.25
    revoke_beep: float = 0.12
    revoke_beeps: int = 3
    court_beep: float = 0.5
    court_beeps: int = 2
    court_flashes: int = 3
    undo_hold: float = 2.0
    #: Debounce for the push buttons; None leaves it to the pin factory.
    bounce: float | None = 0.03


Callback = Callable[[], None]


class TableSignals:
    """The table's LEDs, buzzer and buttons, driven in table terms.

    Button callbacks (:attr:`on_undo`, :attr:`on_confirm`, :attr:`on_play_on`) are read
    when the button fires, so the referee may set them at any time. They run on
    gpiozero's event thread: hand the work to the referee's own queue, do not block.
    """

    def __init__(
        self,
        pins: GpioPins | None = None,
        *,
        pin_factory: Any = None,
        timing: SignalTiming | None = None,
    ) -> None:
        # Imported here so the rest of the service (and its tests) need no GPIO stack.
        from gpiozero import LED, Button, Buzzer

        self.pins = pins or GpioPins()
        self.timing = timing or SignalTiming()
        self.on_undo: Callback | None = None
        self.on_confirm: Callback | None = None
        self.on_play_on: Callback | None = None
        self._devices: list[Any] = []

        def made(device: Any) -> Any:
            self._devices.append(device)
            return device

        try:
            self._green = [made(LED(p, pin_factory=pin_factory)) for p in self.pins.green]
            self._red = [made(LED(p, pin_factory=pin_factory)) for p in self.pins.red]
            self._buzzer = made(Buzzer(self.pins.buzzer, pin_factory=pin_factory))
            bounce = self.timing.bounce
            self._undo = made(
                Button(
                    self.pins.undo,
                    hold_time=self.timing.undo_hold,
                    bounce_time=bounce,
                    pin_factory=pin_factory,
                )
            )
            self._confirm = made(
                Button(self.pins.confirm, bounce_time=bounce, pin_factory=pin_factory)
            )
            self._play_on = made(
                Button(self.pins.play_on, bounce_time=bounce, pin_factory=pin_factory)
            )
        except Exception:
            self.close()  # release the pins already claimed, then let the error out
            raise
        # Undo takes an input back, so it needs a deliberate hold; the others are a press.
        self._undo.when_held = lambda: self._fire("on_undo")
        self._confirm.when_pressed = lambda: self._fire("on_confirm")
        self._play_on.when_pressed = lambda: self._fire("on_play_on")

    def _fire(self, name: str) -> None:
        callback = getattr(self, name)
        if callback is not None:
            callback()

    # -- what the referee calls --------------------------------------------------------

    def play_accepted(self, seat: int) -> None:
        """Flash the seat's green LED once."""
        t = self.timing.accept_flash
        self._green[_seat(seat)].blink(on_time=t, off_time=0, n=1)

    def revoke(self, seat: int) -> None:
        """Blink the seat's red LED until cleared, and beep the revoke pattern."""
        t = self.timing
        self._red[_seat(seat)].blink(on_time=t.revoke_blink, off_time=t.revoke_blink)
        self._buzzer.beep(on_time=t.revoke_beep, off_time=t.revoke_beep, n=t.revoke_beeps)

    def revoke_cleared(self, seat: int | None = None) -> None:
        """Stop the red LED at ``seat`` (or at every seat when None)."""
        seats = range(SEATS) if seat is None else [_seat(seat)]
        for s in seats:
            self._red[s].off()

    def court_scored(self, team: int) -> None:
        """Flash the team's green LEDs and sound the (longer) court pattern."""
        if team not in (0, 1):
            raise ValueError(f"team must be 0 or 1, not {team!r}")
        t = self.timing
        for seat in TEAM_SEATS[team]:
            self._green[seat].blink(on_time=t.court_beep, off_time=t.court_beep, n=t.court_flashes)
        self._buzzer.beep(on_time=t.court_beep, off_time=t.court_beep, n=t.court_beeps)

    def close(self) -> None:
        """Turn everything off and release the pins. Idempotent.

        Outputs are switched off before their pins are freed: a released GPIO line may
        keep its last level, and a red LED left lit after shutdown reads as a revoke.
        """
        for device in reversed(self._devices):
            off = getattr(device, "off", None)
            if off is not None and not device.closed:
                off()
            device.close()
        self._devices.clear()

    def __enter__(self) -> TableSignals:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _seat(seat: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise ValueError(f"seat must be 0–{SEATS - 1}, not {seat!r}")
    return seat
