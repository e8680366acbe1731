"""The camera reader end to end: frames in, CardSeen out, like any other reader."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.readers.camera import CameraReader, FolderSource, IterableSource
from controller.readers.sightings import CardSeen
from vision import CardDetector
from vision.synth import CardSpec, scene, table
from vision.tracker import TrackerConfig, ZoneEvent
from vision.zones import ZoneMap, marker_image, zones_from_markers

SPOTS = {
    "seat0": (160, 80, 320, 400),
    "seat1": (800, 80, 320, 400),
    "seat2": (160, 500, 320, 400),
    "seat3": (800, 500, 320, 400),
}
CENTRES = {n: (x + w / 2, y + h / 2) for n, (x, y, w, h) in SPOTS.items()}


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def frames(cards: dict[str, str | None], n: int, seed: int) -> list[np.ndarray]:
    """``n`` frames of the same layout, each with its own noise and light."""
    specs = [CardSpec(c, CENTRES[z], 300, 15 * i) for i, (z, c) in enumerate(cards.items())]
    return [scene(specs, seed=seed * 100 + k)[0] for k in range(n)]


def run(reader: CameraReader) -> list[CardSeen]:
    return [s for s in reader.sightings() if isinstance(s, CardSeen)]


def test_a_play_is_reported_once_with_removal(detector: CardDetector) -> None:
    removed: list[ZoneEvent] = []
    video = (
        frames({}, 2, 1)
        + frames({"seat0": "QH"}, 4, 2)
        + frames({}, 4, 3)
        + frames({"seat0": "QH"}, 3, 4)
    )
    reader = CameraReader(
        IterableSource(video),
        ZoneMap.rectangles(SPOTS),
        detector=detector,
        tracker=TrackerConfig(frames_to_play=3, frames_to_clear=3),
        clock=lambda: 12.5,
        on_removed=removed.append,
    )
    seen = run(reader)
    assert seen == [CardSeen(zone="seat0", card="QH", at=12.5, source="camera")]
    assert [(e.kind, e.zone, e.card) for e in removed] == [("removed", "seat0", "QH")]
    assert reader.finished


def test_a_trick_from_a_folder_of_images(detector: CardDetector, tmp_path: Path) -> None:
    layout: dict[str, str | None] = {}
    for seat, card in (("seat0", "AS"), ("seat1", "KS"), ("seat2", "7S"), ("seat3", "TH")):
        layout[seat] = card
        for k, img in enumerate(frames(dict(layout), 2, len(layout))):
            cv2.imwrite(str(tmp_path / f"{len(layout)}_{k}.jpg"), img)
    reader = CameraReader(
        FolderSource(tmp_path),
        ZoneMap.rectangles(SPOTS),
        detector=detector,
        tracker=TrackerConfig(frames_to_play=2),
    )
    assert [(s.zone, s.card) for s in run(reader)] == [
        ("seat0", "AS"),
        ("seat1", "KS"),
        ("seat2", "7S"),
        ("seat3", "TH"),
    ]


def test_hidden_trump_mixed_setup(detector: CardDetector) -> None:
    """Face-down trump in its spot: the camera cannot and does not report it.

    The hidden-trump presets pair the camera (plays) with one RFID reader under the trump
    spot; the camera must stay silent about the face-down card even if its spot is in view.
    """
    spots = dict(SPOTS)
    spots["trump"] = (560, 330, 160, 300)
    zones = ZoneMap.rectangles(spots)
    trump_down = CardSpec(None, (640, 480), 220, 90)
    video = [
        scene([trump_down, CardSpec("9D", CENTRES["seat1"], 300, 10)], seed=40 + k)[0]
        for k in range(4)
    ]
    reader = CameraReader(
        IterableSource(video), zones, detector=detector, tracker=TrackerConfig(frames_to_play=2)
    )
    assert [(s.zone, s.card) for s in run(reader)] == [("seat1", "9D")]


def test_unknown_zone_names_are_refused(detector: CardDetector) -> None:
    with pytest.raises(ValueError):
        CameraReader(
            IterableSource([]), ZoneMap.rectangles({"seat9": (0, 0, 10, 10)}), detector=detector
        )


def test_zone_map_round_trips_through_json(tmp_path: Path) -> None:
    zm = ZoneMap.rectangles(SPOTS, (1280, 960))
    zm.save(tmp_path / "camera.json")
    back = ZoneMap.load(tmp_path / "camera.json")
    assert back == zm
    assert back.zone_at(CENTRES["seat2"]) == "seat2"
    assert back.zone_at((5, 5)) is None


def test_zones_from_printed_markers() -> None:
    img = table(np.random.default_rng(2))
    where = {0: (300, 250), 1: (980, 250), 4: (640, 700)}
    for mid, (cx, cy) in where.items():
        m = cv2.cvtColor(marker_image(mid, 60), cv2.COLOR_GRAY2BGR)
        h, w = m.shape[:2]
        img[cy - h // 2 : cy - h // 2 + h, cx - w // 2 : cx - w // 2 + w] = m
    zm = zones_from_markers(img)
    assert sorted(zm.names()) == ["deal", "seat0", "seat1"]
    assert zm.zone_at(where[0]) == "seat0"
    assert zm.zone_at(where[4]) == "deal"
    assert zm.zone_at((640, 250)) is None


def test_calibrate_command_saves_boxes_and_markers(tmp_path: Path) -> None:
    from controller.cli import main

    cfg = tmp_path / "zones.json"
    assert (
        main(
            [
                "calibrate",
                "--zones",
                str(cfg),
                "--box",
                "seat0=10,20,100,150",
                "--box",
                "deal=500,300,80,80",
            ]
        )
        == 0
    )
    zm = ZoneMap.load(cfg)
    assert zm.zone_at((50, 100)) == "seat0" and zm.zone_at((540, 340)) == "deal"
    assert zm.frame_size == (1280, 960)  # no picture named: the camera's default
    # boxes read off a saved frame of another size keep that frame's size
    cv2.imwrite(str(tmp_path / "small.png"), np.zeros((640, 640, 3), np.uint8))
    assert (
        main(
            [
                "calibrate",
                "--zones",
                str(cfg),
                "--box",
                "seat0=10,20,100,150",
                "--camera",
                str(tmp_path / "small.png"),
            ]
        )
        == 0
    )
    assert ZoneMap.load(cfg).frame_size == (640, 640)

    assert main(["calibrate", "--print-markers", str(tmp_path / "m")]) == 0
    img = table(np.random.default_rng(4))
    m = cv2.imread(str(tmp_path / "m" / "marker-2-seat2.png"))
    m = cv2.resize(m, (84, 84), interpolation=cv2.INTER_AREA)
    img[400:484, 600:684] = m
    cv2.imwrite(str(tmp_path / "mat.png"), img)
    assert main(["calibrate", "--camera", str(tmp_path / "mat.png"), "--zones", str(cfg)]) == 0
    assert ZoneMap.load(cfg).zone_at((642, 442)) == "seat2"
    # by default the zones go where the referee reads them: the state directory's file
    state = tmp_path / "state"
    assert main(["calibrate", "--state-dir", str(state), "--box", "seat1=5,5,50,50"]) == 0
    from controller.commands.calibrate import ZONES_FILE
    from controller.config import load_config
    from controller.runtime import zones_path

    toml = tmp_path / "table.toml"
    toml.write_text(f'[table]\nstate_dir = "{state}"\n')

    class _Service:  # what zones_path asks of the service: its config
        config = load_config(toml)

    assert zones_path(_Service()) == state / ZONES_FILE  # type: ignore[arg-type]
    assert ZoneMap.load(state / ZONES_FILE).zone_at((20, 20)) == "seat1"


def test_calibrate_without_a_camera_says_so(tmp_path: Path, capsys) -> None:
    from controller.cli import main

    none = tmp_path / "no-such-camera.mp4"
    assert main(["calibrate", "--camera", str(none), "--state-dir", str(tmp_path)]) == 1
    assert "no frame from" in capsys.readouterr().out
    assert not (tmp_path / "camera-zones.json").exists()


def test_calibrate_boxes_are_kept_in_the_frame_they_were_read_off(tmp_path: Path, capsys) -> None:
    """``--box`` boxes are in the pixels of the picture ``--camera`` names, else of
    ``--size`` (the camera's frame, as [camera] size): a box past that frame, a box that
    is no four numbers or a zone that does not exist is refused and nothing is saved
    (before, a 1920 x 1440 camera's boxes were saved as a 1280 x 960 frame's, and read
    half as far out again, without a word)."""
    from controller.cli import main

    zones = tmp_path / "zones.json"
    args = ["calibrate", "--zones", str(zones), "--size", "1920x1440"]
    assert main([*args, "--box", "seat0=810,1050,300,360", "--box", "deal=810,540,300,360"]) == 0
    saved = ZoneMap.load(zones)
    assert saved.frame_size == (1920, 1440)
    assert "on a 1920x1440 frame" in capsys.readouterr().out
    zones.unlink()
    for box, said in (
        ("seat0=810,1050,300,360", "not within the 1280x960 frame"),  # no --size: 1280 x 960
        ("seat0=810,1050,300", "four numbers"),
        ("seat9=1,1,100,100", "no zone 'seat9'"),
    ):
        assert main(["calibrate", "--zones", str(zones), "--box", box]) == 1
        assert said in capsys.readouterr().out
        assert not zones.exists()
    for boxes, said in (  # two zones on one place: a card there would count for either
        (["seat0=100,100,200,200", "deal=150,150,200,200"], "seat0 and deal cover much of one place"),
    ):
        assert main(["calibrate", "--zones", str(zones), *(f"--box={b}" for b in boxes)]) == 1
        assert said in capsys.readouterr().out
        assert not zones.exists()
    # the table's config is not a zone map: no option writes zones over it by that name
    with pytest.raises(SystemExit):
        main(["calibrate", "--config", str(tmp_path / "table.toml"), "--box", "seat0=1,1,99,99"])


def test_calibrate_names_the_spots_left_unmarked(tmp_path: Path, capsys) -> None:
    """A map without every seat's spot and the deal spot is saved (the deal spot may have
    its own RFID reader, as the dashboard allows), but the organiser is told which spots
    the camera will not see, and that each run replaces the whole map (a newcomer marked
    three seats and was told only "saved")."""
    from controller.cli import main

    zones = tmp_path / "zones.json"
    boxes = ["seat0=100,700,200,200", "seat1=1000,400,200,200", "seat2=100,50,200,200"]
    assert main(["calibrate", "--zones", str(zones), *(f"--box={b}" for b in boxes)]) == 0
    said = capsys.readouterr().out
    assert "NOT MARKED: seat3, deal." in said and "replaces the whole map" in said
    assert ZoneMap.load(zones).names() == ["seat0", "seat1", "seat2"]
    boxes += ["seat3=20,400,200,200", "deal=500,400,200,200"]
    assert main(["calibrate", "--zones", str(zones), *(f"--box={b}" for b in boxes)]) == 0
    assert "NOT MARKED" not in capsys.readouterr().out  # the trump spot is not needed


def test_calibrate_refuses_a_spot_given_twice_or_a_box_too_small(tmp_path: Path, capsys) -> None:
    """A spot given twice took the last box without a word, and a 10-pixel box (a typo)
    was saved as a play spot, though the dashboard refuses boxes under 20 pixels."""
    from controller.cli import main

    zones = tmp_path / "zones.json"
    for boxes, said in (
        (["seat0=100,100,200,200", "seat0=500,100,200,200"], "seat0 is given twice"),
        (["seat0=560,700,10,10"], "smaller than 20x20"),
    ):
        assert main(["calibrate", "--zones", str(zones), *(f"--box={b}" for b in boxes)]) == 1
        assert said in capsys.readouterr().out
        assert not zones.exists()


def test_calibrating_again_without_the_empty_table_removes_the_old_picture(tmp_path: Path) -> None:
    """Each run replaces the whole map: the picture of the room an earlier run kept
    beside it is not named by the new map, and is removed rather than left behind."""
    from controller.cli import main
    from vision.zones import empty_beside

    zones = tmp_path / "zones.json"
    cv2.imwrite(str(tmp_path / "empty.png"), np.full((960, 1280, 3), 90, np.uint8))
    box = ["--box", "seat0=100,100,200,200"]
    assert main(["calibrate", "--zones", str(zones), *box, "--empty", str(tmp_path / "empty.png")]) == 0
    assert empty_beside(zones).exists() and ZoneMap.load(zones).empty_path is not None
    assert main(["calibrate", "--zones", str(zones), *box]) == 0
    assert not empty_beside(zones).exists() and ZoneMap.load(zones).empty_path is None


def test_a_table_whose_camera_and_readers_leave_a_spot_unseen_is_told(tmp_path: Path) -> None:
    """The spots a camera table needs (every seat's and the deal spot) that neither the
    camera's zones nor an enabled hub's readers cover: the service warns of them."""
    from controller.config import load_config
    from controller.runtime import spots_no_reader_sees

    class _Service:
        def __init__(self, text: str) -> None:
            toml = tmp_path / "table.toml"
            toml.write_text(text)
            self.config = load_config(toml)

    camera_only = _Service("[hub]\nenabled = false\n")
    assert spots_no_reader_sees(camera_only, ["seat0", "seat1", "seat2"]) == ["seat3", "deal"]
    assert spots_no_reader_sees(camera_only, ["seat0", "seat1", "seat2", "seat3", "deal"]) == []
    with_hub = _Service("[hub]\nenabled = true\n")  # the hub's readers: every spot by default
    assert spots_no_reader_sees(with_hub, ["seat0"]) == []


def test_a_folder_of_pictures_is_read_at_the_frame_size_asked(tmp_path: Path) -> None:
    """A recorded game as pictures stands in for a camera ([camera] source, to try a
    table without hardware): its pictures are read at the long side of the size asked
    (``[camera] size``), never enlarged; the default is 1280 x 960's."""
    from controller.readers.camera import open_source

    cv2.imwrite(str(tmp_path / "big.jpg"), np.full((3000, 4000, 3), 90, np.uint8))
    cv2.imwrite(str(tmp_path / "small.jpg"), np.full((480, 640, 3), 90, np.uint8))
    source = open_source(str(tmp_path), (1920, 1440))
    shapes = []
    while (frame := source.read()) is not None:
        shapes.append(frame.shape[:2])
    assert shapes == [(1440, 1920), (480, 640)]
    assert open_source(str(tmp_path)).read().shape[:2] == (960, 1280)
