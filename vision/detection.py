"""What the detector reports for each card it finds in a frame."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Detection:
    """One card outline in a frame and what it reads as (``card`` None if unreadable)."""

    quad: np.ndarray  # 4x2 float32, full-frame pixels, clockwise
    card: str | None
    confidence: float
    #: The card's centre in table coordinates (the plane's view), when there is a plane.
    table_center: tuple[float, float] | None = None

    @property
    def center(self) -> tuple[float, float]:
        c = self.quad.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def where(self) -> tuple[float, float]:
        """Where the card lies for zone look-up: table coordinates if known, else frame."""
        return self.table_center if self.table_center is not None else self.center
