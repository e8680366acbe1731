"""Learn one specific deck's own index glyphs from labelled pictures of its cards.

    .venv/bin/python -m vision.learn_deck DIR OUT.npz

DIR holds one picture per card (more are fine), named by card like the benchmark sets
(``AS.jpg``, ``TD_01.jpg``, ``10C_00.jpg``): a camera frame with the card alone on the
table (``courtpiece camera capture``), or a flat scan of the card. The glyphs read from
its corners become reference examples that the detector blends in
(``CardDetector(deck_glyphs=OUT)``; the referee's camera loads ``STATE/camera-deck.npz``,
which ``courtpiece camera learn`` writes), which fixes a deck whose typeface the
generic model finds unusual. A spade's or a club's suit is also learned as its grey
levels show it (the black-suit head's view): a table's webcam shows its soft clubs in
its own way, and the head's vote is blended with the deck's own.

The card in each picture is found the way the referee finds it (any of the detector's
ways: its outline, the frame's negative for a dark deck, its index alone), and its
corners are read as the reader reads them (a dark deck's light ink as its negative). A
picture is passed over, and named, where the card in it reads surely as another card
(a file named wrong teaches a glyph the wrong name, which is worse than none); only
where it reads as another suit or another number, since letters are what an unusual
deck prints differently. Each
suit glyph's ink colour is learned with it (from pictures with colour): a four-colour
deck prints diamonds in yellow and clubs in green, which only the learned colours tell
(the generic reader judges ink red or black).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision import glyphs
from vision.detector import CARD_SIZE, CardDetector, Detection
from vision.imageio import read_image
from vision.locate import rectify
from vision.model import BLACK_SUITS, RANKS, SUITS, DeckGlyphs
from vision.reader import SURE, colourless, light_stock

_LABEL = re.compile(r"^(10|[AKQJT98765432])([SHDC])", re.IGNORECASE)


def label_of(name: str) -> str | None:
    m = _LABEL.match(name)
    if not m:
        return None
    rank = m.group(1).upper()
    return ("10" if rank in ("T", "10") else rank) + m.group(2).upper()


@dataclass
class LearnReport:
    """What a learning run did: pictures used, glyphs learned, pictures passed over."""

    pictures: int = 0
    used: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (name, why)
    cards: set[str] = field(default_factory=set)  # those learned (``TC``, ``AS``)


@dataclass
class _View:
    """One card as the reader sees it: the upright card image (dark ink on light stock)
    and which of its corners may hold its index (a card found by its index alone has
    only that corner for certain; its far end is a guess)."""

    card: np.ndarray
    corners: tuple[int, ...]


#: Ranks printed the same in every deck: numbers. Letters (and the ace's) are what an
#: unusual deck changes: B for a jack, D for a queen, Т for an ace.
NUMBERS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")


def _laid_otherwise(read: str, label: str) -> bool:
    """Whether a sure ``read`` (``9S``, ``TD``) says another card than ``label`` was laid:
    another suit, or another number. A letter read against the label is not trusted (the
    generic reader that cannot read the deck's letters reads its 5 as a J, surely)."""
    rank = "10" if read[:-1] == "T" else read[:-1]
    if read[-1] != label[-1]:
        return True
    return rank in NUMBERS and label[:-1] in NUMBERS and rank != label[:-1]


def _view(image: np.ndarray, label: str, detector: CardDetector) -> tuple[_View | None, str]:
    """The labelled card in ``image`` ready to learn from, or None and why not.

    The detection that reads as the label is the card; failing that (the generic model
    cannot read this deck: why it is being learned) the largest card found, unless one
    reads surely as a card of another suit or number (:func:`_laid_otherwise`). A
    picture in which nothing is found is taken as a flat scan of the card, upright."""
    dets = detector.detect(image)
    found = [d for d in dets if d.card == label.replace("10", "T")]
    if not found:
        other = [
            d for d in dets if d.card and d.confidence >= SURE and _laid_otherwise(d.card, label)
        ]
        if other:
            d = other[0]
            return None, f"the card in it reads surely as {d.card} ({d.confidence:.2f})"
        found = sorted(dets, key=lambda d: -cv2.contourArea(d.quad.astype(np.float32)))
    if not found:
        h, w = image.shape[:2]
        if h < w:
            image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        card, _ = light_stock(cv2.resize(image, CARD_SIZE, interpolation=cv2.INTER_AREA))
        return _View(card, (0, 1)), ""
    det: Detection = found[0]
    card, _ = light_stock(rectify(image, det.quad, CARD_SIZE))
    return _View(card, (0,) if detector.found_by_index(det) else (0, 1)), ""


Sample = tuple[str, np.ndarray] | tuple[str, np.ndarray, str]


def learn_deck(
    samples: Iterable[Sample],
    detector: CardDetector | None = None,
    report: LearnReport | None = None,
) -> DeckGlyphs:
    """Learn a deck's glyphs from ``(label, image)`` pairs (label like ``10C`` or ``TC``;
    an image may also carry a name, as ``(label, image, name)``, for the report).
    ``detector`` finds the cards (a generic one: the deck is not learned yet)."""
    detector = detector or CardDetector()
    report = report if report is not None else LearnReport()
    rank_x, rank_y, suit_x, suit_y, suit_ink = [], [], [], [], []
    black_x, black_y = [], []
    for sample in samples:
        label, image = sample[0], sample[1]
        name = sample[2] if len(sample) > 2 else label
        label = label_of(label) or label
        rank, suit = label[:-1], label[-1]
        report.pictures += 1
        view, why = _view(image, label, detector)
        colour = not colourless(image)  # a grey picture shows no suit's colour
        learned = 0
        # the corners' glyphs as the reader finds them, its second look at a corner in
        # shadow included (lit evenly first): what a frame of play will show it
        found = detector.reader.find_indices(view.card) if view is not None else None
        for k in view.corners if view is not None and found is not None else ():
            g = found.found[k]
            if g is None:
                continue
            rank_x.append(glyphs.normalise(g.rank))
            rank_y.append(RANKS.index(rank))
            suit_x.append(glyphs.normalise(g.suit))
            suit_y.append(SUITS.index(suit))
            suit_ink.append(g.ink_ab if colour else (np.nan, np.nan))
            if suit in BLACK_SUITS and g.suit_score is not None:
                soft = glyphs.normalise_soft(g.suit_score)
                if soft is not None:
                    black_x.append(soft)
                    black_y.append(BLACK_SUITS.index(suit))
            learned += 1
        if learned:
            report.used += 1
            report.cards.add(label.replace("10", "T"))
        else:
            report.skipped.append((name, why or "no index found in its corners"))
    if not rank_x:
        return DeckGlyphs()
    return DeckGlyphs(
        glyphs.features(np.stack(rank_x)),
        np.array(rank_y, np.int32),
        glyphs.features(np.stack(suit_x)),
        np.array(suit_y, np.int32),
        np.array(suit_ink, np.float32),
        glyphs.features(np.stack(black_x)) if black_x else np.zeros((0, 0), np.float32),
        np.array(black_y, np.int32),
    )


def pictures(folder: Path) -> Iterable[tuple[str, np.ndarray, str]]:
    """The labelled pictures of a capture folder: (card, image, file name)."""
    for p in sorted(folder.iterdir()):
        label = label_of(p.name)
        img = read_image(p) if label else None
        if img is not None and label is not None:
            yield label, img, p.name


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("dir", type=Path)
    ap.add_argument("out", type=Path)
    args = ap.parse_args(argv)
    report = LearnReport()
    learned = learn_deck(pictures(args.dir), report=report)
    for name, why in report.skipped:
        print(f"passed over {name}: {why}")
    learned.save(args.out)
    print(
        f"learn_deck pictures={report.pictures} used={report.used} "
        f"glyphs={len(learned.rank_y)} out={args.out}"
    )
    return 0 if len(learned.rank_y) else 1


if __name__ == "__main__":
    raise SystemExit(main())
