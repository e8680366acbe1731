"""Attacks from the table's network, against the real server on loopback.

Each test measures the server process from outside (peak memory, bytes written, open
files, its log) rather than timing it. Sizes are bounded and kept small enough for CI;
the limits that make the attacks cheap are lowered in the test server where needed.
"""

from __future__ import annotations

import select
import socket
import sys
import time
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from guarded_server import PIN, GuardedServer, bytes_written, proc_status  # noqa: E402

MB = 1024 * 1024
CHUNK = 64 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with GuardedServer(tmp_path_factory.mktemp("srv"), limits={"allowed_hosts": ["table7.club.example"]}) as srv:
        yield srv


def stream_chunked(port: int, head: bytes, total: int, first: bytes = b"") -> tuple[int, bytes]:
    """Send ``head`` and a chunked body of about ``total`` bytes, stopping as soon as the
    server answers or hangs up. Returns (body bytes the server took, its answer)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.setblocking(False)
    pending = head + (f"{len(first):x}\r\n".encode() + first + b"\r\n" if first else b"")
    piece = f"{CHUNK:x}\r\n".encode() + b"x" * CHUNK + b"\r\n"
    queued = accepted = 0
    answer = b""
    try:
        while True:
            if not pending and queued < total:
                pending, queued = piece, queued + CHUNK
            elif not pending and queued >= total:
                pending, queued = b"0\r\n\r\n", queued + 1
            readable, writable, _ = select.select([s], [s] if pending else [], [], 10)
            if readable or not writable:
                break
            try:
                n = s.send(pending)
            except (BrokenPipeError, ConnectionResetError):
                break
            pending, accepted = pending[n:], accepted + n
            if queued > total and not pending:
                select.select([s], [], [], 10)
                break
        try:
            s.setblocking(True)
            s.settimeout(10)
            answer = s.recv(65536)
        except OSError:
            pass
    finally:
        s.close()
    return accepted, answer


def peak_kb(srv: GuardedServer) -> int:
    return proc_status(srv.pid, "VmHWM")


def test_a_huge_chunked_login_is_cut_off_without_taking_memory(server):
    httpx.post(server.url + "/admin/api/login", json={"pin": "0"})  # warm up the route
    before = peak_kb(server)
    head = (b"POST /admin/api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    accepted, answer = stream_chunked(server.port, head, 48 * MB)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    # the server stopped reading at its 64 KiB limit (the rest is socket buffers)
    assert accepted < 24 * MB
    # before: a 382 MB login body took 866 MB; now the body never reaches the parser
    assert peak_kb(server) - before < 16 * 1024
    assert httpx.get(server.url + "/api/state").status_code == 200


def test_a_declared_huge_body_is_refused_before_a_byte_is_read(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /admin/api/command HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 400000000\r\n\r\n")
        assert s.recv(4096).startswith(b"HTTP/1.1 413")


def admin_cookie(server) -> bytes:
    """A Cookie header line of an admin session on ``server`` (the PIN typed once)."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        token = http.get("/admin/api/session").json()["csrf"]
        assert http.post("/admin/api/login", json={"pin": PIN, "csrf": token}).status_code == 200
        return f"Cookie: cp_session={http.cookies['cp_session']}\r\n".encode()


def test_a_chunked_photo_upload_is_cut_off_before_it_is_spooled(server):
    """An admin's upload that will not end (an unauthenticated one is refused from its
    headers, before a byte of it is read)."""
    boundary = b"xyzzy"
    cookie = admin_cookie(server)
    head = (b"POST /admin/api/calibrate/frame HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
            + cookie
            + b"Content-Type: multipart/form-data; boundary=" + boundary + b"\r\n\r\n")
    first = (b"--" + boundary + b'\r\nContent-Disposition: form-data; name="image"; filename="t.jpg"\r\n'
             b"Content-Type: image/jpeg\r\n\r\n")
    httpx.get(server.url + "/api/state")
    before_mem, before_disk = peak_kb(server), bytes_written(server.pid)
    accepted, answer = stream_chunked(server.port, head, 96 * MB, first)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    # the photo limit is 12 MB: the server stopped there (before: all 400 MB spooled to disk, then 403)
    assert accepted < 40 * MB
    assert bytes_written(server.pid) - before_disk < 16 * MB
    assert peak_kb(server) - before_mem < 32 * 1024
    anonymous = head.replace(cookie, b"")
    accepted, answer = stream_chunked(server.port, anonymous, 96 * MB, first)
    assert answer.startswith(b"HTTP/1.1 401"), answer[:200]
    assert accepted < 40 * MB


