"""Start-up shared by ``courtpiece run`` and ``courtpiece simulate``: readers, web, GPIO."""

from __future__ import annotations

import logging
import threading
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.commands.calibrate import ZONES_FILE
from controller.readers.hub import HubConfig, HubDriver
from controller.readers.hub_finder import DEFAULT_SEARCH
from controller.referee.journal import export_log
from controller.referee.service import TableService
from controller.referee.table_events import PUBLIC, TableEvent, sees

log = logging.getLogger(__name__)

#: The learned deck in the state directory (``courtpiece camera learn``).
DECK_FILE = "camera-deck.npz"


def start_hub(service: TableService, port: str, source: str = "rfid-hub", *, search: bool = False) -> HubDriver:
    """The hub driver on ``port``; ``search``: find a real hub elsewhere if the port goes."""
    cfg = service.config.hub

    def take(event: Any) -> None:
        service.on_reader_event(event)
        follow()  # a dealt card changes what matters, though it makes no public event

    driver = HubDriver(HubConfig(port=port, source=source, removal_silence=cfg.removal_silence,
                                 heartbeat_timeout=cfg.heartbeat_timeout,
                                 search=DEFAULT_SEARCH if search else ()),
                       on_event=take)
    follow = follow_the_deal(service, driver)
    return driver.start()


def follow_the_deal(service: TableService, driver: HubDriver) -> Callable[[], None]:
    """Keep the hub polling the zones that matter now: the deal spot alone while the cards
    of a read deal come, every zone otherwise (``Referee.zones_in_use``, docs/hub-protocol.md).

    Told now, after every table event (a command: new match, trump called, undo) and by
    the returned function, which the hub's own events call after each card it reads.
    Table zones are turned back into the hub's zone names through ``[zones]``.
    """
    referee = service.referee
    mapping = service.config.zones

    def follow() -> None:
        wanted = referee.zones_in_use()
        driver.poll_zones(None if wanted is None else [z for z, t in mapping.items() if t in wanted])

    follow()
    referee.subscribe(lambda _event: follow())
    return follow


def table_log_text(service: TableService) -> str:
    import io

    buf = io.StringIO()
    if service.referee.journal is not None:
        export_log(service.referee.journal, buf)
    return buf.getvalue()


def zones_path(service: TableService) -> Path:
    """Where the camera zones live: ``[camera] zones_file``, else STATE/camera-zones.json."""
    cam = service.config.camera
    return Path(cam.zones_file) if cam.zones_file else Path(service.config.state_dir) / ZONES_FILE


def deck_path(service: TableService) -> Path:
    """The table's own deck's learned glyphs: ``[camera] deck_file``, else
    STATE/camera-deck.npz (``courtpiece camera learn`` writes it)."""
    cam = service.config.camera
    return Path(cam.deck_file) if cam.deck_file else Path(service.config.state_dir) / DECK_FILE


def camera_detector(deck_file: Path) -> Any:
    """The camera's card detector, with the table's own deck's glyphs where they have been
    learned. A file that will not load is logged and the generic reader used: a referee
    that reads most cards beats one that does not start."""
    from vision import CardDetector

    if not deck_file.exists():
        return CardDetector()  # none learned (a deck_file named but missing: start_camera)
    try:
        detector = CardDetector(deck_glyphs=deck_file)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        log.error("camera: the learned deck %s will not load (%s); reading with the generic "
                  "model (learn it again: courtpiece camera learn)", deck_file, exc)
        return CardDetector()
    glyphs = detector.reader.model.deck_glyphs
    log.info("camera: reading with the deck learned in %s (%d glyphs)", deck_file,
             len(glyphs.rank_y) if glyphs is not None else 0)
    return detector


