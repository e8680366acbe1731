"""Table signals on gpiozero's mock pins: the states the real pins would go through."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from controller.signals.gpio import GpioPins, SignalTiming, TableSignals

DOCS = Path(__file__).resolve().parents[1] / "docs" / "gpio.md"
HARDWARE = Path(__file__).resolve().parents[1] / "hardware" / "README.md"
PINS = GpioPins()
FAST = SignalTiming(
    accept_flash=0.02,
    revoke_blink=0.01,
    revoke_beep=0.01,
    revoke_beeps=3,
    court_beep=0.01,
    court_beeps=2,
    court_flashes=3,
    undo_hold=0.15,
    bounce=None,
)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


@pytest.fixture
def signals(factory: MockFactory) -> Iterator[TableSignals]:
    with TableSignals(PINS, pin_factory=factory, timing=FAST) as signals:
        yield signals


def states(factory: MockFactory, pin: int) -> list[bool]:
    return [bool(s.state) for s in factory.pin(pin).states]


def wait_for(condition: Callable[[], bool], what: str) -> None:
    """Poll until ``condition`` holds; the generous limit only stops a broken test hanging."""
    deadline = time.monotonic() + 10
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.002)


def settle(factory: MockFactory, pin: int, changes: int = 0) -> list[bool]:
    """A pin's states once it has made at least ``changes`` changes and then gone quiet.

    Waiting for the expected number of changes first keeps a slow machine from cutting a
    pattern short; the quiet spell afterwards (many blink periods) catches extra ones.
    """
    wait_for(lambda: len(states(factory, pin)) > changes, f"{changes} changes on pin {pin}")
    while True:
        before = states(factory, pin)
        time.sleep(0.1)
        if states(factory, pin) == before:
            return before


def untouched(factory: MockFactory, pins: list[int]) -> bool:
    return all(states(factory, p) == [False] for p in pins)


# -- pins as data -----------------------------------------------------------------------


def header_pin(bcm: int) -> int:
    """The 40-pin header position of a BCM GPIO, from gpiozero's own board data."""
    ((_header, info),) = list(MockFactory().board_info.find_pin(f"GPIO{bcm}"))
    return info.number


def ground_pins() -> set[int]:
    return {info.number for _header, info in MockFactory().board_info.find_pin("GND")}


def expected_names() -> dict[str, int]:
    expected = {f"green[{s}]": p for s, p in enumerate(PINS.green)}
    expected |= {f"red[{s}]": p for s, p in enumerate(PINS.red)}
    expected |= {"buzzer": PINS.buzzer, "undo": PINS.undo, "confirm": PINS.confirm}
    return expected | {"play_on": PINS.play_on}


def test_documented_defaults_match_the_module_and_the_header() -> None:
    """docs/gpio.md's table names the same BCM pins as GpioPins(), at the right header pins."""
    text = DOCS.read_text()
    rows = re.findall(r"^\|\s*`(\w+(?:\[\d\])?)`\s*\|\s*GPIO(\d+)\s*\|\s*(\d+)\s*\|", text, re.M)
    assert {name: int(bcm) for name, bcm, _ in rows} == expected_names()
    for name, bcm, header in rows:
        assert header_pin(int(bcm)) == int(header), f"{name}: GPIO{bcm} is not header pin {header}"
    grounds = re.search(r"Ground pins near these: ([\d, ]+)", text)
    assert grounds and {int(p) for p in grounds.group(1).split(",")} <= ground_pins()


HARDWARE_NAMES = {
    r"green LED seat (\d)": "green[{}]",
    r"red LED seat (\d)": "red[{}]",
    r"buzzer": "buzzer",
    r"Undo button": "undo",
    r"Confirm / next hand": "confirm",
    r"Play on": "play_on",
}


