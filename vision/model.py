"""A tiny numpy multilayer perceptron for index glyphs, plus one deck's learned glyphs.

Numpy only, so the Pi needs no learning framework: one hidden layer is enough for a
few dozen glyph shapes and runs in microseconds. The weights live in
``vision/data/glyphs.npz`` and are rebuilt by ``python -m vision.train``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import BinaryIO

import numpy as np

#: Classes of the rank head. "junk" soaks up card backs, picture fragments and smudges.
RANKS: tuple[str, ...] = ("A", "K", "Q", "J", *(str(n) for n in range(10, 1, -1)), "junk")
#: Classes of the suit head (shape only; ink colour is judged separately).
SUITS: tuple[str, ...] = ("S", "H", "D", "C", "junk")
#: Classes of the black-suit head, which reads a suit's grey levels (a soft club).
BLACK_SUITS: tuple[str, ...] = ("S", "C")

DEFAULT_WEIGHTS = Path(__file__).with_name("data") / "glyphs.npz"


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


@dataclass
class Mlp:
    """One hidden layer with ReLU; ``w1`` (D, H), ``w2`` (H, C)."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    def logits(self, x: np.ndarray) -> np.ndarray:
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        return h @ self.w2 + self.b2

    def proba(self, x: np.ndarray) -> np.ndarray:
        return softmax(self.logits(x))


@dataclass
class DeckGlyphs:
    """Glyph features of one specific deck, read from labelled pictures of its cards.

    Used as a nearest-neighbour vote on top of the generic model: a deck's own glyphs
    are the best possible reference for that deck. Written by ``vision.learn_deck``.
    (Not the RFID deck map: that is ``controller.decks``, tag to card.)
    """

    rank_x: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    rank_y: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    suit_x: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    suit_y: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    #: Each learned suit glyph's ink colour against its stock (Lab a*, b*): the colours
    #: the deck prints its suits in (empty in files learned before they were kept).
    suit_ink: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.float32))
    #: The deck's spades and clubs as their grey levels show them under the table's own
    #: camera (:func:`vision.glyphs.normalise_soft` features; classes :data:`BLACK_SUITS`):
    #: the black-suit head's vote is blended with theirs (empty in files learned before).
    black_x: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    black_y: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))

    def save(self, path: str | Path | BinaryIO) -> None:
        np.savez_compressed(
            path,
            rank_x=self.rank_x,
            rank_y=self.rank_y,
            suit_x=self.suit_x,
            suit_y=self.suit_y,
            suit_ink=self.suit_ink,
            black_x=self.black_x,
            black_y=self.black_y,
        )

    @classmethod
    def load(cls, path: str | Path) -> DeckGlyphs:
        d = np.load(path)
        ink = d["suit_ink"] if "suit_ink" in d.files else np.zeros((0, 2), np.float32)
        black = (d["black_x"], d["black_y"]) if "black_y" in d.files else ()
        return cls(d["rank_x"], d["rank_y"], d["suit_x"], d["suit_y"], ink, *black)

    def ink_of(self, suit: int) -> np.ndarray:
        """The learned ink colours (Lab a*, b* against the stock) of suit class ``suit``
        (none from a grey picture, which shows no colour)."""
        return self._inks_by_suit[suit]

    @cached_property
    def _inks_by_suit(self) -> tuple[np.ndarray, ...]:
        """Each suit class's learned inks, sorted out once: every index read with a
        learned deck asks for all four suits'."""
        if len(self.suit_ink) != len(self.suit_y):
            return tuple(np.zeros((0, 2), np.float32) for _ in SUITS)
        known = ~np.isnan(self.suit_ink).any(axis=1) if len(self.suit_ink) else self.suit_y < 0
        return tuple(self.suit_ink[(self.suit_y == k) & known] for k in range(len(SUITS)))

    def check(self, features: int) -> None:
        """Raise ValueError unless these glyphs fit a model reading ``features`` features
        a glyph and its classes (a file from another version of the glyph framing would
        fail on every frame read, far from where it was loaded)."""
        heads = (
            (self.rank_x, self.rank_y, RANKS),
            (self.suit_x, self.suit_y, SUITS),
            (self.black_x, self.black_y, BLACK_SUITS),
        )
        for x, y, classes in heads:
            if len(y) and (x.ndim != 2 or x.shape != (len(y), features)):
                raise ValueError(
                    f"learned glyphs of shape {x.shape} do not fit this reader "
                    f"({features} features a glyph): learn the deck again"
                )
            if len(y) and (int(y.min()) < 0 or int(y.max()) >= len(classes)):
                raise ValueError("learned glyphs name classes this reader does not have")


#: Squared feature distance on the scale of two readings of one glyph (well under this);
#: different glyphs sit above 1.
SAME_GLYPH_D2 = 0.3


def _d2(x: np.ndarray, ref_x: np.ndarray) -> np.ndarray:
    """Squared distances of each glyph in ``x`` to each learned one (rows by columns)."""
    d2 = (x * x).sum(-1)[:, None] + (ref_x * ref_x).sum(-1)[None, :] - 2.0 * (x @ ref_x.T)
    return np.maximum(d2, 0.0)


