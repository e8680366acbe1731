"""Players' phones under a connection flood from many addresses, against the real server.

The dashboard server runs in a child process on loopback with its default limits (512
connections), as ``courtpiece run`` serves it. Ten scripted players each hold the game's
WebSocket and reconnect as the page does (after a pause) when put out. Then a flood of
``--flood`` addresses (loopback 127.1.x.y, one connection each) runs for ``--seconds``:

- ``ws``: each holds a WebSocket and reopens it at once when put out;
- ``page``: each asks for ``/api/state``, keeps the connection alive after the answer, and
  reopens it at once when closed;
- ``churn``: each opens a WebSocket, drops it after 0.3 s, and opens another;
- ``pending``: each sends a POST's headers and never its body, reopening at once when
  closed;
- ``paced``: each holds a WebSocket and reopens it 0.35 s after being put out, no sooner
  than a browser does (not in ``all``: with the default cap, 260 of these fit);
- ``paced3``: the same with three WebSockets from each address, which a club's /24 of
  254 addresses needs to fill the default cap (``--flood 254``; not in ``all``).

Every 1.5 s a new phone (a new address) loads the page (three requests together) and
opens its WebSocket; it counts as served if all three are answered 200 and its WebSocket
is still open a second later. The baseline is the same players and new phones over a
quiet stretch of the same length in the same run.

    .venv/bin/python bench/web_flood.py [--mode all|ws|page|churn|pending|paced|paced3] [--seconds 30] [--flood 260]

The table screen's own browser (loopback, 127.0.0.1) holds its WebSocket too. One line
per mode, then the summary: ``web_flood modes=4 worst_live_ratio=… players_put_out=…
probes_ok=…/… quiet_probes_ok=…/… screen_live=… screen_put_out=… tracebacks=…``
(``live_ratio``: the players' time connected under the flood over that in quiet;
``screen_live``: the table screen's, its lowest under any flood).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SERVER = r"""
import sys, threading
from controller.referee.referee import Referee
from controller.runtime import serve_web
from controller.web.app import create_app
serve_web(create_app(Referee(), admin_pin="271828"), "127.0.0.1", int(sys.argv[1]), threading.Event())
"""
UPGRADE = (b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def open_websocket(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(UPGRADE)
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    if not head.startswith(b"HTTP/1.1 101"):
        writer.close()
        raise OSError("refused")
    return reader, writer


async def until_closed(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    while await reader.read(65536):
        pass
    writer.close()


async def kept_page(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    return reader, writer


async def get(port: int, source: str, path: str) -> bool:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return answer.startswith(b"HTTP/1.1 200")


class Player:
    """A phone holding the game's WebSocket; put out, it comes back after a pause."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.live = 0.0
        self.put_out = 0

    async def play(self, port: int, until: float) -> None:
        while time.monotonic() < until:
            try:
                reader, writer = await open_websocket(port, self.source)
            except (TimeoutError, OSError, asyncio.IncompleteReadError):
                await asyncio.sleep(1.0)
                continue
            start = time.monotonic()
            try:
                await asyncio.wait_for(until_closed(reader, writer), until - start)
                self.put_out += 1
            except TimeoutError:
                writer.close()
            self.live += time.monotonic() - start
            await asyncio.sleep(1.0)


async def new_phones(port: int, until: float, prefix: str, served: list[bool]) -> None:
    k = 0
    while time.monotonic() < until - 3:
        source = f"{prefix}.{2 + k % 250}"
        k += 1
        try:
            pages = await asyncio.gather(get(port, source, "/"), get(port, source, "/api/state"),
                                         get(port, source, "/api/state"))
            reader, writer = await open_websocket(port, source)
            try:
                await asyncio.wait_for(until_closed(reader, writer), 1.0)
                kept = False
            except TimeoutError:
                kept = True
                writer.close()
            served.append(all(pages) and kept)
        except (TimeoutError, OSError, asyncio.IncompleteReadError):
            served.append(False)
        await asyncio.sleep(1.5)