def test_hardware_readme_wiring_matches_the_defaults() -> None:
    """hardware/README.md's Pi header table agrees with GpioPins() and the real header."""
    text = HARDWARE.read_text().split("### Raspberry Pi header", 1)[1].split("##", 1)[0]
    rows = re.findall(r"^\|\s*([^|]+?)\s*\|\s*GPIO(\d+)\s*\|\s*(\d+)\s*\|", text, re.M)
    found: dict[str, int] = {}
    for part, bcm, header in rows:
        assert header_pin(int(bcm)) == int(header), f"{part}: GPIO{bcm} is not header pin {header}"
        for pattern, name in HARDWARE_NAMES.items():
            match = re.fullmatch(pattern, part)
            if match:
                found[name.format(*match.groups())] = int(bcm)
    assert found == expected_names()
    grounds = re.search(r"^\| ground \| GND \| ([\d, ]+) \|", text, re.M)
    assert grounds and {int(p) for p in grounds.group(1).split(",")} <= ground_pins()


def test_pins_from_config_mapping() -> None:
    pins = GpioPins.from_mapping({"buzzer": 12, "red": [23, 24, 25, 16]})
    assert pins.buzzer == 12 and pins.red == (23, 24, 25, 16)
    assert pins.green == PINS.green
    with pytest.raises(ValueError, match="unknown"):
        GpioPins.from_mapping({"buzer": 12})
    with pytest.raises(ValueError, match="used twice"):
        GpioPins.from_mapping({"buzzer": 17})
    with pytest.raises(ValueError, match="not free GPIO"):
        GpioPins.from_mapping({"undo": 2})  # I2C SDA, the OLED's
    with pytest.raises(ValueError, match="one pin per seat"):
        GpioPins.from_mapping({"green": [5, 6, 13]})
    with pytest.raises(ValueError, match="BCM integers"):
        GpioPins.from_mapping({"confirm": "GPIO27"})


# -- outputs ----------------------------------------------------------------------------


def test_play_accepted_flashes_that_seats_green_once(
    factory: MockFactory, signals: TableSignals
) -> None:
    signals.play_accepted(2)
    assert factory.pin(PINS.green[2]).state  # lit at once
    assert settle(factory, PINS.green[2], 2) == [False, True, False]
    others = [PINS.green[0], PINS.green[1], PINS.green[3], *PINS.red, PINS.buzzer]
    assert untouched(factory, others)


def test_revoke_blinks_red_until_cleared_and_beeps_three_times(
    factory: MockFactory, signals: TableSignals
) -> None:
    red = PINS.red[1]
    signals.revoke(1)
    wait_for(lambda: len(states(factory, red)) >= 9, "the red LED to blink")
    blinked = states(factory, red)
    assert blinked[:9] == [False, True, False, True, False, True, False, True, False]
    assert settle(factory, PINS.buzzer, 6) == [False] + [True, False] * 3
    assert len(states(factory, red)) > len(blinked)  # still blinking after the beeps

    signals.revoke_cleared(1)
    assert not factory.pin(red).state
    assert settle(factory, red)[-1] is False
    assert untouched(factory, [*PINS.green, PINS.red[0], PINS.red[2], PINS.red[3]])


def test_revoke_cleared_without_a_seat_clears_every_seat(
    factory: MockFactory, signals: TableSignals
) -> None:
    signals.revoke(0)
    signals.revoke(3)
    wait_for(lambda: len(states(factory, PINS.red[3])) >= 3, "both reds to blink")
    signals.revoke_cleared()
    for pin in PINS.red:
        assert settle(factory, pin)[-1] is False


def test_court_flashes_the_teams_greens_and_beeps_its_own_pattern(
    factory: MockFactory, signals: TableSignals
) -> None:
    signals.court_scored(1)  # seats 1 and 3
    flashes = [False] + [True, False] * FAST.court_flashes
    assert settle(factory, PINS.green[1], len(flashes) - 1) == flashes
    assert settle(factory, PINS.green[3], len(flashes) - 1) == flashes
    court_pattern = settle(factory, PINS.buzzer, 2 * FAST.court_beeps)
    assert court_pattern == [False] + [True, False] * FAST.court_beeps
    assert untouched(factory, [PINS.green[0], PINS.green[2], *PINS.red])

    # A revoke sounds different from a court: a different number of beeps.
    factory.pin(PINS.buzzer).clear_states()
    signals.revoke(0)
    revoke_pattern = settle(factory, PINS.buzzer, 2 * FAST.revoke_beeps)
    assert revoke_pattern.count(True) == FAST.revoke_beeps != court_pattern.count(True)


