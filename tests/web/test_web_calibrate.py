"""Camera zones from the dashboard: admin-only, a frame to draw on, zones saved where
the camera reader loads them (and handed to a running reader)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))

from controller.referee.referee import Referee  # noqa: E402
from controller.web.app import create_app  # noqa: E402
from vision.zones import ZoneMap  # noqa: E402

PIN = "314159"
W, H = 640, 480


def table_photo(w: int = W, h: int = H) -> np.ndarray:
    """A green 'table' with a white 'card' where seat0's spot is: something to draw on."""
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (40, 110, 30)
    cv2.rectangle(img, (100, 300), (180, 420), (250, 250, 250), -1)
    return img


def png(img: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".png", img)
    assert ok
    return buf.tobytes()


@pytest.fixture
def client(tmp_path):
    app = create_app(Referee(), admin_pin=PIN, state_dir=tmp_path)
    with TestClient(app) as c:
        yield c


def admin(c: TestClient) -> str:
    token = c.get("/admin/api/session").json()["csrf"]
    r = c.post("/admin/api/login", json={"pin": PIN, "csrf": token})
    assert r.status_code == 200
    return r.json()["csrf"]


def test_without_an_admin_session_nothing_is_shown_or_saved(client, tmp_path):
    token = client.get("/admin/api/session").json()["csrf"]  # a session, not admin
    assert client.get("/admin/calibrate").status_code == 200  # the page shell only
    assert client.get("/admin/api/calibrate/zones").status_code == 401
    assert client.get("/admin/api/calibrate/frame").status_code == 401
    files = {"image": ("t.png", png(table_photo()), "image/png")}
    # not admin: refused from the headers, the upload never read (nor spooled to a file)
    assert client.post("/admin/api/calibrate/frame", files=files).status_code == 401
    assert client.post("/admin/api/calibrate/frame", files=files, data={"csrf": token}).status_code == 401
    body = {"zones": {"seat0": [10, 10, 100, 100]}, "frame_size": [W, H]}
    assert client.post("/admin/api/calibrate/zones", json=body).status_code == 403
    assert client.post("/admin/api/calibrate/zones", json={**body, "csrf": token}).status_code == 401
    assert not (tmp_path / "camera-zones.json").exists()
    # an admin session still needs the token, and a foreign Origin is refused
    good = admin(client)
    assert client.post("/admin/api/calibrate/frame", files=files).status_code == 403  # no CSRF
    assert client.post("/admin/api/calibrate/frame", files=files,
                       headers={"Origin": "http://evil.example"}).status_code == 403
    assert client.post("/admin/api/calibrate/zones", json=body).status_code == 403
    assert client.post("/admin/api/calibrate/zones", json={**body, "csrf": good},
                       headers={"Origin": "http://evil.example"}).status_code == 403
    assert not (tmp_path / "camera-zones.json").exists()