def test_a_foreign_host_is_refused_own_names_are_served(server):
    state = "/api/state"
    assert httpx.get(server.url + state, headers={"Host": "evil.example"}).status_code == 400
    assert httpx.get(server.url + state, headers={"Host": f"rebind.evil.example:{server.port}"}).status_code == 400
    for odd in ("localhost:1@evil.example", "[::1]@evil.example", "localhost:x"):  # no port: no name of ours
        assert httpx.get(server.url + state, headers={"Host": odd}).status_code == 400, odd
    assert httpx.get(server.url + state, headers={"Host": f"[::1]:{server.port}"}).status_code == 200
    for host in (f"127.0.0.1:{server.port}", "localhost", f"localhost:{server.port}", "table7.club.example"):
        assert httpx.get(server.url + state, headers={"Host": host}).status_code == 200, host
    # the live stream too: a rebinding page cannot open the WebSocket
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"GET /ws HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        assert s.recv(4096).startswith(b"HTTP/1.1 403")


def test_x_forwarded_for_does_not_dodge_the_pin_delays(server):
    """The client address is the TCP peer: rotating X-Forwarded-For changes nothing."""
    with httpx.Client(base_url=server.url) as c:
        token = c.get("/admin/api/session").json()["csrf"]
        codes = [c.post("/admin/api/login", json={"pin": "000000", "csrf": token},
                        headers={"X-Forwarded-For": f"10.9.8.{i}"}).status_code for i in range(5)]
    assert codes[:4] == [401] * 4 and codes[4] == 429


def test_half_open_connections_neither_starve_players_nor_flood_the_log(tmp_path):
    """300 half-sent requests against a server with 256 file handles: before, accept()
    failed with EMFILE in a loop (a traceback each time, no request served, and no
    handle left for the hub); now the oldest half-open ones make room."""
    limits = {"max_connections": 64, "max_per_client": 48, "header_timeout": 1.0, "backlog": 32}
    with GuardedServer(tmp_path, limits=limits, nofile=256) as srv:
        log_lines = len(srv.log().splitlines())
        socks = []
        try:
            for _ in range(300):
                s = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
                s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                socks.append(s)
            r = httpx.get(srv.url + "/api/state", timeout=10)
            assert r.status_code == 200
            assert srv.open_files() < 128  # well under the 256 allowed: room for journal and hub
            # the header deadline closes the rest (bounded wait, no timing asserted)
            open_socks = list(socks)
            for _ in range(300):
                readable, _, _ = select.select(open_socks, [], [], 0.1)
                for s in readable:
                    try:
                        data = s.recv(4096)
                    except OSError:
                        data = b""
                    if not data:
                        open_socks.remove(s)
                if not open_socks:
                    break
            assert not open_socks, f"{len(open_socks)} half-open connections never closed"
        finally:
            for s in socks:
                s.close()
        time.sleep(0.2)
        assert httpx.get(srv.url + "/api/state", timeout=10).status_code == 200
        new_lines = srv.log().splitlines()[log_lines:]
        assert len(new_lines) < 20, "\n".join(new_lines[:40])


def drip_until_closed(port: int, head: bytes, most: int, every: float = 0.2) -> tuple[int, bytes]:
    """Send ``head``, then one body byte every ``every`` seconds, at most ``most`` bytes,
    reading whatever the server says. Returns (bytes dripped before the server hung up
    or ``most`` if it never did, everything it answered)."""
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head)
        for dripped in range(most):
            readable, _, _ = select.select([s], [], [], every)
            if readable:
                try:
                    data = s.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    return dripped, answer
                answer += data
            try:
                s.sendall(b"x")
            except (BrokenPipeError, ConnectionResetError):
                return dripped, answer
    return most, answer


@pytest.fixture(scope="module")
def quick_body_server(tmp_path_factory):
    with GuardedServer(tmp_path_factory.mktemp("drip"), limits={"body_timeout": 1.0}) as srv:
        yield srv


