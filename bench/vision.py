"""The camera path's accuracy on a folder of labelled photos: the name the camera issue
and an organiser's notes use for ``bench/vision_accuracy.py``, which does the work.

    .venv/bin/python bench/vision.py DIR [--part all|dev|held] [--deck-glyphs FILE] [--limit N]
                                   [--every N] [--show-misses]

DIR holds single-card photos (file name starting with the card, as ``courtpiece camera
capture`` saves them) or scenes with a ``labels.json``; ``--help`` gives every option.
Ends with the same summary line as ``bench/vision_accuracy.py``.

This file shares its name with the ``vision`` package, and a script run from bench/ has
bench/ first on its import path: imported rather than run, it stands aside for the real
package (see the end), so no bench can be handed this file by ``import vision``.
"""

from __future__ import annotations

import importlib
import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    runpy.run_path(str(HERE / "vision_accuracy.py"), run_name="__main__")
else:  # imported as "vision": import the package instead and become it
    sys.modules.pop(__name__, None)
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE] + [str(HERE)]
    sys.modules[__name__] = importlib.import_module(__name__)
