"""Resident memory of the running referee with the simulator (hub, driver, journal,
referee, bots, and the web dashboard when installed), beside a bare Python process
measured in the same run.

    python bench/memory.py [--seconds 20]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def peak(cmd: list[str], seconds: float) -> float:
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    top = 0.0
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end and proc.poll() is None:
            top = max(top, rss_mb(proc.pid))
            time.sleep(0.2)
    finally:
        proc.terminate()
        proc.wait(10)
    return top


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--port", type=int, default=8765)
    args = ap.parse_args()
    state = tempfile.mkdtemp(prefix="memory-")
    ref = peak([sys.executable, "-m", "controller.cli", "simulate", "--speed", "20", "--quiet", "--state-dir", state,
                "--port", str(args.port), "--pin", "123456"], args.seconds)
    base = peak([sys.executable, "-c", "import time; time.sleep(60)"], 2)
    print(f"memory rss_mb={ref:.1f} python_baseline_mb={base:.1f} ratio={ref / base:.1f}")


if __name__ == "__main__":
    main()