def test_a_dripped_login_body_is_cut_off_at_its_deadline(quick_body_server):
    """A login body sent a byte at a time: before, the connection (and the login's task)
    stayed as long as the client kept dripping; now it is closed once the body's
    deadline (1 s here, 30 s by default) has passed, long before the 200 bytes."""
    head = (b"POST /admin/api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 200\r\n\r\n")
    dripped, _ = drip_until_closed(quick_body_server.port, head, most=200)
    assert dripped < 200
    assert httpx.get(quick_body_server.url + "/api/state").status_code == 200
    # the deadline doing its job is not a fault: no traceback in the table's log
    assert "Traceback" not in quick_body_server.log()
    assert "ClientDisconnect" not in quick_body_server.log()


def test_a_dripped_body_nobody_reads_is_cut_off_too(quick_body_server):
    """A route that answers without reading the body (here a page that does not exist):
    the answer comes at once, but uvicorn goes on taking the body until its last byte,
    and the header deadline does not apply while it does."""
    head = b"POST /no-such-page HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 200\r\n\r\n"
    dripped, answer = drip_until_closed(quick_body_server.port, head, most=200)
    assert answer.startswith(b"HTTP/1.1 404"), answer[:200]
    assert dripped < 200


def test_a_whole_body_sent_in_time_is_served(quick_body_server):
    with httpx.Client(base_url=quick_body_server.url) as c:
        token = c.get("/admin/api/session").json()["csrf"]
        assert c.post("/admin/api/login", json={"pin": PIN, "csrf": token}).status_code == 200


def hold_websocket(port: int, source: str) -> socket.socket:
    """A WebSocket to /ws from the loopback address ``source``, held open and never read."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    s.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    answer = b""
    while b"\r\n\r\n" not in answer:
        data = s.recv(4096)
        assert data, "closed before the upgrade"
        answer += data
    assert answer.startswith(b"HTTP/1.1 101"), answer[:80]
    return s


def closed_by_server(s: socket.socket) -> bool:
    """Whether the server has hung up on ``s`` (what it sent before, the game's state
    stream, is read past)."""
    s.setblocking(False)
    try:
        while True:
            if not s.recv(65536):
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_addresses_reconnecting_without_pause_do_not_put_the_players_out(tmp_path):
    """Hundreds of addresses reconnecting without pause kept the server full: each new
    connection put out the oldest holder, and the oldest were the players' phones, so
    each was dropped every few seconds while the flood's own came and went. Now the
    address that opened the most in the last minute gives one up first, and a flood
    never puts out an address at a phone's pace. (Until an address has opened more than
    ``RECONNECTING`` in a minute it is taken for a phone: in a flood's first seconds the
    oldest still go.)"""
    from controller.web.server import RECONNECTING

    limits = {"max_connections": 8, "max_per_client": 4}
    flood = [f"127.0.4.{2 + k}" for k in range(6)]
    with GuardedServer(tmp_path, limits=limits) as srv:
        kiosk = hold_websocket(srv.port, "127.0.0.1")
        phones = [hold_websocket(srv.port, f"127.0.5.{2 + k}") for k in range(3)]
        mine: dict[str, socket.socket] = {}
        turned_away = 0
        try:
            for source in flood:  # each flood address has been reconnecting for a while
                for _ in range(RECONNECTING + 1):
                    hold_websocket(srv.port, source).close()
            for _ in range(4):  # and goes on, more addresses than the server has room for
                for source in flood:
                    if source in mine:
                        mine.pop(source).close()
                    try:
                        mine[source] = hold_websocket(srv.port, source)
                        refused = False
                    except (OSError, AssertionError):  # put out at once: the flood's own
                        refused = True
                    turned_away += refused
            assert not closed_by_server(kiosk)
            assert [closed_by_server(p) for p in phones] == [False] * 3
            # the flood made room: its own put out, or turned away
            assert turned_away + sum(closed_by_server(s) for s in mine.values()) >= 2
            assert _get_from(srv.port, "127.0.5.9").startswith(b"HTTP/1.1 200")  # a new phone
            assert [closed_by_server(p) for p in phones] == [False] * 3
        finally:
            kiosk.close()
            for s in (*phones, *mine.values()):
                s.close()


def test_a_phone_loading_the_page_on_a_full_server_gets_every_request_served(tmp_path):
    """A browser opens a few connections at once to load a page. On a full server its
    second one counted as an address holding two, more than any other, and was put out
    (and a connection that had not yet sent its request was put out by the next one):
    a real Chromium never loaded the dashboard while addresses each held one WebSocket.
    Up to a browser's few, an address counts as holding one; a connection gets a moment
    to send its request. Nor do a page's own requests make a phone "reconnecting"."""
    import threading

    from controller.web.server import RECONNECTING

    limits = {"max_connections": 8, "max_per_client": 8}
    with GuardedServer(tmp_path, limits=limits) as srv:
        held = [hold_websocket(srv.port, f"127.0.6.{2 + k}") for k in range(8)]
        try:
            answers: list[bytes] = []
            loads = [threading.Thread(target=lambda: answers.append(_get_from(srv.port, "127.0.7.2")))
                     for _ in range(3)]
            for t in loads:
                t.start()
            for t in loads:
                t.join()
            assert [a[:12] for a in answers] == [b"HTTP/1.1 200"] * 3
            for _ in range(RECONNECTING + 1):  # a phone reloading: its requests
                assert _get_from(srv.port, "127.0.7.3").startswith(b"HTTP/1.1 200")
            ws = hold_websocket(srv.port, "127.0.7.3")  # still let in: no flood
            ws.close()
        finally:
            for s in held:
                s.close()


