"""Web fan-out under load: verdict-to-client latency with 1 and with 200 WebSocket clients.

The referee is fed by the simulator's bots through the virtual reader hub, exactly as
``courtpiece simulate`` runs (pty, hub driver, journal), while the dashboard app serves
the stream from uvicorn. Clients run in a separate process so their own work does
not share the server's GIL. Latency is measured per ``play-accepted`` message as the
client's receive time minus the event's ``at`` (the moment the card was fed to the
referee, on the same clock): the referee's verdict plus the hub plus the socket.

    .venv/bin/python bench/web.py [--clients 200] [--seconds 6] [--pace 0]

``--pace`` is roughly inputs per second (0: the simulator's full speed, a few hundred
inputs a second, bounded by the journal's fsync and the pty round trip). Ends with one line:
``web p99_1_ms=… p99_200_ms=… ratio=…``.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import re
import socket
import statistics
import threading
import time

import uvicorn

from controller.referee.referee import Referee
from controller.web.app import create_app

#: The hub writes events as compact JSON with keys in the referee's order: seq, at, event.
PLAY_AT = re.compile(r'"at":([0-9.eE+-]+),"event":"play-accepted"')


def simulated_table(stop: threading.Event, pace: float) -> Referee:
    """The simulator's own table: bots place cards on the virtual hub's readers, the hub
    driver reads them over a pty, the referee journals and judges them (as
    ``courtpiece simulate`` does). ``pace`` 0 is the simulator's full speed."""
    import tempfile
    from pathlib import Path

    from controller.config import Config
    from controller.decks.deckmap import DeckMap
    from controller.readers.virtual_hub import VirtualHub
    from controller.referee.service import TableService
    from controller.runtime import start_hub
    from controller.sim.simulator import SimSettings, SimulatedTable, simulated_deck

    state = Path(tempfile.mkdtemp(prefix="web-bench-"))
    cfg = Config()
    cfg.table.state_dir = str(state)
    deck = simulated_deck()
    hub = VirtualHub(link_path=state / "hub").start()
    service = TableService.open(cfg, DeckMap([deck], deck.name))
    start_hub(service, hub.port, source="virtual-hub")
    speed = 1e9 if not pace else 1.2 / (1 / pace)
    settings = SimSettings(preset="court-piece", speed=speed, revoke_rate=0.02, seed=1, matches=10**9,
                           options={"match-end": "hands", "match-target": 40})
    sim = SimulatedTable(service.referee, hub, deck, settings)
    threading.Thread(target=sim.run, args=(stop,), daemon=True, name="simulator").start()
    return service.referee


async def _client(url: str, out: list[float], stop_at: float, ready: list[float]) -> None:
    import websockets
    async with websockets.connect(url, max_size=None) as ws:
        ready[0] += 1
        while time.time() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, stop_at - time.time()))
            except TimeoutError:
                break
            now = time.time()
            if ready[0] >= ready[1] and not ready[2]:
                ready[2] = now  # everyone is connected: count from a second after this
            if ready[2] and now > ready[2] + 1.0:  # past the 200 first snapshots
                out.extend(now - float(at) for at in PLAY_AT.findall(raw))  # a regex: one core


def clients_main(url: str, n: int, seconds: float, result: mp.Queue) -> None:
    async def run() -> list[float]:
        lat: list[float] = []
        ready: list[float] = [0, n, 0.0]
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

    stop = threading.Event()
    referee = simulated_table(stop, args.pace)
    app = create_app(referee, admin_pin="123456")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="websockets-sansio",
                                          ws_per_message_deflate=False))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.01)
    url = f"ws://127.0.0.1:{port}/ws"
    time.sleep(3)  # let the simulated table settle (first deal, journal file growth)
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
