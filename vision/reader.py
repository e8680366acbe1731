"""Read a rectified card: both index corners, classified and checked against each other."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision import glyphs
from vision.index import IndexGlyphs, corners, find_index
from vision.levels import percentile, percentiles
from vision.model import BLACK_SUITS, RANKS, SUITS, DeckGlyphs, GlyphModel
from vision.pips import Pips, ace_pip, read_pips

#: Ink at least this much redder (Lab a*) than the paper is red ink, give or take
#: RED_SPREAD (the sigmoid's scale).
RED_THRESHOLD = 6.0
RED_SPREAD = 2.0
#: How much the body's pips weigh against the index: a suit vote is multiplied in with
#: this floor (so a covered or pictured body cannot veto the corners), and a pip count
#: multiplies its rank by the weight. (4 until the seventeenth round: three pips under a
#: blurred flat-topped 3 that both corners read as a 5 at 0.8, the 3 at 0.12, could not
#: outvote it; at 8 the spoiled development singles read better in every kind, with
#: fewer wrong reads counted, docs/camera-rounds.md.)
PIP_FLOOR = 0.15
PIP_COUNT_WEIGHT = 8.0
_RED = {"H", "D"}
#: Index corners darker than this (median grey) are a dark deck's stock (gold or silver
#: on black) if the stock is their bulk with the ink brighter than it: the card is read
#: as its negative, where the ink is dark on light again.
DARK_STOCK = 90
#: Under a bright lamp a black stock comes out mid-grey (about 100 in the black-and-gold
#: deck's photos, which until the sixth round read as light cards). Up to this median a
#: corner may still be dark stock, but only a colourless one (not a red pip or the wood
#: round a cut outline) whose bulk lies far nearer its dark end than its bright one (a
#: light card in dim light or in shadow is as grey, with its ink the darker part).
DARK_GREY_STOCK = 140
GREY_STOCK_CHROMA = 20.0
GREY_STOCK_BULK = 0.4
#: On a dark deck the red suits are printed in a colour (gold, red) and the black ones
#: in white or silver: ink this much more colourful than the stock counts as red.
DARK_RED_CHROMA = 21.0
#: The scale of that cut (its sigmoid's), wider than the light decks' RED_SPREAD: a
#: photo's washed gold (chroma 3-10) overlaps a tinted silver, so the colour leans, and a
#: clear diamond or heart outweighs it (at 3.0, until the thirty-sixth round, it vetoed
#: them: a one-corner read of washed gold fell below what the tracker counts).
DARK_SPREAD = 6.0
#: A dark deck's read is never "sure": the glyph model learnt from dark ink on light
#: stock, and a photo's negative (its noise, its glare turned dark) is not that; the
#: tracker still counts such a read after its usual run of identical frames.
DARK_MOST = 0.85
#: A frame whose channels differ by less than this (grey levels, at its 99th percentile)
#: has no colour to judge the ink by.
COLOURLESS_SPREAD = 6


def colourless(frame_bgr: np.ndarray, sampled: np.ndarray | None = None) -> bool:
    """Whether a frame has no colour at all (a monochrome camera, a greyscale photo):
    then black ink is no evidence against red. A colour camera always shows some colour
    somewhere (the table, a hand, a court card), far beyond this spread of channels.
    Judged on every 8th pixel of every 8th row: ``sampled``, the caller's contiguous
    copy of those (``vision.detector.sampled``), if it has one."""
    if sampled is None:
        sampled = np.ascontiguousarray(frame_bgr[::8, ::8])
    b, g, r = cv2.split(sampled)
    spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    return bool(percentile(spread, 99) < COLOURLESS_SPREAD)


def light_stock(card_bgr: np.ndarray, first_only: bool = False) -> tuple[np.ndarray, bool]:
    """The card as dark ink on light stock, and whether it had to be inverted for that.

    Judged on the index corners, which are mostly bare stock on every deck (a court
    card's picture can darken the middle of a light card); on the top-left one alone
    if ``first_only`` (a close-up, whose other corner lies off the frame)."""
    both = corners(card_bgr)[:1] if first_only else corners(card_bgr)
    return (cv2.bitwise_not(card_bgr), True) if dark_stock(both) else (card_bgr, False)


def _dark_only_afar(card_bgr: np.ndarray, first_only: bool) -> bool:
    """Whether a card's stock passed for dark by its far corner alone, the corner read
    being light: in dim light a light card's stock is grey, and a court card's picture
    (or the card beside it) where a pair's hypothesis puts the far corner outweighs it.
    A one-corner read whose negative holds no index is read as it is then."""
    return not first_only and not dark_stock(corners(card_bgr)[:1])


def dark_stock(parts_bgr: list[np.ndarray]) -> bool:
    """Whether these parts of a card (mostly bare stock) are of a dark deck's card: light
    ink on dark stock, read in the negative."""
    grey = np.concatenate([cv2.cvtColor(c, cv2.COLOR_BGR2GRAY).ravel() for c in parts_bgr])
    if percentile(grey, 50) >= DARK_GREY_STOCK:
        return False
    # dark stock is the bulk of the corner with the ink brighter than it; a light card in
    # dim light is dark too, but its bulk (the stock) is the bright end, the ink darker
    lo, mid, hi = percentiles(grey, (5, 50, 95))
    if mid < DARK_STOCK:
        return mid - lo < hi - mid
    return mid - lo < GREY_STOCK_BULK * (hi - mid) and _colourless_stock(parts_bgr)


def _colourless_stock(corner_bgr: list[np.ndarray]) -> bool:
    """Whether the corners' typical pixel is grey, not coloured (Lab chroma median)."""
    lab = np.concatenate([cv2.cvtColor(c, cv2.COLOR_BGR2LAB).reshape(-1, 3) for c in corner_bgr])
    chroma = np.hypot(lab[:, 1].astype(np.float32) - 128, lab[:, 2].astype(np.float32) - 128)
    return float(np.median(chroma)) < GREY_STOCK_CHROMA


#: A corner whose bare stock (its ink closed over) spans this many grey levels between
#: its darker and brighter parts lies partly in a shadow: no one threshold fits it.
SHADOW_SPREAD = 50
#: The closing that takes the ink out of a corner (pixels of the 200×300 card): wider
#: than an index glyph's strokes, narrower than the shadow's changes.
SHADOW_KERNEL = 25
#: A read found only once a shadow was lit evenly must be at least this sure: grain or
#: a crease under a shadow's edge, evened out, can pass for a faint index (a rendered
#: table's shadow read as a seven of clubs at 0.17).
SHADOW_LEAST = 0.4


def _in_shadow(corner_bgr: np.ndarray) -> np.ndarray | None:
    """The corner lit evenly, if a shadow (or a glare) lies across it; else None.

    Each pixel is divided by the stock's brightness round it (the grey closed over a
    window wider than the glyphs), as a flat-field correction does: the shaded stock
    comes out as white as the lit stock, and the ink as dark against it as it was against
    its own stock. Colour survives, since all three channels are scaled alike."""
    grey = cv2.cvtColor(corner_bgr, cv2.COLOR_BGR2GRAY)
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (SHADOW_KERNEL, SHADOW_KERNEL))
    stock = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, k)
    lo, hi = percentiles(stock, (10, 90))
    if hi - lo < SHADOW_SPREAD:
        return None
    stock = cv2.blur(stock, (SHADOW_KERNEL // 2 | 1, SHADOW_KERNEL // 2 | 1))
    gain = 230.0 / np.maximum(stock.astype(np.float32), 16.0)
    flat = corner_bgr.astype(np.float32) * gain[:, :, None]
    return np.clip(flat, 0, 255).astype(np.uint8)


def _colour_as_redness(f: IndexGlyphs) -> IndexGlyphs:
    """A dark deck's index with its colourfulness standing in for redness (the negative
    of gold is blue, whose redness means nothing)."""
    return replace(
        f, redness=RED_THRESHOLD + (f.colourfulness - DARK_RED_CHROMA) * RED_SPREAD / DARK_SPREAD
    )


@dataclass(frozen=True)
class CornerRead:
    rank: str
    suit: str
    confidence: float


@dataclass(frozen=True)
class FoundIndices:
    """The index glyphs found in a card's two corners (None where a corner holds none),
    and how: ``dark`` read in the negative, ``lit`` only once a shadow was evened out."""

    found: list[IndexGlyphs | None]
    dark: bool
    lit: bool


@dataclass(frozen=True)
class CardRead:
    """What a card says: ``card`` like ``TS``, or None if unreadable or the corners disagree."""

    card: str | None
    confidence: float
    corners: tuple[CornerRead | None, ...]
    #: Read as its negative: dark stock, light ink (a black-and-gold deck).
    negative: bool = False


def read_as_glyphs(corner: CornerRead | None) -> bool:
    """Whether a corner was read as a rank and a suit (not missing, nor junk)."""
    return corner is not None and corner.rank != "junk" and corner.suit != "junk"


def card_text(rank: str, suit: str) -> str:
    return ("T" if rank == "10" else rank) + suit


def _suit_proba(p_shape: np.ndarray, redness: float) -> np.ndarray:
    """Shape probabilities weighed by colour: red ink can only be hearts or diamonds.

    Colour is a soft cue (a sigmoid around the threshold), so a dim red under warm light
    still leans on shape rather than being forced into the wrong pair.
    """
    p_red = 1.0 / (1.0 + np.exp(-(redness - RED_THRESHOLD) / RED_SPREAD))
    w = np.array([1 - p_red if s not in _RED else p_red for s in SUITS[:-1]] + [0.5])
    p = p_shape * w
    return p / max(p.sum(), 1e-9)


#: How far (Lab a*, b* units, against the stock) an index's ink may lie from a colour
#: its deck was learned printing a suit in and still count as that suit's colour, and
#: the least a far colour counts (a lamp changed since the capture must not veto a
#: suit outright). Red ink sits 30-50 units from black, and a four-colour deck's blue,
#: green and yellow as far from each other and from red.
INK_SPREAD = 12.0
INK_FLOOR = 0.05


def _learned_colour(deck: DeckGlyphs | None, ink_ab: tuple[float, float]) -> np.ndarray | None:
    """Colour weights of the suits (and junk) from the inks the table's own deck was
    learned with: for each suit, how near the ink lies to one of its learned colours.
    None unless all four suits' colours were learned (then ink is judged red or black).
    A four-colour deck's yellow diamond is no red ink: only its learned colour says so."""
    if deck is None:
        return None
    out = []
    for k in range(len(SUITS) - 1):
        inks = deck.ink_of(k)
        if not len(inks):
            return None
        d2 = float(((inks - np.asarray(ink_ab, np.float32)) ** 2).sum(axis=1).min())
        out.append(INK_FLOOR + float(np.exp(-d2 / (2 * INK_SPREAD**2))))
    return np.array([*out, 0.5])


#: With the table's own deck learned, a suit glyph this sure of its shape (the deck's own
#: glyphs voting) that the ink's colour overrules leaves the suit in doubt
#: (:data:`DISPUTED`): the deck prints that suit in a colour the reader does not expect.
LEARNED_SHAPE_SURE = 0.8


def _doubted_if_overruled(shape: np.ndarray, weighed: np.ndarray) -> np.ndarray:
    """``weighed`` (a suit's shape probabilities after colour), its top suit held to
    :data:`DISPUTED` where colour chose another suit than the shape did. Where a deck's
    colours were not learned (captured grey) a four-colour deck's yellow diamond is
    judged black ink: its learned diamond glyph and the colour then disagree, and the
    read must say so (without this, a king of diamonds read as a sure king of spades,
    its rank firmed by the deck's own K)."""
    top = int(weighed.argmax())
    if top == int(shape.argmax()) or weighed[top] <= DISPUTED:
        return weighed
    out = weighed.copy()
    rest = float(out.sum() - out[top])
    out[top] = DISPUTED
    if rest > 0:
        others = np.arange(len(out)) != top
        out[others] *= (1.0 - DISPUTED) / rest
    return out


def agreeing_corners(a: float, b: float) -> float:
    """The confidence of a card whose two corners read as it, surely ``a`` and ``b``.

    Two corners agreeing is not two independent proofs: they share the print, the blur
    and the light. The surer corner counts, the other only adds half its weight (0.49
    and 0.84 make 0.88, not the 0.92 of independent odds)."""
    hi, lo = max(a, b), min(a, b)
    return hi + (1 - hi) * lo * 0.5


#: A card read at one corner only (the other covered) is believable, less so: its
#: corner's confidence times this.
LONE_CORNER = 0.8
#: A corner read below this beside a corner that reads as junk is no card.
JUNK_BESIDE = 0.5
#: Both corners reading the same card at least this surely need no second opinion.
SURE = 0.9
FACES = ("J", "Q", "K")
#: Confidence ceilings when the body's pips contradict the index: plainly (more pips
#: than the rank, or a row of them on a face card), and mildly (fewer, which a covered
#: or glared pip also explains). The first is below the tracker's 0.5, so it waits for a
#: better frame; the second only stops the read counting as sure.
PIPS_CONTRADICT = 0.3
PIPS_SHORT = 0.6
#: An ace read surely is held to PIPS_SHORT where its one big pip reads as another suit
#: more surely than this (:func:`vision.pips.ace_pip`, :func:`_other_suit`).
ACE_PIP_SURE = 0.8


def _other_suit(votes: np.ndarray, suit: int) -> bool:
    """Whether an ace's big pip, read as it lies and turned end for end (``votes``, two
    rows, :func:`vision.pips.ace_pip`), is surely of another suit than ``suit``. A
    diamond reads alike both ways round, so one way read surely as another suit rules
    it out; the other suits' pips turned read as something else (the model reads an
    upturned spade as a diamond), so both ways must rule the suit out, and one read
    surely as another."""
    other = np.delete(votes, suit, axis=1).max(axis=1) > ACE_PIP_SURE
    if SUITS[suit] == "D":
        return bool(other.any())
    return bool(votes[:, suit].max() < 1 - ACE_PIP_SURE and other.any())


def pip_cap(rank: str, pips: Pips | None) -> float:
    """The most confidence a read of ``rank`` may have given the body's pips."""
    if pips is None or pips.count < 2:
        return 1.0
    if rank in FACES:
        return PIPS_CONTRADICT if pips.count >= 4 else 1.0
    value = 1 if rank == "A" else 10 if rank in ("T", "10") else int(rank)
    if pips.count > value:
        return PIPS_CONTRADICT
    return 1.0 if pips.count == value else PIPS_SHORT


#: The most a read may claim when the corners disagreed and the body's pips chose between
#: them: the tracker counts it after its usual run, but it is never "sure".
PIPS_SETTLED = 0.6


def _settled_by_pips(res: CardRead, pips: Pips | None) -> CardRead:
    """Two corners that read different cards, settled by the body when its pips count
    matches the surer of them (a deck's "3" drawn like another deck's "5"); if the
    corners' suits differ too, the pips' suit must be clear and match as well.

    Only a spot card's pips can settle it, and only between the corners' own reads: a
    count that matches neither, or a face card's ornaments, leave the card unread."""
    good = [r for r in res.corners if r is not None and r.rank != "junk" and r.suit != "junk"]
    if pips is None or not 2 <= pips.count <= 10 or len(good) != 2:
        return res
    match = [r for r in good if r.rank == str(pips.count)]
    if good[0].suit != good[1].suit:
        if pips.suit_proba.max() <= 0.8:
            return res
        match = [r for r in match if r.suit == SUITS[int(pips.suit_proba.argmax())]]
    # the surer corner only: a count can fall short (a pip covered, the card cut by the
    # frame's edge), so it may confirm the better read but never overrule it
    if len(match) != 1 or match[0].confidence < max(r.confidence for r in good):
        return res
    best = match[0]
    return CardRead(
        card_text(best.rank, best.suit), min(best.confidence, PIPS_SETTLED), res.corners
    )


#: Two corners that read different cards: the surer one's card stands for them only where
#: its discounted confidence is at least this (the tracker's 0.5).
DISAGREED_LEAST = 0.5


def surer_corner(res: CardRead) -> CardRead:
    """Two corners that read different cards (``res``, a read that was left unread for
    it): the surer corner's card, as if read at that corner alone (:data:`LONE_CORNER`)
    and discounted by how surely the other corner reads something else, where that still
    counts; otherwise ``res`` as it is. A clear index beside a weakly read one (a glare, a
    blur, a corner half under the next card) is most likely right, but the disagreement
    must show: a sure corner against a fair one stays unread.

    It is the detector's last resort, not the read's answer: an outline whose two
    corners show two cards is as often two cards outlined as one (a pile), and the
    searches that read each of them run only for an outline that reads as nothing
    (:meth:`vision.detector.CardDetector.detect`). On the development photos (singles
    and scenes, at the set's shape and at their own), of the 169 outlines whose corners
    read different cards, the surer corner was right in all nine this puts at 0.5 or
    more, and in every one down to 0.41 (the first wrong one there, a ten read against a
    weak jack); until the eighteenth round all were left unread."""
    good = [r for r in res.corners if r is not None and read_as_glyphs(r)]
    if len(good) != 2:
        return res
    hi, lo = sorted(good, key=lambda r: -r.confidence)
    if card_text(hi.rank, hi.suit) == card_text(lo.rank, lo.suit):
        return res
    confidence = hi.confidence * LONE_CORNER * (1.0 - lo.confidence)
    if confidence < DISAGREED_LEAST:
        return res
    return CardRead(card_text(hi.rank, hi.suit), confidence, res.corners)


def _sure(reads: list[CornerRead]) -> bool:
    texts = {card_text(r.rank, r.suit) for r in reads}
    return len(texts) == 1 and min(r.confidence for r in reads) >= SURE and reads[0].rank != "junk"


#: Where the shape head and the grey (black-suit) head choose different black suits, the
#: surer of the two gets at most this share of their mass.
DISPUTED = 0.55
#: ... unless the grey head is at least this sure: its suit then takes the lead, with at
#: most ``GREY_MOST`` of the mass. On the real soft black suits of the development photos
#: the grey head was right in 37 of 40 such disputes (the shape head, from a mask whose
#: lobes the threshold ran together, in 3); below 0.7 the two were nearer even.
GREY_SURE = 0.7
GREY_MOST = 0.75


#: The 5 and the 3 told apart by the stroke below the top bar at the glyph's left: a 5's
#: runs down the left to its bowl, a 3 (round-topped, or flat-topped with a spur) has
#: none there. Share of the glyph's left third, from 28 to 42 % of its height, that is
#: ink: at most FIVE_BARE, a read of 5 is weighed down by FIVE_DOWN; at least
#: THREE_FULL, a read of 3 likewise. (Development white-deck corners: 3s 0.12-0.75,
#: 33 of 38 under 0.5; 5s 0.44-1.0 but one stroke-broken 0.0, 44 of 46 from 0.5.)
FIVE_BARE = 0.3
THREE_FULL = 0.75
FIVE_DOWN = 0.3


def _weigh_five_and_three(pr: np.ndarray, rank: np.ndarray) -> None:
    """``pr`` (one corner's rank probabilities, in place) with 5 or 3 weighed down
    where the glyph's left stroke below its top bar says the other (:data:`FIVE_BARE`)."""
    five, three = RANKS.index("5"), RANKS.index("3")
    if max(pr[five], pr[three]) < 0.2:
        return
    ys, xs = np.nonzero(rank)
    if len(ys) < 12:
        return
    b = rank[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1] > 0
    h, w = b.shape
    left = float(
        b[int(0.28 * h) : max(int(0.42 * h), int(0.28 * h) + 1), : max(1, int(0.3 * w))].mean()
    )
    if left <= FIVE_BARE:
        pr[five] *= FIVE_DOWN
    elif left >= THREE_FULL:
        pr[three] *= FIVE_DOWN


class CardReader:
    """Turns a rectified upright card image into a :class:`CardRead`."""

    def __init__(self, model: GlyphModel | None = None) -> None:
        self.model = model or GlyphModel.load()

    def index_proba(
        self, found: list[IndexGlyphs], colour: bool = True
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rank, suit) probabilities of each corner's glyphs; suit already weighs colour
        (unless ``colour`` is False: a frame with no colour says nothing about the ink)."""
        # every glyph's features in one batch (each row is worked out on its own, so
        # the same values as one call per kind; a call costs more than a row)
        n = len(found)
        soft = [
            None if f.suit_score is None else glyphs.normalise_soft(f.suit_score) for f in found
        ]
        greys = [g for g in soft if g is not None] if self.model.black is not None else []
        x = glyphs.features(
            np.stack(
                [glyphs.normalise(f.rank) for f in found]
                + [glyphs.normalise(f.suit) for f in found]
                + greys
            )
        )
        pr = self.model.rank_proba(x[:n])
        ps = self._with_black_head(self.model.suit_proba(x[n : 2 * n]), found, (soft, x[2 * n :]))
        deck = self.model.deck_glyphs
        learned = deck is not None and len(deck.suit_y) > 0
        # Only a ten is printed as two glyphs side by side; one blob is rarely a ten
        # (its digits touch only when badly blurred). A structural hint the shape
        # classifier cannot see once the glyph is scaled into its box.
        ten = RANKS.index("10")
        for i, f in enumerate(found):
            letter = self._letter_alone(f)
            if letter is not None:
                pr[i] = letter
                pr[i, ten] = 0.0
            else:
                pr[i, ten] *= 4.0 if f.rank_parts >= 2 else 0.4
                _weigh_five_and_three(pr[i], f.rank)
            pr[i] /= pr[i].sum()
            shape = ps[i].copy()
            inks = _learned_colour(deck, f.ink_ab) if learned and colour else None
            if inks is not None:
                ps[i] = shape * inks / max(float((shape * inks).sum()), 1e-9)
            else:
                ps[i] = _suit_proba(shape, f.redness if colour else RED_THRESHOLD)
            if learned and shape[:-1].max() >= LEARNED_SHAPE_SURE:
                ps[i] = _doubted_if_overruled(shape, ps[i])
        return pr, ps

    def _with_black_head(
        self,
        ps: np.ndarray,
        found: list[IndexGlyphs],
        batch: tuple[list[np.ndarray | None], np.ndarray] | None = None,
    ) -> np.ndarray:
        """Suit probabilities with spade against club weighed again from the suit's grey
        levels (the black-suit head).

        Only the split of the two suits' mass changes, and the surer of them ends no
        surer than the shape head's surer one was: the grey head may choose the other
        suit (a soft club), never make a read surer, except that a sure grey head
        overruling the shape gives its suit up to ``GREY_MOST`` of the mass. Uncapped,
        it agreed with the shape head on a soft club's spade and an eight of clubs read
        as a sure 8S; allowed to firm a read up to 0.85, it lifted a picture's ornament
        over the tracker's 0.5 as a ten of clubs."""
        head = self.model.black
        if head is None:  # weights from before the head
            return ps
        if batch is None:
            soft = [
                None if f.suit_score is None else glyphs.normalise_soft(f.suit_score) for f in found
            ]
        else:
            soft = batch[0]  # with their features already worked out (:meth:`index_proba`)
        rows = [i for i, g in enumerate(soft) if g is not None]
        if not rows:
            return ps
        soft_x = glyphs.features(np.stack([soft[i] for i in rows])) if batch is None else batch[1]
        q = self.model.black_proba(soft_x)  # with the deck's own soft suits, if learned
        ps = ps.copy()
        cols = [SUITS.index(name) for name in BLACK_SUITS]
        for i, qi in zip(rows, q, strict=True):
            black = ps[i, cols]
            mass = float(black.sum())
            weighed = black * qi
            split = mass * weighed / max(float(weighed.sum()), 1e-12)
            disputed = int(qi.argmax()) != int(black.argmax())
            if disputed and float(qi.max()) >= GREY_SURE:
                # a sure grey head outvotes the shape: a webcam's club of a few pixels is
                # a spade-like blob once thresholded, and its grey levels still show the
                # lobes; counted, but never sure (GREY_MOST)
                top = int(qi.argmax())
                most = mass * min(float(qi.max()), GREY_MOST)
            else:
                top = int(split.argmax())
                most = float(black.max())
                if disputed:
                    # otherwise an even split, so the read is doubted and the tracker
                    # waits (a soft club the shape head is sure is a spade, or a spade
                    # the grey head leans to a club)
                    most = min(most, DISPUTED * mass)
                most = min(most, float(split[top]))
            split[top] = most
            split[1 - top] = mass - most
            ps[i, cols] = split
        return ps

    @staticmethod
    def corner_reads(pr: np.ndarray, ps: np.ndarray, pips: Pips | None = None) -> list[CornerRead]:
        """Each corner's best reading, with the body's pips multiplied in when given."""
        if pips is not None:
            if 2 <= pips.count <= 10:
                # the count adds weight to a spot rank, but never outvotes a corner that
                # reads a face card (a picture's ornaments can look like pips); a
                # disagreement lowers the confidence instead (:func:`pip_cap`)
                pr = pr.copy()
                spot = np.array([RANKS[int(i)] not in FACES for i in pr.argmax(axis=1)])
                pr[spot, RANKS.index(str(pips.count))] *= PIP_COUNT_WEIGHT
                pr /= pr.sum(axis=1, keepdims=True)
            ps = ps * np.append(PIP_FLOOR + pips.suit_proba, PIP_FLOOR + 0.25)
            ps /= ps.sum(axis=1, keepdims=True)
        ri, si = pr.argmax(axis=1), ps.argmax(axis=1)
        return [
            CornerRead(RANKS[r], SUITS[s], float(pr[i, r] * ps[i, s]))
            for i, (r, s) in enumerate(zip(ri, si, strict=True))
        ]

    def _letter_alone(self, f: IndexGlyphs) -> np.ndarray | None:
        """For a two-part rank that is really a letter with a picture's pip beside it,
        the letter's rank probabilities; None for a real "10" (or a one-part rank).

        A "1" never reads as A, K or Q, so a confident letter there settles it; a J can
        look like a "1", so it also needs a right-hand glyph with no hole (not a "0").
        """
        if f.left_part is None:
            return None
        p = self.model.rank_proba(glyphs.features(glyphs.normalise(f.left_part)))[0]
        best = RANKS[int(p.argmax())]
        if best in ("A", "K", "Q") and p.max() > 0.5:
            return p
        if best == "J" and p.max() > 0.7 and not f.right_holed:
            return p
        return None

    def read_corner(
        self, card_bgr: np.ndarray, colour: bool = True, first_only: bool = False
    ) -> CardRead:
        """Read the top-left index alone: a card whose other end is hidden under the next
        one (its body is not consulted either, since another card may cover it). One
        corner is believable but less so, as :meth:`_decide` weighs it. ``first_only``:
        the stock judged on that corner alone (:func:`light_stock`)."""
        original = card_bgr
        card_bgr, dark = light_stock(card_bgr, first_only)
        found = [find_index(corners(card_bgr)[0])]
        if dark and found[0] is None and _dark_only_afar(original, first_only):
            card_bgr, dark = original, False
            found = [find_index(corners(card_bgr)[0])]
        if dark and found[0] is not None:
            found = [_colour_as_redness(found[0])]
        flat = None
        if found[0] is None:
            flat = _in_shadow(corners(original)[0])
            if flat is not None:
                found, dark = [find_index(flat)], False
        if found[0] is None:
            return CardRead(None, 0.0, (None,))
        pr, ps = self.index_proba([found[0]], colour)
        res = self._decide(found, self.corner_reads(pr, ps))
        if flat is not None and res.confidence < SHADOW_LEAST:
            return CardRead(None, 0.0, res.corners)
        return replace(res, confidence=min(res.confidence, DARK_MOST)) if dark else res

    def read(self, card_bgr: np.ndarray, colour: bool = True) -> CardRead:
        """Both corners read and checked against each other and the body's pips;
        ``colour`` False for a frame without colour (a monochrome camera): the ink's
        colour then counts for neither red nor black."""
        indices = self.find_indices(card_bgr)
        if indices is None:
            return CardRead(None, 0.0, (None, None))
        return self.read_found(indices, card_bgr, colour)

    def find_indices(self, card_bgr: np.ndarray) -> FoundIndices | None:
        """The first step of :meth:`read`: the index glyphs in the card's two corners, or
        None where neither holds one (no card, and the read's answer is known). It looks
        at the corner windows (:func:`vision.index.corner_windows`) alone, so a caller
        that reads many outlines that are no card can warp just those first."""
        original = card_bgr
        card_bgr, dark = light_stock(card_bgr)
        found = [find_index(c) for c in corners(card_bgr)]
        if dark:
            found = [_colour_as_redness(f) if f is not None else None for f in found]
        lit = False
        if not any(f is not None for f in found):
            flats = [_in_shadow(c) for c in corners(original)]
            if any(f is not None for f in flats):
                found = [find_index(f) if f is not None else None for f in flats]
                dark, lit = False, True
        if not any(f is not None for f in found):
            return None
        return FoundIndices(found, dark, lit)

    def read_found(
        self, indices: FoundIndices, card_bgr: np.ndarray, colour: bool = True
    ) -> CardRead:
        """The rest of :meth:`read`, from the corners' glyphs :meth:`find_indices` found in
        the same card (``card_bgr`` whole now: its pips are read too)."""
        found, dark, lit = indices.found, indices.dark, indices.lit
        if dark:
            card_bgr = cv2.bitwise_not(card_bgr)
        present = [f for f in found if f is not None]
        pr, ps = self.index_proba(present, colour)
        first = self.corner_reads(pr, ps)
        # The body's pips: a vote when the index alone is not sure, and always a check
        # on what it says — a sure read the pips contradict must not stay sure.
        pips = read_pips(card_bgr, self.model)
        if len(first) == 2 and _sure(first):
            res = self._decide(found, first)
        else:
            res = self._decide(found, self.corner_reads(pr, ps, pips))
            if res.card is None:
                res = _settled_by_pips(res, pips)
        if res.card is None or (lit and res.confidence < SHADOW_LEAST):
            return CardRead(None, 0.0, res.corners)
        cap = pip_cap(res.card[:-1], pips)
        if pips is not None and pips.count >= 2 and pips.suit_proba.max() > 0.8:
            if SUITS[int(pips.suit_proba.argmax())] != res.card[-1]:
                cap = min(cap, PIPS_SHORT)  # the pips show another suit
        elif res.card[0] == "A" and res.confidence >= SURE:
            ace = ace_pip(card_bgr, self.model)
            if ace is not None and _other_suit(ace, SUITS.index(res.card[-1])):
                cap = min(cap, PIPS_SHORT)  # the ace's big pip is of another suit
        if dark:
            cap = min(cap, DARK_MOST)
        return CardRead(res.card, min(res.confidence, cap), res.corners, negative=dark)

    def _decide(self, found: list[IndexGlyphs | None], reads_: list[CornerRead]) -> CardRead:
        reads = iter(reads_)
        per_corner = tuple(next(reads) if f is not None else None for f in found)
        good = [r for r in per_corner if read_as_glyphs(r)]
        if not good:
            return CardRead(None, 0.0, per_corner)
        texts = {card_text(r.rank, r.suit) for r in good}
        if len(texts) > 1:  # the two corners must agree
            return CardRead(None, 0.0, per_corner)
        conf = float(np.mean([r.confidence for r in good]))
        junk_beside = len(good) < sum(r is not None for r in per_corner)
        if len(good) == 1 and junk_beside and conf < JUNK_BESIDE:
            # the other corner holds an index-like pair that reads as no glyph: a weak
            # read beside it is a pattern (a red card back's lattice), not a card
            return CardRead(None, 0.0, per_corner)
        if len(good) == 1:
            conf *= LONE_CORNER
        else:
            conf = agreeing_corners(good[0].confidence, good[1].confidence)
        return CardRead(texts.pop(), conf, per_corner)