def test_websockets_held_open_by_a_few_addresses_do_not_lock_a_new_player_out(tmp_path):
    """Three addresses each hold every WebSocket they may, filling the server: before, a
    new visitor (a phone, the table screen reloading) was refused until they let go, for
    an open WebSocket is never idle. Now the address holding the most gives one up."""
    limits = {"max_connections": 24, "max_per_client": 8}
    with GuardedServer(tmp_path, limits=limits) as srv:
        held = [hold_websocket(srv.port, f"127.0.0.{2 + k // 8}") for k in range(24)]
        try:
            for _ in range(3):  # each new visitor gets in, again and again
                with httpx.Client(timeout=10) as http:
                    assert http.get(srv.url + "/api/state").status_code == 200
            assert 1 <= sum(closed_by_server(s) for s in held) <= 3  # the rest stay open
            assert "KeyError" not in srv.log()  # each let go cleanly
        finally:
            for s in held:
                s.close()


def test_headers_over_the_limit_are_refused_even_sent_in_one_piece(server):
    """16 KiB of request line and headers at most: h11 bounds only headers still coming
    in, so 60 KB sent at once used to be served (200)."""
    big = b"X-Filler: " + b"a" * 60_000 + b"\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n" + big + b"\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer:
            data = s.recv(4096)
            if not data:
                break
            answer += data
    assert answer.startswith((b"HTTP/1.1 431", b"HTTP/1.1 400")), answer[:100]
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: " + b"a" * 8_000 + b"\r\n\r\n")
        assert s.recv(4096).startswith(b"HTTP/1.1 200")  # a big but honest header is served


def test_a_websocket_upgrade_the_library_turns_down_is_closed_at_the_header_deadline(tmp_path):
    """A header line over the WebSocket library's 8 KiB: it turned the upgrade down and
    nothing answered or closed the connection, which stayed open for good (still open
    after 300 s in an outside attack). It gets the header deadline now."""
    with GuardedServer(tmp_path, limits={"header_timeout": 1.0}) as srv:
        s = socket.create_connection(("127.0.0.1", srv.port), timeout=15)
        try:
            s.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                      b"X-Long: " + b"a" * 9000 + b"\r\n\r\n")
            answer = b""
            while True:  # read until the server hangs up (the socket's timeout is 15 s)
                data = s.recv(4096)
                if not data:
                    break
                answer += data
            assert not answer.startswith(b"HTTP/1.1 101")
        finally:
            s.close()
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as ok:  # a good one still opens
            ok.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            time.sleep(1.5)  # past the deadline: a completed handshake is not closed
            assert ok.recv(4096).startswith(b"HTTP/1.1 101")
            ok.setblocking(False)
            try:
                assert ok.recv(65536) != b""  # the state stream, not a hang-up
            except BlockingIOError:
                pass


def _get_from(port: int, source: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0)) as s:
        s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        try:
            return s.recv(64)
        except OSError:
            return b""


