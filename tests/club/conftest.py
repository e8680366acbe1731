"""A real Mosquitto on loopback for the club tests, started and always stopped here.

The broker comes from Debian (``sh .ci/setup`` installs it); without it these tests are
skipped with that reason. Every broker gets a free port and its own generated files.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from clubkit import SCOREBOARD_PW, TABLES, need_mosquitto  # noqa: E402

from controller.club.mosquitto import Mosquitto  # noqa: E402


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    need_mosquitto()
    b = Mosquitto(tmp_path / "broker", prefix="courtpiece", tables=TABLES, scoreboard_password=SCOREBOARD_PW)
    try:
        yield b.start()
    finally:
        b.stop()
