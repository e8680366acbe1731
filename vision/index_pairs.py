"""Cards found by their corner index alone: a rank glyph with its suit pip just below.

Finding a card by its whole outline fails where the outline is lost: a close-up whose
card runs off the frame, cream stock on a white desk, a card half under the next one.
The printed index survives all of these, and it has a shape of its own: two compact
ink blobs of about one size, one above the other, a glyph's height apart, on light
stock. Each such pair gives an outline hypothesis — the card that would put an index
there, turned so the rank stands above the suit — whose top-left corner is read like
any card's (``CardReader.read_corner``). Since nothing else checks such a read, it is
never "sure".
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import components
from vision.levels import percentile

#: Size of the working copy searched for ink blobs (long side, pixels).
SEARCH_SIZE = 640
#: Glyph heights looked for in the working copy (pixels): from a card across a table to
#: a close-up whose index is an eighth of the frame.
GLYPH_MIN, GLYPH_MAX = 7, 90
#: In a rectified 200×300 card, where the rank's centre sits and how far below it the
#: suit's centre is (pixels): the layout ``vision.index`` expects of a corner.
RANK_AT = (21.0, 24.0)
RANK_TO_SUIT = 34.0
#: Ink is at least this much darker than the stock round it (of 255: a quarter).
INK_MIN = 64
#: A search for fainter ink than INK_MIN measures darkness from the frame's black point,
#: this percentile of its grey levels (at most BLACK_POINT_MOST), not from black: a frame
#: overexposed or seen through glare is lifted towards white all over, and its index,
#: as dark as ever above the darkest thing in view, is only a fifth darker than stock
#: clipped white (development singles, ``bench/vision_degraded.py``: washed out 93.6 ->
#: 94.4 % read right, hazed 88.7 -> 91.5; the later ones, levels times 1.2 plus 20, 89.8 ->
#: 92.0; thirty-ninth round). The first search keeps measuring from black: there, the
#: development scenes read one card and a half fewer.
#: A black point under BLACK_POINT_LEAST is black: a frame not lifted (the development
#: webcam scenes, black points mostly 0-60, read one card more without it, and one wrong
#: more: a queen of diamonds between two cards, at 0.62).
BLACK_POINT_PCT = 0.5
BLACK_POINT_LEAST = 50.0
BLACK_POINT_MOST = 120.0
#: Stock round an index is at least this share of the brightest paper in view.
STOCK_SHARE = 0.6
#: A rank's centre and its suit's stand about this many glyph sizes apart (the reader's
#: layout: 34 px between them under a rank about 30 px tall); pairs are read nearest
#: this spacing first. Measured on the development webcam scenes (the reads a pair at a
#: time gives right): spacing 1.0-1.3 for those that read, 0.8-1.6 for those that do not.
PAIR_SPACING = 1.15
#: How much a pair's unlike areas (log of their ratio) count against it in that order:
#: a rank and its suit are printed about alike; a pip beside a stroke is not.
AREA_WEIGHT = 0.3
#: At most this many pairs are read per frame (each hypothesis costs two reads). Pairs
#: come nearest first, and speckle (a webcam's noise, crumbs, a grained cloth) makes
#: many near pairs: at 24 (until the seventh round) whole fans went unread behind them
#: (later webcam scenes, pairs read nearest first: 41 cards read at 24, 68 at 48, 85 at
#: 96; 1, 2, 4 not in view; likeliest first, below, 89 at 96 and 3).
MAX_PAIRS = 96
#: Read after those: up to this many pairs more, from the likeliest order with no blob
#: in more than ``SPREAD_EACH`` of them (:func:`pairs_to_read`). On the development
#: scenes 16 more read one card more, 24 three, 48 four (96: as 48), none wrong; each
#: blob at most twice read the most, once or three times one card fewer.
SPREAD_PAIRS = 48
SPREAD_EACH = 2
#: Read after all those: up to this many pairs of a blob on the stock and a blob beside
#: it off the stock (:func:`ink_blobs`). A close-up's card in shade beside a brighter
#: one: its rank's hole holds stock bright enough, its solid suit beside the card's edge
#: is judged against stock darkened by the table round it.
SHADED_PAIRS = 16
#: A glyph run into something past a glyph's shape (in a fan, the suit into the shadow
#: line of the next card's edge; an index into a neighbour's ink) is one component too
#: long or too sparse for a glyph, and was lost with it. Such a component's ink is
#: thresholded again, within it alone, at its own Otsu level or this many times the
#: search's ``least``, whichever is higher: a printed glyph is darker than the soft
#: shadow or the faint edge it touches, and comes apart from it (thirtieth round). Only
#: components up to ``SPLIT_REACH`` glyph sizes long are looked into (a card's whole
#: edge or a shadowed table is no glyph's), at most ``SPLIT_MOST`` a frame.
SPLIT_FROM = 1.5
SPLIT_REACH = 4
SPLIT_MOST = 200
#: A glyph fills at least this share of its box (less: a thin frame line or a picture's
#: hatching, which a sparse component is looked into for); a part split off, at least
#: ``SPLIT_FILL`` (less: still the line's or the hatching's).
GLYPH_FILL = 0.15
SPLIT_FILL = 0.3
#: The pairs with a glyph so split off are read after all the others, at most this many
#: (:func:`pairs_to_read`): let in among them, their parts took the places of a webcam
#: fan's own pairs (one development webcam photo: 96 pairs read of 323 -> 116 of 534,
#: two cards lost that had read at 0.8 and 0.7).
SPLIT_PAIRS = 24
#: On a calibrated table, a blob is the table's own (grain, a knot, a stain) where the
#: frame round it shows what the empty table showed: within this many grey levels on
#: average (a frame's fresh noise and JPEG loss differ by a few; a card laid there, or
#: a hand, by far more), over its box grown by this share of its size each way.
TABLE_SAME = 10.0
TABLE_MARGIN = 0.25


@dataclass(frozen=True)
class InkBlob:
    cx: float
    cy: float
    w: int
    h: int
    area: int
    #: kept off the stock the search wants only as the partner of a blob on it
    shaded: bool = False
    #: split off a component too long or too sparse for a glyph (:data:`SPLIT_FROM`)
    split: bool = False


def ink_blobs(
    frame_bgr: np.ndarray,
    on_stock: bool = True,
    size: int = SEARCH_SIZE,
    least: int = INK_MIN,
    table: np.ndarray | None = None,
    longest: int = GLYPH_MAX,
) -> tuple[list[InkBlob], float]:
    """Compact ink blobs darker than the stock round them, and the working scale;
    ``on_stock`` keeps only those on stock about as bright as the brightest paper in
    view (where cards are read already, the rest is mostly table: speckle there costs a
    read each), and those off it that could be the other glyph of an index beside one
    on it (marked ``shaded``, paired last by :func:`pairs_to_read`); ``least``, how much
    darker than its stock ink is (of 255). ``table``: the empty table as the search sees
    it (:func:`table_grey`, the same size): a blob where the frame shows the empty table
    is the table's own, not looked at (:data:`TABLE_SAME`).
    ``longest``: the longest glyph looked for, where a search wants only small ones (then
    no component too long or too sparse for a glyph is looked into either).

    How much darker than the stock round it each pixel is, as a share of that stock's
    brightness (the grey closed over a window wider than any glyph), so a dim photo's
    index stands out as well as a bright one's. Below ``INK_MIN`` the share is of the
    stock's brightness above the frame's black point (:data:`BLACK_POINT_PCT`)."""
    score, grey, stock, scale = _darker(frame_bgr, size, from_black_point=least < INK_MIN)
    ink = (score > least).astype(np.uint8)
    n, labels, stats, cents = components.with_stats(ink)
    # an index is printed on card stock, among the brightest things in view; speckle on
    # a darker table is not looked at
    paper = percentile(grey[::4, ::4], 98)
    # every component measured at once (a webcam's speckle makes a thousand of them)
    x, y, bw, bh, area = (stats[1:, k] for k in range(5))
    long = np.maximum(bw, bh)
    keep = _glyph_shaped(x, y, bw, bh, area, ink.shape, GLYPH_FILL, longest)
    if table is not None and table.shape == ink.shape:
        keep &= ~_the_tables(grey, table, (x, y, bw, bh))
    cx, cy = cents[1:, 0], cents[1:, 1]
    if on_stock:
        at = stock[cy.astype(np.intp), cx.astype(np.intp)]
        on = keep & (at >= STOCK_SHARE * paper)
        # a blob off such stock is kept where it could pair with one on it (as
        # index_pairs pairs them): the suit beside a rank on a card in shade
        shade = np.zeros(keep.shape, bool)
        off = np.flatnonzero(keep & ~on)
        ons = np.flatnonzero(on)
        if off.size and ons.size:
            d = np.hypot(cx[off, None] - cx[ons], cy[off, None] - cy[ons])
            shade[off[_pairable(d, long[off, None], long[ons]).any(axis=1)]] = True
        keep = on | shade
    else:
        shade = np.zeros(keep.shape, bool)
    out = [
        InkBlob(float(cx[i]), float(cy[i]), int(bw[i]), int(bh[i]), int(area[i]), bool(shade[i]))
        for i in np.flatnonzero(keep)
    ]
    if longest < GLYPH_MAX:
        return out, scale
    # too long (a glyph and a line run together) or too sparse for a glyph, within reach
    joined = (long > GLYPH_MAX) & (long <= SPLIT_REACH * GLYPH_MAX)
    joined |= (GLYPH_MIN <= long) & (long <= GLYPH_MAX) & (area < GLYPH_FILL * bw * bh)
    at_least = STOCK_SHARE * paper if on_stock else None
    for i in np.flatnonzero(joined)[:SPLIT_MOST]:
        out += _split_off(score, labels, stats[i + 1], i + 1, least, stock, at_least)
    return out, scale


def _split_off(
    score: np.ndarray,
    labels: np.ndarray,
    stat: np.ndarray,
    label: int,
    least: int,
    stock: np.ndarray,
    at_least: float | None,
) -> list[InkBlob]:
    """The glyph-shaped parts of one component (``label``, its ``stat`` row) that its
    darker ink makes apart from the rest (:data:`SPLIT_FROM`), each on stock of
    ``at_least`` brightness where given (as :func:`ink_blobs` keeps blobs on stock)."""
    x0, y0, w, h = (int(v) for v in stat[:4])
    sub = score[y0 : y0 + h, x0 : x0 + w]
    mine = labels[y0 : y0 + h, x0 : x0 + w] == label
    otsu, _ = cv2.threshold(sub[mine].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    part = ((sub > max(float(otsu), SPLIT_FROM * least)) & mine).astype(np.uint8)
    _, _, stats, cents = components.with_stats(part)
    x, y, pw, ph, pa = (stats[1:, k] for k in range(5))
    cx, cy = cents[1:, 0] + x0, cents[1:, 1] + y0
    keep = _glyph_shaped(x + x0, y + y0, pw, ph, pa, score.shape, SPLIT_FILL)
    if at_least is not None:
        keep &= stock[cy.astype(np.intp), cx.astype(np.intp)] >= at_least
    return [
        InkBlob(float(cx[j]), float(cy[j]), int(pw[j]), int(ph[j]), int(pa[j]), split=True)
        for j in np.flatnonzero(keep)
    ]


def _glyph_shaped(
    x: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    h: np.ndarray,
    area: np.ndarray,
    shape: tuple[int, ...],
    fill: float,
    longest: int = GLYPH_MAX,
) -> np.ndarray:
    """Which components (their boxes and areas, in a working copy of ``shape``) could be
    a glyph: a glyph's size, not cut by the frame's edge (no whole glyph), and filling at
    least ``fill`` of their box."""
    long, short = np.maximum(w, h), np.minimum(w, h)
    keep = (GLYPH_MIN <= long) & (long <= longest) & (short >= 3)
    keep &= (x > 0) & (y > 0) & (x + w < shape[1]) & (y + h < shape[0])
    return keep & (area >= fill * w * h)


def _darker(
    frame_bgr: np.ndarray, size: int, from_black_point: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(how much darker than the stock round it each pixel is, of 255; the grey working
    copy; the stock's brightness; its scale) for :func:`ink_blobs`; ``from_black_point``:
    as a share of the stock's brightness above the frame's black point, not above black."""
    h, w = frame_bgr.shape[:2]
    scale = min(1.0, size / max(h, w))
    small = cv2.resize(
        frame_bgr, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA
    )
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    # the stock's brightness at half size (it is smooth, and the closing costs a quarter)
    gh, gw = grey.shape
    half = cv2.resize(grey, (gw // 2, gh // 2), interpolation=cv2.INTER_AREA)
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (GLYPH_MAX // 4 | 1, GLYPH_MAX // 4 | 1))
    stock = cv2.resize(cv2.morphologyEx(half, cv2.MORPH_CLOSE, k), (gw, gh))
    stock = np.maximum(stock, grey).astype(np.float32)
    black = 0.0
    if from_black_point:
        black = min(percentile(grey[::4, ::4], BLACK_POINT_PCT), BLACK_POINT_MOST)
        if black < BLACK_POINT_LEAST:
            black = 0.0
    darker = (stock - grey) / np.maximum(stock - black, 24.0)
    return np.clip(darker * 255, 0, 255).astype(np.uint8), grey, stock, scale


def table_grey(empty_bgr: np.ndarray, size: int = SEARCH_SIZE) -> np.ndarray:
    """The empty table as :func:`ink_blobs` sees a frame of the same camera (its grey
    working copy at ``size``): its ``table``. Worked out once per calibration (the
    detector keeps it)."""
    return _darker(empty_bgr, size)[1]


def _the_tables(grey: np.ndarray, table: np.ndarray, stats: tuple[np.ndarray, ...]) -> np.ndarray:
    """Which blobs (their ``stats`` columns) lie where the frame (``grey``) shows what
    the empty ``table`` showed: round each blob, its box grown by :data:`TABLE_MARGIN`
    of its size, the two differ by under :data:`TABLE_SAME` grey levels on average, once
    the empty table is brightened or dimmed as the whole frame is (a camera's exposure
    drifts; the cards laid on it are too few to move the median)."""
    x, y, bw, bh = stats
    th, tw = grey.shape
    grow = np.maximum(2, (TABLE_MARGIN * np.maximum(bw, bh)).astype(np.int64))
    x0, y0 = np.maximum(x - grow, 0), np.maximum(y - grow, 0)
    x1, y1 = np.minimum(x + bw + grow, tw), np.minimum(y + bh + grow, th)
    sample = (slice(None, None, 4), slice(None, None, 4))
    gain = float(np.median((grey[sample] + 1.0) / (table[sample] + 1.0)))
    seen = cv2.convertScaleAbs(table, alpha=gain) if abs(gain - 1) > 0.01 else table
    ii = cv2.integral(cv2.absdiff(grey, seen))
    differ = ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]
    return differ < TABLE_SAME * (x1 - x0) * (y1 - y0)


def _alike(a: InkBlob, b: InkBlob) -> bool:
    """Two blobs of one index: about one size (a rank and its suit are printed alike)."""
    sa, sb = max(a.w, a.h), max(b.w, b.h)
    return 0.5 <= sa / sb <= 2.0 and 0.25 <= a.area / b.area <= 4.0


def _pairable(d: np.ndarray, side_a: np.ndarray, side_b: np.ndarray) -> np.ndarray:
    """Which blobs, ``d`` apart and of glyph sizes (longer sides) ``side_a`` and
    ``side_b``, stand as a rank and its suit may: about a glyph's height apart, and of
    about one size (the size half of :func:`_alike`)."""
    size = np.maximum(side_a, side_b)
    ratio = side_a / side_b
    return (0.7 * size <= d) & (d <= 1.9 * size) & (0.5 <= ratio) & (ratio <= 2.0)


def index_pairs(blobs: list[InkBlob]) -> list[tuple[InkBlob, InkBlob]]:
    """Neighbouring blob pairs that could be a rank and its suit (either way round),
    likeliest first; a pair's blobs are about a glyph's height apart.

    Likeliest: the blobs' distance nearest :data:`PAIR_SPACING` glyph sizes, and their
    areas nearest alike (:data:`AREA_WEIGHT`). Nearest first (until the seventh round)
    put speckle and a picture's touching strokes ahead of the indices.

    Every pair is measured at once (a grained table gives hundreds of speckle blobs, and
    pairing them one by one took longer than the rest of the frame); ties keep the order
    of the blobs, as a stable sort of the pairs one by one would."""
    n = len(blobs)
    if n < 2:
        return []
    cx = np.array([b.cx for b in blobs], np.float64)
    cy = np.array([b.cy for b in blobs], np.float64)
    side = np.array([max(b.w, b.h) for b in blobs], np.int64)
    area = np.array([b.area for b in blobs], np.int64)
    i, j = np.triu_indices(n, 1)
    size = np.maximum(side[i], side[j])
    d = np.hypot(cx[j] - cx[i], cy[j] - cy[i])
    # _alike, for every pair
    share = area[i] / area[j]
    keep = _pairable(d, side[i], side[j]) & (0.25 <= share) & (share <= 4.0)
    i, j = i[keep], j[keep]
    key = np.abs((d / size)[keep] - PAIR_SPACING) + AREA_WEIGHT * np.abs(np.log(share[keep]))
    order = np.argsort(key, kind="stable")
    return [(blobs[int(a)], blobs[int(b)]) for a, b in zip(i[order], j[order], strict=True)]


#: A "10" whose "1" and "0" came apart (a sharp index seen whole): the other half lies
#: beside the rank blob read, across the line from rank to suit, its centre this many
#: of the rank's glyph sizes away (the "1" and the "0" of a ten stand 0.6-0.8 apart),
#: and no more than ``TEN_ALONG`` of one off that line. Cards on a board as white as
#: their stock have no outline and are read by their indices alone, and a sharp ten's
#: index is two blobs: on rendered boards (100 cards, one or four a frame) 95 % were
#: counted right in colour and 91 % in grey, 97 and 94 with the tens joined (a white
#: cloth 96 and 98). The development photos, whose tens mostly blur into one blob, read
#: as before. A joined read is kept only as a ten (a rank beside a pip is no ten).
TEN_ACROSS = (0.35, 1.1)
TEN_ALONG = 0.3


def ten_ranks(rank: InkBlob, suit: InkBlob, blobs: list[InkBlob]) -> list[tuple[InkBlob, InkBlob]]:
    """The "10"s that ``rank`` may be half of, each with the blob that is its other half:
    every blob beside ``rank`` (see :data:`TEN_ACROSS`) of about its size, joined with it
    into one blob. Read alone, the pair puts the card's index corner on the "0" (the "1"
    then lies past the card's edge, and the "0" reads as a queen) or on the "1" (the
    suit then lies off to one side)."""
    down = np.array([suit.cx - rank.cx, suit.cy - rank.cy], np.float64)
    gap = float(np.linalg.norm(down))
    if gap <= 0:
        return []
    down /= gap
    size = max(rank.w, rank.h)
    out = []
    for b in blobs:
        if b is rank or b is suit or not 0.7 <= max(b.w, b.h) / size <= 1.4:
            continue
        dx, dy = b.cx - rank.cx, b.cy - rank.cy
        along, across = dx * down[0] + dy * down[1], abs(dx * down[1] - dy * down[0])
        if abs(along) > TEN_ALONG * size or not (
            TEN_ACROSS[0] * size <= across <= TEN_ACROSS[1] * size
        ):
            continue
        x0 = min(rank.cx - rank.w / 2, b.cx - b.w / 2)
        y0 = min(rank.cy - rank.h / 2, b.cy - b.h / 2)
        x1 = max(rank.cx + rank.w / 2, b.cx + b.w / 2)
        y1 = max(rank.cy + rank.h / 2, b.cy + b.h / 2)
        ten = InkBlob(
            (x0 + x1) / 2, (y0 + y1) / 2, round(x1 - x0), round(y1 - y0), rank.area + b.area
        )
        out.append((ten, b))
    return out


def card_from_pair(rank: InkBlob, suit: InkBlob, scale: float) -> np.ndarray:
    """The map (3×3, affine), frame → a rectified 200×300 card, that puts ``rank`` where a
    card's top-left rank sits and ``suit`` straight below it."""
    return _pair_map(np.array([rank.cx, rank.cy]) / scale, np.array([suit.cx, suit.cy]) / scale)


#: The frame's squash (:func:`frame_squash`) is measured from at least this many blobs,
#: and taken only where it is at least this far from square (as a ratio either way), and
#: no further than this: a camera tilted 63 degrees squashes its view to 0.45, a 16:9
#: frame stretched square shows 1.78 times too tall; a table's speckle, flatter than
#: that (0.23-0.3 on rendered empty tables), is no card's ink.
SQUASH_BLOBS = 15
SQUASH_LEAST = 1.2
SQUASH_MOST = 2.2


def frame_squash(blobs: list[InkBlob]) -> float | None:
    """How much taller than true the frame shows things (its height scale over its
    width's), measured from the ink blobs' boxes: pips and glyphs, turned every way on
    the cards of a table, are about as wide as tall taken together. None where too few
    blobs say, where they say the frame is about true, or where no camera's view would be
    so squashed (:data:`SQUASH_MOST`)."""
    r = [
        np.log(b.h / b.w)
        for b in blobs
        if b.area > 0.5 * b.w * b.h and max(b.w, b.h) >= 9 and not b.split
    ]
    if len(r) < SQUASH_BLOBS:
        return None
    s = float(np.exp(np.median(r)))
    return s if np.log(SQUASH_LEAST) < abs(np.log(s)) <= np.log(SQUASH_MOST) else None


def unsquashed(m: np.ndarray, squash: float) -> np.ndarray:
    """The card hypothesis ``m`` (:func:`card_from_pair`) made again in the frame's true
    shape: the same rank and suit, a frame whose height shows ``squash`` times too tall."""
    inv = np.linalg.inv(m)
    p = inv @ np.array([RANK_AT[0], RANK_AT[1], 1.0])
    q = inv @ np.array([RANK_AT[0], RANK_AT[1] + RANK_TO_SUIT, 1.0])
    d = np.diag([1.0, 1.0 / squash, 1.0])
    return _pair_map((d @ p)[:2], (d @ q)[:2]) @ d


def _pair_map(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """:func:`card_from_pair` for the rank's centre ``p`` and the suit's ``q``."""
    down = q - p
    s = RANK_TO_SUIT / max(float(np.linalg.norm(down)), 1e-6)
    dy = down / np.linalg.norm(down)
    dx = np.array([dy[1], -dy[0]])  # the card's "right": "down" turned a quarter back
    rot = np.stack([dx, dy]) * s  # frame offset -> card offset
    t = np.array(RANK_AT) - rot @ p
    return np.vstack([np.hstack([rot, t[:, None]]), [0.0, 0.0, 1.0]])


def outline(m: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The card's four corners in frame pixels, for the map ``m`` of :func:`card_from_pair`."""
    w, h = size
    pts = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, np.linalg.inv(m)).reshape(4, 2).astype(np.float32)


def pairs_to_read(pairs: list[tuple[InkBlob, InkBlob]], most: int) -> list[tuple[InkBlob, InkBlob]]:
    """The pairs a search reads: the ``most`` likeliest, then up to :data:`SPREAD_PAIRS`
    more from the likeliest order with no blob in more than :data:`SPREAD_EACH` pairs,
    then up to :data:`SHADED_PAIRS` pairs of a blob on the stock and one in shade
    (:attr:`InkBlob.shaded`), last: speckle off the stock must not take the others'
    places (let in among them, they cost a webcam's fan of 25 cards two); and after
    them up to :data:`SPLIT_PAIRS` pairs with a glyph split off a longer component
    (:attr:`InkBlob.split`), for the same reason.

    A cluster of blobs (a knit cloth's shadows, a cable, a spot card's pips) pairs every
    blob with every other, and those pairs fill the likeliest ones: on a cream knit
    blanket a jack of hearts lying apart had its index pair 138th of 318. Spread out so,
    each blob's likeliest pairs come first, the cluster's only twice each. Only added:
    a fan's indices lie close together too, and read in the spread-out order alone a
    fan lost more cards than the cloth gained (twenty-first round)."""
    split = [p for p in pairs if p[0].split or p[1].split]
    split = [p for p in split if not (p[0].shaded or p[1].shaded)][:SPLIT_PAIRS]
    pairs = [p for p in pairs if not (p[0].split or p[1].split)]
    shaded = [p for p in pairs if p[0].shaded != p[1].shaded][:SHADED_PAIRS] + split
    pairs = [p for p in pairs if not (p[0].shaded or p[1].shaded)]
    chosen = pairs[:most]
    if len(pairs) <= most:
        return chosen + shaded
    taken = {(id(a), id(b)) for a, b in chosen}
    seen: dict[int, int] = {}
    spread, rest = [], []
    for a, b in pairs:
        if seen.get(id(a), 0) < SPREAD_EACH and seen.get(id(b), 0) < SPREAD_EACH:
            seen[id(a)] = seen.get(id(a), 0) + 1
            seen[id(b)] = seen.get(id(b), 0) + 1
            spread.append((a, b))
        else:
            rest.append((a, b))
    more = [p for p in (spread + rest)[:most] if (id(p[0]), id(p[1])) not in taken]
    return chosen + more[:SPREAD_PAIRS] + shaded
