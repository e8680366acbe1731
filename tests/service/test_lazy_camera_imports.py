"""A table without a camera never loads numpy or OpenCV (about 25 MB of the Pi's memory).

Checked in a fresh interpreter: the service, its web dashboard (calibration page
included) and the simulator are set up, and neither module may be loaded.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SETUP = r"""
import sys, tempfile
from controller.config import Config
from controller.referee.service import TableService
from controller.runtime import make_web_app
import controller.commands.run, controller.commands.simulate, controller.sim.simulator, controller.sim.virtual_table
cfg = Config()
cfg.table.state_dir = tempfile.mkdtemp()
service = TableService.open(cfg, None)
assert make_web_app(service, "123456") is not None
print(" ".join(m for m in ("numpy", "cv2") if m in sys.modules))
"""


def test_no_camera_no_numpy_no_opencv() -> None:
    done = subprocess.run([sys.executable, "-c", SETUP], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
