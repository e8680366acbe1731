"""`courtpiece enroll --reader hub`: a deck tapped on the hub's own readers.

The virtual hub speaks the real wire protocol on a real pty and the real driver reads
it, so this is the path a Pi takes. Waiting is on conditions, never on durations.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from controller.cli import main
from controller.commands import enroll as enroll_command
from controller.decks.deckmap import DECK_ORDER, DeckStore
from controller.readers import hub_finder
from controller.readers.virtual_hub import VirtualHub

WAIT = 30.0
SPOTS = ("seat0", "seat1", "seat2", "seat3", "deal", "trump")
TAGS = [f"04{i:02X}B2C3D4E5F6" for i in range(52)]


class Enrolling:
    """``courtpiece enroll`` on its own thread, as a person runs it in a terminal."""

    def __init__(self, *args: str) -> None:
        self.result: list[int] = []
        self.thread = threading.Thread(target=lambda: self.result.append(main(["enroll", *args])))
        self.thread.start()

    def finish(self) -> int:
        self.thread.join(WAIT)
        assert not self.thread.is_alive(), "enroll did not finish"
        return self.result[0]


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[VirtualHub]:
    with VirtualHub(link_path=tmp_path / "ttyACM3", repeat_interval=0.05) as vh:
        yield vh


def tap_the_deck(hub: VirtualHub) -> None:
    """Each card on the next spot round the table, the last one lifted only after."""
    previous: str | None = None
    for i, tag in enumerate(TAGS):
        spot = SPOTS[i % len(SPOTS)]
        hub.place(spot, tag, reads=2)
        if previous is not None:
            hub.remove(previous)
        previous = spot


def test_a_deck_tapped_round_the_seat_spots(tmp_path: Path, hub: VirtualHub) -> None:
    run = Enrolling(
        "--deck", "green", "--state-dir", str(tmp_path), "--reader", "hub", "--port", hub.port
    )
    assert hub.wait_host(WAIT)
    tap_the_deck(hub)
    assert run.finish() == 0
    deck = DeckStore(tmp_path).load("green")
    assert [deck.tag_of(c) for c in DECK_ORDER] == TAGS


def test_without_a_port_the_hub_is_found_on_the_usb_serial_ports(
    tmp_path: Path,
    hub: VirtualHub,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(enroll_command.DEFAULT_PORTS, "hub", str(tmp_path / "courtpiece-hub"))
    monkeypatch.setattr(hub_finder, "DEFAULT_SEARCH", (str(tmp_path / "ttyACM*"),))
    run = Enrolling("--deck", "green", "--state-dir", str(tmp_path), "--reader", "hub")
    assert hub.wait_host(WAIT)
    tap_the_deck(hub)
    assert run.finish() == 0
    assert "all 52 cards enrolled" in capsys.readouterr().out


def test_no_hub_at_the_port_fails_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = str(tmp_path / "no-hub-here")
    args = ["--deck", "red", "--state-dir", str(tmp_path), "--reader", "hub", "--port", port]
    assert Enrolling(*args).finish() == 1
    assert f"no reader hub at {port}" in capsys.readouterr().err
    assert DeckStore(tmp_path).names() == []


def test_a_hub_the_service_holds_is_refused_saying_so(
    tmp_path: Path, hub: VirtualHub, capsys: pytest.CaptureFixture[str]
) -> None:
    with serial.Serial(hub.port, exclusive=True):  # the referee service has it open
        args = [
            "--deck",
            "red",
            "--state-dir",
            str(tmp_path),
            "--reader",
            "hub",
            "--port",
            hub.port,
        ]
        assert Enrolling(*args).finish() == 1
    err = capsys.readouterr().err
    assert "in use" in err and "systemctl stop courtpiece" in err


def test_the_state_directory_comes_from_the_environment_as_under_the_admin_command(
    tmp_path: Path, hub: VirtualHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hardware/courtpiece-admin sets $STATE_DIRECTORY: `courtpiece enroll --deck X` works."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    run = Enrolling("--deck", "green", "--reader", "hub", "--port", hub.port)
    assert hub.wait_host(WAIT)
    tap_the_deck(hub)
    assert run.finish() == 0
    assert DeckStore(tmp_path).names() == ["green"]
