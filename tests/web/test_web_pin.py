"""The admin PIN: guessing slows the guesser only; stored hashed; shown once; reset.

Client addresses come from TestClient's ``client=``, i.e. the TCP peer the server sees
(the real server does not trust X-Forwarded-For: test_web_network.py).
"""

from __future__ import annotations

import os
import stat

import pytest
from fastapi.testclient import TestClient

from controller.cli import main
from controller.referee.referee import Referee
from controller.web.app import create_app
from controller.web.pin import PinError, PinFile, PinHash
from controller.web.security import RateLimiter, client_key
from controller.web.welcome import Welcome

PIN = "271828"
GUESSER, ORGANISER = ("10.0.0.66", 4000), ("10.0.0.7", 4000)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def login(c: TestClient, pin: str):
    token = c.get("/admin/api/session").json()["csrf"]
    return c.post("/admin/api/login", json={"pin": pin, "csrf": token})


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def app(clock, tmp_path):
    return create_app(Referee(), admin_pin=PIN, state_dir=tmp_path, limiter=RateLimiter(clock=clock))


def test_a_guesser_is_slowed_down_and_the_organiser_is_not(app, clock):
    with TestClient(app, client=GUESSER) as guesser, TestClient(app, client=ORGANISER) as organiser:
        waits = []
        for _ in range(40):  # before: 20 wrong PINs from anywhere locked the whole table out
            r = login(guesser, "000000")
            if r.status_code == 429:
                waits.append(int(r.headers["retry-after"]))
                clock.now += waits[-1]
            else:
                assert r.status_code == 401
        assert waits and waits == sorted(waits) and waits[-1] > waits[0]  # growing delays
        assert login(guesser, PIN).status_code == 429  # the guesser waits even with the right PIN
        assert login(organiser, PIN).status_code == 200  # never the whole table


def test_the_delay_doubles_up_to_a_cap_and_is_forgotten(clock):
    limiter = RateLimiter(max_failures=3, delay=2.0, max_delay=60.0, forget=3600.0, clock=clock)
    waits = [limiter.failure("10.0.0.66") for _ in range(10)]
    assert waits[:3] == [0, 0, 0] and waits[3:7] == [2, 4, 8, 16] and max(waits) == 60
    assert limiter.retry_after("10.0.0.7") == 0
    clock.now += 3600 + 61
    assert limiter.retry_after("10.0.0.66") == 0 and limiter.failure("10.0.0.66") == 0  # a fresh start


def test_an_ipv6_guesser_cannot_hop_addresses_within_its_64():
    assert client_key("2001:db8:1:2::a") == client_key("2001:db8:1:2:ffff::1") != client_key("2001:db8:1:3::a")
    assert client_key("::ffff:10.0.0.5") == "10.0.0.5"
    clock = FakeClock()
    limiter = RateLimiter(max_failures=1, clock=clock)
    limiter.failure("2001:db8:1:2::1")
    limiter.failure("2001:db8:1:2::2")
    assert limiter.retry_after("2001:db8:1:2::3") > 0 and limiter.retry_after("2001:db8:9::1") == 0


def test_the_limiter_remembers_a_bounded_number_of_addresses(clock):
    limiter = RateLimiter(max_tracked=100, clock=clock)
    for i in range(1000):
        limiter.failure(f"10.{i // 250}.{i % 250}.1")
    assert len(limiter._buckets) <= 100


def test_an_address_has_one_pin_check_at_a_time(clock):
    limiter = RateLimiter(max_failures=3, clock=clock)
    assert limiter.begin("10.0.0.66") == 0
    assert limiter.begin("10.0.0.66") > 0  # a second guess sent with the first waits
    assert limiter.begin("10.0.0.7") == 0  # nobody else does
    limiter.failure("10.0.0.66")
    assert limiter.begin("10.0.0.66") == 0  # counted: the next may be checked
    limiter.abandon("10.0.0.66")
    assert limiter.begin("10.0.0.66") == 0


def test_guesses_sent_all_at_once_are_counted_one_by_one(tmp_path):
    """64 wrong PINs sent together from one address: before, all 64 were hashed and
    answered 401 before the first was counted. Now one is checked at a time, so the
    burst gets at most the free tries and the first counted wrong one; the rest wait."""
    import sys
    import threading
    from pathlib import Path

    import httpx

    sys.path.insert(0, str(Path(__file__).parent))
    from webdrive import LiveServer

    app = create_app(Referee(), admin_pin=PIN, state_dir=tmp_path, limiter=RateLimiter(max_failures=3))
    codes: list[int] = []
    with LiveServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as http:
        token = http.get("/admin/api/session").json()["csrf"]
        start = threading.Barrier(32)

        def guess() -> None:
            start.wait()
            r = http.post("/admin/api/login", json={"pin": "000000", "csrf": token})
            codes.append(r.status_code)

        threads = [threading.Thread(target=guess) for _ in range(32)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(codes) == 32 and set(codes) <= {401, 429}
    assert 1 <= codes.count(401) <= 4, codes


def test_a_burst_of_pin_checks_does_not_grow_the_process(tmp_path):
    """Each scrypt takes 16 MiB. Run on whichever web worker thread took the login, the
    C library kept it in that thread's arena: 48 logins left a process about 240 MB
    bigger (480 MB after 64 on the live server). All hashing runs on one thread now.
    Measured in a process of its own."""
    import subprocess
    import sys
    from pathlib import Path

    probe = (
        "import threading\n"
        "from controller.web.pin import PinHash\n"
        "h = PinHash.of('123456')\n"
        "def rss():\n"
        "    return int([l for l in open('/proc/self/status') if l.startswith('VmRSS')][0].split()[1])\n"
        "h.verify('000000')\n"
        "base = rss()\n"
        "ts = [threading.Thread(target=h.verify, args=('000000',)) for _ in range(48)]\n"
        "[t.start() for t in ts]\n"
        "[t.join() for t in ts]\n"
        "print((rss() - base) // 1024)\n"
    )
    root = Path(__file__).resolve().parents[2]
    grown = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True,
                           timeout=300, check=True).stdout.strip()
    assert int(grown) < 64, f"grew {grown} MB"


