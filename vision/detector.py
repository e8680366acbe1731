"""The whole recognition path for one frame: outlines, rectification, index reading."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.locate import LocateConfig, find_candidates, rectify, turned
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
    ``empty`` is a frame of the empty table (captured at calibration): on a light table
    it is the surest way to tell a card from the surface.
    """

    def __init__(
        self,
        model: GlyphModel | None = None,
        enrollment: Enrollment | str | Path | None = None,
        locate: LocateConfig | None = None,
        empty: np.ndarray | None = None,
    ) -> None:
        model = model or GlyphModel.load()
        if enrollment is not None and not isinstance(enrollment, Enrollment):
            enrollment = Enrollment.load(enrollment)
        if enrollment is not None:
            model.enrollment = enrollment
        self.reader = CardReader(model)
        self.locate = locate or LocateConfig()
        self.empty = empty

    def read_card(self, card_bgr: np.ndarray) -> CardRead:
        return self.reader.read(card_bgr)

    def detect(self, frame_bgr: np.ndarray) -> list[Detection]:
        groups = find_candidates(frame_bgr, self.locate, self.empty)
        # biggest outlines first: a smaller one lying wholly inside a card already read
        # is that card's picture frame or a pip, not another card (cards are one size)
        groups.sort(key=lambda g: -cv2.contourArea(g[0]))
        out: list[Detection] = []
        unread: list[list[np.ndarray]] = []
        for group in groups:
            if any(d.card and _within(group[0], d.quad) for d in out):
                continue
            det = self._read_group(frame_bgr, group)
            if det.card is None:
                unread.append(group)
            out.append(det)
        # still unread: maybe its short side was picked wrong (an oblique view, a nearly
        # square outline), so each outline is tried turned 90° before giving up
        for group in unread:
            if any(d.card and _within(group[0], d.quad) for d in out):
                continue
            det = self._read_group(frame_bgr, [turned(q) for q in group])
            if det.card is not None:
                out = [d for d in out if d.quad is not group[0]] + [det]
        return _one_per_card(out)

    def _read_group(self, frame_bgr: np.ndarray, group: list[np.ndarray]) -> Detection:
        """Alternative outlines of one card, read in turn until one reads."""
        first = None
        for q in group:
            res = self.reader.read(rectify(frame_bgr, q, CARD_SIZE))
            if res.card is not None:
                return Detection(q, res.card, res.confidence)
            if first is None:
                first = Detection(q, None, res.confidence)
        assert first is not None
        return first


def _within(quad: np.ndarray, card: np.ndarray) -> bool:
    """``quad`` lies wholly inside the outline ``card`` and is clearly smaller."""
    poly = np.asarray(card, np.float32).reshape(-1, 1, 2)
    if cv2.contourArea(quad) > 0.8 * cv2.contourArea(poly):
        return False
    return all(cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in quad)


def _inside(d: Detection, quad: np.ndarray) -> bool:
    poly = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, d.center, False) > 0


def _one_per_card(dets: list[Detection]) -> list[Detection]:
    """One detection per physical card: outlines from different masks that were not
    grouped (a shadow halo, a table-difference blob) each hold the other's centre; the
    best reading of them stays."""
    ranked = sorted(dets, key=lambda d: (d.card is not None, d.confidence), reverse=True)
    kept: list[Detection] = []
    for d in ranked:
        if not any(_inside(d, k.quad) and _inside(k, d.quad) for k in kept):
            kept.append(d)
    return [d for d in dets if any(d is k for k in kept)]
