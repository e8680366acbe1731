"""firmware/ type-checked against MicroPython's stubs for the Pico, not CPython's.

The stubs (micropython-rp2-rpi-pico-stubs, MicroPython 1.29) describe ``machine``,
``time`` and the standard library as the RP2040 port has them; mypy with them as its
typeshed rejects an API the Pico lacks (``time.monotonic``, ``dataclasses``, a
``machine.Pin`` method that is not there) before a Pico is flashed. The stubs live in
.ci/mp/stubs, outside the project's environment, because they replace ``sys`` and
``time``; .ci/setup installs them, and so does this test if they are missing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.readers.hub_flash import FIRMWARE_FILES

ROOT = Path(__file__).resolve().parents[2]
STUBS = ROOT / ".ci" / "mp" / "stubs"
STUBS_PACKAGE = "micropython-rp2-rpi-pico-stubs==1.29.0.post1"
CONFIG = Path(__file__).parent / "micropython" / "mypy.ini"


@pytest.fixture(scope="module")
def stubs() -> Path:
    pytest.importorskip("mypy", reason="mypy is in the project's test extra")
    if not (STUBS / "machine.pyi").exists():
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
             "--target", str(STUBS), STUBS_PACKAGE],
            check=True,
            capture_output=True,
        )  # fmt: skip
    return STUBS


def mypy(stubs: Path, folder: Path, *files: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(CONFIG), "--custom-typeshed-dir",
         str(stubs), "--cache-dir", str(stubs / ".mypy_cache"), *files],
        cwd=folder,
        env={"MYPYPATH": str(stubs), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip


def test_the_firmware_uses_only_what_the_pico_has(stubs: Path) -> None:
    done = mypy(stubs, ROOT / "firmware", *FIRMWARE_FILES)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_check_catches_cpython_only_apis(stubs: Path, tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(
        "import machine\nimport time\n"
        "machine.Pin('LED', machine.Pin.OUT).toggle()\n"  # fine on a Pico
        "time.monotonic()\n"  # CPython only
    )
    done = mypy(stubs, tmp_path, "bad.py")
    assert done.returncode == 1
    assert 'bad.py:4: error: Module has no attribute "monotonic"' in done.stdout
