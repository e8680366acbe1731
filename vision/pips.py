"""The pips in the body of a card: a second opinion on its suit, and on a spot card's rank.

The index glyphs are small: at table distance a club in the corner is ten pixels tall and
blurs towards a spade, and an unusual typeface can make a 3 look like a 5. The body of a
spot card repeats the suit in large pips, as many as the rank says. Both cues are soft —
a pip can be covered by the next card played, a court card has a picture, not pips — so
the reader only multiplies them into what the corners said.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

import cv2
import numpy as np

from vision import components, glyphs
from vision.index import ink_score
from vision.model import SUITS, GlyphModel

#: Part of the card where pips lie (fractions of width and height): clear of both indices.
BODY_X0, BODY_X1, BODY_Y0, BODY_Y1 = 0.17, 0.83, 0.06, 0.94
#: A pip whose centre lies in this band of the card's height (fractions) may face either
#: way (decks differ on a middle pip); above it a pip stands upright, below it upside
#: down, as decks print them (turning the card end for end keeps that true; a one-way
#: deck's pips all stand upright, see :func:`read_pips`' count).
MIDDLE = (0.4, 0.6)


@dataclass(frozen=True)
class Pips:
    """What the body of a card shows: its pips' suit vote, and how many pips agree."""

    suit_proba: np.ndarray  # over SUITS without "junk", sums to 1
    count: int


def _hull_area(mask: np.ndarray) -> float:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return float(cv2.contourArea(cv2.convexHull(np.concatenate(contours)))) + 1.0


def _body_blobs(
    card_bgr: np.ndarray,
) -> tuple[np.ndarray, int, np.ndarray, np.ndarray, np.ndarray]:
    """(ink mask, count, labels, stats, centroids) of the ink components in the card's
    body (:data:`BODY_X0` ... :data:`BODY_Y1`), in the body's own pixels."""
    h, w = card_bgr.shape[:2]
    body = card_bgr[int(h * BODY_Y0) : int(h * BODY_Y1), int(w * BODY_X0) : int(w * BODY_X1)]
    ink, _, _, _ = ink_score(body)
    n, labels, stats, cents = components.with_stats(ink)
    return ink, n, labels, stats, cents


def _solid_pip(labels: np.ndarray, stat: np.ndarray, i: int) -> np.ndarray | None:
    """Component ``i``'s mask (255 for ink) where it is shaped like a pip: about as wide
    as tall, and solid (pips are; outlines and figures are not); else None."""
    x, y, cw, ch, area = (int(v) for v in stat)
    if not 0.6 <= cw / ch <= 1.4:
        return None
    mask = (labels[y : y + ch, x : x + cw] == i).astype(np.uint8) * 255
    return mask if area >= 0.75 * _hull_area(mask) else None


def read_pips(card_bgr: np.ndarray, model: GlyphModel) -> Pips | None:
    """The pips of an upright rectified card, or None if its body holds no pip-like shapes."""
    h = card_bgr.shape[0]
    y0 = int(h * BODY_Y0)
    ink, n, labels, stats, cents = _body_blobs(card_bgr)
    bh, bw = ink.shape
    masks, areas, heights = [], [], []
    for i in range(1, n):
        x, y, cw, ch, area = (int(v) for v in stats[i])
        if x == 0 or y == 0 or x + cw >= bw or y + ch >= bh:
            continue  # cut by the body's edge: a frame line, a picture, an index
        if not (0.05 * h <= ch <= 0.2 * h):
            continue
        mask = _solid_pip(labels, stats[i], i)
        if mask is None:
            continue
        masks.append(mask)
        areas.append(area)
        heights.append((y0 + float(cents[i][1])) / h)
    if not masks:
        return None
    # Each pip votes on the suit the way it faces: an upside-down heart is a spade's
    # shape, so a heart's pips read either way round split between the two wherever
    # colour cannot tell them (gold on black, a grey photo). A middle pip votes by its
    # better reading of the two. Counted, a pip is of the suit either way round (a
    # one-way deck prints every pip upright; its count still holds).
    upright = np.stack([glyphs.normalise(m) for m in masks])
    both = model.suit_proba(glyphs.features(np.concatenate([upright, upright[:, ::-1, ::-1]])))
    up, down = both[: len(masks), : len(SUITS) - 1], both[len(masks) :, : len(SUITS) - 1]
    either = np.maximum(up, down)
    at = np.asarray(heights)[:, None]
    p = np.where(at < MIDDLE[0], up, np.where(at > MIDDLE[1], down, either))
    score = p.sum(axis=0)
    suit = int(score.argmax())
    agree = either[:, suit] > 0.5
    if not agree.any():
        return None
    # the pips of one card are one size; the big pip beside a picture counts alone
    area = np.asarray(areas, np.float32)
    med = float(median(area[agree]))  # (statistics: numpy's value, without its set-up)
    count = int((agree & (area >= 0.6 * med) & (area <= 1.6 * med)).sum())
    vote = score / max(float(score.sum()), 1e-9)
    return Pips(vote, count)


