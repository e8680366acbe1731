"""The whole recognition path for one frame: outlines, rectification, index reading."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.locate import LocateConfig, find_candidates, rectify
from vision.model import Enrollment, GlyphModel
from vision.reader import CardRead, CardReader

#: Rectified card size (width, height): index glyphs come out roughly 25-35 px tall.
CARD_SIZE = (200, 300)


@dataclass(frozen=True)
class Detection:
    """One card outline in a frame and what it reads as (``card`` None if unreadable)."""

    quad: np.ndarray  # 4x2 float32, full-frame pixels, clockwise
    card: str | None
    confidence: float

    @property
    def center(self) -> tuple[float, float]:
        c = self.quad.mean(axis=0)
        return float(c[0]), float(c[1])


class CardDetector:
    """Finds and reads every card in a frame. Loads the glyph model once.

    ``enrollment`` (a file written by ``vision.enroll``) adds one deck's own glyphs.
    """

    def __init__(
        self,
        model: GlyphModel | None = None,
        enrollment: Enrollment | str | Path | None = None,
        locate: LocateConfig | None = None,
    ) -> None:
        model = model or GlyphModel.load()
        if enrollment is not None and not isinstance(enrollment, Enrollment):
            enrollment = Enrollment.load(enrollment)
        if enrollment is not None:
            model.enrollment = enrollment
        self.reader = CardReader(model)
        self.locate = locate or LocateConfig()

    def read_card(self, card_bgr: np.ndarray) -> CardRead:
        return self.reader.read(card_bgr)

    def detect(self, frame_bgr: np.ndarray) -> list[Detection]:
        out = []
        for group in find_candidates(frame_bgr, self.locate):
            # alternative outlines of one card, read in turn until one reads
            first = None
            for q in group:
                res = self.reader.read(rectify(frame_bgr, q, CARD_SIZE))
                if first is None:
                    first = Detection(q, res.card, res.confidence)
                if res.card is not None:
                    out.append(Detection(q, res.card, res.confidence))
                    break
            else:
                if first is not None:
                    out.append(first)
        return out