def test_bad_seat_or_team_is_refused(signals: TableSignals) -> None:
    for call, arg in [
        (signals.play_accepted, 4),
        (signals.revoke, -1),
        (signals.revoke_cleared, 7),
        (signals.court_scored, 2),
        (signals.play_accepted, True),
    ]:
        with pytest.raises(ValueError):
            call(arg)


def test_close_turns_off_and_releases_the_pins(factory: MockFactory) -> None:
    # Slow patterns, so the red LED and the buzzer are certainly on when closing.
    slow = replace(FAST, revoke_blink=60.0, revoke_beep=60.0)
    signals = TableSignals(PINS, pin_factory=factory, timing=slow)
    signals.revoke(2)
    wait_for(lambda: factory.pin(PINS.red[2]).state, "the red LED to be lit")
    wait_for(lambda: factory.pin(PINS.buzzer).state, "the buzzer to sound")
    signals.close()  # while on: closing must switch them off, not just free the pins
    signals.close()
    assert not factory.pin(PINS.red[2]).state
    assert not factory.pin(PINS.buzzer).state
    # Released: a new set of signals can claim the same pins.
    TableSignals(PINS, pin_factory=factory, timing=FAST).close()


# -- buttons ----------------------------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.times: list[float] = []
        self.fired = threading.Event()

    def __call__(self) -> None:
        self.times.append(time.monotonic())
        self.fired.set()


def press(factory: MockFactory, pin: int) -> float:
    """Push a button wired from the pin to ground (the pin's pull-up makes idle high)."""
    at = time.monotonic()
    factory.pin(pin).drive_low()
    return at


def release(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_high()


@pytest.mark.parametrize(
    ("attribute", "pin"), [("on_confirm", PINS.confirm), ("on_play_on", PINS.play_on)]
)
def test_confirm_and_play_on_fire_on_press(
    factory: MockFactory, signals: TableSignals, attribute: str, pin: int
) -> None:
    recorder = Recorder()
    setattr(signals, attribute, recorder)
    press(factory, pin)
    assert recorder.fired.wait(10)
    release(factory, pin)
    assert len(recorder.times) == 1


def test_buttons_without_a_callback_do_nothing(factory: MockFactory, signals: TableSignals) -> None:
    press(factory, PINS.confirm)
    release(factory, PINS.confirm)
    recorder = Recorder()
    signals.on_confirm = recorder
    press(factory, PINS.confirm)
    assert recorder.fired.wait(10)
    release(factory, PINS.confirm)
    assert len(recorder.times) == 1


def test_a_short_press_on_undo_does_nothing(factory: MockFactory, signals: TableSignals) -> None:
    undo, confirm = Recorder(), Recorder()
    signals.on_undo = undo
    signals.on_confirm = confirm
    press(factory, PINS.undo)
    release(factory, PINS.undo)
    # Wait well past the hold time, then prove the event thread is alive with another button.
    time.sleep(FAST.undo_hold * 3)
    press(factory, PINS.confirm)
    assert confirm.fired.wait(10)
    release(factory, PINS.confirm)
    assert undo.times == []


def test_undo_fires_once_after_the_hold(factory: MockFactory, signals: TableSignals) -> None:
    undo = Recorder()
    signals.on_undo = undo
    pressed_at = press(factory, PINS.undo)
    assert undo.fired.wait(10)
    assert undo.times[0] - pressed_at >= FAST.undo_hold
    time.sleep(FAST.undo_hold * 2)  # still held: no repeat
    release(factory, PINS.undo)
    assert len(undo.times) == 1


def test_undo_needs_the_full_two_seconds_by_default(factory: MockFactory) -> None:
    assert SignalTiming().undo_hold == 2.0
    undo = Recorder()
    with TableSignals(PINS, pin_factory=factory) as signals:
        signals.on_undo = undo
        pressed_at = press(factory, PINS.undo)
        assert undo.fired.wait(10)
        release(factory, PINS.undo)
    assert undo.times[0] - pressed_at >= 2.0