#: An ace's one pip: its centre within this share of the card's width and height of the
#: card's middle, and its height within this range (shares of the card's height): bigger
#: than a spot card's pips (:func:`read_pips` leaves it out), a fancy ace of spades' much
#: bigger still.
ACE_PIP_OFF = 0.12
ACE_PIP_HEIGHT = (0.1, 0.5)


def ace_pip(card_bgr: np.ndarray, model: GlyphModel) -> np.ndarray | None:
    """The suit votes (over SUITS without "junk") of a rectified ace's one pip in the
    middle of its body, as it lies and turned end for end (two rows), or None where no
    such pip lies there. An ace has no row of pips for :func:`read_pips` to count; its
    big pip is the only check on what both its corners say (two small club indices in a
    grey frame read as diamonds, surely, beside a big club in the middle). Which way up
    it was printed the corners cannot tell (a card turned end for end shows the same
    indices), so both ways are read."""
    h, w = card_bgr.shape[:2]
    x0, y0 = int(w * BODY_X0), int(h * BODY_Y0)
    _, n, labels, stats, cents = _body_blobs(card_bgr)
    best, best_area = None, 0
    for i in range(1, n):
        ch, area = int(stats[i][3]), int(stats[i][4])
        cx, cy = (x0 + float(cents[i][0])) / w, (y0 + float(cents[i][1])) / h
        if abs(cx - 0.5) > ACE_PIP_OFF or abs(cy - 0.5) > ACE_PIP_OFF:
            continue
        if not ACE_PIP_HEIGHT[0] * h <= ch <= ACE_PIP_HEIGHT[1] * h or area <= best_area:
            continue
        mask = _solid_pip(labels, stats[i], i)
        if mask is not None:
            best, best_area = mask, area
    if best is None:
        return None
    up = glyphs.normalise(best)
    both = model.suit_proba(glyphs.features(np.stack([up, up[::-1, ::-1]])))
    return both[:, : len(SUITS) - 1]


#: Beside a spot card's top-left index lie its first pips (the top of its left column,
#: or of its middle one on a two or three), twice the index suit's size: where a card is
#: read from its index alone, they are often all of its body that shows (a fan leaves the
#: index side of each card bare). In the rectified 200×300 card a pair read maps: the
#: window read (x0, y0, x1, y1), the box a pip's centre must fall in (the index of the card
#: on top lies further right, past its own edge), and a pip's height range. (Development
#: webcam fans: the first pips' centres at x 42-85, y 12-70, 29-44 px tall.)
FIRST_PIPS_WINDOW = (30, 0, 150, 100)
FIRST_PIP_CENTRES = (35, 10, 95, 75)
FIRST_PIP_HEIGHT = (26, 48)