def test_many_addresses_holding_one_websocket_each_keep_no_one_out(tmp_path):
    """Every address holds one WebSocket and the server is full: with no address holding
    more than the newcomer, the newcomer was the one let go, so 256 addresses on a guest
    Wi-Fi kept every phone and the table screen out. The oldest of them goes now, and
    the table screen's own browser (loopback) is never the one let go."""
    limits = {"max_connections": 8, "max_per_client": 4}
    with GuardedServer(tmp_path, limits=limits) as srv:
        kiosk = hold_websocket(srv.port, "127.0.0.1")
        held = [hold_websocket(srv.port, f"127.0.1.{2 + k}") for k in range(7)]
        try:
            for k in range(3):  # a new phone, again and again
                assert _get_from(srv.port, f"127.0.2.{2 + k}").startswith(b"HTTP/1.1 200")
            assert not closed_by_server(kiosk)
            assert 1 <= sum(closed_by_server(s) for s in held) <= 3
            kiosk.close()
            time.sleep(0.2)
            more = [hold_websocket(srv.port, f"127.0.3.{2 + k}") for k in range(2)]
            assert _get_from(srv.port, "127.0.0.1").startswith(b"HTTP/1.1 200")  # the screen reloading
            for s in more:
                s.close()
            assert "KeyError" not in srv.log()
        finally:
            kiosk.close()
            for s in held:
                s.close()


def test_an_address_holding_two_websockets_goes_before_a_phone_holding_one(tmp_path):
    """A phone's page holds one WebSocket. Up to six connections from an address counted
    as one (a browser loading a page), WebSockets too, so addresses holding two each were
    as phones, and a new phone was the newest and went for them: again and again, past
    a server's cap, under a flood of a few WebSockets from every address. Each WebSocket
    counts now: the phone that joined last stays, and an address holding two gives one
    up."""
    limits = {"max_connections": 8, "max_per_client": 8}
    with GuardedServer(tmp_path, limits=limits) as srv:
        player = hold_websocket(srv.port, "127.0.8.2")
        doubled = [hold_websocket(srv.port, f"127.0.8.{3 + k // 2}") for k in range(6)]
        late = hold_websocket(srv.port, "127.0.8.6")  # a phone that joined last
        try:
            newcomer = hold_websocket(srv.port, "127.0.8.9")
            time.sleep(0.3)
            assert not closed_by_server(player)
            assert not closed_by_server(late)
            assert not closed_by_server(newcomer)
            assert sum(closed_by_server(s) for s in doubled) == 1
            newcomer.close()
        finally:
            player.close()
            late.close()
            for s in doubled:
                s.close()


def test_past_the_backlog_a_phones_first_connection_is_not_put_out_for_a_flood(tmp_path):
    """Past the cap and its backlog, a connection that has sent nothing goes first (a
    flood's burst is all such). A connection is silent only until its first read, so a
    phone's page load accepted beside a flood's reopened WebSockets was the one put out
    (reset before its page came back: 2-6 of 12 new phones in `bench/web_flood.py --mode
    paced3`). Not now while the one chosen otherwise is of an address that looks more
    like a flood: here one holding three WebSockets."""
    limits = {"max_connections": 8, "max_per_client": 8, "backlog": 2}
    with GuardedServer(tmp_path, limits=limits) as srv:
        player = hold_websocket(srv.port, "127.0.9.2")
        flood = [hold_websocket(srv.port, f"127.0.9.{3 + k // 3}") for k in range(6)]
        phone = socket.create_connection(("127.0.0.1", srv.port), timeout=10, source_address=("127.0.9.9", 0))
        try:
            time.sleep(0.1)
            # the flood opens three more from new addresses: two wait for the room made
            # a moment later, the third is past the backlog
            flood += [hold_websocket(srv.port, f"127.0.9.{5 + k}") for k in range(3)]
            time.sleep(0.3)
            assert not closed_by_server(phone)
            assert not closed_by_server(player)
            assert sum(closed_by_server(s) for s in flood) >= 1
        finally:
            phone.close()
            player.close()
            for s in flood:
                s.close()