def test_upload_a_photo_draw_on_it_and_save_zones(client, tmp_path):
    token = admin(client)
    assert client.get("/admin/api/calibrate/frame").status_code == 404  # no camera, no photo
    r = client.post("/admin/api/calibrate/frame", files={"image": ("t.png", png(table_photo()), "image/png")},
                    headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and r.json()["frame_size"] == [W, H]
    r = client.get("/admin/api/calibrate/frame")
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg"
    frame = cv2.imdecode(np.frombuffer(r.content, np.uint8), cv2.IMREAD_COLOR)
    assert frame.shape == (H, W, 3)
    assert frame[360, 140].min() > 200 and frame[50, 50][1] > frame[50, 50][2]  # the same picture

    boxes = {"seat0": [90, 290, 100, 140], "seat1": [400, 40, 120.5, 90], "deal": [250, 200, 80, 60]}
    r = client.post("/admin/api/calibrate/zones", json={"zones": boxes, "frame_size": [W, H], "csrf": token})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["zones"] == boxes and out["frame_size"] == [W, H] and out["applied"] is False
    assert out["missing"] == ["seat2", "seat3"]
    path = tmp_path / "camera-zones.json"
    zm = ZoneMap.load(path)
    assert zm.frame_size == (W, H)
    assert zm.to_json() == ZoneMap.rectangles({n: tuple(b) for n, b in boxes.items()}, (W, H)).to_json()
    assert zm.zone_at((140, 360)) == "seat0" and zm.zone_at((10, 10)) is None
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # temp file replaced

    shown = client.get("/admin/api/calibrate/zones").json()
    assert shown["zones"] == boxes and shown["frame_size"] == [W, H]
    assert shown["names"] == ["seat0", "seat1", "seat2", "seat3", "deal", "trump"]
    assert shown["applies"] == "restart" and shown["camera"] is False


@pytest.mark.parametrize("zones,frame_size,message", [
    ({"seat9": [10, 10, 50, 50]}, [W, H], "unknown zone 'seat9'"),
    ({"../x": [10, 10, 50, 50]}, [W, H], "unknown zone"),
    ({"seat0": [600, 10, 100, 50]}, [W, H], "outside the 640×480 frame"),
    ({"seat0": [-5, 10, 100, 50]}, [W, H], "outside"),
    ({"seat0": [10, 10, 5, 50]}, [W, H], "smaller than"),
    ({"seat0": [10, 10, 50]}, [W, H], "[x, y, width, height]"),
    ({"seat0": [10, "a", 50, 50]}, [W, H], "[x, y, width, height]"),
    ({}, [W, H], "at least one zone"),
    ({"seat0": [10, 10, 50, 50]}, [W], "frame_size"),
    ({"seat0": [10, 10, 50, 50]}, [0, 0], "frame_size"),
    ({"seat0": [10, 10, 50, 50]}, [10**400, 480], "not a camera frame size"),
    ({"seat0": [10**400, 10, 50, 50]}, [W, H], "[x, y, width, height]"),
])
def test_bad_zones_are_refused_with_a_reason(client, tmp_path, zones, frame_size, message):
    token = admin(client)
    r = client.post("/admin/api/calibrate/zones", json={"zones": zones, "frame_size": frame_size, "csrf": token})
    assert r.status_code == 400 and message in r.json()["detail"], r.text
    assert not (tmp_path / "camera-zones.json").exists()


@pytest.mark.parametrize("size", ["[NaN, 480]", "[640, Infinity]", "[-Infinity, 480]"])
def test_a_frame_size_that_is_no_number_is_refused_with_a_reason(client, tmp_path, size):
    """Python's JSON reads NaN and Infinity, which no frame has (``int(nan)`` was a 500)."""
    token = admin(client)
    raw = f'{{"zones": {{"seat0": [10, 10, 50, 50]}}, "frame_size": {size}, "csrf": "{token}"}}'
    r = client.post("/admin/api/calibrate/zones", content=raw, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "frame_size" in r.json()["detail"], r.text
    assert not (tmp_path / "camera-zones.json").exists()


def test_json_nested_past_pythons_depth_is_a_bad_request_not_a_crash(client):
    """Thirty thousand nested lists: Python's parser gives up (RecursionError), which
    was a 500 and a logged traceback, before the PIN or CSRF was looked at."""
    deep = "[" * 30000 + "]" * 30000
    token = client.get("/admin/api/session").json()["csrf"]
    for path in ("/admin/api/login", "/admin/api/command", "/admin/api/calibrate/zones"):
        r = client.post(path, content=deep, headers={"Content-Type": "application/json",
                                                     "X-CSRF-Token": token})
        assert r.status_code in (400, 401, 403), (path, r.status_code)


def test_a_bad_upload_is_refused(client):
    token = admin(client)
    r = client.post("/admin/api/calibrate/frame", files={"image": ("t.png", b"not an image", "image/png")},
                    headers={"X-CSRF-Token": token})
    assert r.status_code == 400 and "not an image" in r.json()["detail"]
    r = client.post("/admin/api/calibrate/frame", json={"csrf": token}, headers={"X-CSRF-Token": token})
    assert r.status_code == 400 and "multipart" in r.json()["detail"]


def in_own_process(body: str, picture: Path) -> tuple[str, int]:
    """Run ``body`` in a Python process of its own, with ``data`` the bytes of ``picture``
    and ``decode_image`` the upload's decoder; its last line printed, and how many MB its
    resident memory grew at the peak while ``body`` ran."""
    import subprocess

    probe = (
        "import sys\n"
        "from controller.web.calibrate_routes import decode_image\n"
        "data = open(sys.argv[1], 'rb').read()\n"
        "def peak():\n"
        "    return int([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1])\n"
        "before = peak()\n"
        + body
        + "print('')\n"
        "print((peak() - before) // 1024)\n"
    )
    root = Path(__file__).resolve().parents[2]
    lines = subprocess.run([sys.executable, "-c", probe, str(picture)], cwd=root, capture_output=True,
                           text=True, timeout=300, check=True).stdout.splitlines()
    return lines[-3] if len(lines) >= 3 else "", int(lines[-1])


def png_header_only(w: int, h: int) -> bytes:
    """A PNG that declares a ``w`` x ``h`` colour picture and holds almost nothing: a few
    hundred bytes that a decoder would make gigabytes of before reading its pixels."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    rows = zlib.compress(b"\x00" * (1 + 3 * w) * 4)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def test_a_small_upload_declaring_a_huge_picture_is_refused_before_it_is_decoded(tmp_path):
    """A 16000 x 16000 picture would take 768 MB as pixels (a Pi has 1-4 GB): refused
    from its header, so the process never grows (measured in a process of its own)."""
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_header_only(16000, 16000))
    assert bomb.stat().st_size < 4096
    said, peak = in_own_process(
        "from fastapi import HTTPException\n"
        "try:\n"
        "    decode_image(data)\n"
        "    print('decoded')\n"
        "except HTTPException as exc:\n"
        "    print(exc.detail)\n",
        bomb,
    )
    out = [said, peak]
    assert "the image is 16000×16000" in out[0]
    assert int(out[1]) < 400, out  # MB grown at the peak while decoding: 768 would be the picture


def test_uploads_decode_one_at_a_time(tmp_path):
    """A 4096 x 4096 progressive JPEG is within the limits, a few hundred KB, and takes
    about 150 MB while it decodes: four at once took a process about 520 MB up, one at a
    time about 180 (measured in a process of its own)."""
    rng = np.random.default_rng(0)
    img = cv2.GaussianBlur(rng.integers(0, 255, (4096, 4096, 3), np.uint8), (0, 0), 3)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1, cv2.IMWRITE_JPEG_QUALITY, 30,
                                         cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444])
    assert ok
    photo = tmp_path / "big.jpg"
    photo.write_bytes(buf.tobytes())
    _, grown = in_own_process(
        "import threading\n"
        "ts = [threading.Thread(target=decode_image, args=(data,)) for _ in range(4)]\n"
        "[t.start() for t in ts]\n"
        "[t.join() for t in ts]\n",
        photo,
    )
    assert int(grown) < 350, f"grew {grown} MB"


def test_a_phone_jpeg_with_a_long_exif_block_is_taken(client):
    """A phone's EXIF (up to 64 KB) and colour profile before the frame header: the size
    is still found, and the photo is drawn on."""
    ok, buf = cv2.imencode(".jpg", table_photo())
    assert ok
    jpeg = buf.tobytes()
    exif = b"\xff\xe1" + (65535).to_bytes(2, "big") + b"Exif\x00\x00" + bytes(65527)
    icc = b"\xff\xe2" + (20002).to_bytes(2, "big") + bytes(20000)
    photo = jpeg[:2] + exif + icc + jpeg[2:]
    token = admin(client)
    r = client.post("/admin/api/calibrate/frame", files={"image": ("p.jpg", photo, "image/jpeg")},
                    headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and r.json()["frame_size"] == [W, H], r.text


def test_the_camera_frame_is_served_and_saved_zones_reach_the_running_reader(tmp_path):
    live = table_photo(320, 240)
    applied: list[ZoneMap] = []
    zones_file = tmp_path / "conf" / "zones.json"  # [camera] zones_file set
    app = create_app(Referee(), admin_pin=PIN, state_dir=tmp_path, camera_frame=lambda: live,
                     zones_file=zones_file, on_zones=applied.append)
    with TestClient(app) as c:
        token = admin(c)
        assert c.get("/admin/api/calibrate/zones").json()["applies"] == "now"
        frame = cv2.imdecode(np.frombuffer(c.get("/admin/api/calibrate/frame").content, np.uint8), cv2.IMREAD_COLOR)
        assert frame.shape == (240, 320, 3)
        r = c.post("/admin/api/calibrate/zones", json={"zones": {"seat2": [0, 0, 320, 240]}, "frame_size": [320, 240]},
                   headers={"X-CSRF-Token": token})
        assert r.status_code == 200 and r.json()["applied"] is True
    assert [z.names() for z in applied] == [["seat2"]]
    assert json.loads(zones_file.read_text())["frame_size"] == [320, 240]
    assert not (tmp_path / "camera-zones.json").exists()


def test_without_a_state_directory_saving_says_so():
    app = create_app(Referee(), admin_pin=PIN)
    with TestClient(app) as c:
        token = admin(c)
        r = c.post("/admin/api/calibrate/zones", json={"zones": {"seat0": [0, 0, 50, 50]}, "frame_size": [W, H]},
                   headers={"X-CSRF-Token": token})
        assert r.status_code == 503


CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]


def zones_page(browser, url: str, sync_api):  # noqa: ANN001, ANN201
    """Log in on the admin page and open the zones page from its link, ready to draw on:
    the page, and the script errors it raises (none, in a passing test)."""
    page = browser.new_page(viewport={"width": 900, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "/admin")
    page.fill("#pin", PIN)
    page.click("#login button[type=submit]")
    sync_api.expect(page.locator("#panel")).to_be_visible()
    page.click('a[href="/admin/calibrate"]')
    sync_api.expect(page.locator("body")).to_have_attribute("data-ready", "1")
    return page, errors


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_drag_a_zone_on_the_camera_frame_in_a_browser(tmp_path):
    """Log in on the admin page, open the zones page, drag seat0 with the mouse, save:
    the file holds the dragged box in frame pixels (the canvas is shown scaled)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from webdrive import LiveServer

    applied: list[ZoneMap] = []
    frame = table_photo(1280, 960)  # larger than the page: the canvas is scaled down
    app = create_app(Referee(), admin_pin=PIN, state_dir=tmp_path, camera_frame=lambda: frame,
                     on_zones=applied.append)
    with LiveServer(app) as server, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            page, errors = zones_page(browser, server.url, sync_api)
            sync_api.expect(page.locator('#zones input[value="seat0"]')).to_be_checked()

            box = page.locator("#frame").bounding_box()
            scale = 1280 / box["width"]
            assert scale > 1.2  # really scaled, so the conversion is exercised
            start = (box["x"] + 60, box["y"] + 200)
            end = (box["x"] + 160, box["y"] + 330)
            page.mouse.move(*start)
            page.mouse.down()
            page.mouse.move(start[0] + 40, start[1] + 50, steps=4)
            page.mouse.move(*end, steps=4)
            page.mouse.up()
            sync_api.expect(page.locator('#zones label[data-zone="seat0"]')).to_have_class("set")
            page.click("#save")
            sync_api.expect(page.locator("body")).to_have_attribute("data-saved", "1")
            sync_api.expect(page.locator("#status")).to_have_class("ok")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "calibrate-zones.png"), full_page=True)
            assert errors == []
        finally:
            browser.close()
    zm = ZoneMap.load(tmp_path / "camera-zones.json")
    assert zm.frame_size == (1280, 960) and zm.names() == ["seat0"]
    xs = [pt[0] for pt in zm.zones[0].polygon]
    ys = [pt[1] for pt in zm.zones[0].polygon]
    expected = (60 * scale, 200 * scale, 160 * scale, 330 * scale)
    got = (min(xs), min(ys), max(xs), max(ys))
    assert all(abs(g - e) <= 2 * scale for g, e in zip(got, expected, strict=True)), (got, expected)
    assert [z.names() for z in applied] == [["seat0"]]


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_zones_marked_on_a_smaller_frame_are_shown_and_saved_at_the_cameras_size(tmp_path):
    """Zones saved on a 1280 x 960 frame; the camera since set to 1920 x 1440 ([camera]
    size). The page shows each box on the same spot of the bigger frame, and saving
    (another zone marked) keeps them there: before, the old pixels were drawn and saved
    as the new frame's, a third of the way off toward its corner."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from webdrive import LiveServer

    ZoneMap.rectangles({"seat0": (200, 600, 240, 240), "seat1": (800, 100, 200, 300)}).save(
        tmp_path / "camera-zones.json"
    )
    frame = table_photo(1920, 1440)
    app = create_app(Referee(), admin_pin=PIN, state_dir=tmp_path, camera_frame=lambda: frame)
    with LiveServer(app) as server, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            page, errors = zones_page(browser, server.url, sync_api)
            page.locator('#zones input[value="seat2"]').check()
            box = page.locator("#frame").bounding_box()
            start = (box["x"] + 300, box["y"] + 40)
            page.mouse.move(*start)
            page.mouse.down()
            page.mouse.move(start[0] + 80, start[1] + 90, steps=4)
            page.mouse.up()
            page.click("#save")
            sync_api.expect(page.locator("body")).to_have_attribute("data-saved", "1")
            assert errors == []
        finally:
            browser.close()
    zm = ZoneMap.load(tmp_path / "camera-zones.json")
    assert zm.frame_size == (1920, 1440)
    got = {z.name: (min(x for x, _ in z.polygon), min(y for _, y in z.polygon),
                    max(x for x, _ in z.polygon), max(y for _, y in z.polygon)) for z in zm.zones}
    assert got["seat0"] == pytest.approx((300, 900, 660, 1260), abs=1)
    assert got["seat1"] == pytest.approx((1200, 150, 1500, 600), abs=1)
    assert "seat2" in got


def test_the_service_wires_its_camera_reader_to_the_page(tmp_path):
    """``courtpiece run``'s wiring: a camera with no zones yet still starts, the page
    draws on the reader's last frame, and saved zones reach the reader and its file."""
    import time

    from controller.config import load_config
    from controller.decks.deckmap import DeckMap
    from controller.referee.service import TableService
    from controller.runtime import make_web_app, start_camera, zones_path
    from controller.sim.simulator import simulated_deck

    frames = tmp_path / "frames"
    frames.mkdir()
    for k in range(2):
        cv2.imwrite(str(frames / f"f{k}.png"), table_photo(320, 240))
    cfg_file = tmp_path / "table.toml"
    cfg_file.write_text(f'[table]\nstate_dir = "{tmp_path}"\n[camera]\nenabled = true\nsource = "{frames}"\n')
    deck = simulated_deck()
    service = TableService.open(load_config(cfg_file), DeckMap([deck], deck.name))
    try:
        reader = start_camera(service)
        assert reader.zones.names() == []  # no zones file yet: started anyway
        deadline = time.monotonic() + 30
        while not reader.finished and time.monotonic() < deadline:
            time.sleep(0.02)
        assert reader.last_frame is not None
        app, _pin = make_web_app(service, PIN, camera=reader)
        with TestClient(app) as c:
            token = admin(c)
            shown = cv2.imdecode(np.frombuffer(c.get("/admin/api/calibrate/frame").content, np.uint8), cv2.IMREAD_COLOR)
            assert shown.shape == (240, 320, 3)
            r = c.post("/admin/api/calibrate/zones", headers={"X-CSRF-Token": token},
                       json={"zones": {"seat0": [10, 20, 100, 100], "deal": [150, 60, 60, 60]}, "frame_size": [320, 240]})
            assert r.status_code == 200 and r.json()["applied"] is True
        assert reader.zones.names() == ["seat0", "deal"] and reader.zones.zone_at((50, 60)) == "seat0"
        assert zones_path(service) == tmp_path / "camera-zones.json"
        assert ZoneMap.load(zones_path(service)).names() == ["seat0", "deal"]
        reader.close()
    finally:
        service.close()