def make_web_app(service: TableService, pin: str | None, camera: Any = None,
                 voice: Any = None) -> tuple[Any, str] | None:
    """The FastAPI app and a word on the admin PIN, or None if the web part is not installed.

    ``pin``: a PIN kept in memory only (``simulate --pin``, a private table.toml); else
    the hashed PIN in STATE/admin-pin, made at first start and shown once, in the log
    and on the table screen (``courtpiece pin --reset`` makes a new one).
    ``camera``: the running :class:`CameraReader`, if any; the zone calibration page then
    draws on its latest frame, and saved zones are handed to it at once.
    ``voice``: the running voice's :class:`VoiceControl` (:func:`start_voice`), so the
    admin page can turn it up, down or off.
    """
    try:
        from controller.web.app import create_app
        from controller.web.pin import PinError, PinFile
        from controller.web.welcome import Welcome
    except ImportError as err:  # the dashboard is optional on a headless table
        log.warning("web dashboard unavailable: %s", err)
        return None
    new: str | None = None
    check: Any
    if pin:
        check = pin
    else:
        check = PinFile(Path(service.config.state_dir))
        try:
            new = check.load_or_create()
        except PinError as err:
            log.error("admin PIN: %s; 'courtpiece pin --reset' makes a new one", err)
        if new:
            # The service log is private to the admin (journalctl); the table screen
            # shows it too, to the Pi's own browser only, until the first login.
            print(f"admin PIN for this table (shown once; 'courtpiece pin --reset' for a new one): {new}",
                  flush=True)
    frame = (lambda: camera.last_frame) if camera is not None else None
    apply = (lambda zones: setattr(camera, "zones", zones)) if camera is not None else None
    app = create_app(service.referee, admin_pin=check, table_log=lambda: table_log_text(service),
                     state_dir=Path(service.config.state_dir), camera_frame=frame,
                     zones_file=zones_path(service), on_zones=apply,
                     welcome=Welcome(service.config.web.host, new), voice=voice)
    return app, (pin or new or "")


def serve_web(app: Any, host: str, port: int, stop: threading.Event, limits: Any = None) -> None:
    """Run uvicorn on this thread until ``stop`` is set (or Ctrl-C).

    ``limits``: a :class:`controller.web.server.WebLimits` (default: the club-room
    defaults); connections, header deadline, Host allowlist (docs/web.md).
    """
    from controller.web.server import make_server

    server = make_server(app, host, port, limits)

    def watch() -> None:
        stop.wait()
        server.should_exit = True

    threading.Thread(target=watch, daemon=True, name="web-stop").start()
    server.run()
    stop.set()


def start_gpio(service: TableService) -> Any:
    from controller.signals.gpio import GpioPins, TableSignals
    from controller.signals.gpio_bridge import connect_signals

    signals = TableSignals(GpioPins.from_mapping(service.config.gpio.pins()))
    connect_signals(service.referee, signals)
    return signals


def start_voice(service: TableService, speak: Any = None) -> Any:
    """The referee's voice: public moments spoken through espeak-ng (``[voice]``).

    Returns its :class:`VoiceControl`: the volume and mute the admin page last set
    (``STATE/voice.json``) replace the config's, and the admin page changes them live.
    """
    from controller.signals.voice import Voice, VoiceSettings, espeak_available, speak_aloud
    from controller.signals.voice_settings import VoiceControl

    v = service.config.voice
    if speak is None and not espeak_available():
        log.warning("[voice] is on but espeak-ng is not installed (apt-get install espeak-ng)")
    referee = service.referee
    voice = Voice(VoiceSettings(v.language, v.volume, v.mute),
                  lambda: referee.setup.seats if referee.setup else service.config.match.seats,
                  speak or speak_aloud)
    control = VoiceControl.open(voice, Path(service.config.state_dir))
    referee.subscribe(voice.hear)
    voice.start()
    return control


