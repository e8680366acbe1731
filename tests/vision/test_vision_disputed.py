"""An outline whose two corners read two cards: the surer corner's card, as the
detector's last resort, where no other search explains the outline (a pile outlined as
one is two cards, read one by one)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detector import CardDetector, Detection
from vision.reader import LONE_CORNER, CardRead, CardReader, CornerRead
from vision.synth import CardSpec, scene


def _quad(cx: float, cy: float, w: float = 100.0, h: float = 140.0) -> np.ndarray:
    return np.array(
        [[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]],
        np.float32,
    )


class _DisagreeingCorners(CardReader):
    """The real reader, except that a card whose two corners hold an index reads
    ``reads`` there (so its read is no card: the corners must agree), and a corner read
    alone holds no glyph (so no search that reads one corner finds the card instead)."""

    def __init__(self, reads: list[CornerRead]) -> None:
        super().__init__()
        self.reads = reads

    def corner_reads(self, pr, ps, pips=None):  # type: ignore[no-untyped-def]
        if len(pr) == 2:
            return list(self.reads)
        return [CornerRead("junk", "junk", 0.9) for _ in range(len(pr))]


def test_a_lone_card_whose_corners_disagree_is_reported_by_the_surer_one() -> None:
    """A jack whose other corner weakly reads a ten: the jack, counted, never sure."""
    frame, _ = scene([CardSpec("JC", (640.0, 480.0), 300.0, 10.0)], seed=3)
    detector = CardDetector()
    detector.reader = _DisagreeingCorners([CornerRead("J", "C", 0.95), CornerRead("10", "C", 0.2)])
    got = [(d.card, d.confidence) for d in detector.detect(frame) if d.card]
    assert got == [("JC", pytest.approx(0.95 * LONE_CORNER * 0.8))]


def test_a_fair_other_corner_leaves_it_unread() -> None:
    frame, _ = scene([CardSpec("JC", (640.0, 480.0), 300.0, 10.0)], seed=3)
    detector = CardDetector()
    detector.reader = _DisagreeingCorners([CornerRead("J", "C", 0.95), CornerRead("10", "C", 0.45)])
    assert not [d for d in detector.detect(frame) if d.card]


def _settled(found: list[Detection], disputed: list[tuple[Detection, str, float]]) -> list:
    detector = CardDetector()
    detector._disputed = {id(d): (d, card, c) for d, card, c in disputed}
    return sorted((d.card or "-", round(d.confidence, 2)) for d in detector._settle_disputes(found))


@pytest.mark.parametrize(
    ("found", "disputed", "reported"),
    [
        # nothing else explains the outline: the surer corner's card replaces it
        ([Detection(_quad(300, 300), None, 0.0)], "KS", [("KS", 0.6)]),
        # that card is read elsewhere in the frame: one deck, so not this outline
        (
            [Detection(_quad(300, 300), None, 0.0), Detection(_quad(700, 300), "KS", 0.8)],
            "KS",
            [("-", 0.0), ("KS", 0.8)],
        ),
        # a card read lies in the outline: a pile outlined as one, read card by card
        (
            [Detection(_quad(300, 300, 200, 280), None, 0.0), Detection(_quad(330, 330), "5S", 0.75)],
            "8C",
            [("-", 0.0), ("5S", 0.75)],
        ),
    ],
)
def test_a_disputed_outline_is_settled_only_where_nothing_else_explains_it(
    found: list[Detection], disputed: str, reported: list[tuple[str, float]]
) -> None:
    assert _settled(found, [(found[0], disputed, 0.6)]) == reported


def test_the_dispute_outlives_the_outline_it_was_read_in() -> None:
    """The unread outline may be dropped on the way (another outline of the same card
    kept in its place, or one found by the edges alone taken for the table): the dispute
    still stands for that card, and replaces what is left of it."""
    read_in = Detection(_quad(300, 300), None, 0.0)
    left = Detection(_quad(305, 298), None, 0.0)
    assert _settled([left], [(read_in, "QH", 0.55)]) == [("QH", 0.55)]


def test_the_surer_of_two_disputes_for_one_card_wins() -> None:
    a, b = Detection(_quad(300, 300), None, 0.0), Detection(_quad(700, 300), None, 0.0)
    assert _settled([a, b], [(a, "QH", 0.55), (b, "QH", 0.7)]) == [("-", 0.0), ("QH", 0.7)]


def test_a_read_whose_corners_disagree_stays_unread_in_the_reader() -> None:
    """The reader alone does not guess: a pile's outline shows two cards at its corners,
    and the searches for each of them run only where that outline reads as nothing."""
    reader = _DisagreeingCorners([CornerRead("J", "C", 0.95), CornerRead("10", "C", 0.2)])
    frame, placed = scene([CardSpec("JC", (640.0, 480.0), 300.0, 0.0)], seed=3)
    from vision.locate import rectify

    got: CardRead = reader.read(rectify(frame, placed[0].quad))
    assert got.card is None