def test_an_oblique_camera_gets_the_tables_plane_and_the_empty_table_is_kept(tmp_path):
    live = table_photo(640, 480)
    zones_file = tmp_path / "zones.json"
    applied: list[ZoneMap] = []
    app = create_app(Referee(), admin_pin=PIN, state_dir=tmp_path, camera_frame=lambda: live,
                     zones_file=zones_file, on_zones=applied.append)
    seats = {"seat0": [280, 380, 80, 80], "seat1": [60, 200, 80, 80],
             "seat2": [290, 60, 60, 60], "seat3": [500, 200, 80, 80]}
    with TestClient(app) as c:
        token = admin(c)
        body = {"zones": {"seat0": [0, 0, 50, 50]}, "frame_size": [640, 480], "table_from_seats": True}
        r = c.post("/admin/api/calibrate/zones", json=body, headers={"X-CSRF-Token": token})
        assert r.status_code == 400 and "seat0 to seat3" in r.json()["detail"]
        body = {"zones": seats, "frame_size": [1280, 960], "table_from_seats": True, "empty_table": True}
        r = c.post("/admin/api/calibrate/zones", json=body, headers={"X-CSRF-Token": token})
        # an empty table of another size than the zones' frame cannot be the reference
        assert r.status_code == 400 and "must be one size" in r.json()["detail"], r.text
        assert not zones_file.exists()
        body = {"zones": seats, "frame_size": [640, 480], "table_from_seats": True, "empty_table": True}
        r = c.post("/admin/api/calibrate/zones", json=body, headers={"X-CSRF-Token": token})
        assert r.status_code == 200
    zones = ZoneMap.load(zones_file)
    assert zones.plane is not None and applied[0].plane is not None
    assert zones.empty_table() is not None and zones.empty_table().shape == (480, 640, 3)