async def flooder(port: int, source: str, mode: str, until: float, opens: list[int]) -> None:
    while time.monotonic() < until:
        try:
            if mode == "page":
                reader, writer = await kept_page(port, source)
            elif mode == "pending":
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
                writer.write(b"POST /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                             b"Content-Length: 60000\r\n\r\n{")
            else:
                reader, writer = await open_websocket(port, source)
            opens[0] += 1
            if mode == "churn":
                await asyncio.sleep(0.3)
                writer.close()
                continue
            await asyncio.wait_for(until_closed(reader, writer), max(0.01, until - time.monotonic()))
            if mode.startswith("paced"):
                await asyncio.sleep(0.35)
        except (TimeoutError, OSError, asyncio.IncompleteReadError):
            await asyncio.sleep(0.35 if mode.startswith("paced") else 0.01)


async def stretch(port: int, seconds: float, mode: str | None, flood: int, net: int) -> dict[str, float]:
    """Players and new phones for ``seconds``, with the flood ``mode`` (None: quiet); each
    stretch its own players' and phones' addresses (127.0.NET.x, 127.2.NET.x)."""
    until = time.monotonic() + seconds
    players = [Player(f"127.0.{net}.{2 + k}") for k in range(10)]
    screen = Player("127.0.0.1")  # the table screen's own browser, on the Pi
    phone_prefix = f"127.2.{net}"
    served: list[bool] = []
    opens = [0]
    tasks = [asyncio.create_task(p.play(port, until)) for p in (*players, screen)]
    tasks.append(asyncio.create_task(new_phones(port, until, phone_prefix, served)))
    if mode:
        await asyncio.sleep(1.0)  # the players are in before the flood starts
        each = 3 if mode == "paced3" else 1
        tasks += [asyncio.create_task(flooder(port, f"127.1.{k // 200}.{2 + k % 200}", mode, until, opens))
                  for k in range(flood) for _ in range(each)]
    await asyncio.gather(*tasks)
    return {"live": sum(p.live for p in players) / (len(players) * seconds),
            "put_out": sum(p.put_out for p in players), "served": sum(served), "phones": len(served),
            "screen_live": screen.live / seconds, "screen_put_out": screen.put_out,
            "opens": opens[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", default="all", choices=["all", "ws", "page", "churn", "pending", "paced", "paced3"])
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--flood", type=int, default=260)
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the flood's sockets, client side
    modes = ["ws", "page", "churn", "pending"] if args.mode == "all" else [args.mode]
    port = free_port()
    log = tempfile.NamedTemporaryFile(prefix="web-flood-", suffix=".log", delete=False)  # noqa: SIM115
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port)], cwd=REPO, stdout=log,
                              stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        worst, put_out, served, phones, quiet_served, quiet_phones = 1e9, 0, 0, 0, 0, 0
        screen_live, screen_put_out = 1.0, 0
        for n, mode in enumerate(modes):
            quiet = asyncio.run(stretch(port, args.seconds, None, 0, 10 + 2 * n))
            loud = asyncio.run(stretch(port, args.seconds, mode, args.flood, 11 + 2 * n))
            ratio = loud["live"] / quiet["live"] if quiet["live"] else 0.0
            worst = min(worst, ratio)
            put_out += int(loud["put_out"])
            served += int(loud["served"])
            phones += int(loud["phones"])
            quiet_served += int(quiet["served"])
            quiet_phones += int(quiet["phones"])
            screen_live = min(screen_live, loud["screen_live"])
            screen_put_out += int(loud["screen_put_out"])
            print(f"{mode}: players live {loud['live']:.3f} (quiet {quiet['live']:.3f}), put out "
                  f"{int(loud['put_out'])}, new phones served {int(loud['served'])}/{int(loud['phones'])} "
                  f"(quiet {int(quiet['served'])}/{int(quiet['phones'])}), table screen live {loud['screen_live']:.3f} "
                  f"put out {int(loud['screen_put_out'])}, flood opened {int(loud['opens'])}",
                  flush=True)
            time.sleep(6)  # kept-alive connections time out between modes
        tracebacks = Path(log.name).read_text(errors="replace").count("Traceback")
        print(f"web_flood modes={len(modes)} worst_live_ratio={worst:.3f} players_put_out={put_out} "
              f"probes_ok={served}/{phones} quiet_probes_ok={quiet_served}/{quiet_phones} "
              f"screen_live={screen_live:.3f} screen_put_out={screen_put_out} tracebacks={tracebacks}")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
