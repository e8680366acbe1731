"""Accuracy and speed of the camera recognition path on a folder of labelled images.

    .venv/bin/python bench/vision.py DIR [--enroll FILE] [--limit N] [--show-misses]

Each image's file name starts with its card (``AS.jpg``, ``TD_01.jpg``, ``10C_00.jpg``);
it is scaled so its long side is 1280 px before timing. Prints cards found, rank right,
suit right, both right, the median milliseconds per frame on one thread, and the
resident memory with vision loaded. A baseline runs in the same process on the same
frames for comparison: the same outlines read by plain template matching against the
rendered index glyphs (the classic contour-and-template approach).
Ends with one summary line: ``vision found=… both_right_pct=… median_ms=… rss_mb=…``.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import CardDetector, glyphs, render  # noqa: E402
from vision.index import corners, find_index  # noqa: E402
from vision.locate import find_quads, rectify  # noqa: E402
from vision.model import RANKS, SUITS  # noqa: E402

LABEL = re.compile(r"^(10|[AKQJT98765432])([SHDC])", re.IGNORECASE)


def label_of(path: Path) -> str | None:
    m = LABEL.match(path.name)
    if not m:
        return None
    rank = m.group(1).upper()
    return ("T" if rank == "10" else rank) + m.group(2).upper()


def rss_mb() -> float:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class TemplateBaseline:
    """Classic reader: correlate each glyph with one rendered template per class."""

    def __init__(self) -> None:
        def templates(draw_all: dict[str, list[np.ndarray]]) -> tuple[list[str], np.ndarray]:
            names, vecs = [], []
            for name, masks in draw_all.items():
                for m in masks:
                    v = glyphs.normalise(m).ravel()
                    v = v - v.mean()
                    names.append(name)
                    vecs.append(v / (np.linalg.norm(v) + 1e-6))
            return names, np.stack(vecs)

        fonts = render.truetype_fonts()[:6]
        ranks = {r: [render.text_mask_hershey(r, render.HERSHEY[2], 5)] for r in RANKS[:-1]}
        for f in fonts:
            for r in ranks:
                ranks[r].append(render.text_mask_truetype(r, f))
        suits = {s: [render.suit_mask_shape(s)] for s in SUITS[:-1]}
        self.rank_names, self.rank_t = templates(ranks)
        self.suit_names, self.suit_t = templates(suits)

    def _match(self, mask: np.ndarray, names: list[str], t: np.ndarray) -> str:
        v = glyphs.normalise(mask).ravel()
        v = v - v.mean()
        v /= np.linalg.norm(v) + 1e-6
        return names[int(np.argmax(t @ v))]

    def read(self, frame: np.ndarray) -> str | None:
        for q in find_quads(frame):
            card = rectify(frame, q)
            for c in corners(card):
                g = find_index(c)
                if g is None:
                    continue
                r = self._match(g.rank, self.rank_names, self.rank_t)
                s = self._match(g.suit, self.suit_names, self.suit_t)
                return ("T" if r == "10" else r) + s
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("dir", type=Path)
    ap.add_argument(
        "--enroll", type=Path, default=None, help="an enrollment file from vision.enroll"
    )
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--show-misses", action="store_true")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rss_before = rss_mb()
    detector = CardDetector(enrollment=args.enroll)
    baseline = TemplateBaseline()
    paths = sorted(
        p
        for p in args.dir.iterdir()
        if label_of(p) and p.suffix.lower() in (".jpg", ".jpeg", ".png")
    )
    if args.limit:
        paths = paths[: args.limit]
    found = rank_ok = suit_ok = both_ok = base_ok = 0
    times, base_times = [], []
    for p in paths:
        img = cv2.imread(str(p))
        if img is None:
            continue
        s = 1280 / max(img.shape[:2])
        img = cv2.resize(
            img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
        )
        truth = label_of(p)
        t0 = time.perf_counter()
        dets = detector.detect(img)
        times.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        base = baseline.read(img)
        base_times.append((time.perf_counter() - t0) * 1000)
        base_ok += base == truth
        read = [d for d in dets if d.card]
        if dets:
            found += 1
        if read:
            best = max(read, key=lambda d: d.confidence).card
            rank_ok += best[:-1] == truth[:-1]
            suit_ok += best[-1] == truth[-1]
            both_ok += best == truth
            if best != truth and args.show_misses:
                print(f"miss {p.name}: read {best}")
        elif args.show_misses:
            print(f"miss {p.name}: {'unreadable' if dets else 'no card found'}")
    n = max(len(times), 1)
    pct = lambda k: 100.0 * k / n  # noqa: E731
    med = statistics.median(times) if times else 0.0
    base_med = statistics.median(base_times) if base_times else 0.0
    print(f"images {len(times)}  found {found} ({pct(found):.1f}%)")
    print(
        f"rank right {rank_ok} ({pct(rank_ok):.1f}%)  suit right {suit_ok} ({pct(suit_ok):.1f}%)  both right {both_ok} ({pct(both_ok):.1f}%)"
    )
    print(
        f"median {med:.2f} ms per frame (one thread); rss {rss_mb():.0f} MB (before vision {rss_before:.0f} MB)"
    )
    print(
        f"baseline (outlines + template matching): both right {base_ok} ({pct(base_ok):.1f}%), median {base_med:.2f} ms"
    )
    print(
        f"vision images={len(times)} found={found} rank_right_pct={pct(rank_ok):.1f} suit_right_pct={pct(suit_ok):.1f} "
        f"both_right_pct={pct(both_ok):.1f} median_ms={med:.2f} rss_mb={rss_mb():.0f} "
        f"baseline_both_right_pct={pct(base_ok):.1f} baseline_median_ms={base_med:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
