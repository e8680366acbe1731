"""The table plane: an oblique camera reads like an overhead one once frames are
warped top-down with the homography from calibration. Scenes are rendered here."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.readers.camera import CameraReader, IterableSource
from controller.readers.zone_file import save_zone_map
from vision import CardDetector
from vision.plane import TablePlane, plane_from_markers, plane_from_square
from vision.synth import camera, card_face, place, table, tilted_view
from vision.warp import warp_perspective
from vision.zones import ZoneMap, marker_image, plane_from_zones, zones_from_markers

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_vision_find import LIGHT_TABLES, TOUCHING_ROW, gold_on_black, no_light_ink  # noqa: E402

#: Play spots on the table, seen from straight above (1280x960), and their cards.
SPOTS = {0: (640, 760), 1: (250, 480), 2: (640, 200), 3: (1030, 480)}
CARDS = {0: "AS", 1: "TD", 2: "7H", 3: "QC"}
#: A camera about 45° from vertical: the far side of the table shrinks and the whole
#: view is squashed front to back.
OBLIQUE = cv2.getPerspectiveTransform(
    np.array([[0, 0], [1280, 0], [1280, 960], [0, 960]], np.float32),
    np.array([[250, 250], [1030, 250], [1280, 920], [0, 920]], np.float32),
)


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def top_down(with_cards: bool, seed: int = 5) -> np.ndarray:
    """The table from above: a marker on each seat's spot, and the cards over them."""
    rng = np.random.default_rng(seed)
    img = table(rng, colour=(40, 110, 30))
    for mid, (cx, cy) in SPOTS.items():
        m = cv2.cvtColor(marker_image(mid, 60), cv2.COLOR_GRAY2BGR)
        h, w = m.shape[:2]
        img[cy - h // 2 : cy - h // 2 + h, cx - w // 2 : cx - w // 2 + w] = m
    if with_cards:
        for seat, card in CARDS.items():
            place(img, card_face(card), SPOTS[seat], 340, 10 * seat, rng, tilt=0.0)
    return img


def oblique(img: np.ndarray, seed: int = 1) -> np.ndarray:
    warped = warp_perspective(img, OBLIQUE, (1280, 960), cv2.BORDER_REPLICATE)
    return camera(warped, np.random.default_rng(seed), glare=False)


def test_markers_give_the_tables_plane() -> None:
    frame = oblique(top_down(False))
    zones = zones_from_markers(frame)
    assert zones.plane is not None
    # in the table view, the spots are where they are on the table, up to one scale
    ref = cv2.perspectiveTransform(
        np.array([SPOTS[i] for i in range(4)], np.float32).reshape(-1, 1, 2), OBLIQUE
    ).reshape(-1, 2)
    got = zones.plane.to_table(ref)
    d = np.linalg.norm(got - got[[1, 2, 3, 0]], axis=1)  # adjacent spots: equal on a square
    assert d.max() / d.min() < 1.05


def test_an_oblique_camera_reads_like_an_overhead_one(detector: CardDetector) -> None:
    zones = zones_from_markers(oblique(top_down(False)))
    # six frames, as a camera keeps sending them: in one of them (seed 1, the blurriest)
    # the far card's club is a blot read as a spade, which must not become a play, and
    # the tracker then waits for its three frames in a row
    reader = CameraReader(
        IterableSource([oblique(top_down(True), s) for s in range(6)]), zones, detector=detector
    )
    seen = []
    while not reader.finished:
        seen += reader.poll()
    assert sorted((s.zone, s.card) for s in seen) == [
        ("seat0", "AS"),
        ("seat1", "TD"),
        ("seat2", "7H"),
        ("seat3", "QC"),
    ]
    # the dashboard still draws on the camera's own frame
    cards = [d for d in reader.last_detections if d.card]
    assert len(cards) == 4
    for d in cards:
        assert 0 <= d.center[0] <= 1280 and 250 <= d.center[1] <= 960


def test_with_a_plane_a_still_card_keeps_its_read() -> None:
    """Kept reads (vision.known) are keyed in the frame's own pixels, so a table plane
    changes nothing: the same oblique table a frame later (fresh sensor noise) keeps all
    four reads."""
    from vision.known import KnownReads

    zones = zones_from_markers(oblique(top_down(False)))
    reads: list[str | None] = []

    class Noting(CardDetector):
        def _read_alternatives(self, frame_bgr, group):  # type: ignore[no-untyped-def]
            kept = super()._read_alternatives(frame_bgr, group)
            reads.append(kept.card)
            return kept

    detector = Noting(plane=zones.plane)
    first = oblique(top_down(True))
    rng = np.random.default_rng(9)
    later = np.clip(first.astype(np.float32) + rng.normal(0, 3, first.shape), 0, 255)
    known: KnownReads = KnownReads()
    assert {d.card for d in detector.detect(first, known=known) if d.card} == set(CARDS.values())
    assert {r for r in reads if r} == set(CARDS.values())
    reads.clear()
    got = detector.detect(later.astype(np.uint8), known=known)
    assert {d.card for d in got if d.card} == set(CARDS.values())
    assert not [r for r in reads if r], reads


def test_seat_boxes_marked_on_a_frame_give_a_plane(tmp_path: Path) -> None:
    centres = cv2.perspectiveTransform(
        np.array([SPOTS[i] for i in range(4)], np.float32).reshape(-1, 1, 2), OBLIQUE
    ).reshape(-1, 2)
    boxes = {
        f"seat{i}": (float(x) - 60, float(y) - 60, 120.0, 120.0) for i, (x, y) in enumerate(centres)
    }
    zones = ZoneMap.rectangles(boxes, (1280, 960))
    plane = plane_from_zones(zones)
    assert plane is not None
    # the view is not mirrored: the seats keep their turning sense
    t = plane.to_table(centres)
    area = sum(t[i, 0] * t[(i + 1) % 4, 1] - t[(i + 1) % 4, 0] * t[i, 1] for i in range(4))
    c = centres
    frame_area = sum(c[i, 0] * c[(i + 1) % 4, 1] - c[(i + 1) % 4, 0] * c[i, 1] for i in range(4))
    assert np.sign(area) == np.sign(frame_area)
    # saved and loaded with the zones, in frame and in table coordinates
    zones = zones.with_plane(plane)
    save_zone_map(zones, tmp_path / "z.json", np.zeros((960, 1280, 3), np.uint8))
    back = ZoneMap.load(tmp_path / "z.json")
    assert back.plane is not None and np.allclose(back.plane.homography, plane.homography)
    assert back.in_table().zone_at(tuple(t[2])) == "seat2"
    assert back.empty_table() is not None


def test_plane_helpers_round_trip() -> None:
    square = np.array([[100, 100], [300, 120], [310, 330], [90, 300]], np.float32)
    plane = plane_from_square(square, (640, 480))
    back = plane.to_frame(plane.to_table(square))
    assert np.allclose(back, square, atol=1e-2)
    assert TablePlane.from_json(plane.to_json()).size == plane.size
    assert plane_from_markers({}, (640, 480)) is None


def test_calibrate_command_keeps_the_plane_and_the_empty_table(tmp_path: Path) -> None:
    from controller.cli import main

    cv2.imwrite(str(tmp_path / "empty.png"), oblique(top_down(False)))
    centres = cv2.perspectiveTransform(
        np.array([SPOTS[i] for i in range(4)], np.float32).reshape(-1, 1, 2), OBLIQUE
    ).reshape(-1, 2)
    args = ["calibrate", "--zones", str(tmp_path / "zones.json"), "--table-from-seats"]
    args += ["--empty", str(tmp_path / "empty.png")]
    for i, (x, y) in enumerate(centres):
        args += ["--box", f"seat{i}={x - 80:.0f},{y - 80:.0f},160,160"]
    assert main(args) == 0
    zones = ZoneMap.load(tmp_path / "zones.json")
    assert zones.plane is not None and zones.empty_table() is not None
    assert (
        main(
            [
                "calibrate",
                "--zones",
                str(tmp_path / "z2.json"),
                "--table-from-seats",
                "--box",
                "seat0=1,2,3,4",
            ]
        )
        == 1
    )


def _play(reader: CameraReader) -> tuple[list[tuple[str, str]], list[str]]:
    """(zone, card) of each play the reader reports, and the faults it says."""
    from controller.readers.sightings import CardSeen, ReaderFault

    seen, faults = [], []
    while not reader.finished:
        for s in reader.poll():
            if isinstance(s, CardSeen):
                seen.append((s.zone, s.card))
            elif isinstance(s, ReaderFault):
                faults.append(s.message)
    return sorted(seen), faults


def test_a_camera_set_to_more_pixels_keeps_the_zones_marked_on_fewer(
    detector: CardDetector, tmp_path: Path
) -> None:
    """Zones, plane and empty table marked on a 1280 x 960 frame; the camera then set to
    1920 x 1440 (more pixels for the far cards of an oblique camera): the zones scale
    with the frame, and the cards are placed on their seats."""
    empty = oblique(top_down(False))
    zones = zones_from_markers(empty)
    save_zone_map(zones, tmp_path / "zones.json", empty)
    marked = ZoneMap.load(tmp_path / "zones.json")
    big = [cv2.resize(oblique(top_down(True), s), (1920, 1440)) for s in range(4)]
    reader = CameraReader(IterableSource(big), marked, detector=detector)
    seen, faults = _play(reader)
    assert seen == sorted((f"seat{i}", c) for i, c in CARDS.items())
    assert not faults
    assert reader.zones.frame_size == (1920, 1440)
    assert reader.detector.empty is not None and reader.detector.empty.shape == (1440, 1920, 3)
    # each seat's spot, as the big frame shows it, lies in its own zone
    spots = cv2.perspectiveTransform(
        np.array([SPOTS[i] for i in range(4)], np.float32).reshape(-1, 1, 2), OBLIQUE
    ).reshape(-1, 2) * 1.5
    table = reader.zones.in_table()
    assert [table.zone_at(tuple(p)) for p in reader.zones.plane.to_table(spots)] == [
        f"seat{i}" for i in range(4)
    ]


def test_a_camera_of_another_shape_than_the_zones_is_a_fault_said_each_minute(
    detector: CardDetector,
) -> None:
    """A webcam giving 1280 x 720 where the zones were marked on 1280 x 960: scaled, the
    zones would lie elsewhere on the table. A fault says so, and again each minute (a
    table screen started after the referee hears it too); no card is placed until zones
    are marked on this camera's frame, and then the cards are read."""
    wide = [cv2.resize(top_down(True)[120:840], (1280, 720)) for _ in range(7)]
    marked = ZoneMap.rectangles(
        {f"seat{i}": (x - 150, y - 190, 300, 380) for i, (x, y) in SPOTS.items()}
    )
    times = iter([100.0, 130.0, 161.0, 170.0])  # when each frame comes
    now = [0.0]

    def frames():  # noqa: ANN202
        for frame in wide[:4]:
            now[0] = next(times)
            yield frame

    reader = CameraReader(IterableSource(frames()), marked, detector=detector, clock=lambda: now[0])
    seen, faults = _play(reader)
    assert seen == []
    assert len(faults) == 2  # at 100 s, and at 161 s (a minute on); not at 130 or 170
    assert "1280 x 720" in faults[0] and "1280 x 960" in faults[0]
    assert reader.last_frame is not None and reader.last_frame.shape == (720, 1280, 3)
    # marked again on this camera's frame
    reader = CameraReader(IterableSource(wide[4:]), marked, detector=detector)
    reader.zones = ZoneMap.rectangles(
        {f"seat{i}": (x - 150, y - 120 - 190, 300, 380) for i, (x, y) in SPOTS.items()},
        (1280, 720),
    )
    seen, faults = _play(reader)
    assert seen == sorted((f"seat{i}", c) for i, c in CARDS.items())
    assert not faults


@pytest.mark.parametrize("seed", [0, 1])
def test_with_no_plane_a_far_card_lying_across_a_slanted_view_is_read(
    detector: CardDetector, seed: int
) -> None:
    """A camera 45° from vertical and no calibration (a phone photo of a table): the far
    card, lying across the view, is squashed to about 2.4 times as long as it is deep,
    past the outline shapes a card seen square on can take. It is read, after the
    other cards, as the card it is."""
    from vision.locate import elongated

    spots = {0: (640, 780), 1: (340, 480), 2: (640, 180), 3: (940, 480)}
    cards = {0: "JC", 1: "AD", 2: "3H", 3: "3S"}
    rng = np.random.default_rng(seed)
    img = table(rng, (2560, 1920), colour=(60, 40, 70))
    for seat, (x, y) in spots.items():
        turn = 90.0 if seat == 2 else 20.0 * seat + 5
        place(img, card_face(cards[seat]), (2 * x, 2 * y), 2 * 265, turn, rng, tilt=0.0)
    view = tilted_view(45, (140, -20, 1140, 980), (1920, 1440)) @ np.diag([0.5, 0.5, 1])
    frame = warp_perspective(img, view, (1920, 1440), cv2.BORDER_REFLECT)
    frame = camera(frame, np.random.default_rng(seed + 10), glare=False)
    got = {d.card: d for d in detector.detect(frame) if d.card and d.confidence >= 0.5}
    assert set(got) == set(cards.values())
    assert elongated(got["3H"].quad)  # read in the outline so squashed


@pytest.mark.parametrize(
    "centres",
    [
        [(330, 410), (330, 50), (70, 230), (590, 240)],  # seat1 and seat2 swapped: crossed
        [(10, 10), (110, 10), (210, 10), (110, 310)],  # three seats in a line
        [(10, 10), (110, 10.5), (210, 11.5), (110, 310)],  # nearly so
    ],
)
def test_seats_that_make_no_square_round_the_table_give_no_plane(centres) -> None:
    """Seat boxes swapped, or three seats in a line: their plane would put two seats'
    cards (or all of them) outside every zone, and the camera would see no play, without
    a word. No plane is made, and calibration says why (before, it was saved)."""
    zones = ZoneMap.rectangles(
        {f"seat{i}": (x - 30, y - 30, 60, 60) for i, (x, y) in enumerate(centres)}, (640, 480)
    )
    assert plane_from_zones(zones) is None
    # a square seen at 45° (the oblique frame's spots) still gives one
    spots = cv2.perspectiveTransform(
        np.array([SPOTS[i] for i in range(4)], np.float32).reshape(-1, 1, 2), OBLIQUE
    ).reshape(-1, 2)
    good = ZoneMap.rectangles({f"seat{i}": (x - 30, y - 30, 60, 60) for i, (x, y) in enumerate(spots)})
    assert plane_from_zones(good) is not None


def _card_at_the_frames_edge() -> tuple[np.ndarray, np.ndarray, TablePlane]:
    """A frame of dark cloth with a card running off its left edge, the same table empty
    (captured in a little less light), and a plane whose view reaches past the frame's left corners (a camera at a slant)."""
    rng = np.random.default_rng(3)
    empty = table(rng, (1280, 960), (40, 110, 30))
    frame = empty.copy()
    place(frame, card_face("9S"), (60, 480), 340, 0, rng, tilt=0.0)
    frame = cv2.convertScaleAbs(frame, alpha=1.08)  # the lamp a little brighter since
    far = np.array([[640, 860], [340, 480], [640, 100], [940, 480]], np.float32)
    squashed = cv2.perspectiveTransform(far.reshape(-1, 1, 2), OBLIQUE).reshape(-1, 2)
    return frame, empty, plane_from_square(squashed, (1280, 960), margin=1.2)


def _beyond(plane: TablePlane, shape: tuple[int, ...]) -> np.ndarray:
    """The view's pixels that lie beyond the frame."""
    inside = plane.rectify(np.full(shape[:2], 255, np.uint8), fill=(0,))
    return inside == 0  # (wholly beyond: the pixels at its rim blend the two)


def test_the_view_beyond_a_slanted_frame_is_plain_table_not_its_edge_drawn_out(
    detector: CardDetector,
) -> None:
    frame, empty, plane = _card_at_the_frames_edge()
    beyond = _beyond(plane, frame.shape)
    assert beyond.mean() > 0.02  # the view does reach past the frame
    white = lambda v: (cv2.cvtColor(v, cv2.COLOR_BGR2GRAY) > 180)  # noqa: E731
    # drawn out, the frame's edge runs the card on as a white band to the view's edge
    assert white(plane.rectify(frame))[beyond].sum() > 500
    view = detector._view(plane, frame)
    assert white(view)[beyond].sum() == 0
    cloth = np.median(frame[::8, ::8].reshape(-1, 3), axis=0)  # uncalibrated: the frame's
    assert np.abs(view[beyond].astype(float) - cloth).max() <= 1.0
    # calibrated, the frame and the empty table are filled alike, with the empty table's
    # colour: no difference there
    detector.empty = empty
    try:
        a, b = detector._view(plane, frame), detector._view(plane, empty)
    finally:
        detector.empty = None
    assert np.array_equal(a[beyond], b[beyond])
    assert not np.array_equal(a[~beyond], b[~beyond])  # the card is


@pytest.mark.parametrize("seed", [2, 3])
def test_with_a_plane_dark_cards_touching_are_read_by_their_corners(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dark deck's cards touching each other are one blob in the frame's negative, read
    by the blob's right-angled corners. Seen at a slant those corners are not right
    angles in the frame; in the table view they are, so with a plane the corners are
    looked for there (before, with a plane, they were not looked for at all, and the
    row read as nothing)."""
    rng = np.random.default_rng(seed)
    img = table(rng, colour=LIGHT_TABLES[1])
    for card, xy, angle in TOUCHING_ROW:
        place(img, gold_on_black(card), xy, 290, angle, rng)
    frame = camera(warp_perspective(img, OBLIQUE, (1280, 960), cv2.BORDER_REPLICATE), rng)
    detector = CardDetector(plane=TablePlane(np.linalg.inv(OBLIQUE), (1280, 960)))
    no_light_ink(detector, monkeypatch)  # (it reads some of them without their corners)
    dets = [d for d in detector.detect(frame) if d.card]
    assert len(dets) >= 2
    assert {d.card for d in dets} <= {c for c, _, _ in TOUCHING_ROW}
    assert all(0.5 <= d.confidence < 0.9 for d in dets)  # each from one corner
    for d in dets:  # in the camera's own frame, where the row is
        assert 250 <= d.quad[0][1] <= 960
    monkeypatch.setattr(detector, "_dark_corners", lambda *a: [])
    assert [d for d in detector.detect(frame) if d.card] == []
