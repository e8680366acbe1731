"""The [camera] section of the config: a camera reading a folder of frames feeds the
referee through the same TableService path as the RFID readers."""

from __future__ import annotations

import time

from controller.config import load_config
from controller.decks.deckmap import DeckMap
from controller.referee.service import TableService
from controller.runtime import start_camera
from controller.sim.simulator import simulated_deck


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


def test_the_camera_reads_with_the_deck_learned_in_the_state_directory(tmp_path, caplog):
    """``courtpiece camera learn`` writes STATE/camera-deck.npz; the camera started by
    the service reads with it (``[camera] deck_file`` names another place)."""
    from vision.learn_deck import learn_deck
    from vision.synth import CardSpec, scene

    frames = tmp_path / "frames"
    frames.mkdir()
    learned = learn_deck([("KH", scene([CardSpec("KH", (640, 480), 320, 8)], seed=3)[0])])
    learned.save(tmp_path / "camera-deck.npz")
    learned.save(tmp_path / "other.npz")
    for extra in ("", f'deck_file = "{tmp_path / "missing.npz"}"\n'):
        cfg_file = tmp_path / "table.toml"
        cfg_file.write_text(f'[table]\nstate_dir = "{tmp_path}"\n'
                            f'[camera]\nenabled = true\nsource = "{frames}"\n{extra}')
        deck = simulated_deck()
        service = TableService.open(load_config(cfg_file), DeckMap([deck], deck.name))
        reader = start_camera(service)
        reader.close()
        glyphs = reader.detector.reader.model.deck_glyphs
        if extra:  # the file named is not there: the generic model, and the log says so
            assert glyphs is None
            assert "missing.npz is not there" in caplog.text
        else:
            assert glyphs is not None and list(glyphs.rank_y) == list(learned.rank_y)
        service.close()


def test_courtpiece_run_starts_notifies_systemd_and_referees_the_hub(tmp_path):
    """The Pi service as systemd starts it: config file, READY=1 on the notify socket,
    watchdog pings, a card from the reader hub journaled, a clean stop on SIGTERM."""
    import os
    import signal
    import socket
    import subprocess
    import sys

    from controller.decks.deckmap import DeckStore
    from controller.readers.virtual_hub import VirtualHub
    from controller.referee.journal import Journal

    deck = simulated_deck()
    DeckStore(tmp_path).save(deck)
    notify_path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(notify_path)
    sock.settimeout(30)
    with VirtualHub(link_path=tmp_path / "hub") as hub:
        cfg = tmp_path / "table.toml"
        cfg.write_text(f'[table]\nstate_dir = "{tmp_path}"\n[hub]\nport = "{hub.port}"\n'
                       '[web]\nenabled = false\n')
        env = {**os.environ, "NOTIFY_SOCKET": notify_path, "WATCHDOG_USEC": "300000",
               "WATCHDOG_PID": ""}
        proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(cfg)],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            messages = []
            while not any("READY=1" in m for m in messages):
                messages.append(sock.recv(4096).decode())
            assert hub.wait_host(30)
            hub.place("deal", deck.tag_of("QH"))
            while not any("WATCHDOG=1" in m for m in messages):
                messages.append(sock.recv(4096).decode())
            deadline = time.monotonic() + 30
            found = []
            while not found and time.monotonic() < deadline:
                with Journal.open(tmp_path / "journal.sqlite3") as j:
                    found = [e.payload for e in j.entries() if e.kind == "sighting"]
                time.sleep(0.1)
            assert found == [{"zone": "deal", "card": "QH", "tag": deck.tag_of("QH")}]
        finally:
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=30)
            sock.close()
    assert proc.returncode == 0, out


def test_a_camera_that_is_not_there_is_a_fault_on_the_table_not_a_referee_down(tmp_path):
    """A USB camera unplugged (or never plugged in) at start, and a recording that is
    not there: each is a reader fault the table's screens show; the referee runs on
    and still takes the game's commands (its other readers, the dashboard)."""
    for source, expected in (("97", "cannot open camera 97"),
                             (str(tmp_path / "none.avi"), "cannot open video")):
        cfg_file = tmp_path / "table.toml"
        cfg_file.write_text(f'[table]\nstate_dir = "{tmp_path / source[-2:]}"\n'
                            '[match]\nknowledge = "played"\n'
                            f'[camera]\nenabled = true\nsource = "{source}"\n')
        deck = simulated_deck()
        service = TableService.open(load_config(cfg_file), DeckMap([deck], deck.name))
        heard = []
        service.referee.subscribe(lambda e, heard=heard: heard.append(e.to_dict()))
        service.start_default_match()
        reader = start_camera(service)
        deadline = time.monotonic() + 30
        while not any(e["event"] == "reader-fault" for e in heard) and time.monotonic() < deadline:
            time.sleep(0.05)
        faults = [e for e in heard if e["event"] == "reader-fault"]
        assert len(faults) == 1 and expected in faults[0]["message"], heard
        assert faults[0]["source"] == "camera"
        if source == "97":  # a camera: looked for again, said once
            assert reader is not None and reader.lost is not None
            time.sleep(reader.reopen_delay * 2.5)
            assert len([e for e in heard if e["event"] == "reader-fault"]) == 1
            reader.close()
        else:  # a recording that is not there: nothing to read, said at start
            assert reader is None
        called = service.referee.command("call-trump", {"suit": "S"})
        assert [e.to_dict()["event"] for e in called] == ["trump-called"]
        service.close()


def test_the_camera_is_asked_for_the_frame_size_the_config_names(tmp_path, monkeypatch):
    """``[camera] size`` reaches the camera (a live one sets it; see
    docs/camera.md on a camera at a slant); the default is 1280 x 960."""
    import controller.readers.camera as camera_module
    from controller.readers.camera import IterableSource

    asked = []

    def opened(spec, size=(1280, 960)):
        asked.append((spec, size))
        return IterableSource([])

    monkeypatch.setattr(camera_module, "open_source", opened)
    for extra, size in (("", (1280, 960)), ('size = "1920x1440"\n', (1920, 1440))):
        cfg_file = tmp_path / "table.toml"
        cfg_file.write_text(f'[table]\nstate_dir = "{tmp_path / "state"}"\n'
                            f'[camera]\nenabled = true\nsource = "0"\n{extra}')
        deck = simulated_deck()
        service = TableService.open(load_config(cfg_file), DeckMap([deck], deck.name))
        reader = start_camera(service)
        assert asked[-1] == (0, size)
        reader.close()
        service.close()