def test_the_pin_file_holds_a_salted_hash_readable_by_the_owner_only(tmp_path):
    store = PinFile(tmp_path)
    pin = store.load_or_create()
    assert pin and pin.isdigit()
    line = (tmp_path / "admin-pin").read_text().strip()
    assert pin not in line and PinHash.from_line(line).verify(pin)
    assert stat.S_IMODE(os.stat(tmp_path / "admin-pin").st_mode) == 0o600
    other = PinFile(tmp_path / "b")
    other.store(pin)
    assert (tmp_path / "b" / "admin-pin").read_text() != line + "\n"  # salted: same PIN, other hash


def test_an_old_plain_pin_file_is_hashed_in_place(tmp_path):
    (tmp_path / "admin-pin").write_text("4321\n")
    os.chmod(tmp_path / "admin-pin", 0o644)
    store = PinFile(tmp_path)
    assert store.load_or_create() is None  # the organiser already knows it
    assert "4321" not in (tmp_path / "admin-pin").read_text() and store.verify("4321")
    assert stat.S_IMODE(os.stat(tmp_path / "admin-pin").st_mode) == 0o600


def test_a_damaged_pin_file_is_an_error_not_a_silent_new_pin(tmp_path):
    (tmp_path / "admin-pin").write_text("scrypt$garbage\n")
    with pytest.raises(PinError):
        PinFile(tmp_path).load_or_create()
    assert not PinFile(tmp_path).verify("4321")


def test_pin_reset_prints_a_new_pin_and_the_running_app_takes_it(tmp_path, capsys):
    store = PinFile(tmp_path)
    first = store.load_or_create()
    assert first is not None
    with TestClient(create_app(Referee(), admin_pin=store, state_dir=tmp_path)) as c:
        assert login(c, first).status_code == 200
        assert main(["pin", "--reset", "--state-dir", str(tmp_path)]) == 0
        new = capsys.readouterr().out.strip().rsplit(" ", 1)[-1]
        assert new.isdigit() and new not in (tmp_path / "admin-pin").read_text()
        assert login(c, new).status_code == 200  # no restart needed
        if new != first:
            assert login(c, first).status_code == 401
    assert main(["pin"]) == 2  # without --reset: a hash cannot be shown
    assert main(["pin", "--reset", "--state-dir", str(tmp_path / "missing")]) == 2


def test_the_table_screen_shows_the_new_pin_until_the_first_login(tmp_path):
    welcome = Welcome("0.0.0.0", "654321")
    app = create_app(Referee(), admin_pin="654321", welcome=welcome)
    with TestClient(app, client=("127.0.0.1", 5000)) as kiosk, TestClient(app, client=ORGANISER) as phone:
        seen = kiosk.get("/api/welcome").json()
        assert seen["show"] and seen["pin"] == "654321" and seen["url"].startswith("http://")
        assert phone.get("/api/welcome").json()["pin"] is None  # a phone sees the QR code, never the PIN
        assert "654321" not in phone.get("/api/welcome").text
        assert login(phone, "654321").status_code == 200
        after = kiosk.get("/api/welcome").json()
        assert after["pin"] is None and not after["show"]


def test_the_admin_shows_the_address_qr_on_request(tmp_path):
    app = create_app(Referee(), admin_pin=PIN, welcome=Welcome("0.0.0.0"))
    with TestClient(app, client=ORGANISER) as c:
        assert not c.get("/api/welcome").json()["show"]
        token = c.get("/admin/api/session").json()["csrf"]
        assert c.post("/admin/api/show-address", json={"csrf": token}).status_code == 401  # admin only
        token = login(c, PIN).json()["csrf"]
        assert c.post("/admin/api/show-address", json={"csrf": token}).status_code == 200
        assert c.get("/api/welcome").json()["show"]
        svg = c.get("/api/address.svg")
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
        assert svg.text.lstrip().startswith("<svg") and "<script" not in svg.text
        assert c.post("/admin/api/show-address", json={"csrf": token, "show": False}).status_code == 200
        assert not c.get("/api/welcome").json()["show"]
