"""The camera reader on a white board: rendered frames of one or four cards lying on a
glossy board as white as their stock (no outline to find: the cards are read by their
corner indices), in colour, in grey (a monochrome camera, a greyscale photo) and in grey
under tube lights (bright stripes across board and cards), and, as the baseline in the
same run, the same cards on a dark wooden table.

    .venv/bin/python bench/vision_white_board.py [--frames 40] [--seed 3] [--sizes 200 340]

``--sizes`` sets the range the cards' heights are drawn from (pixels of a 1280x960
frame; 200 is the least docs/camera.md asks for).

Counts the cards read as the tracker counts them (0.5 or more) and the wrong reads it
would count. Ends with one summary line:
``vision_white_board frames=… cards=… board_pct=… board_grey_pct=… striped_grey_pct=…
dark_pct=… ratio_board_to_dark=… wrong_counted=… wrong_sure=…`` (``wrong_counted`` and
``wrong_sure``, 0.9 or more, over the three board kinds).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import CardDetector  # noqa: E402
from vision.synth import CardSpec, scene  # noqa: E402

#: A glossy white board (BGR): as white as the rendered card stock, give or take.
BOARD = (238, 240, 240)
#: The baseline's dark wooden table.
DARK = (40, 80, 130)
RANKS, SUITS = "AKQJT98765432", "SHDC"
SPOTS = ((640, 760), (250, 480), (640, 200), (1030, 480))


def grey(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:  # noqa: ARG001
    return cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def striped_grey(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One to three bright bands, a tube light's reflection, across the whole frame
    (cards too), then grey."""
    h, w = frame.shape[:2]
    out = frame.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for _ in range(int(rng.integers(1, 4))):
        y0, slope, width = rng.uniform(0, h), rng.uniform(-0.3, 0.3), rng.uniform(6, 20)
        band = np.exp(-(((yy - (y0 + slope * xx)) / width) ** 2))
        out += (band * rng.uniform(60, 140))[:, :, None]
    return grey(np.clip(out, 0, 255).astype(np.uint8), rng)


def as_is(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:  # noqa: ARG001
    return frame


#: (name, table colour, what the camera makes of the frame)
KINDS: tuple[tuple[str, tuple[int, int, int], Callable], ...] = (
    ("board", BOARD, as_is),
    ("board_grey", BOARD, grey),
    ("striped_grey", BOARD, striped_grey),
    ("dark", DARK, as_is),
)


def layouts(
    frames: int, seed: int, sizes: tuple[float, float] = (200, 340)
) -> list[list[CardSpec]]:
    """Every other frame one card in the middle, the others four on the play spots;
    random cards (no card twice in a frame), sizes (heights within ``sizes``) and
    turns."""
    rng = np.random.default_rng(seed)
    deck = [r + s for r in RANKS for s in SUITS]
    out = []
    for i in range(frames):
        spots = ((640, 480),) if i % 2 == 0 else SPOTS
        drawn = rng.choice(len(deck), size=len(spots), replace=False)
        out.append(
            [
                CardSpec(
                    deck[int(k)], spot, float(rng.uniform(*sizes)), float(rng.uniform(0, 360))
                )
                for k, spot in zip(drawn, spots, strict=True)
            ]
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--frames", type=int, default=40, help="rendered frames (default 40)")
    ap.add_argument("--seed", type=int, default=3, help="their random draw (default 3)")
    ap.add_argument(
        "--sizes",
        type=float,
        nargs=2,
        default=(200.0, 340.0),
        metavar=("LEAST", "MOST"),
        help="the cards' heights in pixels are drawn from this range (default 200 340)",
    )
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    detector = CardDetector()
    made = layouts(args.frames, args.seed, tuple(args.sizes))
    cards = sum(len(specs) for specs in made)
    pct: dict[str, float] = {}
    wrong = sure = 0
    for name, colour, camera in KINDS:
        right = 0
        for i, specs in enumerate(made):
            frame, _ = scene(specs, seed=700 + i, table_colour=colour)
            frame = camera(frame, np.random.default_rng(900 + i))
            dets = [d for d in detector.detect(frame) if d.card and d.confidence >= 0.5]
            truth = {s.card for s in specs}
            right += len({d.card for d in dets} & truth)
            if colour == BOARD:
                wrong += sum(d.card not in truth for d in dets)
                sure += sum(d.card not in truth and d.confidence >= 0.9 for d in dets)
        pct[name] = 100 * right / cards
        print(f"{name}: {pct[name]:.1f} % of {cards} cards counted right")
    ratio = pct["board"] / pct["dark"] if pct["dark"] else 0.0
    print(
        f"vision_white_board frames={len(made)} cards={cards} board_pct={pct['board']:.1f} "
        f"board_grey_pct={pct['board_grey']:.1f} striped_grey_pct={pct['striped_grey']:.1f} "
        f"dark_pct={pct['dark']:.1f} ratio_board_to_dark={ratio:.3f} wrong_counted={wrong} "
        f"wrong_sure={sure}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