@pytest.mark.parametrize("flag", ["table_from_seats", "empty_table"])
@pytest.mark.parametrize("value", ["no", "false", 0, 1, None, [True]])
def test_a_yes_or_no_that_is_not_true_or_false_is_refused(client, tmp_path, flag, value):
    """``"no"`` was taken as yes (any non-empty string is true to Python)."""
    token = admin(client)
    body = {"zones": {"seat0": [10, 10, 50, 50]}, "frame_size": [W, H], flag: value, "csrf": token}
    r = client.post("/admin/api/calibrate/zones", json=body)
    assert r.status_code == 400 and f"{flag} is true or false" in r.json()["detail"], r.text
    assert not (tmp_path / "camera-zones.json").exists()


def test_two_zones_on_one_place_are_refused_and_a_touch_goes_to_the_nearer(client, tmp_path):
    token = admin(client)
    heavy = {"seat0": [100, 100, 100, 100], "seat1": [150, 120, 100, 100]}  # 40 % shared
    r = client.post("/admin/api/calibrate/zones", json={"zones": heavy, "frame_size": [W, H], "csrf": token})
    assert r.status_code == 400 and "seat0 and seat1 cover much of one place" in r.json()["detail"], r.text
    assert not (tmp_path / "camera-zones.json").exists()
    # dragged up to each other: a strip of 10 px shared is kept, and a card's centre in it
    # counts for the spot whose middle is nearer, whichever box was listed first
    touching = {"seat1": [190, 100, 100, 100], "seat0": [100, 100, 100, 100]}
    r = client.post("/admin/api/calibrate/zones", json={"zones": touching, "frame_size": [W, H], "csrf": token})
    assert r.status_code == 200, r.text
    zm = ZoneMap.load(tmp_path / "camera-zones.json")
    assert zm.zone_at((192, 150)) == "seat0" and zm.zone_at((198, 150)) == "seat1"
    assert zm.zone_at((150, 150)) == "seat0" and zm.zone_at((260, 150)) == "seat1"