def test_a_flood_of_kept_alive_pages_past_the_backlog_does_not_put_the_players_out(tmp_path):
    """Addresses each keeping a few page connections alive, each asking again and again
    and reopened at once when closed, past the cap and its backlog: their connections
    are always young and mid-request, so the players' WebSockets were all that was left
    to put out, and were, again and again (an outside attack: 254 addresses, three
    each). A newcomer whose room would cost a player's WebSocket no less like a flood
    than its own address waits instead."""
    import threading

    limits = {"max_connections": 8, "max_per_client": 8, "backlog": 2}
    with GuardedServer(tmp_path, limits=limits) as srv:
        players = [hold_websocket(srv.port, f"127.0.10.{2 + k}") for k in range(2)]
        stop = threading.Event()

        def flood(source: str) -> None:
            while not stop.is_set():
                try:
                    with socket.create_connection(("127.0.0.1", srv.port), timeout=2,
                                                  source_address=(source, 0)) as s:
                        while not stop.is_set():
                            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                            if not s.recv(65536):
                                break
                except OSError:
                    pass

        threads = [threading.Thread(target=flood, args=(f"127.0.11.{2 + k // 3}",), daemon=True)
                   for k in range(12)]
        try:
            for t in threads:
                t.start()
            time.sleep(8)
            assert [closed_by_server(p) for p in players] == [False, False]
        finally:
            stop.set()
            for t in threads:
                t.join(5)
            for p in players:
                p.close()


def test_the_table_screen_is_never_turned_away_by_uvicorns_own_cap(tmp_path):
    """Past uvicorn's own cap (connections or tasks) it answers every request 503 itself,
    before our room-making: a table screen that reloaded during a flood got a 503 page,
    or its page's language list a 503, and stayed dead after the flood was over. The
    table screen's connections are exempt; a phone past the cap still gets the 503."""
    with GuardedServer(tmp_path, limits={"max_connections": 8, "uvicorn_cap": 2}) as srv:
        held = [hold_websocket(srv.port, f"127.0.8.{2 + k}") for k in range(2)]
        try:
            assert _get_from(srv.port, "127.0.8.9").startswith(b"HTTP/1.1 503")  # the cap holds
            for _ in range(3):  # the screen reloading, again and again
                assert _get_from(srv.port, "127.0.0.1").startswith(b"HTTP/1.1 200")
        finally:
            for s in held:
                s.close()


def test_a_page_being_loaded_is_not_put_out_for_a_newcomer(tmp_path):
    """Addresses each hold one WebSocket and none reconnects hard (a flood paced under
    RECONNECTING): the server is full and every newcomer puts someone out. A phone
    loading the page holds a few connections at once; it counted as holding the most,
    and its request in flight was closed (a module script lost: the page stayed dead).
    A page's requests get a moment (LOADING_GRACE); a WebSocket goes instead. (The
    newcomer's own room is made a moment later, LOADING_GRACE, for the page's requests had
    not been sent whole: by then the page is loaded and there is room.)"""
    from controller.web.server import LOADING_GRACE

    limits = {"max_connections": 8, "max_per_client": 8}
    with GuardedServer(tmp_path, limits=limits) as srv:
        held = [hold_websocket(srv.port, f"127.0.6.{2 + k}") for k in range(8)]
        loading: list[socket.socket] = []
        newcomer = socket.socket()
        try:
            for _ in range(3):  # the phone's requests, on their way
                s = socket.create_connection(("127.0.0.1", srv.port), source_address=("127.0.7.2", 0))
                s.settimeout(10)
                s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                loading.append(s)
            newcomer = hold_websocket(srv.port, "127.0.4.2")  # one more of the flood
            answers = []
            for s in loading:
                s.sendall(b"Connection: close\r\n\r\n")
                try:
                    answers.append(s.recv(4096)[:9])
                except OSError:
                    answers.append(b"")
            assert answers == [b"HTTP/1.1 "] * 3, answers
            time.sleep(LOADING_GRACE + 0.5)
            gone = {i for i, s in enumerate(held) if closed_by_server(s)}
            assert len(gone) == 3  # the flood's went instead, one for each of the page's
            assert not closed_by_server(newcomer)
        finally:
            for s in (*held, *loading, newcomer):
                s.close()


