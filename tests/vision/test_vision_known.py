"""Reads kept from frame to frame: a card lying where it lay, its patch of table unchanged,
keeps its read; a card swapped in place, one read only doubtfully, a read kept too long,
and every card once the zones change, are read again."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from controller.readers.camera import CameraReader, IterableSource
from vision.detector import CardDetector
from vision.known import KnownReads
from vision.synth import CardSpec, a_card_later, scene
from vision.tracker import TrackerConfig
from vision.zones import ZoneMap

SPOTS = {"south": (640, 760), "west": (250, 480), "north": (640, 200), "east": (1030, 480)}
PLAY = [
    CardSpec("QS", SPOTS["south"], 280.0, 15.0),
    CardSpec("7H", SPOTS["west"], 270.0, 100.0),
    CardSpec("TD", SPOTS["north"], 290.0, 200.0),
    CardSpec("3C", SPOTS["east"], 260.0, 300.0),
]


def again(frame: np.ndarray, seed: int) -> np.ndarray:
    """The same table a frame later: fresh sensor noise and JPEG loss."""
    rng = np.random.default_rng(seed)
    noisy = np.clip(frame.astype(np.float32) + rng.normal(0, 4, frame.shape), 0, 255)
    return cv2.imdecode(cv2.imencode(".jpg", noisy.astype(np.uint8))[1], cv2.IMREAD_COLOR)


class CountingReads(CardDetector):
    """The real detector, counting the outlines it read afresh as a card the tracker
    counts (what a kept read saves: the warp, both indices, the pips)."""

    def __init__(self) -> None:
        super().__init__()
        self.whole_reads = 0

    def _read_alternatives(self, frame_bgr, group):  # type: ignore[no-untyped-def]
        kept = super()._read_alternatives(frame_bgr, group)
        self.whole_reads += kept.card is not None and kept.confidence >= 0.5
        return kept


def cards_of(dets) -> set[str]:  # noqa: ANN001
    return {d.card for d in dets if d.card and d.confidence >= 0.5}


def test_a_card_played_beside_three_known_reads_only_the_new_one():
    before, after, _ = a_card_later(PLAY, seed=21)
    detector = CountingReads()
    afresh = cards_of(detector.detect(after))
    cold = detector.whole_reads
    known: KnownReads = KnownReads()
    assert cards_of(detector.detect(before, known=known)) == {"QS", "7H", "TD"}
    detector.whole_reads = 0
    got = cards_of(detector.detect(after, known=known))
    assert got == afresh == {"QS", "7H", "TD", "3C"}
    assert (cold, detector.whole_reads) == (4, 1)


def test_a_card_swapped_in_its_spot_is_read_again():
    """The same table, camera, place and angle; only the card differs (as in
    tests/vision/test_vision_still.py): its outline is the same, its patch is not."""
    detector = CardDetector()
    for first, then in (("9H", "6H"), ("6H", "6S"), ("KD", "QD")):
        known: KnownReads = KnownReads()
        one, _ = scene([CardSpec(first, SPOTS["south"], 280.0, 20.0)], seed=5)
        other, _ = scene([CardSpec(then, SPOTS["south"], 280.0, 20.0)], seed=5)
        assert cards_of(detector.detect(one, known=known)) == {first}
        assert cards_of(detector.detect(other, known=known)) == {then}, f"{first} -> {then}"


def test_a_still_card_keeps_its_read_for_at_most_most_frames():
    frame, _ = scene([CardSpec("8C", SPOTS["west"], 280.0, 40.0)], seed=8)
    detector = CountingReads()
    known: KnownReads = KnownReads(most=4)
    counts = []
    for k in range(9):
        detector.whole_reads = 0
        assert cards_of(detector.detect(again(frame, k), known=known)) == {"8C"}
        counts.append(detector.whole_reads > 0)
    assert counts == [True, False, False, False, False, True, False, False, False]


def test_a_doubtful_read_is_read_again():
    """A card read below the tracker's count may read better in the next frame."""
    frame, _ = scene([CardSpec("5S", SPOTS["north"], 280.0, 70.0)], seed=6)

    class Doubting(CardDetector):
        """Every outline read at 0.3 at most, each fresh read noted."""

        fresh: list[str | None] = []

        def _read_alternatives(self, frame_bgr, group):  # type: ignore[no-untyped-def]
            kept = super()._read_alternatives(frame_bgr, group)
            self.fresh.append(kept.card)
            return dataclasses.replace(kept, confidence=min(kept.confidence, 0.3))

    detector = Doubting()
    known: KnownReads = KnownReads()
    for k in range(3):
        detector.fresh.clear()
        dets = detector.detect(again(frame, k), known=known)
        assert "5S" in [d.card for d in dets]
        assert "5S" in detector.fresh, f"frame {k}: a doubtful read was kept"