@pytest.mark.parametrize("text,why", [
    ('{"frame_size": [640, 480], "zones": []}', "at least one zone"),
    ('{"frame_size": [640, 480], "zones": {}}', "at least one zone"),
    ('{"frame_size": [640, 480], "zones": {"seat0": [[0, 0], [NaN, 0], [9, 9]]}}', "in numbers"),
    ('{"frame_size": [640, 480], "zones": {"seat0": [[0, 0], [9, 0]]}}', "three or more"),
    ('{"frame_size": [640, 480], "zones": {"seat0": "x"}}', "three or more"),
    ('{"frame_size": [0, 480], "zones": {"seat0": [[0, 0], [9, 0], [9, 9]]}}', "frame_size"),
    ('{"frame_size": "big", "zones": {"seat0": [[0, 0], [9, 0], [9, 9]]}}', "frame_size"),
    ('{"frame_size": [640, 480], "zones": {"seat0": [[0, 0], [9, 0], [9, 9]]},'
     ' "table": {"homography": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "size": [900, 900]}}', "invertible"),
    ('{"frame_size": [640, 480], "zones": {"seat0": [[0, 0], [9, 0], [9, 9]]},'
     ' "table": {"homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "size": [900]}}', "table size"),
    ('[1, 2]', "an object"),
    ('{"frame_size": [640, 48', "not JSON"),
])
def test_a_hand_edited_zone_map_that_is_wrong_is_named_not_a_crash(client, tmp_path, text, why):
    path = tmp_path / "camera-zones.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=why):
        ZoneMap.load(path)
    admin(client)
    r = client.get("/admin/api/calibrate/zones")  # was a 500 for [] and for a NaN corner
    assert r.status_code == 200 and "unreadable" in r.json()["error"] and r.json()["zones"] == {}