def test_uploads_whose_bodies_never_come_do_not_put_the_players_out(tmp_path):
    """Addresses each send a POST's headers and never its body, replaced before they are
    three seconds old: counted as pages being loaded (let be), they left only the
    players' WebSockets to put out, and every player was off the table for the whole
    flood. A request waiting for its body is no page being loaded."""
    limits = {"max_connections": 8, "max_per_client": 8}
    with GuardedServer(tmp_path, limits=limits) as srv:
        phones = [hold_websocket(srv.port, f"127.0.5.{2 + k}") for k in range(2)]
        uploads: list[socket.socket] = []
        try:
            for k in range(12):  # more uploads than the server has room for
                s = socket.create_connection(("127.0.0.1", srv.port), source_address=(f"127.0.4.{2 + k}", 0))
                s.sendall(b"POST /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Content-Type: text/plain\r\nContent-Length: 100\r\n\r\n")
                uploads.append(s)
                time.sleep(0.05)
            time.sleep(0.3)
            assert [closed_by_server(p) for p in phones] == [False, False]
            assert sum(closed_by_server(s) for s in uploads) >= 4  # the uploads made room
        finally:
            for s in (*phones, *uploads):
                s.close()


def test_a_floods_burst_does_not_put_the_players_out(tmp_path):
    """A flood opens its connections all at once and reopens each one put out. Before,
    every one of them was too young to be idle and not yet settled, so the players'
    WebSockets were the only ones left to put out: all of them went within a millisecond
    of the flood's start, and each one's reconnect, the newest, went again. Now the room
    is made a moment later, when the burst has shown what it is."""
    from controller.web.server import LOADING_GRACE

    limits = {"max_connections": 8, "max_per_client": 4}
    with GuardedServer(tmp_path, limits=limits) as srv:
        phones = [hold_websocket(srv.port, f"127.0.5.{2 + k}") for k in range(3)]
        burst: list[socket.socket] = []
        try:
            for k in range(10):  # connected together: none has sent its request yet
                burst.append(socket.create_connection(("127.0.0.1", srv.port), timeout=10,
                                                      source_address=(f"127.0.4.{2 + k}", 0)))
            time.sleep(0.2)  # the server has taken them all
            assert [closed_by_server(p) for p in phones] == [False] * 3
            for s in burst:  # each asks for its WebSocket
                s.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            gone: set[int] = set()
            deadline = time.monotonic() + 10
            while len(gone) < 5 and time.monotonic() < deadline:  # room is made, from the burst
                gone |= {i for i, s in enumerate(burst) if closed_by_server(s)}
                time.sleep(0.05)
            assert len(gone) == 5
            for _ in range(2):  # the flood reopens each one put out, at once
                for i in sorted(gone):
                    burst[i].close()
                    try:
                        burst[i] = hold_websocket(srv.port, f"127.0.4.{2 + i}")
                    except (OSError, AssertionError):
                        burst[i] = socket.socket()
                time.sleep(LOADING_GRACE + 0.5)  # room is made for each, a moment later
                gone = {i for i, s in enumerate(burst) if closed_by_server(s)}
            assert [closed_by_server(p) for p in phones] == [False] * 3
            assert _get_from(srv.port, "127.0.5.9").startswith(b"HTTP/1.1 200")  # a new phone
            assert "Traceback" not in srv.log()
        finally:
            for s in (*phones, *burst):
                s.close()


def test_connections_kept_alive_after_an_answer_go_before_the_players(tmp_path):
    """A flood asks for a page from each address and keeps the connection alive,
    reopening any that is closed. Under a second old, such a connection was let be (a
    phone's connections opened together must not put each other out), so the players'
    WebSockets were put out instead, again and again: live a fifth of the time in a
    bench run. A connection idle after an answer is the first to go now, whatever its
    age: a browser sends its request again on a kept-alive connection closed under it."""
    limits = {"max_connections": 8, "max_per_client": 4}
    with GuardedServer(tmp_path, limits=limits) as srv:
        phones = [hold_websocket(srv.port, f"127.0.5.{2 + k}") for k in range(3)]
        kept: list[socket.socket] = []
        try:
            for k in range(10):
                s = socket.create_connection(("127.0.0.1", srv.port), timeout=10,
                                             source_address=(f"127.0.4.{2 + k}", 0))
                s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                head = b""
                while b"\r\n\r\n" not in head:
                    data = s.recv(65536)
                    assert data, "closed before its answer"
                    head += data
                assert head.startswith(b"HTTP/1.1 200")
                kept.append(s)
            time.sleep(0.2)
            assert [closed_by_server(p) for p in phones] == [False] * 3
            assert sum(closed_by_server(s) for s in kept) == 5  # the oldest kept-alive ones
            assert not any(closed_by_server(s) for s in kept[-5:])
        finally:
            for s in (*phones, *kept):
                s.close()


