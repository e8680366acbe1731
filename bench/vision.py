"""The camera path's accuracy on a folder of labelled photos: the name the camera issue
and an organiser's notes use for ``bench/vision_accuracy.py``, which does the work.

    .venv/bin/python bench/vision.py DIR [--part all|dev|held] [--deck-glyphs FILE] [--limit N]
                                   [--every N] [--show-misses]

DIR holds single-card photos (file name starting with the card, as ``courtpiece camera
capture`` saves them) or scenes with a ``labels.json``; ``--help`` gives every option.
Ends with the same summary line as ``bench/vision_accuracy.py``.
"""

from __future__ import annotations

import runpy
from pathlib import Path

if __name__ == "__main__":
    runpy.run_path(str(Path(__file__).with_name("vision_accuracy.py")), run_name="__main__")
