"""The whole recognition path for one frame: outlines, rectification, index reading."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from itertools import chain, islice
from pathlib import Path
from statistics import median

import cv2
import numpy as np

from vision.detection import Detection
from vision.focus import focus_check, sharpened
from vision.index import IndexGlyphs, corner_windows, corners, find_index
from vision.index_pairs import (
    GLYPH_MAX,
    INK_MIN,
    MAX_PAIRS,
    RANK_AT,
    RANK_TO_SUIT,
    SEARCH_SIZE,
    InkBlob,
    card_from_pair,
    frame_squash,
    index_pairs,
    ink_blobs,
    outline,
    pairs_to_read,
    table_grey,
    ten_ranks,
    unsquashed,
)
from vision.known import KnownReads, kept_fits
from vision.levels import darkest, lowered, percentile
from vision.locate import (
    WORK_SIZE,
    Later,
    LocateConfig,
    Outline,
    Sources,
    add_edges,
    add_masks,
    border_quads,
    card_map,
    dark_quads_and_mask,
    elongated,
    grouped,
    mask_sources,
    outlines,
    side_lengths,
    turned,
)
from vision.model import BLACK_SUITS, SUITS, DeckGlyphs, GlyphModel
from vision.overlap import (
    MAX_HYPOTHESES,
    card_short_side,
    close_up_hypotheses,
    corner_hypotheses,
)
from vision.pips import (
    BODY_X0,
    BODY_X1,
    BODY_Y0,
    BODY_Y1,
    FIRST_PIPS_WINDOW,
    FirstPips,
    first_pips,
    first_pips_on_dark,
)
from vision.plane import TablePlane
from vision.quads import (
    centre_inside,
    cut_by_frame,
    grown,
    holds,
    misshapen,
    one_per_card,
    one_spot,
    overlapping,
    within,
)
from vision.reader import (
    DARK_GREY_STOCK,
    LONE_CORNER,
    CardRead,
    CardReader,
    agreeing_corners,
    colourless,
    dark_stock,
    light_stock,
    read_as_glyphs,
    surer_corner,
)
from vision.stock import bare_stock, bright_elsewhere, pale_gaps, sampled
from vision.warp import warp_perspective, warp_windows

#: Rectified card size (width, height): index glyphs come out roughly 25-35 px tall.
CARD_SIZE = (200, 300)
#: A card read from one corner of a pile must be at least this sure: a guessed outline
#: can put any ink in its corner, and nothing else checks the reading. It is what the
#: tracker counts; at 0.7 (until the fourth round) a webcam's soft index beside the
#: cards that read was seldom reported. From 0.5 the scene photos read a quarter more of
#: their cards (earlier development part 30.8 % -> 39.0 %, 12 -> 22 wrong; later part,
#: not looked at while choosing, 15.1 % -> 22.0 %, 3 -> 4 wrong; none of them sure).
CORNER_MIN = 0.5
#: The same for a card found by its index alone, and the most such a read may claim.
INDEX_MIN = 0.0
INDEX_MOST = 0.8
#: A frame whose darkest ink is lighter than this level is lifted all over: seen through
#: glare on a glossy sheet or a misted lens, or by a webcam overexposed with its black
#: raised. It is read with its levels lowered until its darkest ink is this level, no
#: further. The development photos' lightest darkest ink is 87 (white cards on a white
#: sheet, read right as they are); brought all the way down to black, those photos read
#: worse (the thirty-ninth round), so a lifted frame is only brought back into the range
#: the reader is known to read.
LIFTED_BLACK = 90.0
#: A frame with nothing darker than this shows no ink to read (a blank wall of glare, a
#: camera blinded by a lamp): lowered to LIFTED_BLACK its levels would be stretched more
#: than three times, its noise with them, into ink that is not there. Read as it is.
LIFTED_MOST = 200.0
#: The most a card read from one corner may claim where its other index, read alone,
#: said another card at least as surely: below the tracker's count, so it waits.
READ_TWICE_MOST = 0.45
#: How far (rectified pixels) an index pair's rank may lie outside an outline's index
#: corner and still be that corner's index read again: the pair gives its card's place
#: from one index only, and a weak outline may be a little off (a card cut by the frame).
REREAD_SLACK = 30.0
#: How much of a card read from its index pair alone hides other ink (its width, its
#: height, in its rectified 200×300 pixels): its index corner.
#: (Development scenes: 50×80, 70×100, 100×150 read 63.1, 62.9, 62.7 % counted; the whole
#: guessed card, 61.9 %. 70×100 until the twenty-ninth round: in a tight fan the next
#: card's index lies within it, 100 pixels down a card whose index ends at about 75;
#: bench/vision_fans.py 75.5 -> 83.1 %, development scenes 89.5 -> 89.8 %.)
INDEX_REACH = (60.0, 80.0)
#: A card read from an index pair short of the tracker's 0.5 but from this much counts
#: (at CORNER_MIN) if it reads the same at every small shift of its card hypothesis
#: (:data:`SHIFTS`): the pair's centres are blobs' centres, off by a pixel or two, and a
#: read that holds wherever the corner falls within that is a read of the glyphs, not of
#: where the window fell. Development scenes (counted, wrong counted): 64.2 %, 20 before;
#: from 0.45, 67.5 %, 23; from 0.4, 69.0 %, 28; from 0.45 with no shifts tried, 68.2 %, 24
#: (on these photos the shifts cost five right reads and keep out one wrong one).
STEADY_FROM = 0.45
#: A jack read from an index pair counts only if it reads the same at every small shift
#: too: its index is one hooked stroke, which a fragment of other ink matches (a ten's
#: "1", a five whose top bar came apart, a seven seen upside down). Otherwise it is kept
#: below this. Development scenes: of the jacks so read from 0.5, 21 of 23 right ones
#: hold and 4 of the 6 wrong ones do not (asked of jacks below 0.62 only, the same;
#: asked of every rank, 14 right reads lost and no wrong one more).
UNSTEADY_JACK = 0.4
#: Widths (times the width its height gives) an index pair's card hypothesis that does
#: not read as surely as the tracker counts, but read as a card, is read at again (about
#: its rank), and the share of its confidence a read so found keeps. Development scenes
#: (read, counted; wrong, wrong counted): 71.0 %, 69.7 %; 20, 17 without; where it reads
#: as a card, 78.0 %, 76.7 %; 27, 24. Tried also where it reads as nothing: 79.0 %, 77.6 %;
#: 29, 26 (and an empty rendered table read as an ace at 0.42); so tried, undiscounted,
#: 79.9 %, 78.6 %; 38, 35; at 0.8, 76.1 %, 74.8 %; 27, 24; only below 0.3, 75.1 %, 73.7 %;
#: 25, 22.
STRETCHES = (0.8, 1.25)
STRETCH_DISCOUNT = 0.9
#: The ranks (as read) of cards with pips beside the top-left index.
SPOT_RANKS = "23456789T"
#: The court cards, whose picture carries a sign of their suit beside the top-left
#: index (the English pattern's, a pip's size), which may turn a black suit read from
#: an index pair: at the set's shape the development scenes read one card more and one
#: wrong fewer counted, at the photos' own two and two (twenty-sixth round).
COURT_RANKS = "JQK"
#: The first pips' vote (:func:`vision.pips.first_pips`) that turns a black suit read
#: from an index pair to the other one; and the vote for its own suit that makes a read
#: short of the tracker's 0.5, but from PIPS_LIFT_FROM, count. (Their black-suit head
#: was right in every development webcam read where it leaned 0.6 or more the other
#: way, at the set's shape and at the photos' own; 0.7 until the eighteenth round.)
PIPS_OVERRULE = 0.6
PIPS_AGREE = 0.8
PIPS_LIFT_FROM = 0.3
#: How much darker than the stock round it (of 255) ink is in the last index search of
#: a frame where nothing read: a red index in a grey photo, or a phone's pale red, is
#: only about a fifth darker than its stock (:data:`vision.index_pairs.INK_MIN` is a
#: quarter). Development singles (set's shape) read 98.2 % without; 98.5 % at 32, 40 and
#: 48, with one wrong read below 0.5 at 32 and at 40, none at 48. Its read is kept only
#: where it counts (CORNER_MIN): fainter ink finds a card now and then in a rendered
#: empty table's texture (one at 0.38 in eight).
FAINT_INK = 48
#: The ink (of 255) and the least share kept of the search for fainter indices beside
#: the cards read (:meth:`CardDetector._faint_beside`), run where a frame was searched
#: beside them already. Development scenes (read, counted; wrong counted): 90.2 %, 88.9 %;
#: 16 without; 90.6 %, 89.4 %; 16 with (three webcam red cards under the next of a fan:
#: 7H, 3D, QD). Kept at black reads too: 90.7 %, 89.5 %; 17 (a nine of diamonds' pale
#: suit read as a spade at 0.68); at ink 48, 90.6 %, 89.4 %; 18; at 40, 90.4 %, 89.2 %; 16
#: (48 measured with the search run wherever a card read, which at 36 and 40 read the
#: same as run only in the frames searched beside the cards).
FAINT_BESIDE_INK = 36
FAINT_BESIDE_LEAST = 0.6
#: The suits that search keeps in a frame with colour (in a grey one, every suit).
FAINT_BESIDE_SUITS = ("H", "D")
#: At most this many pairs are read in the search for fainter ink (each two reads or
#: more: an empty table's grain gives pairs by the hundred at that ink).
FAINT_PAIRS = 24
#: The fainter search is run once more at half its working size where it too read
#: nothing: a close-up's index, pale and big, is then both too faint for the first
#: searches and too big for the fainter one (its stock judged within a window narrower
#: than its glyphs). Its read is kept from this share on, above the tracker's count:
#: the faintest ink at the coarsest size pairs the most chance blobs (two development
#: singles, a spoiled one and a mislabelled one, read wrong at 0.52 and 0.54 where the
#: cards it read right were at 0.62 and 0.76; and one at 0.50).
FAINT_HALF_LEAST = 0.6
#: Where the first index search read a card that counts and no outline read (a pile or
#: a fan held close), the search is run at half size as well, for indices too big for
#: its working copy; those reads are kept from this share (development scenes: of the
#: reads it added, ten right and three wrong from 0.5; six right and none wrong from
#: 0.6).
HALF_SPARE_LEAST = 0.6
#: A card lying small: a table seen whole by a 1280-pixel camera shows a card about
#: 110-170 px tall, its rank and suit 8-17 px each, which the search's working copy
#: halves until they run together. The frame is searched once more at its full size
#: (only where it is at least ``SMALL_FROM`` times the working copy's), for glyphs up to
#: ``SMALL_GLYPH_MOST`` px long (bigger ones were found in the working copy), and those
#: reads count from ``SMALL_LEAST``. Rendered white board, cards 110-170 px (frames with
#: colour, on the board and on a dark table, ``bench/vision_white_board.py --sizes 110
#: 170``): of the reads it added, 56 right and 11 wrong from 0.5, 50 and 2 from 0.6; in
#: grey frames 86 and 28 from 0.5, 71 and 20 from 0.6 (small clubs read as diamonds at
#: 0.8), so in a grey frame nothing from it would count (``SMALL_GREY_LEAST`` over 1)
#: and it is not run. Read steady at every small shift too (as a jack is): three right
#: reads fewer, no wrong one fewer.
SMALL_FROM = 1.5
SMALL_GLYPH_MOST = 24
SMALL_LEAST = 0.6
SMALL_GREY_LEAST = 1.1
#: Nor is it run where every card counted is at least this long (pixels): the cards of
#: one table are seen at one size, give or take a slant's twofold (a small card is up to
#: about ten times its longest glyph, 240 px). On the development singles, nearly all
#: close-ups, it cost a fifth more time per photo, for no card.
SMALL_BESIDE_MOST = 480.0
#: A calibrated frame with fewer pixels than this (of its working copy) unlike the empty
#: table holds no card (:meth:`CardDetector._bare_table`). Rendered tables
#: (``bench/vision_calibrated.py``'s 60, each empty a moment after its capture): 0 such
#: pixels on every empty table; a single card 110 px tall on a white board, 1300 or
#: more; four cards, 16000 or more.
BARE_MOST = 50
#: The same for the fainter ink's search (:data:`FAINT_INK`) once cards were read by
#: their indices alone: a small card's thin red rank on a board as white as its stock
#: is too faint for the first search's ink (rendered white boards, cards 200-240 px
#: tall: 92 / 86 / 86 % counted in colour, grey and striped grey, 96 / 88 / 90 from
#: 0.6, 96 / 90 / 92 from 0.5 with two wrong reads more; no development photo's read
#: changes from 0.6).
FAINT_SPARE_LEAST = 0.6
#: A card read from a pair with a glyph split off a longer component
#: (:data:`vision.index_pairs.SPLIT_FROM`) is kept from this share, as the other added
#: searches' reads are (:data:`HALF_SPARE_LEAST`): a glyph so cut out of a line or a
#: neighbour's ink is weaker evidence than one standing alone.
SPLIT_LEAST = 0.6
#: At most this many card hypotheses are read in a close-up (:meth:`CardDetector._close_up`).
CLOSE_UP_MOST = 48


@dataclass(frozen=True)
class _Mask:
    """A mask the outlines were found in, for the searches by one corner
    (:mod:`vision.overlap`): ``scale`` its pixels per frame pixel, or with a table plane
    (``view``, at the working size) per pixel of the table view, where ``shown`` is the
    frame's outline (in the mask's pixels). In the view a card's corners are right
    angles wherever it lies; in a slanted frame they are not."""

    mask: np.ndarray
    scale: float
    view: TablePlane | None = None
    shown: np.ndarray | None = None

    def short_side(self, found: list[Detection]) -> float | None:
        """The short side of the cards read whole, in the frame's pixels or the view's."""
        quads = [d.quad for d in found if d.card]
        return card_short_side(
            quads if self.view is None else [self.view.to_table(q) for q in quads]
        )

    def corner_guesses(self, short: float | None) -> list[np.ndarray]:
        """Card outlines in frame pixels from the right-angled corners of the mask's
        blobs (:func:`vision.overlap.corner_hypotheses`), of short side ``short``
        (:meth:`short_side`), or guessed from the corners where None."""
        return self._in_frame(corner_hypotheses(self.mask, self.scale, short, self.shown))

    def close_up_guesses(self) -> list[np.ndarray]:
        """A close-up's card outlines in frame pixels
        (:func:`vision.overlap.close_up_hypotheses`)."""
        return self._in_frame(close_up_hypotheses(self.mask, self.scale, self.shown))

    def _in_frame(self, quads: Iterable[np.ndarray]) -> list[np.ndarray]:
        """``quads`` (in the frame's pixels, or the view's) in the frame's pixels."""
        return [q if self.view is None else self.view.to_frame(q) for q in quads]