def test_kept_reads_follow_the_outline_and_its_patch():
    """The store alone: near outlines recall, far ones and changed patches do not, and
    a frame of another size or a forget() keeps nothing."""
    frame, placed = scene([CardSpec("2D", SPOTS["east"], 280.0, 10.0)], seed=2)
    quad = placed[0].quad.astype(np.float32)
    known: KnownReads[str] = KnownReads()
    known.start(frame)
    known.keep(quad, "2D")
    known.finish()
    known.start(again(frame, 1))
    assert known.recall(quad + 2.0) == "2D"
    assert known.recall(quad) is None  # recalled once a frame
    known.finish()
    known.start(again(frame, 2))
    assert known.recall(quad + 6.0) is None  # another outline
    assert known.recall(quad) == "2D"  # kept on from the frame it was recalled in
    known.finish()
    covered = again(frame, 3)
    cv2.rectangle(covered, (980, 400), (1080, 560), (30, 30, 30), -1)  # a hand over it
    known.start(covered)
    assert known.recall(quad) is None
    known.finish()
    known.start(frame)
    known.keep(quad, "2D")
    known.finish()
    known.start(cv2.resize(frame, (640, 480)))
    assert known.recall(quad) is None
    known.finish()
    known.start(frame)
    known.keep(quad, "2D")
    known.finish()
    known.forget()
    known.start(frame)
    assert known.recall(quad) is None


def test_an_outline_kept_twice_in_a_frame_keeps_its_last_read():
    """The detector reads a light table's frame twice (the second time with the edge
    mask): an outline read as nothing, then as a card, is kept once, as the card."""
    frame, placed = scene([CardSpec("2D", SPOTS["east"], 280.0, 10.0)], seed=2)
    quad = placed[0].quad.astype(np.float32)
    known: KnownReads[str] = KnownReads()
    known.start(frame)
    known.keep(quad, "nothing")
    known.keep(quad + 5.0, "another outline")
    known.keep(quad, "2D")
    known.finish()
    known.start(again(frame, 1))
    assert known.recall(quad) == "2D"
    assert known.recall(quad) is None  # once
    assert known.recall(quad + 5.0) == "another outline"


@pytest.mark.parametrize("new_zones", [False, True])
def test_the_camera_reader_keeps_reads_until_its_zones_change(new_zones):
    before, after, _ = a_card_later(PLAY, seed=21)
    zones = ZoneMap.rectangles({"seat0": (440, 560, 400, 400)})
    detector = CountingReads()

    frames = [before, after]

    reader = CameraReader(IterableSource(frames), zones, detector=detector, tracker=TrackerConfig())
    reader.poll()
    if new_zones:
        reader.zones = ZoneMap.rectangles({"seat0": (440, 560, 400, 400)})
    detector.whole_reads = 0
    reader.poll()
    assert {d.card for d in reader.last_detections if d.card} >= {"QS", "7H", "TD", "3C"}
    assert detector.whole_reads == (4 if new_zones else 1)


def test_a_read_forced_on_a_still_table_reads_every_card_afresh():
    """vision.still reads a still table every ``most`` frames so nothing stays stale:
    that read must not be answered from the kept reads."""
    from vision.still import StillFrames

    frame, _ = scene([CardSpec("8C", SPOTS["west"], 280.0, 40.0)], seed=8)
    detector = CountingReads()

    frames = [again(frame, k) for k in range(7)]

    zones = ZoneMap.rectangles({"seat1": (50, 280, 400, 400)})
    reader = CameraReader(
        IterableSource(frames), zones, detector=detector, still=StillFrames(most=2)
    )
    fresh = []
    while not reader.finished:
        detector.whole_reads = 0
        reader.poll()
        fresh.append(detector.whole_reads)
    # read, skipped twice, forced (afresh), skipped twice, forced (afresh), end of frames
    assert fresh == [1, 0, 0, 1, 0, 0, 1, 0], fresh


