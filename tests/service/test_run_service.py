"""The [camera] section of the config: a camera reading a folder of frames feeds the
referee through the same TableService path as the RFID readers."""

from __future__ import annotations

import time

from controller.config import load_config
from controller.deckmap import DeckMap
from controller.runtime import start_camera
from controller.service import TableService
from controller.simulator import simulated_deck


def test_the_camera_section_starts_a_camera_reader_that_feeds_the_referee(tmp_path):
    import cv2

    from vision.synth import CardSpec, scene
    from vision.zones import ZoneMap

    frames = tmp_path / "frames"
    frames.mkdir()
    for k in range(6):  # the caller (seat 1) leads the ace of hearts onto his spot
        img = scene([CardSpec("AH", (960, 280), 300, 10)], seed=500 + k)[0]
        cv2.imwrite(str(frames / f"f{k}.jpg"), img)
    ZoneMap.rectangles({"seat1": (800, 80, 320, 400)}).save(tmp_path / "zones.json")
    cfg_file = tmp_path / "table.toml"
    cfg_file.write_text(f'[table]\nstate_dir = "{tmp_path}"\n[match]\nknowledge = "played"\n'
                        f'[camera]\nenabled = true\nsource = "{frames}"\nzones_file = "{tmp_path / "zones.json"}"\n')
    cfg = load_config(cfg_file)
    deck = simulated_deck()
    service = TableService.open(cfg, DeckMap([deck], deck.name))
    service.start_default_match()
    service.referee.command("call-trump", {"suit": "S"})
    reader = start_camera(service)
    deadline = time.monotonic() + 60
    while not reader.finished and time.monotonic() < deadline:
        time.sleep(0.05)
    reader.close()
    plays = [(e["seat"], e["card"], ) for e in service.referee.events if e["event"] == "play-accepted"]
    assert plays == [(1, "AH")]
    sources = [e.source for e in service.referee.journal.entries() if e.kind == "sighting"]
    assert sources == ["camera"]
    service.close()
