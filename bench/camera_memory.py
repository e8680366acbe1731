"""Resident memory of the camera reader running on 12-megapixel photos, beside the same
run decoding every photo at full size (the baseline, measured in the same run).

    .venv/bin/python bench/camera_memory.py [--photos 6] [--width 1280]

The photos are rendered tables (4000x3000 JPEGs with four cards) in a temporary folder,
read by ``FolderSource`` as a recorded game would be, at ``--width`` (the camera's frame:
1280 x 960 unless told; 1920 for ``[camera] size = "1920x1440"``, a camera at a slant).
Each run is a fresh process; its peak resident memory (VmHWM) is reported. Ends with one
summary line: ``camera_memory photos=… size=… width=… peak_rss_mb=… baseline_peak_rss_mb=…``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import sys
sys.path.insert(0, {root!r})
import cv2
from controller.readers.camera import CameraReader, FolderSource
from vision.zones import ZoneMap
if {full}:  # the baseline: decode at full size, then scale down
    def read(self):
        while self._i < len(self._paths):
            f = cv2.imread(str(self._paths[self._i])); self._i += 1
            if f is not None:
                s = {width} / max(f.shape[:2])
                return cv2.resize(f, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        return None
    FolderSource.read = read
zones = ZoneMap.rectangles({{"seat0": (0, 0, 640, 480), "seat1": (640, 0, 640, 480),
                             "seat2": (0, 480, 640, 480), "seat3": (640, 480, 640, 480)}})
reader = CameraReader(FolderSource({folder!r}, {width}), zones)
while not reader.finished:
    reader.poll()
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        print(int(line.split()[1]) / 1024)
"""


def make_photos(folder: Path, n: int) -> None:
    sys.path.insert(0, str(ROOT))
    import cv2

    from vision.synth import CardSpec, scene

    for i in range(n):
        specs = [
            CardSpec(c, (1000 + 2000 * (k % 2), 750 + 1500 * (k // 2)), 1000, 20 * k)
            for k, c in enumerate(("AS", "TD", "7H", "QC"))
        ]
        img, _ = scene(specs, seed=i, size=(4000, 3000))
        cv2.imwrite(str(folder / f"p{i:02d}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 90])


def peak(folder: Path, full: bool, width: int = 1280) -> float:
    code = CHILD.format(root=str(ROOT), folder=str(folder), full=full, width=width)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--photos", type=int, default=6)
    ap.add_argument("--width", type=int, default=1280, help="the camera's frame width (1280)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        make_photos(folder, args.photos)
        reduced = peak(folder, full=False, width=args.width)
        full = peak(folder, full=True, width=args.width)
    print(
        f"camera_memory photos={args.photos} size=4000x3000 width={args.width} "
        f"peak_rss_mb={reduced:.0f} "
        f"baseline_peak_rss_mb={full:.0f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