def start_oled(service: TableService, device: Any = None) -> Any:
    """The small screen follows the public view after every public table event."""
    from controller.signals.oled import OledScreen, OledSummary, open_device

    o = service.config.oled
    screen = OledScreen(device or open_device(o.kind, port=o.port, address=o.address))
    referee = service.referee

    def refresh(e: TableEvent) -> None:
        if not sees(PUBLIC, e):
            return
        view = referee.public_state()["view"]
        if view is None:
            return
        alert = None
        if view["pending_revoke"] is not None:
            seat = view["pending_revoke"]["seat"]
            setup = referee.setup
            alert = f"REVOKE {setup.seats[seat] if setup else f'seat {seat}'}"
        streak = view["streak"]
        screen.show(OledSummary(courts=tuple(view["score"]), streak_team=streak["team"], streak=streak["count"],
                                tricks=tuple(view["tricks"]), alert=alert))

    referee.subscribe(refresh)
    return screen


def spots_no_reader_sees(service: Any, camera_zones: list[str]) -> list[str]:
    """The spots a table needs seen (every seat's and the deal spot) that neither the
    camera's zones nor, where the hub is on, its readers cover."""
    from controller.readers.sightings import CAMERA_NEEDS

    covered = set(camera_zones)
    if service.config.hub.enabled:
        covered |= set(service.config.zones.values())
    return [z for z in CAMERA_NEEDS if z not in covered]


def start_camera(service: TableService) -> Any:
    """The camera reader feeds the same path as the RFID readers; a new hand resets it."""
    from controller.readers.camera import CameraReader, open_source
    from controller.readers.sightings import ReaderFault
    from vision.zones import ZoneMap

    cam = service.config.camera
    zones_file = zones_path(service)
    zones = ZoneMap()
    unreadable = None
    if zones_file.exists():
        try:
            zones = ZoneMap.load(zones_file)
            log.info("camera: zones %s from %s", ", ".join(zones.names()), zones_file)
            unseen = spots_no_reader_sees(service, zones.names())
            if unseen:
                log.warning("camera: no zone marked for %s, and no card reader there: a card laid "
                            "there is not seen (mark every spot: dashboard /admin/calibrate)",
                            ", ".join(unseen))
        except (ValueError, OSError) as exc:  # hand-edited: the camera waits for new zones
            message = (f"camera: the zone map {zones_file.name} is unreadable ({exc}); no card is placed "
                       "until the zones are marked again (dashboard /admin/calibrate)")
            log.error("%s", message)
            unreadable = message  # the reader says it, at once and each minute after
    else:  # still start, so the zones can be marked on the dashboard (/admin/calibrate)
        log.warning("no camera zones in %s: the camera reports nothing until they are marked "
                    "(dashboard /admin/calibrate or 'courtpiece calibrate')", zones_file)
    spec: str | int = int(cam.source) if cam.source.isdigit() else cam.source
    if cam.deck_file and not Path(cam.deck_file).exists():
        log.warning("camera: [camera] deck_file %s is not there: reading with the generic "
                    "model (courtpiece camera learn --out %s writes it)", cam.deck_file, cam.deck_file)
    try:
        source = open_source(spec, cam.frame_size)
    except OSError as exc:  # a video file that is not there, Picamera2 not installed
        log.error("camera: %s; the referee runs without it", exc)
        service.on_reader_event(ReaderFault(source="camera", message=f"camera: {exc}",
                                            at=time.time()))
        return None
    reader = CameraReader(source, zones, detector=camera_detector(deck_path(service)),
                          source_name="camera")
    reader.unmarked = unreadable
    service.referee.subscribe(lambda e: reader.new_hand() if e.kind == "hand-started" else None)
    reader.start(service.on_reader_event)
    return reader


def start_move_timer(service: TableService, stop: threading.Event) -> None:
    """Watch the turn clock for presets with a move timer (it idles otherwise)."""
    from controller.referee.move_timer import MoveTimer

    threading.Thread(target=MoveTimer(service.referee).run, args=(stop,), daemon=True, name="move-timer").start()


def start_match_clock(service: TableService, stop: threading.Event) -> Any:
    """The match clock: time left on the screens, and time called when it is up (a match
    played to an agreed number of minutes; it idles otherwise)."""
    from controller.referee.match_clock import MatchClock

    clock = MatchClock(service.referee)
    threading.Thread(target=clock.run, args=(stop,), daemon=True, name="match-clock").start()
    return clock
