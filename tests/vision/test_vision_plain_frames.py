"""A frame whose cards the colour masks outline, and which read as cards the tracker
counts, is read without the edge mask (the costliest mask, there for light tables);
any other frame is read again with it, its colour masks and reads made once. The
shortcut must read every frame as the full search does. Scenes are rendered here."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.detector as detector_module
import vision.locate as locate_module
from vision import CardDetector
from vision.detector import Detection, _plain
from vision.known import KnownReads
from vision.stock import bare_stock
from vision.synth import LIGHT_TABLES, CardSpec, a_card_later, scene, scene_and_empty

FOUR = [
    CardSpec("QS", (640, 700), 260.0, 0.0),
    CardSpec("7H", (300, 480), 260.0, 25.0),
    CardSpec("TD", (640, 230), 260.0, 50.0),
    CardSpec("3C", (980, 480), 260.0, 75.0),
]


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Counts the calls of ``vision.locate.<name>`` (the real function still runs)."""
    calls = [0]
    real = getattr(locate_module, name)

    def counted(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(locate_module, name, counted)
    return calls


def half_light(seed: int) -> np.ndarray:
    """A card on a dark cloth beside one on a light table (the frame's right half): the
    colour masks outline the first; the second's stock is as light as the table."""
    left, _ = scene([CardSpec("7D", (330, 480), 300, 15)], seed=seed, glare=False)
    right, _ = scene(
        [CardSpec("KS", (950, 480), 300, -20)],
        seed=seed,
        glare=False,
        table_colour=LIGHT_TABLES[0],
    )
    frame = left.copy()
    frame[:, 640:] = right[:, 640:]
    return frame


def cards(dets: list[Detection]) -> list[str]:
    return sorted(d.card for d in dets if d.card)


def test_cards_the_colour_masks_outline_need_no_edge_mask(
    detector: CardDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    edges = counting(monkeypatch, "edge_regions")
    frame, _ = scene(FOUR, seed=11)
    dets = detector.detect(frame)
    assert cards(dets) == ["3C", "7H", "QS", "TD"]
    assert all(d.confidence >= 0.5 for d in dets)
    assert edges[0] == 0


def test_cards_the_first_paper_mask_outlines_need_no_other_mask(
    detector: CardDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four cards on a dark cloth, each outlined by the first paper mask and read from
    both corners: the whiter paper and the table masks (about a tenth of a frame's
    time) are not made."""
    masks = counting(monkeypatch, "_quads_in_mask")
    frame, _ = scene(FOUR, seed=11)
    dets = detector.detect(frame)
    assert cards(dets) == ["3C", "7H", "QS", "TD"]
    assert masks[0] == 1


def tinted(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``frame`` with the card of ``quad`` dimmed and tinted (a coloured lamp's pool, a
    shadow): too dark and too coloured for the first paper mask."""
    inside = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillPoly(inside, [quad.astype(np.int32)], 1)
    out = frame.astype(np.float32)
    out[inside > 0] *= np.array([0.44, 0.64, 0.8], np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def test_a_card_the_first_paper_mask_leaves_out_calls_for_the_other_masks(
    detector: CardDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three cards read whole from the first paper mask and a fourth it leaves out (dim
    and tinted): something brighter than the table lies outside the cards read, so the
    other colour masks are made, and the table mask outlines the fourth. Without that
    look (``bright_elsewhere``) the frame would pass as read."""
    frame, placed = scene(FOUR, seed=11)
    frame = tinted(frame, placed[3].quad)
    masks = counting(monkeypatch, "_quads_in_mask")
    assert cards(detector.detect(frame)) == ["3C", "7H", "QS", "TD"]
    assert masks[0] > 1
    monkeypatch.setattr(detector_module, "bright_elsewhere", lambda *args: False)
    assert cards(detector.detect(frame)) == ["7H", "QS", "TD"]


def test_a_light_table_is_searched_with_the_edge_mask_its_colour_masks_made_once(
    detector: CardDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    edges = counting(monkeypatch, "edge_regions")
    paper = counting(monkeypatch, "paper_masks")
    corners_read: list[bytes] = []
    find_indices = detector.reader.find_indices

    def noted(card_bgr: np.ndarray):  # noqa: ANN202
        corners_read.append(card_bgr.tobytes())
        return find_indices(card_bgr)

    monkeypatch.setattr(detector.reader, "find_indices", noted)
    dets = detector.detect(half_light(seed=0))
    assert cards(dets) == ["7D", "KS"]
    assert edges[0] == 1
    assert paper[0] == 1  # the second pass reuses the first's masks
    assert corners_read and len(set(corners_read)) == len(corners_read)  # and its reads


def test_the_shortcut_reads_every_frame_as_the_full_search(
    detector: CardDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    frames = [scene(FOUR, seed=s)[0] for s in (11, 12)]
    frames += [scene(FOUR, seed=3, table_colour=LIGHT_TABLES[k])[0] for k in (0, 1)]
    frames += [half_light(seed) for seed in (0, 1)]
    # a pile: each card dropped partly on the one before
    pile = [
        CardSpec(c, (520 + 70 * k, 420 + 30 * k), 280.0, 20.0 * k)
        for k, c in enumerate("AS KD 9C 4H".split())
    ]
    frames.append(scene(pile, seed=5)[0])

    def seen(dets: list[Detection]) -> list[tuple]:
        return sorted(
            (str(d.card), round(d.confidence, 4), tuple(np.round(d.quad.ravel(), 2))) for d in dets
        )

    shortcut = [seen(detector.detect(f)) for f in frames]
    edges = counting(monkeypatch, "edge_regions")
    monkeypatch.setattr(detector_module, "_plain", lambda *args: False)
    full = [seen(detector.detect(f)) for f in frames]
    assert edges[0] == len(frames)  # the full search, every time
    assert shortcut == full


def test_plain_means_every_outline_read_as_a_counted_card_and_no_bare_stock() -> None:
    frame, placed = scene(FOUR, seed=11)
    quads = [p.quad.astype(np.float32) for p in placed]
    read = [Detection(q, s.card, 0.95) for q, s in zip(quads, FOUR, strict=True)]
    assert _plain(frame, read)
    assert not _plain(frame, [])
    assert not _plain(frame, [*read[:3], Detection(quads[3], None, 0.0)])  # one unread
    assert not _plain(frame, [*read[:3], Detection(quads[3], "3C", 0.45)])  # one weak
    # on a light table the stock round the cards is as white as theirs: cards may lie
    # there that only the edge mask outlines
    light, placed = scene(FOUR, seed=3, table_colour=LIGHT_TABLES[1])
    quads = [p.quad.astype(np.float32) for p in placed]
    assert not _plain(light, [Detection(q, s.card, 0.95) for q, s in zip(quads, FOUR, strict=True)])


def held(known: KnownReads) -> list[bytes]:
    """The outlines whose reads the next frame holds."""
    return [k.quad.tobytes() for k in known._kept if k.kind == "read"]


class NotingKeeps(KnownReads):
    """The camera's kept reads, noting each outline kept in the frame being read."""

    def start(self, frame_bgr: np.ndarray) -> None:
        super().start(frame_bgr)
        self.kept_now: list[bytes] = []

    def keep(self, quad: np.ndarray, read, kind="read") -> None:  # noqa: ANN001
        if kind == "read":
            self.kept_now.append(np.asarray(quad, np.float32).tobytes())
        super().keep(quad, read, kind)


def test_a_frame_read_twice_keeps_and_recalls_each_read_once(detector: CardDetector) -> None:
    """A light table's frame of play is read in several passes; a later one must neither
    leave the next frame two reads of one outline (one read as nothing from the first
    paper mask alone, then as its card with the other masks' outlines: the last read is
    the one kept) nor miss the reads an earlier pass recalled from the last frame (it
    would read those cards afresh)."""
    play = [
        CardSpec("QS", (640, 760), 280.0, 15.0),
        CardSpec("7H", (250, 480), 270.0, 100.0),
        CardSpec("TD", (640, 200), 290.0, 200.0),
        CardSpec("3C", (1030, 480), 260.0, 300.0),
    ]
    before, after, _ = a_card_later(play, seed=21, table_colour=LIGHT_TABLES[0])
    known = NotingKeeps()
    assert cards(detector.detect(before, known=known)) == ["7H", "QS", "TD"]
    assert len(set(held(known))) == len(held(known))
    dets = detector.detect(after, known=known)
    assert cards(dets) == ["3C", "7H", "QS", "TD"]
    assert len(set(held(known))) == len(held(known))
    # the three cards lying still were recalled, not kept afresh: only the new card
    # (and outlines that read as nothing) were read in this frame
    read_now = {
        d.card for d in dets if d.card and d.quad.astype(np.float32).tobytes() in known.kept_now
    }
    assert read_now == {"3C"}


def test_with_the_empty_table_a_white_cloth_is_not_bare_stock(detector: CardDetector) -> None:
    """On a calibrated table (its empty frame captured) stock as white as the cards is
    bare only where it differs from the empty table: a white cloth is no card the
    outlines missed, so a frame of cards all read on it is read without the edge mask;
    a card left out of the reads still is bare stock."""
    frame, empty, placed = scene_and_empty(FOUR, seed=3, table_colour=LIGHT_TABLES[1])
    quads = [p.quad.astype(np.float32) for p in placed]
    read = [Detection(q, s.card, 0.95) for q, s in zip(quads, FOUR, strict=True)]
    assert bare_stock(frame, read)  # the cloth, without the reference
    assert not bare_stock(frame, read, empty)
    assert bare_stock(frame, read[:3], empty)  # the fourth card, missed
    assert _plain(frame, read, empty) and not _plain(frame, read)


def test_a_calibrated_light_table_reads_as_the_full_search_without_the_edge_mask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    frame, empty, _ = scene_and_empty(FOUR, seed=2, table_colour=LIGHT_TABLES[1])
    calibrated = CardDetector(empty=empty)
    edges = counting(monkeypatch, "edge_regions")
    dets = calibrated.detect(frame)
    assert cards(dets) == ["3C", "7H", "QS", "TD"]
    assert edges[0] == 0
    monkeypatch.setattr(detector_module, "_plain", lambda *args: False)
    full = calibrated.detect(frame)
    assert sorted((d.card, round(d.confidence, 4)) for d in full) == sorted(
        (d.card, round(d.confidence, 4)) for d in dets
    )


@pytest.mark.parametrize("seed", [2, 4, 5])
def test_a_calibrated_wood_table_reads_a_ten_as_a_ten(seed: int) -> None:
    """The empty-table difference outlines a card with its drop shadow and the blur's
    spread, a few pixels too big: read first, it cut a ten's "1" off its index corners
    and read the ten as a queen (surely enough to count). The paper masks' tighter
    outline is read first now, the difference's where they find none."""
    frame, empty, _ = scene_and_empty(FOUR, seed=seed, table_colour=LIGHT_TABLES[0])
    got = {d.card: d.confidence for d in CardDetector(empty=empty).detect(frame) if d.card}
    assert got.get("TD", 0.0) >= 0.5
    assert "QD" not in got


def test_a_card_read_from_one_corner_is_not_read_again_from_its_other() -> None:
    """A ten lying under a lamp's glare: its outline runs into the glare and it is read
    from its lower corner alone; its upper index, the "1" washed out, was read again by
    the corner-index search as a queen of its suit, surely enough to count (one card
    read twice). An index pair in the outline's unread half, whose card would have its
    far index where the outline's corner was read, is that card's own."""
    specs = [  # (drawn at random once; the ten's glare depends on every digit)
        CardSpec(
            "QS", (946.5270734190849, 572.6015229146021), 298.7248730646733, 212.3970094838197
        ),
        CardSpec(
            "KH", (517.7659897527252, 712.2174798629432), 276.3033752297911, 229.6787690837996
        ),
        CardSpec(
            "TD", (333.47292658091504, 387.3984770853979), 280.5870146287673, 54.283686900612736
        ),
        CardSpec(
            "4C", (762.2340102472748, 247.78252013705682), 266.41880803129123, 86.2430262586284
        ),
    ]
    frame, empty, _ = scene_and_empty(specs, seed=205, table_colour=LIGHT_TABLES[2])
    for reference in (empty, None):
        got = {d.card: d.confidence for d in CardDetector(empty=reference).detect(frame)}
        assert got.get("TD", 0.0) >= 0.5
        assert got.get("QD", 0.0) < 0.5


def test_bare_stock_is_looked_for_once_for_the_same_cards(
    detector: CardDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, ...]] = []
    real = detector_module.bare_stock

    def counted(frame, found, empty=None, coarse=None):  # noqa: ANN001, ANN202
        calls.append(tuple(sorted(d.card for d in found if d.card)))
        return real(frame, found, empty, coarse)

    monkeypatch.setattr(detector_module, "bare_stock", counted)
    frame, _ = scene(FOUR, seed=11)
    assert cards(detector.detect(frame)) == ["3C", "7H", "QS", "TD"]
    # asked when the frame is found plain and again before its cards are reported
    assert calls == [("3C", "7H", "QS", "TD")]
    # a frame later, worked out afresh (the memo is the frame's own)
    assert cards(detector.detect(frame)) == ["3C", "7H", "QS", "TD"]
    assert len(calls) == 2