@dataclass(frozen=True)
class FirstPips:
    """What the first pips beside an index say of the suit: the shape head's vote over
    the four suits, and the black-suit head's over ``BLACK_SUITS`` (from their grey
    levels; None where the model has no such head). Each sums to 1."""

    shape: np.ndarray
    black: np.ndarray | None


def first_pips(window_bgr: np.ndarray, model: GlyphModel) -> FirstPips | None:
    """The first pips in ``window_bgr`` (the card's :data:`FIRST_PIPS_WINDOW`), or None
    where none shows.

    A thresholded webcam club is a spade's shape, its pips' as much as its index's (the
    shape head reads most development webcam clubs' pips as spades); twice the index's
    size, a pip's grey levels still show three lobes, so a black suit is told by the
    black-suit head."""
    x0, y0 = FIRST_PIPS_WINDOW[:2]
    cx0, cy0, cx1, cy1 = FIRST_PIP_CENTRES
    ink, _, score, _ = ink_score(window_bgr)
    n, labels, stats, cents = components.with_stats(ink)
    soft, shapes = [], []
    for i in range(1, n):
        x, y, w, h, _ = (int(v) for v in stats[i])
        cx, cy = float(cents[i][0]) + x0, float(cents[i][1]) + y0
        if not (cx0 <= cx <= cx1 and cy0 <= cy <= cy1):
            continue
        if not (FIRST_PIP_HEIGHT[0] <= h <= FIRST_PIP_HEIGHT[1]) or not (0.4 <= w / h <= 1.6):
            continue
        g = glyphs.normalise_soft(score[max(0, y - 3) : y + h + 3, max(0, x - 3) : x + w + 3])
        if g is None:
            continue
        shapes.append(glyphs.normalise((labels[y : y + h, x : x + w] == i).astype(np.uint8) * 255))
        soft.append(g)
    if not soft:
        return None
    p = model.suit_proba(glyphs.features(np.stack(shapes)))
    # a rank glyph or a picture's ornament of a pip's size: the shape head calls it junk
    pips = p[:, SUITS.index("junk")] < 0.5
    if not pips.any():
        return None
    shape = p[pips, : len(SUITS) - 1]
    shape = (shape / shape.sum(axis=1, keepdims=True)).mean(axis=0)
    if model.black is None:
        return FirstPips(shape, None)
    black = model.black.proba(glyphs.features(np.stack(soft)[pips])).mean(axis=0)
    return FirstPips(shape, black)


#: A light patch reaching the edge of the first pips' window over a dark card and at
#: least this share of the window's width long: the table past the card's edge, not a
#: pip (at most 48 px tall and 1.6 times as wide, 77 of the window's 120).
TABLE_SPAN = 0.7


def first_pips_on_dark(window_bgr: np.ndarray, model: GlyphModel) -> FirstPips | None:
    """:func:`first_pips` of a dark deck's card, whose light ink is read in its negative.

    A pair's window often runs past the card's edge onto a light table. In the negative
    that table is darker than any ink, so the ink's threshold falls between it and the
    pips, and the pips are lost (a black-and-gold 7D's diamonds). The light patches
    reaching the window's edge are painted the stock's colour first."""
    grey = cv2.cvtColor(window_bgr, cv2.COLOR_BGR2GRAY)
    level = float(np.median(grey))
    light = (grey > 2 * level + 40).astype(np.uint8)
    n, labels, stats, _ = components.with_stats(light)
    h, w = grey.shape
    x, y, bw, bh = (stats[1:, k] for k in range(4))
    edge = (x == 0) | (y == 0) | (x + bw >= w) | (y + bh >= h)
    table = edge & (np.maximum(bw, bh) >= TABLE_SPAN * w)
    window = window_bgr.copy()
    if table.any():
        stock = np.median(window_bgr[grey <= level], axis=0)
        window[np.isin(labels, np.flatnonzero(table) + 1)] = stock.astype(np.uint8)
    return first_pips(cv2.bitwise_not(window), model)
