"""The firmware under real MicroPython (the WebAssembly port, run by Node), not CPython.

CPython is more forgiving than the Pico: it has APIs MicroPython lacks (calling
``Exception.__init__`` directly, for one, which once made every RC522 fault say
"type object 'Exception' has no attribute '__init__'"). So the hub's own ``main.py``
runs here under MicroPython 1.27 on stand-in ``machine`` and ``time`` modules
(tests/firmware/micropython/), and what it writes goes through the host's decoder.
The same scripts also run under CPython and must write the very same bytes.

Needs Node and the npm package, which ``.ci/setup`` installs into .ci/mp/; without
Node these tests are skipped, saying so.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.readers import hub_protocol as host
from controller.readers.hub_framing import LineAssembler

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
HERE = Path(__file__).parent / "micropython"
NPM_DIR = ROOT / ".ci" / "mp"
PACKAGE = NPM_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


@pytest.fixture(scope="module")
def node() -> str:
    """Node, with the MicroPython package installed (as .ci/setup does) if missing."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed (apt-get install nodejs npm, then sh .ci/setup)")
    if not (PACKAGE / "micropython.mjs").exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed, so MicroPython (WebAssembly) cannot be fetched")
        subprocess.run(
            [npm, "ci", "--prefix", str(NPM_DIR), "--no-audit", "--no-fund"],
            check=True,
            capture_output=True,
        )
    return node


def under_micropython(node: str, script: str) -> bytes:
    done = subprocess.run(
        [node, str(HERE / "run.mjs"), str(PACKAGE), str(HERE / script), str(FIRMWARE), str(HERE)],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout


def under_cpython(script: str) -> bytes:
    done = subprocess.run(
        [sys.executable, str(HERE / script)],
        capture_output=True,
        timeout=120,
        env={"PYTHONPATH": f"{FIRMWARE}:{HERE}", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout


def decode_all(stream: bytes) -> list[host.HubMessage]:
    """The host's framing and strict decoder over the whole byte stream."""
    fragments = LineAssembler().feed(stream)
    assert stream.endswith(b"\n")
    return [host.decode_line(fragment) for fragment in fragments]


def test_the_runner_is_really_micropython(node: str, tmp_path: Path) -> None:
    script = tmp_path / "which.py"
    script.write_text(
        "import sys\nprint(sys.implementation.name, sys.implementation.version[:2])\n"
    )
    done = subprocess.run(
        [node, str(HERE / "run.mjs"), str(PACKAGE), str(script)], capture_output=True, check=True
    )
    assert done.stdout.decode().split() == ["micropython", "(1,", "27)"]


def test_every_encoder_line_from_micropython_reads_back_on_the_host(node: str) -> None:
    messages = decode_all(under_micropython(node, "encoder_lines.py"))
    assert messages[:4] == [
        host.Hello(65533, "1.0.0", ("seat0", "deal"), heartbeat_ms=1000, repeat_ms=500),
        host.TagRead(65534, "seat0", "04A1B2C3D4E5F6"),
        host.TagGone(65535, "seat0", "04A1B2C3D4E5F6"),
        host.Heartbeat(0, 42),
    ]
    fault = messages[4]
    assert isinstance(fault, host.Fault) and (fault.seq, fault.zone, fault.code) == (
        1,
        "deal",
        "timeout",
    )
    assert fault.detail.startswith("RC522 ?never? finished?a transceive ?x")
    assert len(fault.detail) == host.MAX_DETAIL
    assert messages[5:] == [host.Fault(2, None, "io"), host.Recover(3, "deal")]


def test_the_hubs_main_under_micropython_reads_through_to_the_host(node: str) -> None:
    messages = decode_all(under_micropython(node, "hub_session.py"))
    assert [m.seq for m in messages] == list(range(len(messages)))
    hello = messages[0]
    assert isinstance(hello, host.Hello) and hello.zones == host.ALL_ZONES
    assert messages[1] == host.Fault(1, "deal", "init", "no RC522 on SPI (version 0x00)")
    cards = [(type(m).__name__, m.zone, m.tag) for m in messages if hasattr(m, "tag")]
    seat1 = [c for c in cards if c[1] == "seat1"]
    assert seat1[0] == ("TagRead", "seat1", "04A1B2C3D4E5F6")
    assert seat1[-1] == ("TagGone", "seat1", "04A1B2C3D4E5F6")
    assert ("TagRead", "trump", "CAFEBABE") in cards
    seat2 = [
        (type(m).__name__, getattr(m, "code", None))
        for m in messages
        if getattr(m, "zone", None) == "seat2"
    ]
    assert seat2[:3] == [("Fault", "pile"), ("Recover", None), ("TagRead", None)]
    assert set(seat2[3:]) <= {("TagRead", None)}  # the repeats of the card left lying
    assert not any(c[0] == "TagGone" and c[1] == "trump" for c in cards)
    assert sum(isinstance(m, host.Heartbeat) for m in messages) == 3


def test_the_hubs_main_takes_the_hosts_zones_command_under_micropython(node: str) -> None:
    messages = decode_all(under_micropython(node, "hub_commands.py"))
    assert [m.seq for m in messages] == list(range(len(messages)))
    answers = [m for m in messages if isinstance(m, host.Zones | host.Refused)]
    assert [(type(m).__name__, getattr(m, "zones", None), getattr(m, "code", None)) for m in answers] == [
        ("Zones", ("deal",), None),
        ("Refused", None, "zone"),
        ("Refused", None, "frame"),
        ("Refused", None, "unknown"),
        ("Zones", host.ALL_ZONES, None),
    ]
    narrowed, widened = (messages.index(answers[0]), messages.index(answers[-1]))
    dealt = [m.tag for m in messages if isinstance(m, host.TagRead) and m.zone == "deal"]
    first = [t for t in dealt if t.startswith("0D1")]
    second = [t for t in dealt if t.startswith("0D2")]
    assert len(first) < 6  # six readers in turn: cards slid past in 20 ms are missed
    assert second == [f"0D2{i}0001" for i in range(6)]  # the deal reader alone: every one
    seat1_gone = [i for i, m in enumerate(messages) if isinstance(m, host.TagGone) and m.zone == "seat1"]
    assert len(seat1_gone) == 1 and seat1_gone[0] > widened > narrowed  # nobody looked meanwhile


@pytest.mark.parametrize("script", ["encoder_lines.py", "hub_session.py", "hub_commands.py"])
def test_micropython_and_cpython_write_the_same_bytes(node: str, script: str) -> None:
    assert under_micropython(node, script) == under_cpython(script)