def test_requests_waiting_for_their_bodies_go_before_a_phone(tmp_path):
    """Addresses each send a POST's headers and no body, reopening any put out (an
    outside re-attack: about 250 a second from 260 addresses). A phone that joined was
    the newest connection for the moment after its WebSocket opened, and the flood's
    next newcomer came within it: it was put out as soon as it was in, again and again.
    Among addresses holding as many, a request waiting for its body goes before a
    WebSocket; and one whose body has stopped coming is as idle as a connection that
    sends nothing (the oldest of those goes first)."""
    from controller.web.server import IDLE_GRACE

    limits = {"max_connections": 8, "max_per_client": 8}
    with GuardedServer(tmp_path, limits=limits) as srv:
        players = [hold_websocket(srv.port, f"127.0.5.{2 + k}") for k in range(2)]
        uploads: list[socket.socket] = []
        phone = socket.socket()

        def upload(k: int) -> None:
            s = socket.create_connection(("127.0.0.1", srv.port), source_address=(f"127.0.4.{2 + k}", 0))
            s.sendall(b"POST /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      b"Content-Type: text/plain\r\nContent-Length: 100\r\n\r\n")
            uploads.append(s)
            time.sleep(0.05)

        try:
            for k in range(5):
                upload(k)
            phone = hold_websocket(srv.port, "127.0.7.2")  # the server is full now
            upload(5)  # the flood's next, just after the phone came
            time.sleep(0.2)
            assert not closed_by_server(phone)
            assert sum(closed_by_server(s) for s in uploads) == 1  # one of the uploads went
            time.sleep(IDLE_GRACE + 0.3)  # their bodies have stopped coming
            upload(6)
            time.sleep(0.2)
            assert closed_by_server(uploads[0])  # the oldest stalled one went, not the newest
            assert not closed_by_server(uploads[6])
            assert not closed_by_server(phone)
            assert [closed_by_server(p) for p in players] == [False, False]
        finally:
            for s in (*players, phone, *uploads):
                s.close()


def test_a_new_phone_is_not_put_out_for_a_flood_that_comes_straight_back(tmp_path):
    """Addresses each hold one WebSocket and reopen it at once when put out, none past
    RECONNECTING: the server is full and every one of them put out comes straight back.
    The newest connection went first, so a phone that joined was put out by the next one
    that came back (an outside re-attack: one new phone put out 18 times in 15 s). An
    address that came back sooner than a browser's page reconnects goes first now."""
    limits = {"max_connections": 8, "max_per_client": 4}
    with GuardedServer(tmp_path, limits=limits) as srv:
        players = [hold_websocket(srv.port, f"127.0.5.{2 + k}") for k in range(2)]
        flood = [hold_websocket(srv.port, f"127.0.4.{2 + k}") for k in range(5)]
        a, b = "127.0.4.20", "127.0.4.21"
        held = {a: hold_websocket(srv.port, a)}  # the server is full
        phone = socket.socket()

        def straight_back(address: str) -> None:
            assert closed_by_server(held[address])
            held[address].close()
            held[address] = hold_websocket(srv.port, address)

        try:
            held[b] = hold_websocket(srv.port, b)  # puts out the newest: a
            straight_back(a)  # which puts out b
            straight_back(b)  # which puts out a, come back before
            flood.pop().close()  # room for one more
            straight_back(a)
            phone = hold_websocket(srv.port, "127.0.7.2")  # puts out one that came back
            for _ in range(3):  # they come back at once, in turn
                time.sleep(0.1)
                straight_back(next(k for k, s in held.items() if closed_by_server(s)))
                time.sleep(0.1)
                assert not closed_by_server(phone)
            assert [closed_by_server(p) for p in (*players, *flood)] == [False] * 6
        finally:
            for s in (*players, *flood, phone, *held.values()):
                s.close()
