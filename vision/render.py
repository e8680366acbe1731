"""Draw index glyphs: rank text from fonts, suit symbols from fonts or from geometry.

Used twice: by ``vision.train`` to make training glyphs, and by ``vision.synth`` to
paint card faces for tests and benchmarks. OpenCV's built-in Hershey fonts and the
geometric suit shapes need nothing installed, so tests run on any machine; TrueType
fonts (Debian's fonts-dejavu / fonts-liberation, or matplotlib's DejaVu) add variety when
present.
"""

from __future__ import annotations

import glob
import os
from functools import lru_cache

import cv2
import numpy as np

SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
)
_FONT_DIRS = ("/usr/share/fonts/truetype", "/usr/share/fonts/TTF", "/usr/local/share/fonts")


@lru_cache(maxsize=1)
def truetype_fonts() -> tuple[str, ...]:
    """Upright TrueType fonts found on this machine (card indices are never italic)."""
    found: list[str] = []
    for d in _FONT_DIRS:
        found += glob.glob(os.path.join(d, "**", "*.ttf"), recursive=True)
    try:  # matplotlib ships DejaVu when the system has no fonts
        import matplotlib  # type: ignore[import-not-found]

        found += glob.glob(
            os.path.join(os.path.dirname(matplotlib.__file__), "mpl-data/fonts/ttf/*.ttf")
        )
    except ImportError:
        pass
    keep = [
        f
        for f in found
        if ("DejaVu" in f or "Liberation" in f)
        and not any(s in f for s in ("Italic", "Oblique", "ExtraLight", "Math"))
    ]
    return tuple(sorted(set(keep)))


def _tight(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return mask
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def text_mask_truetype(text: str, font_path: str, px: int = 64) -> np.ndarray:
    """Ink mask (uint8 0/255) of ``text`` in a TrueType font, cropped tight."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(font_path, px)
    img = Image.new("L", (px * len(text) * 2 + 20, px * 2 + 20), 0)
    ImageDraw.Draw(img).text((10, 10), text, font=font, fill=255)
    return _tight((np.asarray(img) > 127).astype(np.uint8) * 255)


def text_mask_hershey(text: str, font: int, thickness: int = 3, scale: float = 2.0) -> np.ndarray:
    """Ink mask of ``text`` in one of OpenCV's built-in stroke fonts, cropped tight."""
    (w, h), base = cv2.getTextSize(text, font, scale, thickness)
    img = np.zeros((h + base + 20, w + 20), np.uint8)
    cv2.putText(img, text, (10, h + 10), font, scale, 255, thickness, cv2.LINE_AA)
    return _tight((img > 127).astype(np.uint8) * 255)


def suit_mask_shape(suit: str, size: int = 64, variant: float = 0.0) -> np.ndarray:
    """A suit symbol drawn from circles and polygons (no font needed).

    ``variant`` in [-1, 1] bends the proportions a little, as real decks differ.
    """
    s = size
    img = np.zeros((s * 2, s * 2), np.uint8)
    c = s  # centre
    r = int(s * (0.26 + 0.03 * variant))
    if suit == "D":
        wid = s * (0.36 + 0.06 * variant)
        pts = np.array([[c, c - s * 0.5], [c + wid, c], [c, c + s * 0.5], [c - wid, c]], np.int32)
        cv2.fillPoly(img, [pts], 255, cv2.LINE_AA)
    elif suit in ("H", "S"):
        # a heart; the spade is an upside-down heart with a stem
        y = c - s * 0.2
        cv2.circle(img, (int(c - r * 0.95), int(y)), r, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (int(c + r * 0.95), int(y)), r, 255, -1, cv2.LINE_AA)
        tip = c + s * (0.5 + 0.05 * variant)
        pts = np.array(
            [[c - r * 1.9, y + r * 0.35], [c + r * 1.9, y + r * 0.35], [c, tip]], np.int32
        )
        cv2.fillPoly(img, [pts], 255, cv2.LINE_AA)
        if suit == "S":
            img = img[::-1].copy()
            stem = np.array(
                [[c, c + s * 0.15], [c - s * 0.22, c + s * 0.6], [c + s * 0.22, c + s * 0.6]],
                np.int32,
            )
            cv2.fillPoly(img, [stem], 255, cv2.LINE_AA)
    elif suit == "C":
        rr = int(r * 0.95)
        cv2.circle(img, (c, int(c - s * 0.25)), rr, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (int(c - s * 0.27), int(c + s * 0.08)), rr, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (int(c + s * 0.27), int(c + s * 0.08)), rr, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (c, c), int(rr * 0.6), 255, -1, cv2.LINE_AA)
        stem = np.array(
            [[c, c - s * 0.05], [c - s * 0.2, c + s * 0.55], [c + s * 0.2, c + s * 0.55]], np.int32
        )
        cv2.fillPoly(img, [stem], 255, cv2.LINE_AA)
    else:
        raise ValueError(suit)
    return _tight((img > 127).astype(np.uint8) * 255)


def flat_top_three(size: int = 64, variant: float = 0.0) -> np.ndarray:
    """A "3" with a flat top and a straight diagonal, as older card indices print it.

    Few fonts draw the three this way, but many decks do; drawn from strokes so the
    training set has it. ``variant`` in [-1, 1] changes the stroke and the proportions.
    """
    s = size
    img = np.zeros((s * 2, s * 2), np.uint8)
    th = max(2, int(s * (0.11 + 0.03 * variant)))
    left, right = int(s * 0.6), int(s * (1.3 + 0.05 * variant))
    top, mid = int(s * 0.45), int(s * (0.98 + 0.04 * variant))
    cv2.line(img, (left, top), (right, top), 255, th, cv2.LINE_AA)
    cv2.line(img, (right, top), (int(s * 0.92), mid), 255, th, cv2.LINE_AA)
    ry = int(s * 0.5 - (mid - s * 0.95) / 2)
    rx = int(s * (0.36 + 0.03 * variant))
    cy = mid + int(ry * 0.8)
    cv2.ellipse(img, (int(s * 0.98), cy), (rx, ry), 0, -120, 150, 255, th, cv2.LINE_AA)
    return _tight((img > 127).astype(np.uint8) * 255)


def rank_text(rank: str) -> str:
    """Card text rank (``T`` for ten) to what is printed in the index (``10``)."""
    return "10" if rank in ("T", "10") else rank