def knn_proba(
    x: np.ndarray,
    ref_x: np.ndarray,
    ref_y: np.ndarray,
    n_classes: int,
    d2: np.ndarray | None = None,
) -> np.ndarray:
    """Class probabilities from the nearest learned glyph of each learned class.

    The temperature is fixed: feature vectors are unit-ish, so squared distances between
    two readings of the same glyph sit well under 0.3 and between different glyphs above 1.
    Classes with no learned example get zero here; :func:`blend` leaves them to the model.
    """
    d2 = _d2(x, ref_x) if d2 is None else d2
    best = np.full((len(x), n_classes), np.inf, np.float32)
    for c in np.unique(ref_y):
        best[:, c] = d2[:, ref_y == c].min(axis=1)
    return softmax(-best / 0.08)


#: How near a glyph must be to one of the deck's learned glyphs for their vote to count
#: in full (squared feature distance; the vote's weight falls as exp(-d2 / this)). The
#: deck's glyphs were read sharp, under the capture's light; a glyph unlike all of them
#: (a webcam's soft index, a glyph read in other light, a smudge) is left to the model,
#: which has seen such things. A vote in full whatever the distance made the phone
#: photos' white deck, learned from its earlier photos, read its later ones worse than
#: the model alone (scenes: two wrong reads counted where none were); at 0.3 the drawn
#: German and Russian decks lost a card or three of 52 they read in full with the vote.
NEAR_D2 = 1.0
#: The share of the learned classes' mass the deck's vote takes for a glyph it knows.
DECK_VOTE = 0.7


def blend(
    p_model: np.ndarray,
    x: np.ndarray,
    ref_x: np.ndarray,
    ref_y: np.ndarray,
    has_junk: bool = True,
) -> np.ndarray:
    """Mix the deck's nearest glyphs into the model, only among the classes it has, and
    as far as the glyph is near one of them (:data:`NEAR_D2`).

    A partly learned deck (say only the court cards) must not push the other classes to
    zero, so the neighbour vote only redistributes the model's mass over the learned classes.
    ``has_junk``: the model's last class is junk (the rank and suit heads; not the
    black-suit head, whose two classes are spade and club).
    """
    learned = np.zeros(p_model.shape[1], bool)
    learned[np.unique(ref_y)] = True
    d2 = _d2(x, ref_x)
    knn = knn_proba(x, ref_x, ref_y, p_model.shape[1], d2)
    nearest = d2.min(axis=1)
    out = p_model.copy()
    # A glyph nearly the same as one of the deck's own is no smudge, however strange the
    # generic model finds it (a German "B" is junk to it): that share of the junk class
    # goes to the learned ones too, so a closely matched glyph is not vetoed as junk.
    junk = p_model.shape[1] - 1
    if has_junk and not learned[junk]:
        moved = out[:, junk] * np.exp(-nearest / SAME_GLYPH_D2)
        out[:, junk] -= moved
    else:
        moved = np.zeros(len(x), np.float32)
    mass = out[:, learned].sum(axis=1) + moved
    vote = (DECK_VOTE * np.exp(-nearest / NEAR_D2))[:, None]
    out[:, learned] = (1.0 - vote) * out[:, learned] + vote * mass[:, None] * knn[:, learned]
    return out / out.sum(axis=1, keepdims=True)


@dataclass
class GlyphModel:
    """Rank and suit heads, and optionally one deck's learned glyphs blended in."""

    rank: Mlp
    suit: Mlp
    deck_glyphs: DeckGlyphs | None = None
    #: Spade or club from a suit's grey levels (:func:`vision.glyphs.normalise_soft`).
    black: Mlp | None = None

    @classmethod
    def load(cls, path: str | Path = DEFAULT_WEIGHTS) -> GlyphModel:
        d = np.load(path)
        parts = {k: d[k].astype(np.float32) for k in d.files}
        rank = Mlp(parts["r_w1"], parts["r_b1"], parts["r_w2"], parts["r_b2"])
        suit = Mlp(parts["s_w1"], parts["s_b1"], parts["s_w2"], parts["s_b2"])
        black = None
        if "b_w1" in parts:
            black = Mlp(parts["b_w1"], parts["b_b1"], parts["b_w2"], parts["b_b2"])
        return cls(rank, suit, black=black)

    def save(self, path: str | Path) -> None:
        # float16 halves the file; the loss in precision is far below what the glyphs need.
        arrays = {}
        heads = [("r", self.rank), ("s", self.suit)]
        heads += [("b", self.black)] if self.black is not None else []
        for head, mlp in heads:
            for name in ("w1", "b1", "w2", "b2"):
                arrays[f"{head}_{name}"] = getattr(mlp, name).astype(np.float16)
        np.savez_compressed(path, **arrays)

    def rank_proba(self, x: np.ndarray) -> np.ndarray:
        p = self.rank.proba(x)
        e = self.deck_glyphs
        if e is not None and len(e.rank_y):
            p = blend(p, x, e.rank_x, e.rank_y)
        return p

    def suit_proba(self, x: np.ndarray) -> np.ndarray:
        p = self.suit.proba(x)
        e = self.deck_glyphs
        if e is not None and len(e.suit_y):
            p = blend(p, x, e.suit_x, e.suit_y)
        return p

    def black_proba(self, x: np.ndarray) -> np.ndarray:
        """Spade against club from grey-level features, with the deck's own soft black
        suits blended in where it learned them (the table's camera shows them as no
        training glyph does)."""
        assert self.black is not None
        p = self.black.proba(x)
        e = self.deck_glyphs
        if e is not None and len(e.black_y):
            p = blend(p, x, e.black_x, e.black_y, has_junk=False)
        return p