def _view_masks(
    masks: list[tuple[np.ndarray, float]], view: TablePlane, frame_shape: tuple[int, ...]
) -> list[_Mask]:
    """Masks of the table view, each with the frame's outline in its pixels."""
    h, w = frame_shape[:2]
    seen = view.to_table(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
    return [_Mask(mask, scale, view, seen * scale) for mask, scale in masks]


class CardDetector:
    """Finds and reads every card in a frame. Loads the glyph model once.

    ``deck_glyphs`` (a file written by ``vision.learn_deck``) adds one deck's own glyphs.
    ``empty`` is a frame of the empty table (captured at calibration): on a light table
    it is the surest way to tell a card from the surface. ``plane`` (the table's
    homography from calibration) makes cards be found in a top-down view of the table,
    so their outlines have their true shape however oblique the camera; they are still
    read from the frame itself, which is sharper than a resampled view.
    """

    def __init__(
        self,
        model: GlyphModel | None = None,
        deck_glyphs: DeckGlyphs | str | Path | None = None,
        locate: LocateConfig | None = None,
        empty: np.ndarray | None = None,
        plane: TablePlane | None = None,
    ) -> None:
        model = model or GlyphModel.load()
        if deck_glyphs is not None and not isinstance(deck_glyphs, DeckGlyphs):
            deck_glyphs = DeckGlyphs.load(deck_glyphs)
        if deck_glyphs is not None:
            deck_glyphs.check(model.rank.w1.shape[0])
            model.deck_glyphs = deck_glyphs
        self.reader = CardReader(model)
        self.locate = locate or LocateConfig()
        self.empty = empty
        self.plane = plane
        self._empty_view: (
            tuple[TablePlane | None, np.ndarray | None, np.ndarray | None] | None
        ) = None
        #: The empty table's colour (its median) and the empty table it is of: the table
        #: view's fill beyond a slanted frame (:meth:`_view`), made once per calibration.
        self._empty_fill: tuple[np.ndarray, tuple[float, ...]] | None = None
        #: The empty table as each index search sees it (by the search's size and way
        #: up), and the empty table it was made from: made once per calibration.
        self._table_views: dict[tuple[int, bool], np.ndarray] = {}
        self._table_views_of: np.ndarray | None = None
        #: The empty table made ready as the last frame was (lowered, sharpened), what
        #: was done to it, and the empty table it was made from (:meth:`_empty_seen`).
        self._seen_empty: (
            tuple[tuple[float | None, bool], np.ndarray, np.ndarray] | None
        ) = None
        #: The empty table the frame being read is compared with: the calibration's, or
        #: made ready as the frame was (lowered, sharpened). Taken once a frame, so a
        #: calibration made while a frame is read (the dashboard's, on another thread) is
        #: used from the next one.
        self._empty_now = empty
        #: Whether the frame being read has colour (a monochrome one cannot tell red ink).
        self._colour = True
        #: Whether a card of the frame being read was read as its negative (a dark deck).
        self._dark_deck = False
        #: The frame's cards read from index pairs alone (their outline only a guess), by
        #: id: the card, the map of its card hypothesis, and whether both its corners read.
        self._by_index: dict[int, tuple[Detection, np.ndarray, bool]] = {}
        #: The frame's outlined cards read from one corner alone, by id: the card, the
        #: map of its outline, and which corner read (0 top left, 1 bottom right).
        self._one_corner: dict[int, tuple[Detection, np.ndarray, int]] = {}
        #: The frame's unread outlines whose two corners read two cards, by id: the
        #: outline's detection, the surer corner's card and its confidence.
        self._disputed: dict[int, tuple[Detection, str, float]] = {}
        #: The frame's outlines read so far (by their bytes), while a frame is read: a
        #: frame read a second time with the edge mask reads its other outlines once.
        self._reads: dict[bytes, CardRead] | None = None
        #: the frame's index-pair reads so far, by card hypothesis (:meth:`_read_pair`):
        #: the later searches of a frame where little read pair the same blobs again
        self._pair_reads: dict[bytes, tuple[CardRead, np.ndarray]] | None = None
        #: The same for outline groups (by their first outline), with reads kept from
        #: the camera's last frame.
        self._groups: dict[bytes, tuple[_GroupRead, bool]] | None = None
        #: Whether stock lies bare beside the cards read, by their outlines' bytes, while
        #: a frame is read.
        self._bare: dict[bytes, bool] | None = None
        #: The frame's masks and their outlines, while a frame is read.
        self._sources: Sources | None = None
        #: The camera's reads kept from its last frame, while a frame is read.
        self._known: KnownReads[_GroupRead] | None = None
        #: The frame being read and its copy sampled every :data:`vision.stock.COARSE` pixels
        #: (:func:`vision.stock.sampled`), made once a frame for its stock tests.
        self._sample: tuple[np.ndarray, np.ndarray] | None = None
        #: While a frame is read, the frame and its table view (:meth:`_view`), made once
        #: for the frame: the outline masks, the border lines and the dark cards all look
        #: at it (an empty list: not made yet; None: no frame being read).
        self._rectified: list[tuple[np.ndarray, np.ndarray]] | None = None
        #: How much taller than true the frame being read shows things, as its last index
        #: search measured it from the ink (:func:`frame_squash`); None: about true.
        self._squash: float | None = None
        #: Whether reading in that true shape made a weak read of the frame sure, as the
        #: same card: then the squash is the frame's, not a table's streaks.
        self._squash_shown = False

    def _candidates(
        self,
        frame_bgr: np.ndarray,
        masks: list[_Mask],
        weak: list[bool],
        edges: bool = True,
        first_only: bool = False,
    ) -> tuple[list[list[Outline]], TablePlane | None]:
        """Outline groups in frame pixels, and the working-size plane they were found in;
        ``weak`` receives which groups only the shape sources found. ``edges``: with the
        edge mask; ``first_only``: from the first paper mask alone (the frame's masks are
        made once, as far as each pass asks)."""
        small = self.plane.scaled(WORK_SIZE) if self.plane is not None else None
        if self._sources is None:
            if small is None:
                fits = kept_fits(self._known, lambda q: q) if self._known is not None else None
                self._sources = mask_sources(
                    frame_bgr, self.locate, self._empty_table, fits, first_only=first_only
                )
            else:
                # kept by the objects themselves, not their ids: a lowered empty table
                # is let go when the next one is made, and its id may come round again
                empty, kept = self._empty_table, self._empty_view
                if kept is None or kept[0] is not self.plane or kept[1] is not empty:
                    ev = self._view(small, empty) if empty is not None else None
                    self._empty_view = (self.plane, empty, ev)
                view = self._view(small, frame_bgr)
                fits = kept_fits(self._known, small.to_frame) if self._known is not None else None
                self._sources = mask_sources(
                    view, self.locate, self._empty_view[2], fits, first_only=first_only
                )
        src = self._sources
        if edges:
            add_edges(src)
        elif not first_only:
            add_masks(src)
        groups = grouped(src, weak)
        if small is None:
            masks += [_Mask(m, s) for m, s in src.masks]
            return groups, None
        masks += _view_masks(src.masks, small, frame_bgr.shape)
        return [
            [q.map(small.to_frame) if isinstance(q, Later) else small.to_frame(q) for q in g]
            for g in groups
        ], small

    def detect(
        self, frame_bgr: np.ndarray, known: KnownReads[_GroupRead] | None = None
    ) -> list[Detection]:
        """Every card in the frame. ``known``, kept by a camera from frame to frame, lets
        an outline found again over an unchanged patch of table keep its earlier read
        (:mod:`vision.known`): during play most of a frame's cards are those of the last."""
        self._known = known
        if known is not None:
            known.start(frame_bgr)
        try:
            return self._detect(frame_bgr)
        finally:
            if known is not None:
                known.finish()
            self._known = None

    def _sampled(self, frame_bgr: np.ndarray) -> np.ndarray:
        """``frame_bgr`` sampled every :data:`vision.stock.COARSE` pixels (:func:`vision.stock.sampled`), made once
        for the frame being read."""
        if self._sample is None or self._sample[0] is not frame_bgr:
            self._sample = (frame_bgr, sampled(frame_bgr))
        return self._sample[1]

    def _detect(self, frame_bgr: np.ndarray) -> list[Detection]:
        black = self._lifted(frame_bgr)
        if black is not None:
            frame_bgr = lowered(frame_bgr, black, LIFTED_BLACK)
        soft = focus_check(frame_bgr).out_of_focus
        if soft:
            frame_bgr = sharpened(frame_bgr)
        self._empty_now = self._empty_seen(black, soft)
        self._colour = not colourless(frame_bgr, self._sampled(frame_bgr))
        self._reads = {}
        self._pair_reads = {}
        self._groups = {}
        self._sources = None
        self._bare = {}
        self._rectified = []
        try:
            # most frames' cards are all outlined and read from the first paper mask
            # alone; the other colour masks are made only where it leaves something out
            # (:func:`vision.stock.bright_elsewhere`), and the edge mask (the costliest, for light
            # tables) only where they do
            first = self._detect_from(frame_bgr, edges=False, first_only=True)
            if first is not None:
                return first
            if self._bare_table():
                return []
            plain = self._detect_from(frame_bgr, edges=False)
            if plain is not None:
                return plain
            found = self._detect_from(frame_bgr, edges=True)
            assert found is not None
            return found
        finally:
            self._reads = None
            self._pair_reads = None
            self._groups = None
            self._sources = None
            self._bare = None
            self._sample = None
            self._rectified = None
            self._squash = None
            self._squash_shown = False

    @property
    def _empty_table(self) -> np.ndarray | None:
        """The empty table to compare with: while a frame is read, the one taken for it
        (:attr:`_empty_now`); between frames, the calibration's."""
        return self._empty_now if self._rectified is not None else self.empty

    def _lifted(self, frame_bgr: np.ndarray) -> float | None:
        """The frame's darkest level if it is lifted all over (:data:`LIFTED_BLACK`, up to
        :data:`LIFTED_MOST`), else None. Most frames show darker ink already in their copy sampled every eighth
        pixel, made for the stock tests anyway; only the others are measured whole."""
        sample = self._sampled(frame_bgr)
        grey = sample if sample.ndim == 2 else cv2.cvtColor(sample, cv2.COLOR_BGR2GRAY)
        if percentile(grey, 0.5) <= LIFTED_BLACK:
            return None
        black = darkest(frame_bgr)
        return black if LIFTED_BLACK < black <= LIFTED_MOST else None

    def _empty_seen(self, black: float | None, soft: bool) -> np.ndarray | None:
        """The calibrated empty table as this frame was made ready to read: its levels
        lowered as a frame whose darkest ink is ``black`` is (:data:`LIFTED_BLACK`), and
        sharpened if the frame was. The camera saw the empty table through the same haze
        and the same lens, and a frame is compared with it level for level and edge for
        edge. Kept for that ``black`` and focus, which a steady camera's frames repeat."""
        empty = self.empty
        if empty is None or (black is None and not soft):
            return empty
        kept = self._seen_empty
        if kept is None or kept[0] != (black, soft) or kept[1] is not empty:
            seen = empty if black is None else lowered(empty, black, LIFTED_BLACK)
            if soft:
                seen = sharpened(seen)
            kept = self._seen_empty = ((black, soft), empty, seen)
        return kept[2]

    def _detect_from(
        self, frame_bgr: np.ndarray, edges: bool, first_only: bool = False
    ) -> list[Detection] | None:
        self._dark_deck = False
        self._by_index = {}
        self._one_corner = {}
        self._disputed = {}
        masks: list[_Mask] = []
        weak: list[bool] = []
        groups, small = self._candidates(frame_bgr, masks, weak, edges, first_only)
        # an outline only the shape sources found that reads as nothing is most likely
        # the table (grain, a shadow's edge): reported, it would hold a zone "occupied"
        shape_only = {id(g[0]) for g, w in zip(groups, weak, strict=True) if w}
        # biggest outlines first: a smaller one lying wholly inside a card already read
        # is that card's picture frame or a pip, not another card (cards are one size)
        groups.sort(key=lambda g: -cv2.contourArea(g[0]))
        out: list[Detection] = []
        unread: list[list[Outline]] = []
        far: list[list[Outline]] = []
        long_ones: list[list[Outline]] = []
        for group in groups:
            if any(d.card and within(group[0], d.quad) for d in out):
                continue
            if elongated(group[0] if small is None else small.to_table(group[0])):
                long_ones.append(group)
                continue
            if _too_small(group, out):
                far.append(group)
                continue
            det = self._read_group(frame_bgr, group)
            if det.card is None:
                unread.append(group)
            out.append(det)
        # outlines too small beside the cards read: on a table seen at a slant (no plane
        # calibrated) a far card is that much smaller than a near one. Read last, each
        # way round, and kept only as a card counted and not read already (a chip or a
        # pip's outline that reads as nothing must not call for the index search)
        for group in far:
            if any(d.card and within(group[0], d.quad) for d in out):
                continue
            if _too_small(group, out, FAR_SHARE):
                continue
            det = self._new_card_either_way(frame_bgr, group, out)
            if det is not None:
                out.append(det)
        if not edges and not _plain(frame_bgr, out, self._empty_table, self._bare_stock):
            return None
        if first_only and bright_elsewhere(frame_bgr, out, self._sampled(frame_bgr)):
            return None
        # still unread: maybe its short side was picked wrong (an oblique view, a nearly
        # square outline), so each outline is tried turned 90° before giving up
        for group in unread:
            if any(d.card and within(group[0], d.quad) for d in out) or _too_small(group, out):
                continue
            det = self._read_group(frame_bgr, [turned(q) for q in outlines(group)])
            if det.card is not None:
                out = [d for d in out if d.quad is not group[0]] + [det]
        # kept for the index search below: an outline that read as nothing, even one
        # dropped just below as the table's (a knit cloth's folds outline cards and the
        # cloth together), calls for it if it is as bright as the cards read
        outlined = out
        out = [d for d in out if d.card or id(d.quad) not in shape_only]
        if not any(d.card for d in out):
            out += self._from_border_lines(frame_bgr, small)
        if all(cut_by_frame(d.quad, frame_bgr.shape) for d in out if d.card):
            # nothing read, or only outlines the frame cuts (a card running off it, fitted
            # as a smaller card and read at that size): maybe a close-up
            near = self._close_up(frame_bgr, masks)
            if near:
                out = [d for d in out if not d.card] + near
        spare: list[Detection] = []
        weak: list[Detection] = []  # the index search's read, short of what counts
        if not any(d.card for d in out):
            first = self._from_index_pairs(frame_bgr, out, 0.0)
            out += first[:1]
            spare = [d for d in first[1:] if d.confidence >= CORNER_MIN]
            weak = [d for d in first[:1] if d.confidence < CORNER_MIN]
            if first and not weak:
                # cards read by their indices alone, no outline: a pile or a fan held
                # close, whose other indices may be too big for the search's working copy
                spare += self._from_index_pairs(frame_bgr, out, HALF_SPARE_LEAST, SEARCH_SIZE // 2)
                # and at the fainter ink, outside the cards so read: a small card's thin
                # red rank on a white board is too faint for the first search's ink
                spare += self._from_index_pairs(
                    frame_bgr, out + spare, FAINT_SPARE_LEAST, ink=FAINT_INK, most=FAINT_PAIRS
                )
        # where nothing read, or the first search only short of what counts (a big
        # index's fragments read as a 6 at 0.27 where its whole glyphs read 5 at 0.8),
        # the search runs again; a surer read replaces the weak one, one that counts
        # ends it (twentieth round)
        retries = (
            # a close-up: its index is too big for the search's working copy (the
            # stock round a glyph is judged within a window narrower than it)
            (SEARCH_SIZE // 2, 0.0, INK_MIN, MAX_PAIRS),
            # pale ink (a red index in grey), at both sizes
            (SEARCH_SIZE, CORNER_MIN, FAINT_INK, FAINT_PAIRS),
            (SEARCH_SIZE // 2, FAINT_HALF_LEAST, FAINT_INK, FAINT_PAIRS),
        )
        for size, least, ink, most in retries:
            if any(d.card and all(d is not w for w in weak) for d in out):
                break
            unread = [d for d in out if not d.card]
            more = self._from_index_pairs(frame_bgr, unread, least, size, ink=ink, most=most)[:1]
            if more and (not weak or more[0].confidence > weak[0].confidence):
                out = unread + more
                weak = [d for d in more if d.confidence < CORNER_MIN]
        # the last resort, a dark deck: where a card read as its negative, or nothing
        # read as surely as the tracker counts
        if self._dark_deck or not any(d.card and d.confidence >= CORNER_MIN for d in out):
            out += self._dark_cards(frame_bgr, small, out)
            # a dark deck's light indices (gold, silver) on its dark stock, where its
            # cards give no outline even in the negative (lying against each other, or
            # against a keyboard, seen at a slant)
            out += self._from_index_pairs(frame_bgr, out, CORNER_MIN, negative=True)
        out = one_per_card(out, self._on_a_pile)
        searched = False
        out += self._overlapped(frame_bgr, masks, out)
        if any(d.card for d in out) and any(d.card is None for d in out):
            # an outline that reads as nothing beside cards that read: maybe cards lying
            # half covered by the next, whose visible index may still be read (a frame
            # whose outlines all read surely is not searched: the live camera's usual one)
            out += self._beside_unread(frame_bgr, out)
            searched = True
        elif out and not any(d.confidence >= CORNER_MIN for d in out if d.card):
            # nothing read as surely as the tracker counts: maybe a pile outlined as one
            out = self._pile_as_one(frame_bgr, out)
        elif (
            any(d.confidence < CORNER_MIN or misshapen(d.quad) for d in out if d.card)
            or any(id(d) in self._one_corner for d in out)
            or pale_gaps(frame_bgr, outlined, self._sampled(frame_bgr))
            or self._bare_stock(frame_bgr, out, self._empty_table)
        ):
            # the same where the unread outline was dropped as the table's, or a card read
            # only weakly (cards on a knit cloth, outlined together with its folds), or
            # from one corner alone (a pile outlined as one, read as the card whose corner
            # it has), or stock as white as the cards read lies bare beside them (cards on
            # a light table whose outlines ran into it)
            out = self._beside_sure_cards(frame_bgr, out)
            searched = True
        if searched and any(d.card for d in out):
            out += self._faint_beside(frame_bgr, out)
        if spare and any(d.card for d in out):
            out += self._spare_reads(spare, out)
        if long_ones and any(d.card for d in out):
            out += self._elongated_cards(frame_bgr, long_ones, out)
        if searched or not any(d.card and d.confidence >= CORNER_MIN for d in out):
            out += self._small_cards(frame_bgr, out)
        if self._disputed:
            out = self._settle_disputes(out)
        if small is not None and self.plane is not None:
            full = self.plane
            out = [
                replace(d, table_center=tuple(float(v) for v in full.to_table(d.quad).mean(axis=0)))
                for d in out
            ]
        return out

    def _elongated_cards(
        self, frame_bgr: np.ndarray, groups: list[list[Outline]], found: list[Detection]
    ) -> list[Detection]:
        """Outlines longer than a card seen square on (``vision.locate.ELONGATED``), read
        once every other search has had its say: on a table seen at a slant with no plane, a far
        card lying across the view is squashed that long; in a fan, the strip a card
        shows between its neighbours is too, and read first it took their places. So
        each is read (either way round) only where no card was found, and kept only as
        a card counted and not read already."""
        out: list[Detection] = []
        for group in groups:
            if any(overlapping(group[0], d.quad) for d in [*found, *out]):
                continue
            det = self._new_card_either_way(frame_bgr, group, [*found, *out])
            if det is not None:
                out.append(det)
        return out

    def _new_card_either_way(
        self, frame_bgr: np.ndarray, group: list[Outline], found: list[Detection]
    ) -> Detection | None:
        """The group read as it is or turned 90°, if that is a card counted (0.5 or more)
        and none of ``found``: an outline read on a hunch (a far card's, an elongated
        one), which must not bring in an unread outline or a second read of a card."""
        det = self._read_group(frame_bgr, group)
        if det.card is None:
            det = self._read_group(frame_bgr, [turned(q) for q in outlines(group)])
        if det.card is None or det.confidence < CORNER_MIN:
            return None
        return det if all(d.card != det.card for d in found) else None

    def _small_cards(self, frame_bgr: np.ndarray, found: list[Detection]) -> list[Detection]:
        """Cards lying small (:data:`SMALL_GLYPH_MOST`) found by their indices in the frame
        at its full size, outside the cards read, in a frame with colour whose index
        search has run. In the search's working copy such a card's rank and suit are a
        few pixels each and run together into one blob, which pairs with nothing.
        Counted only from :data:`SMALL_LEAST`, and only where colour tells red ink from
        black (:data:`SMALL_GREY_LEAST`): at that size a suit is a few pixels, and its
        shape alone is a poor witness."""
        full = max(frame_bgr.shape[:2])
        least = SMALL_LEAST if self._colour else SMALL_GREY_LEAST
        if least > 1.0 or full < SMALL_FROM * SEARCH_SIZE:
            return []
        counted = [d.quad for d in found if d.card and d.confidence >= CORNER_MIN]
        if counted and min(float(side_lengths(q).max()) for q in counted) >= SMALL_BESIDE_MOST:
            return []  # the cards in view are big: none lies small beside them
        return self._from_index_pairs(frame_bgr, found, least, full, longest=SMALL_GLYPH_MOST)

    def _faint_beside(self, frame_bgr: np.ndarray, found: list[Detection]) -> list[Detection]:
        """Red cards found by an index paler than the search's ink (:data:`FAINT_BESIDE_INK`)
        outside the cards read, in a frame already searched beside them (cards half
        covered, or bare stock): a webcam's red index under the next card of a fan can be
        paler than the search's ink (its grey close to the stock's). In a frame with
        colour only red reads are kept: black ink is printed dark, and pale "black" ink
        is grain, or a red index's pale suit read as a black one."""
        faint = self._from_index_pairs(
            frame_bgr, found, FAINT_BESIDE_LEAST, ink=FAINT_BESIDE_INK, most=FAINT_PAIRS
        )
        return [d for d in faint if not self._colour or (d.card or "-")[-1] in FAINT_BESIDE_SUITS]

    def _settle_disputes(self, found: list[Detection]) -> list[Detection]:
        """``found`` with each outline whose corners read two cards (read straight or
        turned, in either pass) given the surer corner's card
        (:func:`vision.reader.surer_corner`), surest first, once every other search has
        had its say: unless that card is read elsewhere in the frame, or a card read lies
        in the outline (a pile outlined as one, its cards read one by one). It replaces
        the unread outlines of that card, if any are left."""
        out = list(found)
        seen = {d.card for d in out if d.card}
        for unread, card, confidence in sorted(self._disputed.values(), key=lambda v: -v[2]):
            if card in seen or any(k.card and centre_inside(k, unread.quad) for k in out):
                continue
            out = [d for d in out if d.card or not one_spot(d, unread)]
            out.append(Detection(unread.quad, card, confidence))
            seen.add(card)
        return out

    def _from_border_lines(
        self, frame_bgr: np.ndarray, small: TablePlane | None
    ) -> list[Detection]:
        """Cards outlined by their border lines alone, each read both ways round; only
        those that read are kept (a line pair can also frame a stretch of table)."""
        if small is None:
            quads = border_quads(frame_bgr, self.locate)
        else:
            view = self._view(small, frame_bgr)
            quads = [small.to_frame(q) for q in border_quads(view, self.locate)]
        out = []
        for q in quads:
            det = self._read_group(frame_bgr, [q, turned(q)])
            if det.card is not None:
                out.append(det)
        return out

    def _dark_cards(
        self, frame_bgr: np.ndarray, small: TablePlane | None, found: list[Detection]
    ) -> list[Detection]:
        """Dark cards on a lighter table (:func:`vision.locate.dark_quads`), outside the
        cards already read; each read both ways round, and kept only if it reads as
        surely as the tracker counts (a dark blob read at 0.1 is a keyboard or a
        shadow, and it would hide the ink beside it from the corner-index search)."""
        if small is None:
            quads, mask, scale = dark_quads_and_mask(frame_bgr, self.locate)
            masks = [_Mask(mask, scale)]
        else:
            quads, mask, scale = dark_quads_and_mask(self._view(small, frame_bgr), self.locate)
            quads = [small.to_frame(q) for q in quads]
            masks = _view_masks([(mask, scale)], small, frame_bgr.shape)
        quads.sort(key=lambda q: -cv2.contourArea(q))
        out: list[Detection] = []
        for q in quads:
            done = [d for d in [*found, *out] if d.card]
            centre = tuple(float(v) for v in q.mean(axis=0))
            if any(holds(d.quad, centre, 0.0) for d in done) or _too_small([q], done):
                continue
            det = self._read_group(frame_bgr, [q, turned(q)])
            if det.card is not None and det.confidence >= CORNER_MIN:
                out.append(det)
        if not any(d.card for d in [*found, *out]):
            # a close-up of a dark card: its corner in the negative (light stock's
            # close-ups are looked for before any dark card)
            out += self._close_up(frame_bgr, masks)
        out += self._dark_corners(frame_bgr, masks[0], [*found, *out])
        return out

    def _dark_corners(
        self, frame_bgr: np.ndarray, mask: _Mask, found: list[Detection]
    ) -> list[Detection]:
        """Dark cards touching one another (one blob in the negative, no card's shape):
        each right-angled corner of the blob, sized by its own sides, read from its
        index alone (:mod:`vision.overlap`); kept from the tracker's 0.5."""
        return self._corner_reads(frame_bgr, mask.corner_guesses(mask.short_side(found)), found)

    def _corner_reads(
        self,
        frame_bgr: np.ndarray,
        hypotheses: Iterable[np.ndarray],
        found: list[Detection],
        keep: Callable[[np.ndarray], bool] = lambda q: True,
    ) -> list[Detection]:
        """The cards that corner hypotheses (:mod:`vision.overlap`) read as, from their
        index alone: a hypothesis at a corner of a card already read is skipped, and of
        the rest those ``keep`` passes are read, at most ``MAX_HYPOTHESES``; a read counts
        from the tracker's 0.5, each card once (one deck: a card already in view is not
        seen twice in one frame). Each card so read was read from one corner: its outline
        is a whole card's guess, lying over whatever covers the rest of it (a fan's bottom
        card under the others), so it hides only that corner's index (twenty-ninth round;
        its whole outline hid the fan's other indices)."""
        whole = [d for d in found if d.card]
        seen = {d.card for d in whole}
        out: list[Detection] = []
        # each card read so far, grown as holds grows it: grown once, not per hypothesis
        held = [grown(d.quad) for d in whole]
        tried = 0
        for q in hypotheses:
            if tried >= MAX_HYPOTHESES:
                break
            corner = (float(q[0][0]), float(q[0][1]))
            if any(cv2.pointPolygonTest(g, corner, False) >= 0 for g in held) or not keep(q):
                continue  # a corner of a card already read
            tried += 1
            m = card_map(q, CARD_SIZE)
            res = self.reader.read_corner(_corners_of(frame_bgr, m), self._colour)
            if res.card is not None and res.card not in seen and res.confidence >= CORNER_MIN:
                seen.add(res.card)
                det = Detection(q, res.card, res.confidence)
                self._one_corner[id(det)] = (det, m, 0)
                out.append(det)
                held.append(grown(q))
        return out

    def _from_index_pairs(
        self,
        frame_bgr: np.ndarray,
        found: list[Detection],
        least: float,
        size: int = SEARCH_SIZE,
        negative: bool = False,
        ink: int = INK_MIN,
        most: int = MAX_PAIRS,
        longest: int = GLYPH_MAX,
    ) -> list[Detection]:
        """Cards found by a corner index alone (:mod:`vision.index_pairs`) outside the
        cards already read: the best read of each pair of blobs (either way up), each
        blob and each card used once, surest first; never "sure". ``negative``: the
        blobs are looked for in the frame's negative (a dark deck's light ink; the reader
        tells dark stock itself). ``longest``: the longest glyph looked for, in the
        working copy's pixels.

        Only a card read as surely as the tracker counts hides the ink inside it. An
        outline read more weakly is often not one card: a fan's cards outlined together
        and read as none of them (an ace of diamonds at 0.19 over a row of hearts, whose
        indices the search reads at 0.7), and its card may be found again here."""
        whole = [d for d in found if d.card and d.confidence >= CORNER_MIN]
        seen = {d.card for d in whole}
        seek = cv2.bitwise_not(frame_bgr) if negative else frame_bgr
        blobs, scale = ink_blobs(
            seek,
            on_stock=any(d.card for d in found) and not negative,
            size=size,
            least=ink,
            table=self._table_view(frame_bgr.shape, size, negative),
            longest=longest,
        )
        self._squash = frame_squash(blobs)
        # ink on a card already read is its index, its pips or its picture
        blobs = [
            b
            for b in blobs
            if not any(self._covers(d, (b.cx / scale, b.cy / scale)) for d in whole)
        ]
        if len(blobs) < 2:
            return []
        reads: list[_PairRead] = []
        for a, b in pairs_to_read(index_pairs(blobs), most):
            best = None
            # either blob the rank, and each "10" the rank may be half of (its other
            # half then used up with the pair), taken only where it reads as a ten
            tries = [(a, b, (a, b)), (b, a, (a, b))]
            tries += [(t, b, (a, b, o)) for t, o in ten_ranks(a, b, blobs)]
            tries += [(t, a, (a, b, o)) for t, o in ten_ranks(b, a, blobs)]
            for rank, suit, used in tries:
                res, m = self._read_pair(frame_bgr, card_from_pair(rank, suit, scale))
                joined = rank is not a and rank is not b
                if joined and res.card is not None and res.card[0] != "T":
                    continue  # two blobs joined that are no ten: a rank and a pip beside it
                if res.card is not None and (best is None or res.confidence > best.confidence):
                    corner = res.corners[0].confidence if res.corners[0] else res.confidence
                    best = _PairRead(res.confidence, res.card, m, rank, corner, used)
            if best is None:
                continue
            if best.card[0] == "J" and best.confidence >= CORNER_MIN:
                if not self._steady(frame_bgr, best):
                    best = replace(best, confidence=min(best.confidence, UNSTEADY_JACK))
            elif STEADY_FROM <= best.confidence < CORNER_MIN and self._steady(frame_bgr, best):
                best = replace(best, confidence=CORNER_MIN)
            card, confidence = self._by_first_pips(frame_bgr, best.card, best.confidence, best.m)
            reads.append(replace(best, card=card, confidence=confidence))
        reads = _both_corners(reads, scale) + self._whole_cards(frame_bgr, reads, scale)
        out: list[Detection] = []
        used: set[int] = set()
        for r in sorted(reads, key=lambda r: -r.confidence):
            if r.confidence < least:
                break
            if r.confidence < SPLIT_LEAST and any(b.split for b in r.blobs):
                continue
            ids = {id(b) for b in r.blobs}
            if r.card in seen or ids & used:
                continue
            seen.add(r.card)
            used |= ids
            det = Detection(outline(r.m, CARD_SIZE), r.card, min(r.confidence, INDEX_MOST))
            self._by_index[id(det)] = (det, r.m, len(r.blobs) > 2)
            out.append(det)
        return out

    def _whole_cards(
        self, frame_bgr: np.ndarray, reads: list[_PairRead], scale: float
    ) -> list[_PairRead]:
        """Cards whose two opposite indices were both read (as anything: a webcam's soft
        index reads weakly, or as another rank), read whole: the two indices fix the
        card's length and width, so its face is rectified as an outlined card's is and
        read with both corners and its pips (a soft spade read as a club from its small
        index shows big spade pips). Never surer than a card read from its index
        (:data:`INDEX_MOST`, as the caller caps it).

        The whole read is kept only as the surer corner's card, or as another suit of a
        rank both corners read: a third card named is no card's (a six whose other
        corner read as a queen was read whole as the queen). It keeps the surer corner's
        outline, as two agreeing corners do: the stretched one, a truer outline, changed
        what the later searches of the frame found and lost as many cards as it gave
        (fourteenth round)."""
        out = []
        for i, a in enumerate(reads):
            for b in reads[i + 1 :]:
                if {id(x) for x in a.blobs} & {id(x) for x in b.blobs}:
                    continue
                if not (_opposite(a, b, scale) and _opposite(b, a, scale)):
                    continue
                first = a if a.corner >= b.corner else b
                other = b if first is a else a
                m = _stretched_to(first.m, other.rank, scale)
                res = self.reader.read(
                    warp_perspective(frame_bgr, m, CARD_SIZE, cv2.BORDER_REPLICATE), self._colour
                )
                if res.card is not None and (
                    res.card == first.card or res.card[:-1] == a.card[:-1] == b.card[:-1]
                ):
                    out.append(
                        _PairRead(
                            res.confidence,
                            res.card,
                            first.m,
                            first.rank,
                            res.confidence,
                            a.blobs + b.blobs,
                        )
                    )
        return out

    def read_index(
        self, frame_bgr: np.ndarray, rank: InkBlob, suit: InkBlob, scale: float
    ) -> CardRead:
        """The card an index pair reads as, as the frame's index search reads it: the card
        that would put ``rank`` and ``suit`` (:func:`vision.index_pairs.ink_blobs`, found at
        ``scale``) at its top-left corner, read from that corner. For a tool that knows
        where an index lies (``bench/vision_index_reads.py``): it tells reading from
        finding."""
        self._colour = not colourless(frame_bgr)
        self._squash = None  # (no search measured this frame's squash)
        return self._read_pair(frame_bgr, card_from_pair(rank, suit, scale))[0]

    def pair_glyphs(
        self, frame_bgr: np.ndarray, rank: InkBlob, suit: InkBlob, scale: float
    ) -> IndexGlyphs | None:
        """The index glyphs :meth:`read_index` first reads for the same pair (its card
        hypothesis as it stands, the stock made light), or None where that corner holds
        no index. For a tool that cuts real glyphs out of labelled photos
        (``bench/real_suits.py``): what the model is shown, not a picture of it."""
        m = card_from_pair(rank, suit, scale)
        card, _ = light_stock(_corners_of(frame_bgr, m), _far_corner_off(m, frame_bgr.shape))
        return find_index(corners(card)[0])

    def _read_pair(self, frame_bgr: np.ndarray, m: np.ndarray) -> tuple[CardRead, np.ndarray]:
        """The read of an index pair's card hypothesis ``m``, and the map read. Where it
        reads as a card, but not as surely as the tracker counts, the hypothesis is also
        read squeezed and stretched across (:data:`STRETCHES`), and the surest read taken,
        one found so discounted (:data:`STRETCH_DISCOUNT`): a pair gives the card's scale
        down it, not across it, and a camera at a slant (or a photo stretched) shows a
        card narrower or wider than its height says; glyphs read at the wrong width read
        weakly or wrong. (Where it reads as nothing, the pair is most likely no index: a
        table's grain read at other widths gives a card now and then.)

        Before those, in a frame the index search found squashed or stretched (its ink
        taller or wider than true, :func:`frame_squash`), a weak read is read again as
        the card would lie in the frame's true shape (:func:`vision.index_pairs.unsquashed`):
        a card turned in such a frame is sheared as well as narrowed, which no stretch
        across it mends (twenty-ninth round). A pair that reads as nothing is read so only
        once a weak read of the frame, read so, became sure as the same card: a table's
        streaks all one way (crumbs, a grain) measure as a squash too, and their pairs
        read so give a card now and then."""
        key = m.tobytes() + repr((self._squash, self._squash_shown)).encode()
        if self._pair_reads is not None and key in self._pair_reads:
            return self._pair_reads[key]
        best = self._read_pair_afresh(frame_bgr, m)
        if self._pair_reads is not None:
            self._pair_reads[key] = best
        return best

    def _read_pair_afresh(
        self, frame_bgr: np.ndarray, m: np.ndarray
    ) -> tuple[CardRead, np.ndarray]:
        """:meth:`_read_pair`, not kept from earlier in the frame. Where the card's
        other index corner lies off the frame its stock is judged on the corner read
        alone: the warp repeats the frame's edge there, which a dark picture or cloth
        running off it makes a light card's "dark stock" (twentieth round)."""
        first_only = _far_corner_off(m, frame_bgr.shape)
        best = self.reader.read_corner(_corners_of(frame_bgr, m), self._colour, first_only), m
        weak = best[0].card is not None and best[0].confidence < CORNER_MIN
        blank = best[0].card is None and self._squash_shown
        if self._squash is not None and (weak or blank):
            mt = unsquashed(m, self._squash)
            res = self.reader.read_corner(_corners_of(frame_bgr, mt), self._colour, first_only)
            if res.card is not None and res.confidence > best[0].confidence:
                if res.card == best[0].card and res.confidence >= CORNER_MIN:
                    self._squash_shown = True
                best = res, mt
        if best[0].card is None or best[0].confidence >= CORNER_MIN:
            return best
        for f in STRETCHES:
            across = np.array([[f, 0.0, RANK_AT[0] * (1 - f)], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
            mf = across @ m
            res = self.reader.read_corner(_corners_of(frame_bgr, mf), self._colour, first_only)
            res = replace(res, confidence=res.confidence * STRETCH_DISCOUNT)
            if res.card is not None and res.confidence > best[0].confidence:
                best = res, mf
        return best

    def _by_first_pips(
        self, frame_bgr: np.ndarray, card: str, confidence: float, m: np.ndarray
    ) -> tuple[str, float]:
        """A one-corner read (``card`` at ``confidence``, its card hypothesis's map ``m``)
        checked against the first pips beside its index (spot cards; a dark deck's
        by :func:`_by_dark_pips`, a light card in shadow not at all). Where they are at
        least :data:`PIPS_OVERRULE` sure of the other
        black suit, it takes that suit (a webcam's soft club, which the index's few
        pixels give as a spade), never surer than it was nor than :data:`CORNER_MIN`.
        Where a read short of the tracker's 0.5 but from :data:`PIPS_LIFT_FROM` finds
        them :data:`PIPS_AGREE` sure of its own suit, it counts, at :data:`CORNER_MIN`.
        A black court card on light stock is checked the same way against the suit sign
        its picture shows there (:data:`COURT_RANKS`), and only turned: a picture's
        ornament is no pip to lift a weak read by."""
        rank, suit = card[0], card[1]
        court = rank in COURT_RANKS
        lift = PIPS_LIFT_FROM <= confidence < CORNER_MIN and not court
        if rank not in SPOT_RANKS and not (court and suit in BLACK_SUITS):
            return card, confidence
        x0, y0, x1, y1 = FIRST_PIPS_WINDOW
        window = warp_windows(frame_bgr, m, CARD_SIZE, [FIRST_PIPS_WINDOW], cv2.BORDER_REPLICATE)[
            y0:y1, x0:x1
        ]
        if percentile(cv2.cvtColor(window, cv2.COLOR_BGR2GRAY), 50) < DARK_GREY_STOCK:
            if dark_stock([window]) and not court:
                return _by_dark_pips(first_pips_on_dark(window, self.reader.model), card, confidence)
            return card, confidence  # a light card in shadow: its ink is not told from it
        if not (suit in BLACK_SUITS or lift):
            return card, confidence
        pips = first_pips(window, self.reader.model)
        if pips is None:
            return card, confidence
        black = float(sum(pips.shape[SUITS.index(s)] for s in BLACK_SUITS))
        if suit in BLACK_SUITS:
            if pips.black is None or black < 0.5:
                return card, confidence  # the pips beside it are red: someone else's
            other = BLACK_SUITS[1 - BLACK_SUITS.index(suit)]
            if pips.black[BLACK_SUITS.index(other)] >= PIPS_OVERRULE:
                return rank + other, min(confidence, CORNER_MIN)
            agree = float(pips.black[BLACK_SUITS.index(suit)])
        else:
            agree = float(pips.shape[SUITS.index(suit)])
        if lift and agree >= PIPS_AGREE:
            return card, CORNER_MIN
        return card, confidence

    def _bare_table(self) -> bool:
        """Whether the frame being read shows the empty table captured at calibration
        and nothing else: under :data:`BARE_MOST` pixels of its working copy differ from
        it (the frame's own difference mask, :func:`vision.locate.difference_mask`,
        which divides out a change of brightness, and is made once for the frame). A
        card, even one as white as the table and lying small, differs by its ink at
        least; a frame with nothing to find went through every search, the costliest
        frame of all, and now and then read the table's grain as a card."""
        src = self._sources
        if src is None or src.difference is None:
            return False
        return cv2.countNonZero(src.difference()) < BARE_MOST

    def _view(self, small: TablePlane, img: np.ndarray) -> np.ndarray:
        """``img`` (the frame, or the empty table) rectified by ``small``, the view beyond
        the frame filled plain with the table's colour: the empty table's median, or
        uncalibrated the frame's. A camera at a slant sees a trapezoid of table and the
        view's corners reach past it: drawn out, the frame's edge made streaks there, and
        a card at the edge ran on as a white band to the view's edge, outlined with its
        neighbours as one (real photos seen at 45°, bench/vision_tilted_photos.py). The
        frame and the empty table are filled alike, so the fill is no difference."""
        kept = self._rectified
        if kept and kept[0][0] is img:
            return kept[0][1]
        empty = self._empty_table
        if empty is None or empty.shape != img.shape:
            view = small.rectify(img, _median_colour(self._sampled(img)))
        else:
            if self._empty_fill is None or self._empty_fill[0] is not empty:
                self._empty_fill = (empty, _median_colour(sampled(empty)))
            view = small.rectify(img, self._empty_fill[1])
        if kept is not None and img is not empty:
            kept[:] = [(img, view)]
        return view

    def _table_view(self, shape: tuple[int, ...], size: int, negative: bool) -> np.ndarray | None:
        """The empty table as an index search of a frame of ``shape`` at ``size`` sees it
        (:func:`vision.index_pairs.table_grey`), or None uncalibrated (or where the empty
        table is another size than the frame). Where a frame shows it, its blobs are the
        table's own: on a grained cloth they were most of an empty frame's cost (a hand
        moving over the table), and now and then read as a card."""
        empty = self._empty_table
        if empty is None or empty.shape != shape:
            return None
        if self._table_views_of is not empty:
            self._table_views, self._table_views_of = {}, empty
        key = (size, negative)
        if key not in self._table_views:
            self._table_views[key] = table_grey(
                cv2.bitwise_not(empty) if negative else empty, size
            )
        return self._table_views[key]

    def _steady(self, frame_bgr: np.ndarray, read: _PairRead) -> bool:
        """Whether ``read`` reads the same card at every one of :data:`SHIFTS`."""
        for shift in SHIFTS:
            res = self.reader.read_corner(_corners_of(frame_bgr, shift @ read.m), self._colour)
            if res.card != read.card:
                return False
        return True

    def found_by_index(self, d: Detection) -> bool:
        """Whether ``d`` (of the frame last detected) was found by one corner index alone:
        only that corner is surely on the card; its outline is a guess."""
        return id(d) in self._by_index

    def _covers(self, d: Detection, point: tuple[float, float]) -> bool:
        """Whether the card ``d`` hides ``point``: inside its outline, or, for a card read
        from index pairs alone (whose outline is only a guess from the index's size and
        slant), near the indices read: in a fan, the guessed outline lies over the next
        cards' indices. An outlined card read from one corner alone hides only that
        corner's index: its outline may be a pile's, or a fan's run together on a knit
        cloth, and the other cards' indices lie inside it (fourteenth round)."""
        lone = self._one_corner.get(id(d))
        if lone is not None and lone[0] is d:
            return _in_index_corner(lone[1], point, lone[2])
        entry = self._by_index.get(id(d))
        if entry is None or entry[0] is not d:
            return holds(d.quad, point, 0.0)
        _, m, both = entry
        x, y, w = m @ np.array([point[0], point[1], 1.0])
        x, y = x / w, y / w
        rx, ry = INDEX_REACH
        if 0 <= x <= rx and 0 <= y <= ry:
            return True
        width, height = CARD_SIZE
        return both and width - rx <= x <= width and height - ry <= y <= height

    def _spare_reads(self, spare: list[Detection], found: list[Detection]) -> list[Detection]:
        """The first index search's other reads (:meth:`detect`) that count, and those of
        its run at half size (:data:`HALF_SPARE_LEAST`), each kept if its card is not
        read already and no card read since hides it (:meth:`_hides`: its index would be
        that card's own ink, an index, its picture or pips).

        Where nothing was outlined, that search looks at all the frame's ink and keeps only
        its best read (a single card's photo holds one card; the rest there is its picture
        or the table). Once that read has let the frame's other cards be found, the later
        search looks only on stock as bright as theirs, so a card in the shade (the near
        edge of a table, under a hand) was found by the first search alone."""
        seen = {d.card for d in found if d.card}
        whole = [d for d in found if d.card]
        out = []
        for d in spare:
            at = self._index_point(d)
            if d.card in seen or any(
                self._hides(o, at, d.center, d.card) for o in whole if o is not d
            ):
                continue
            seen.add(d.card)
            out.append(d)
        return out

    def _hides(
        self, d: Detection, index: tuple[float, float], middle: tuple[float, float], card: str
    ) -> bool:
        """Whether the card ``d`` hides ``card``, read from its index at ``index``.

        A card read from index pairs hides it if its own index (either, if read at both
        corners) lies there, within a glyph's spacing: the same ink read twice. An
        outlined card hides it only lying over both that index and the card's ``middle``:
        an outlined card may lie under the index (in a fan, the card on top shows its
        index over the next one's outline); and never where the index is of a colour no
        mark of that card has (:func:`_other_ink`: a red index over a spot card of
        spades lies on top of it, a pile's outline taking in both)."""
        entry = self._by_index.get(id(d))
        if entry is None or entry[0] is not d:
            if self._colour and _other_ink(d.card, card):
                return False
            return self._covers(d, index) and self._covers(d, middle)
        _, m, both = entry
        x, y, w = m @ np.array([index[0], index[1], 1.0])
        width, height = CARD_SIZE
        ranks = [RANK_AT, (width - RANK_AT[0], height - RANK_AT[1])][: 2 if both else 1]
        return any(np.hypot(x / w - rx, y / w - ry) < RANK_TO_SUIT for rx, ry in ranks)

    def _read_twice(self, card: Detection, pair: Detection) -> bool:
        """Whether ``pair`` (a card found by an index pair) is ``card``'s other index
        read again: ``card`` was read from one corner of its outline, ``pair``'s index
        lies in its other index corner, give or take :data:`REREAD_SLACK` (the outline of
        a card so read may be off: glare, a pile; until the twenty-ninth round anywhere
        in its other half or past it, where a fan's next index lies), and the index read
        from lies towards where ``pair``'s card would have its far index (one card, two
        reads). Not where the two are of the two colours in a
        frame in colour: a card's two indices are printed in one ink, so that index is
        another card's, lying under the outline's far corner (a fan outlined with the
        card below it)."""
        lone = self._one_corner.get(id(card))
        entry = self._by_index.get(id(pair))
        if lone is None or entry is None:
            return False
        if self._colour and _two_colours(card.card, pair.card):
            return False
        _, m, corner = lone
        if not _in_index_corner(m, self._index_point(pair), 1 - corner, REREAD_SLACK):
            return False  # not the outline's other index corner: the next card of a fan
        a, b, c = entry[1] @ np.array([*_rank_point(m, corner), 1.0])
        # past both of the pair's card's middles, towards its far corner (the pair gives
        # the card's size from one index only, so not its far index corner exactly)
        width, height = CARD_SIZE
        return width / 2 < a / c < 1.5 * width and height / 2 < b / c < 1.5 * height

    def _doubted(self, card: Detection) -> Detection:
        """``card``, read from one corner, no surer than :data:`READ_TWICE_MOST`: its
        other index, read alone, said another card at least as surely."""
        out = replace(card, confidence=min(card.confidence, READ_TWICE_MOST))
        if id(card) in self._one_corner:
            self._one_corner[id(out)] = self._one_corner[id(card)]
        return out

    def _index_point(self, d: Detection) -> tuple[float, float]:
        """Where the rank of a card read from index pairs alone lies, in frame pixels."""
        return _rank_point(self._by_index[id(d)][1], 0)

    def _on_a_pile(self, a: Detection, b: Detection) -> bool:
        """Whether one of ``a`` and ``b`` is an outline read from one corner alone, the
        other a card found by its index pair that counts, read as another card, whose
        index is in neither of the outline's index corners (nor the outline's read index
        in its own). Such an outline may be a pile's (as :meth:`_covers` holds), and the
        card on top of the pile, found by its own index, is the one just played: a dark
        deck's three of diamonds lying on the three of hearts, the pile outlined as one
        and read from the heart's corner, held the other's centre and was dropped
        (thirty-ninth round)."""
        for card, pile in ((a, b), (b, a)):
            lone = self._one_corner.get(id(pile))
            pair = self._by_index.get(id(card))
            if lone is None or lone[0] is not pile or pair is None or pair[0] is not card:
                continue
            if card.card in (None, pile.card) or card.confidence < CORNER_MIN:
                continue
            index = self._index_point(card)
            if any(_in_index_corner(lone[1], index, corner) for corner in (0, 1)):
                continue  # the pile's own index read again, or its other one
            if not _in_index_corner(pair[1], _rank_point(lone[1], lone[2]), 0):
                return True
        return False

    def _beside_unread(self, frame_bgr: np.ndarray, found: list[Detection]) -> list[Detection]:
        """The cards found by their corner indices beside an outline that reads as
        nothing, outside the cards read as surely as the tracker counts (inside an
        outline read weakly too: a fan outlined as one). One found in a weak outline's own
        index corner, read otherwise, and alone in it is that outline's index read a
        second way (:meth:`_doubted_by`): no surer than the outline (a close-up six of
        diamonds read 6D at 0.39 whole, its index alone as the ten at 0.6)."""
        pairs = self._from_index_pairs(frame_bgr, found, CORNER_MIN)
        return [self._doubted_by(p, found, pairs) for p in pairs]

    def _pile_as_one(self, frame_bgr: np.ndarray, found: list[Detection]) -> list[Detection]:
        """The cards of a pile outlined as one card, found by their corner indices.

        A webcam's soft fan on a pale table is one blob of stock: its outline reads, if
        at all, weakly and as no card of the pile. Where no outline read as surely as
        the tracker counts, the indices inside the outlines are searched too (as
        :meth:`_from_index_pairs` searches them beside cards that read); an outline
        that holds a card so found is the pile, and is dropped."""
        pairs = self._from_index_pairs(frame_bgr, [], CORNER_MIN)
        pairs = [self._doubted_by(p, found, pairs) for p in pairs]
        if not pairs:
            return found
        kept = [d for d in found if not any(holds(d.quad, p.center, 0.0) for p in pairs)]
        return kept + pairs

    def _doubted_by(
        self, pair: Detection, found: list[Detection], pairs: list[Detection]
    ) -> Detection:
        """``pair`` no surer than an outline read as another card whose own index
        corner holds ``pair``'s index, where that is the only card found in it: one
        index read two ways (a blurred flat-topped 3 read as a 5 alone, as a 3 where
        the outline's pips had their say). An outline holding several is a pile, whose
        weak read is its top card's or none."""
        at = self._index_point(pair)
        for d in found:
            if not d.card or d.card == pair.card or d.confidence >= pair.confidence:
                continue
            if sum(holds(d.quad, p.center, 0.0) for p in pairs) > 1:
                continue
            m = card_map(d.quad, CARD_SIZE)
            if any(_in_index_corner(m, at, k, REREAD_SLACK) for k in (0, 1)):
                doubted = replace(pair, confidence=d.confidence)
                self._by_index[id(doubted)] = self._by_index[id(pair)]
                return doubted
        return pair

    def _beside_sure_cards(self, frame_bgr: np.ndarray, found: list[Detection]) -> list[Detection]:
        """The corner indices outside the cards read surely, searched as in
        :meth:`_pile_as_one`: a weak read (a knit cloth's fold outlined with half a card)
        hides no index, and one that holds a card so found, or reads as one, is dropped.

        A misshapen outline (:func:`vision.quads.misshapen`) hides no index either, though it may
        read surely (its corner is a card's, the rest a pile's): it is kept unless a
        card found so reads as it."""
        sure = [
            d for d in found if d.card and d.confidence >= CORNER_MIN and not misshapen(d.quad)
        ]
        pairs = self._from_index_pairs(frame_bgr, sure, CORNER_MIN)
        # a card read from one corner whose other index was read again as another card:
        # the surer read stands where it is the card's (a ten under glare, its "1"
        # washed out, read as a queen less surely); where the index alone is at least
        # as sure, the two disagree and the card waits for a better frame (a blurred
        # six read from one end at 0.6, its other index alone as a queen at 0.66)
        twice = [(d, p) for d in sure for p in pairs if self._read_twice(d, p)]
        doubted = {
            id(d): self._doubted(d)
            for d, p in twice
            if p.card != d.card and p.confidence >= d.confidence
        }
        if doubted:
            found = [doubted.get(id(d), d) for d in found]
            sure = [doubted.get(id(d), d) for d in sure]
        reread = {id(p) for _, p in twice}
        pairs = [p for p in pairs if id(p) not in reread]
        if not pairs:
            return found
        cards = {p.card for p in pairs}

        def keep(d: Detection) -> bool:
            if any(d is s for s in sure):
                return True
            if d.card in cards:
                return False
            if d.card and d.confidence >= CORNER_MIN:
                return True  # misshapen, read surely
            return not any(holds(d.quad, p.center, 0.0) for p in pairs)

        return [d for d in found if keep(d)] + pairs

    def _overlapped(
        self, frame_bgr: np.ndarray, masks: list[_Mask], found: list[Detection]
    ) -> list[Detection]:
        """Cards on top of a pile, or cut by the frame's edge, read from one visible
        corner (:mod:`vision.overlap`; a corner sized by its sides the frame does not cut,
        a rounded corner squared)."""
        gray = cv2.cvtColor(self._sampled(frame_bgr), cv2.COLOR_BGR2GRAY)  # every 8th pixel
        paper = percentile(gray, 60)

        def light(q: np.ndarray) -> bool:
            """Not darker than most of the frame there (that "card" would be table)."""
            x, y = (q[0] + 0.2 * (q[2] - q[0])).astype(int) // 8
            return 0 <= y < gray.shape[0] and 0 <= x < gray.shape[1] and gray[y, x] >= paper

        # (a frame's masks are all of the frame, or all of one view: one size for all)
        short = masks[0].short_side(found) if masks else None
        hypotheses = chain.from_iterable(m.corner_guesses(short) for m in masks)
        return self._corner_reads(frame_bgr, hypotheses, found, light)

    def _close_up(self, frame_bgr: np.ndarray, masks: list[_Mask]) -> list[Detection]:
        """The card of a close-up (:func:`vision.overlap.close_up_hypotheses`): its sides
        run off the frame, so no outline reads, but the corner it shows with its two
        sides, and the index in it, do. Each corner is read at several sizes (at most
        :data:`CLOSE_UP_MOST` reads) and the surest read kept, if it counts: one card,
        found by one corner, never "sure". Read before any index is searched for alone:
        a close-up of a court card shows the ornaments of its picture big, and they read
        as an index now and then (a king's robe as a jack of diamonds)."""
        best: tuple[float, str, np.ndarray, np.ndarray] | None = None
        hypotheses = chain.from_iterable(m.close_up_guesses() for m in masks)
        for q in islice(hypotheses, CLOSE_UP_MOST):
            m = card_map(q, CARD_SIZE)
            # its other corner lies off the frame: the stock is judged on this one
            res = self.reader.read_corner(_corners_of(frame_bgr, m), self._colour, True)
            if res.card is None or res.confidence < CORNER_MIN:
                continue
            if best is None or res.confidence > best[0]:
                best = (res.confidence, res.card, q, m)
        if best is None:
            return []
        confidence, card, q, m = best
        det = Detection(q, card, min(confidence, INDEX_MOST))
        self._by_index[id(det)] = (det, m, False)
        return [det]

    def _bare_stock(
        self, frame_bgr: np.ndarray, found: list[Detection], empty: np.ndarray | None
    ) -> bool:
        """:func:`vision.stock.bare_stock`, worked out once a frame for the same cards read: asked
        whether a frame is plain, then again before its cards are reported."""
        key = b"".join(d.quad.tobytes() for d in found if d.card)
        if self._bare is None:
            return bare_stock(frame_bgr, found, empty)
        if key not in self._bare:
            self._bare[key] = bare_stock(frame_bgr, found, empty, self._sampled(frame_bgr))
        return self._bare[key]

    def _read_outline(self, frame_bgr: np.ndarray, q: np.ndarray) -> CardRead:
        """The card the outline ``q`` holds, read as :func:`vision.locate.rectify` would
        give it, pixel for pixel; its corners are warped first and the rest only if they
        hold an index (most outlines a frame gives are table, a chip or a shadow)."""
        key = q.tobytes()
        if self._reads is not None and key in self._reads:
            return self._reads[key]
        m = card_map(q, CARD_SIZE)
        card = _corners_of(frame_bgr, m)
        indices = self.reader.find_indices(card)
        if indices is None:
            res = CardRead(None, 0.0, (None, None))
        else:
            warp_windows(frame_bgr, m, CARD_SIZE, BODY_WINDOWS, cv2.BORDER_REPLICATE, out=card)
            res = self.reader.read_found(indices, card, self._colour)
        if self._reads is not None:
            self._reads[key] = res
        return res

    def _read_group(self, frame_bgr: np.ndarray, group: list[Outline]) -> Detection:
        """Alternative outlines of one card, read in turn until one reads (or the read
        kept from the camera's last frame, where the same outline lies unchanged)."""
        q0 = group[0] if isinstance(group[0], np.ndarray) else None
        key = q0.tobytes() if q0 is not None and self._groups is not None else None
        first = self._groups.get(key) if key is not None else None
        if first is not None and (first[0].card is not None or first[1]):
            # read in the frame's first pass as a card (its second pass only adds the
            # edge mask's outlines, after the ones that read), or kept from the last
            # frame (which the second pass would otherwise read afresh)
            kept = first[0]
        else:
            recalled = None
            if first is None and self._known is not None and q0 is not None:
                recalled = self._known.recall(q0)
            kept = recalled if recalled is not None else self._read_alternatives(frame_bgr, group)
            if recalled is None and self._known is not None and q0 is not None:
                if not _doubtful(kept):
                    self._known.keep(q0, kept)
            if key is not None:
                self._groups[key] = (kept, recalled is not None)
        if kept.card is None:
            unread = Detection(group[0] if q0 is not None else kept.quad, None, kept.confidence)
            if kept.disputed is not None:
                self._disputed[id(unread)] = (unread, *kept.disputed)
            return unread
        self._dark_deck |= kept.negative
        det = Detection(kept.quad, kept.card, kept.confidence)
        if kept.corner is not None:
            self._one_corner[id(det)] = (det, card_map(kept.quad, CARD_SIZE), kept.corner)
        return det

    def _read_alternatives(self, frame_bgr: np.ndarray, group: list[Outline]) -> _GroupRead:
        """The group's outlines read in turn until one reads as a card (its first outline
        if none does)."""
        first = None
        for q in outlines(group):
            res = self._read_outline(frame_bgr, q)
            if res.card is not None:
                good = [k for k, c in enumerate(res.corners) if read_as_glyphs(c)]
                corner = good[0] if len(good) == 1 else None
                return _GroupRead(q, res.card, res.confidence, res.negative, corner)
            if first is None:
                surer = surer_corner(res)
                disputed = (surer.card, surer.confidence) if surer.card is not None else None
                first = _GroupRead(q, None, res.confidence, False, None, disputed)
        assert first is not None
        return first


def _plain(
    frame_bgr: np.ndarray,
    found: list[Detection],
    empty: np.ndarray | None = None,
    bare: Callable[[np.ndarray, list[Detection], np.ndarray | None], bool] | None = None,
) -> bool:
    """Whether a frame's outlines without the edge mask explain it: each read as a card
    the tracker counts, and no stock as white as theirs bare beside them (``empty``: see
    :func:`vision.stock.bare_stock`; ``bare``, that test as the detector keeps it for the frame)."""
    return (
        bool(found)
        and all(d.card and d.confidence >= CORNER_MIN for d in found)
        and not (bare or bare_stock)(frame_bgr, found, empty)
    )


def _median_colour(sample: np.ndarray) -> tuple[float, ...]:
    """Each channel's median level (counted, :func:`vision.levels.percentile`)."""
    return tuple(percentile(sample[..., c], 50) for c in range(sample.shape[-1]))


def _doubtful(kept: _GroupRead) -> bool:
    """A card read below the tracker's count: read again in the next frame, which may
    show it better (a read of nothing, or one the tracker counts, is kept)."""
    return kept.card is not None and kept.confidence < CORNER_MIN


@dataclass(frozen=True)
class _GroupRead:
    """What an outline group read as: the outline that read (the first if none did),
    the card and its confidence, whether in the negative (a dark deck), and the corner
    it was read from alone (0 top left, 1 bottom right; None for both or neither)."""

    quad: np.ndarray
    card: str | None
    confidence: float
    negative: bool
    corner: int | None
    #: unread because its two corners read two cards: the surer one's card and its
    #: confidence (:func:`vision.reader.surer_corner`), if that counts
    disputed: tuple[str, float] | None = None


def _body_windows(size: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """The rest of what a read looks at once the index corners (:func:`corner_windows`)
    are warped: the pips' part of the card (:data:`vision.pips.BODY_X0` …), in two
    windows, right of the top-left corner down to the bottom-right one and left of
    that one from the top-left corner's foot. (The card's margins beside the pips are
    read by nothing: warped, they were a third of the body's warp.)"""
    w, h = size
    (_, _, ax1, ay1), (bx0, by0, _, _) = corner_windows(size)
    x0, x1 = int(w * BODY_X0), int(w * BODY_X1)
    y0, y1 = int(h * BODY_Y0), int(h * BODY_Y1)
    return [(ax1, y0, x1, by0), (x0, ay1, bx0, y1)]


BODY_WINDOWS = _body_windows(CARD_SIZE)


def _in_index_corner(
    m: np.ndarray, point: tuple[float, float], corner: int, slack: float = 0.0
) -> bool:
    """Whether ``point`` (frame pixels) lies in the index corner ``corner`` (0 top left,
    1 bottom right, :data:`INDEX_REACH` of it) of the card the map ``m`` rectifies;
    ``slack``: rectified pixels it may lie beyond, all round."""
    x, y, w = m @ np.array([point[0], point[1], 1.0])
    x, y = x / w, y / w
    rx, ry = INDEX_REACH
    if corner == 1:
        x, y = CARD_SIZE[0] - x, CARD_SIZE[1] - y
    return -slack <= x <= rx + slack and -slack <= y <= ry + slack


def _shifts() -> tuple[np.ndarray, ...]:
    """Small moves of a card hypothesis about its rank's centre, in the rectified card's
    pixels: scaled by 6 %, turned by 4 degrees, moved 2 px, each way."""
    moves = [np.diag([k, k, 1.0]) for k in (0.94, 1.06)]
    for degrees in (-4.0, 4.0):
        c, s = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
        moves.append(np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]))
    for dx, dy in ((2.0, 0.0), (-2.0, 0.0), (0.0, 2.0), (0.0, -2.0)):
        moves.append(np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]]))
    to_rank = np.array([[1.0, 0.0, -RANK_AT[0]], [0.0, 1.0, -RANK_AT[1]], [0.0, 0.0, 1.0]])
    back = np.linalg.inv(to_rank)
    return tuple(back @ move @ to_rank for move in moves)


#: The shifts a read from an index pair is tried at before it counts (:data:`STEADY_FROM`).
SHIFTS = _shifts()


@dataclass
class _PairRead:
    """A card read from an index pair: its confidence, the map of its card hypothesis,
    its rank's blob, its corner's own confidence (before a lone corner is discounted)
    and the blobs read (two, or four once a second corner agrees)."""

    confidence: float
    card: str
    m: np.ndarray
    rank: InkBlob
    corner: float
    blobs: tuple[InkBlob, ...]


#: Two index pairs read as one card are its two corners if, in the card each frames,
#: the other's rank lies toward the far corner (within this angle, degrees) at this share
#: of the distance a card's two indices lie apart (the card's size is guessed from its
#: index, and decks differ).
OPPOSITE_ANGLE = 20.0
OPPOSITE_SHARE = (0.6, 1.5)
#: For a black suit, the surer of the two corners must also read alone as surely as a
#: lone corner the tracker counts (its 0.5 before a lone corner's discount of 0.8): two
#: weak black corners agreeing are mostly one soft club misread twice as a spade (or
#: the other way round), where a red suit has its colour to tell it.
BOTH_SURER = CORNER_MIN / LONE_CORNER


def _opposite(a: _PairRead, b: _PairRead, scale: float) -> bool:
    """Whether ``b``'s rank lies where the index opposite ``a``'s would on ``a``'s card.
    (Asked both ways round, it also holds ``b`` the other way up: an index turned any
    other way sees the first one off to a side.)"""
    far = np.array(CARD_SIZE, np.float64) - 2 * np.array(RANK_AT)
    at = a.m @ np.array([b.rank.cx / scale, b.rank.cy / scale, 1.0])
    seen = at[:2] - np.array(RANK_AT)
    share = float(np.linalg.norm(seen) / np.linalg.norm(far))
    if not OPPOSITE_SHARE[0] <= share <= OPPOSITE_SHARE[1]:
        return False
    cos = float(seen @ far / max(np.linalg.norm(seen) * np.linalg.norm(far), 1e-9))
    return cos >= np.cos(np.radians(OPPOSITE_ANGLE))


def _stretched_to(m: np.ndarray, far_rank: InkBlob, scale: float) -> np.ndarray:
    """The card map ``m`` (an index pair's) stretched along and across the card so that
    ``far_rank``, the rank at the opposite corner, lands where that rank is printed."""
    at = m @ np.array([far_rank.cx / scale, far_rank.cy / scale, 1.0])
    x, y = at[0] / at[2], at[1] / at[2]
    far = np.array(CARD_SIZE, np.float64) - np.array(RANK_AT)
    fx = (far[0] - RANK_AT[0]) / max(x - RANK_AT[0], 1e-6)
    fy = (far[1] - RANK_AT[1]) / max(y - RANK_AT[1], 1e-6)
    stretch = np.array(
        [[fx, 0.0, RANK_AT[0] * (1 - fx)], [0.0, fy, RANK_AT[1] * (1 - fy)], [0.0, 0.0, 1.0]]
    )
    return stretch @ m


def _both_corners(reads: list[_PairRead], scale: float) -> list[_PairRead]:
    """The reads, with each card whose two opposite corners were both read as it (a card
    lying whole on a light table, each index read alone below the tracker's 0.5) also
    as one read of all four blobs, its confidence that of two agreeing corners
    (:func:`vision.reader.agreeing_corners`, as an outlined card's are weighed)."""
    out = list(reads)
    for i, a in enumerate(reads):
        for b in reads[i + 1 :]:
            if a.card != b.card or {id(x) for x in a.blobs} & {id(x) for x in b.blobs}:
                continue
            if (a.card[-1] in BLACK_SUITS and max(a.corner, b.corner) < BOTH_SURER) or not (
                _opposite(a, b, scale) and _opposite(b, a, scale)
            ):
                continue
            first = a if a.corner >= b.corner else b
            both = agreeing_corners(a.corner, b.corner)
            out.append(replace(first, confidence=both, blobs=a.blobs + b.blobs))
    return out


def _corners_of(frame_bgr: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The card the map ``m`` rectifies, its index corners only: all that a one-corner
    read looks at (the top-left index, and both corners to tell a dark deck), a quarter
    of the warp."""
    return warp_windows(frame_bgr, m, CARD_SIZE, corner_windows(CARD_SIZE), cv2.BORDER_REPLICATE)


#: An outline under this share of the cards already read in the frame is a pip, a chip
#: or a glint: cards of one deck under one camera are one size (more so on the plane).
SMALL_SHARE = 0.35
#: Outlines from this share up to :data:`SMALL_SHARE` are read after the others, and
#: kept only as cards counted: on a table seen at a slant a far card outlines that small
#: (development photos: a white deck's eight of clubs at the top of a steep close-up, a
#: webcam's four of clubs beside a fan; from 0.06 to 0.12 the same two, nothing wrong).
FAR_SHARE = 0.1


def _by_dark_pips(pips: FirstPips | None, card: str, confidence: float) -> tuple[str, float]:
    """A one-corner read of a dark deck's spot card checked against the first pips beside
    its index. Its index suit is told from the ink's colour (gold or red against silver),
    which a lamp washes out (a black-and-gold 7D read as 7C); its pips, three times the
    index suit's size, show their shape. Where that is :data:`PIPS_AGREE` sure of a
    suit, the read takes it, never surer than it was nor than :data:`CORNER_MIN`, and
    a read from :data:`PIPS_LIFT_FROM` counts, at :data:`CORNER_MIN` (the rank read, the
    suit the pips'; a read weakened by its washed suit is as sure of its rank)."""
    if pips is None:
        return card, confidence
    best = int(pips.shape.argmax())
    if pips.shape[best] < PIPS_AGREE:
        return card, confidence
    suit = SUITS[best]
    if suit == card[1] and confidence >= CORNER_MIN:
        return card, confidence
    if confidence < PIPS_LIFT_FROM:
        return card[0] + suit, confidence
    return card[0] + suit, CORNER_MIN  # turned, lifted, or both: counted, no surer


def _rank_point(m: np.ndarray, corner: int) -> tuple[float, float]:
    """Where the rank of index corner ``corner`` (0 top left, 1 bottom right) of the card
    the map ``m`` (frame to rectified card) rectifies lies, in frame pixels."""
    at = RANK_AT if corner == 0 else (CARD_SIZE[0] - RANK_AT[0], CARD_SIZE[1] - RANK_AT[1])
    x, y, w = np.linalg.inv(m) @ np.array([*at, 1.0])
    return float(x / w), float(y / w)


def _far_corner_off(m: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether the index corner opposite the one a card hypothesis ``m`` (frame to
    rectified card) is read by lies outside the frame: a close-up's, whose stock is
    then judged on the corner in view alone (the warp repeats the frame's edge there)."""
    w, h = CARD_SIZE
    x, y, z = np.linalg.inv(m) @ np.array([w - RANK_AT[0], h - RANK_AT[1], 1.0])
    if z <= 0:
        return True
    x, y = x / z, y / z
    return not (0 <= x < shape[1] and 0 <= y < shape[0])


def _two_colours(card: str, other: str) -> bool:
    """Whether one of the two cards is of a red suit and the other of a black one."""
    return (card[-1] in "HD") != (other[-1] in "HD")


def _other_ink(card: str, other: str) -> bool:
    """Whether ``other``'s index cannot be ``card``'s own ink: ``card`` a spot card or an
    ace (every mark on it is its suit's colour) and ``other`` of the other colour."""
    return card[0] not in "JQK" and _two_colours(card, other)


def _too_small(group: list[Outline], read: list[Detection], share: float = SMALL_SHARE) -> bool:
    areas = [cv2.contourArea(d.quad) for d in read if d.card]
    # (statistics.median: np.median's value, without its array set-up on a handful)
    return bool(areas) and cv2.contourArea(group[0]) < share * median(areas)