def test_a_camera_table_with_a_broken_zone_map_starts_and_says_so(tmp_path):
    from controller.config import load_config
    from controller.decks.deckmap import DeckMap
    from controller.readers.sightings import ReaderFault
    from controller.referee.service import TableService
    from controller.runtime import start_camera
    from controller.sim.simulator import simulated_deck

    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "f0.png"), table_photo(320, 240))
    (tmp_path / "camera-zones.json").write_text('{"frame_size": [320, 240], "zones": []}')
    cfg_file = tmp_path / "table.toml"
    cfg_file.write_text(f'[table]\nstate_dir = "{tmp_path}"\n[camera]\nenabled = true\nsource = "{frames}"\n')
    deck = simulated_deck()
    service = TableService.open(load_config(cfg_file), DeckMap([deck], deck.name))
    faults: list[ReaderFault] = []
    service.on_reader_event = lambda e, keep=service.on_reader_event: (  # type: ignore[method-assign]
        faults.append(e) if isinstance(e, ReaderFault) else None, keep(e))
    try:
        reader = start_camera(service)  # raised AttributeError before: no camera at all
        assert reader is not None and reader.zones.names() == []
        deadline = time.monotonic() + 30  # said by the reader, at its first frame and each minute
        while not faults and time.monotonic() < deadline:
            time.sleep(0.02)
        assert any("camera-zones.json is unreadable" in f.message and "at least one zone" in f.message
                   for f in faults)
        reader.zones = ZoneMap.rectangles({"seat0": (10, 10, 100, 100)}, (320, 240))
        assert reader.unmarked is None  # zones marked: the fault ends
        reader.close()
    finally:
        service.close()


def test_the_zone_map_and_the_empty_table_are_the_service_users_only(client, tmp_path):
    live = table_photo()
    zones_file = tmp_path / "zones.json"
    app = create_app(Referee(), admin_pin=PIN, state_dir=tmp_path, camera_frame=lambda: live,
                     zones_file=zones_file, on_zones=None)
    with TestClient(app) as c:
        token = admin(c)
        body = {"zones": {"seat0": [10, 10, 50, 50]}, "frame_size": [W, H], "empty_table": True}
        assert c.post("/admin/api/calibrate/zones", json=body, headers={"X-CSRF-Token": token}).status_code == 200
    empty = tmp_path / "zones-empty.png"
    assert zones_file.stat().st_mode & 0o777 == 0o600 and empty.stat().st_mode & 0o777 == 0o600
    assert cv2.imread(str(empty)).shape == (H, W, 3)
    # and from the command line
    from controller.readers.zone_file import save_zone_map  # what `courtpiece calibrate` saves with

    save_zone_map(ZoneMap.rectangles({"seat0": (10, 10, 50, 50)}, (W, H)), tmp_path / "cli.json", live)
    assert (tmp_path / "cli.json").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "cli-empty.png").stat().st_mode & 0o777 == 0o600
