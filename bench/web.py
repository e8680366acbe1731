"""Web fan-out under load: verdict-to-client latency with 1 and with 200 WebSocket clients.

The referee is fed by bots (as ``courtpiece simulate`` does) while the dashboard app
serves the stream from uvicorn. Clients run in a separate process so their own work does
not share the server's GIL. Latency is measured per ``play-accepted`` message as the
client's receive time minus the event's ``at`` (the moment the card was fed to the
referee, on the same clock): the referee's verdict plus the hub plus the socket.

    .venv/bin/python bench/web.py [--clients 200] [--seconds 6] [--pace 0]

``--pace`` is inputs per second (0: as fast as the bots go). Ends with one line:
``web p99_1_ms=… p99_200_ms=… ratio=…``.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import random
import re
import socket
import statistics
import threading
import time

import uvicorn

from controller.bots import BotTable
from controller.rules import inputs as I
from controller.rules.hand import Phase
from controller.sightings import CardSeen
from controller.table import Referee
from controller.web.app import create_app

#: The hub writes events as compact JSON with keys in the referee's order: seq, at, event.
PLAY_AT = re.compile(r'"at":([0-9.eE+-]+),"event":"play-accepted"')


def feed(referee: Referee, move: object) -> None:
    """The table mapping of an engine input (see tests/web/webdrive.py for the full one)."""
    t = time.time()
    if isinstance(move, I.Deal):
        referee.sighting(CardSeen("deal", move.card.text, t, "bench"))
    elif isinstance(move, I.Play):
        referee.sighting(CardSeen(f"seat{move.seat}", move.card.text, t, "bench"))
    elif isinstance(move, I.CallTrump):
        referee.command("call-trump", {"seat": move.seat, "suit": move.suit.name}, at=t, source="bench")
    elif isinstance(move, I.CloseTrick):
        referee.command("confirm", at=t, source="bench")
    elif isinstance(move, I.ApplyPenalty):
        referee.command("apply-penalty", at=t, source="bench")
    elif isinstance(move, I.PlayOn):
        referee.command("play-on", {"play_on": move.play_on}, at=t, source="bench")
    else:
        raise TypeError(move)


def play(referee: Referee, stop: threading.Event, pace: float, seed: int = 1) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        referee.command("new-match", {"preset": "court-piece", "options": {"match-end": "hands", "match-target": 40}},
                        source="bench")
        bots = BotTable(referee.match, rng, revoke_rate=0.02)
        while not stop.is_set() and referee.match.phase is not Phase.OVER:
            bots.match = referee.match
            feed(referee, bots.next_input())
            if pace:
                time.sleep(1 / pace)
            else:
                time.sleep(0)  # let the server thread in, as a reader thread would


async def _client(url: str, out: list[float], stop_at: float, ready: list[int]) -> None:
    import websockets
    async with websockets.connect(url, max_size=None) as ws:
        ready[0] += 1
        while time.time() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, stop_at - time.time()))
            except TimeoutError:
                break
            now = time.time()
            if ready[0] >= ready[1]:  # a regex, not json.loads: 200 clients share one core
                out.extend(now - float(at) for at in PLAY_AT.findall(raw))


def clients_main(url: str, n: int, seconds: float, result: mp.Queue) -> None:
    async def run() -> list[float]:
        lat: list[float] = []
        ready = [0, n]
        stop_at = time.time() + seconds + 3
        await asyncio.gather(*(_client(url, lat, stop_at, ready) for _ in range(n)))
        return lat

    result.put(asyncio.run(run()))


def p99(xs: list[float]) -> float:
    if len(xs) < 2:
        return float("nan")
    return statistics.quantiles(xs, n=100)[98] * 1000


def measure(url: str, n: int, seconds: float) -> tuple[float, int]:
    q: mp.Queue = mp.get_context("spawn").Queue()
    p = mp.get_context("spawn").Process(target=clients_main, args=(url, n, seconds, q))
    p.start()
    lat = q.get()
    p.join()
    return p99(lat), len(lat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--pace", type=float, default=0.0, help="inputs per second (0: full speed)")
    args = ap.parse_args()

    referee = Referee()
    app = create_app(referee, admin_pin="123456")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="websockets-sansio"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.01)
    stop = threading.Event()
    driver = threading.Thread(target=play, args=(referee, stop, args.pace), daemon=True)
    driver.start()
    url = f"ws://127.0.0.1:{port}/ws"
    results = {}
    for n in (1, args.clients):
        before = referee.public_state()["seq"]
        t0 = time.time()
        results[n] = measure(url, n, args.seconds)
        rate = (referee.public_state()["seq"] - before) / (time.time() - t0)
        print(f"clients={n:<4} plays_measured={results[n][1]:<7} p99_ms={results[n][0]:.2f} inputs_per_s={rate:.0f}")
    stop.set()
    server.should_exit = True
    one, many = results[1][0], results[args.clients][0]
    print(f"web p99_1_ms={one:.2f} p99_{args.clients}_ms={many:.2f} ratio={many / one:.2f}")


if __name__ == "__main__":
    main()