def test_a_card_lying_still_is_not_outlined_again(monkeypatch):
    """The blob a card makes in a mask, found again with its box and area over an
    unchanged patch, keeps the outlines fitted to it before (its sides' least-squares
    fit, its cuts along edges); the new card's blob is fitted."""
    import vision.locate as locate

    fitted = []
    real = locate._outline_blob

    def counting(c, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        fitted.append(cv2.boundingRect(c))
        return real(c, *args, **kwargs)

    monkeypatch.setattr(locate, "_outline_blob", counting)
    before, after, _ = a_card_later(PLAY, seed=21)
    detector = CardDetector()
    detector.detect(after)
    afresh = len(fitted)
    known: KnownReads = KnownReads()
    detector.detect(before, known=known)
    fitted.clear()
    assert cards_of(detector.detect(after, known=known)) == {"QS", "7H", "TD", "3C"}
    assert afresh - len(fitted) >= 3, (afresh, fitted)


def test_a_card_moved_a_little_is_outlined_where_it_now_lies():
    detector = CardDetector()
    known: KnownReads = KnownReads()
    for x in (640, 652, 652, 640):
        frame, placed = scene([CardSpec("JH", (x, 480), 280.0, 30.0)], seed=12)
        got = [d for d in detector.detect(frame, known=known) if d.card == "JH"]
        assert len(got) == 1
        assert abs(got[0].center[0] - placed[0].quad[:, 0].mean()) < 2.0, (x, got[0].center)


def test_a_trick_played_card_by_card_is_seen_with_kept_reads():
    """A trick under one camera and one light, a card put down at a time, three frames
    of each (fresh sensor noise): every play reported, in order, and the cards already
    down are not read again."""
    from vision.synth import camera, card_face, place, table

    img = table(np.random.default_rng(3))
    video = []
    for k, spec in enumerate(PLAY):
        place(
            img,
            card_face(spec.card),
            spec.center,
            spec.height_px,
            spec.angle_deg,
            np.random.default_rng(40 + k),
            card=spec.card,
        )
        shot = camera(img, np.random.default_rng(7))  # the same light for every frame
        video += [again(shot, 10 * k + n) for n in range(3)]

    zones = ZoneMap.rectangles(
        {
            "seat0": (440, 560, 400, 400),
            "seat1": (50, 280, 400, 400),
            "seat2": (440, 0, 400, 400),
            "seat3": (830, 280, 400, 400),
        }
    )
    detector = CountingReads()
    reader = CameraReader(
        IterableSource(video), zones, detector=detector, tracker=TrackerConfig(frames_to_play=2)
    )
    seen = []
    while not reader.finished:
        seen += reader.poll()
    assert [(s.zone, s.card) for s in seen] == [
        ("seat0", "QS"),
        ("seat1", "7H"),
        ("seat2", "TD"),
        ("seat3", "3C"),
    ]
    assert detector.whole_reads == 4, detector.whole_reads  # each card read once


def test_the_camera_reader_makes_each_frames_thumbnail_once(monkeypatch):
    """vision.still has made the thumbnail of the frame it lets through; the kept reads
    take that one (a thumbnail of the wrong size is made afresh)."""
    import vision.known as known_module

    made = []
    real = known_module.thumbnail

    def counting(frame_bgr, size):  # noqa: ANN001, ANN202
        made.append(size)
        return real(frame_bgr, size)

    monkeypatch.setattr(known_module, "thumbnail", counting)
    before, after, _ = a_card_later(PLAY, seed=21)

    frames = [before, after]

    zones = ZoneMap.rectangles({"seat0": (440, 560, 400, 400)})
    reader = CameraReader(IterableSource(frames), zones, detector=CardDetector())
    while not reader.finished:
        reader.poll()
    assert reader.frames_read == 2 and made == []
    known: KnownReads = KnownReads()
    known.prime(np.zeros((10, 10), np.uint8))
    known.start(before)
    assert made == [known.size]
