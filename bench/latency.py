"""Latency from a hub line written to the pseudo-terminal to the verdict reaching a
subscriber, beside the raw round trip of the same kind of pty measured in the same run.

The verdict path is the real one: pty, pyserial, the hub driver's checks, the deck map,
the referee (journal append with fsync, rules engine) and the subscriber call.

    python bench/latency.py [--plays 2000]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import threading
import time
import tty
from pathlib import Path

from controller.config import Config
from controller.decks.deckmap import DeckMap
from controller.readers.hub import HubConfig, HubDriver
from controller.readers.hub_protocol import Heartbeat, Hello, TagGone, TagRead, encode
from controller.referee.actions import table_input as input_for
from controller.referee.referee import COMMAND
from controller.referee.service import TableService
from controller.referee.table_events import PUBLIC, TableEvent, sees
from controller.rules import Phase
from controller.rules import inputs as I
from controller.sim.bots import BotTable
from controller.sim.simulator import simulated_deck


class Line:
    def __init__(self, master: int) -> None:
        self.master = master
        self.seq = 0

    def send(self, msg_type: type, *fields: object) -> float:
        line = encode(msg_type(self.seq, *fields))
        self.seq = (self.seq + 1) % 65536
        t = time.perf_counter()
        os.write(self.master, line)
        return t


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) >= 100 else max(values)


def raw_round_trip(n: int) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    line = encode(TagRead(1, "seat1", "51000001"))
    out = []
    for _ in range(n):
        t = time.perf_counter()
        os.write(master, line)
        got = b""
        while not got.endswith(b"\n"):
            got += os.read(slave, 256)
        out.append((time.perf_counter() - t) * 1000)
    os.close(master)
    os.close(slave)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--plays", type=int, default=2000)
    args = ap.parse_args()
    state = Path(tempfile.mkdtemp(prefix="latency-"))
    deck = simulated_deck()
    cfg = Config()
    cfg.table.state_dir = str(state)
    service = TableService.open(cfg, DeckMap([deck], deck.name))
    master, slave = os.openpty()
    tty.setraw(slave)
    link = state / "hub"
    os.symlink(os.ttyname(slave), link)
    driver = HubDriver(HubConfig(port=str(link), heartbeat_timeout=None, removal_silence=None, poll_interval=0.05),
                       on_event=service.on_reader_event).start()
    hub = Line(master)
    hub.send(Hello, "bench-1", ("seat0", "seat1", "seat2", "seat3", "deal", "trump"))
    assert driver.wait_connected(10)

    verdict = threading.Event()
    arrived = [0.0]

    def on_event(e: TableEvent) -> None:
        if e.kind in ("play-accepted", "impossible", "duplicate-read") and sees(PUBLIC, e):
            arrived[0] = time.perf_counter()
            verdict.set()

    service.referee.subscribe(on_event)
    lying: dict[str, str] = {}
    latencies: list[float] = []
    rng = random.Random(1)
    while len(latencies) < args.plays:
        r = service.referee
        r.command("new-match", {"preset": "court-piece", "knowledge": "dealt",
                                "options": {"match-end": "hands", "match-target": 5}})
        bots = BotTable(r.match, rng)
        while r.match.phase is not Phase.OVER and len(latencies) < args.plays:
            bots.match = r.match
            move = bots.next_input()
            kind, payload = input_for(move)
            if kind == COMMAND:
                name = payload.pop("name")
                r.command(name, payload)
                continue
            zone, tag = payload["zone"], deck.tag_of(payload["card"])
            if zone in lying:
                hub.send(TagGone, zone, lying.pop(zone))
            before = r.last_seq
            verdict.clear()
            t0 = hub.send(TagRead, zone, tag)
            lying[zone] = tag
            if isinstance(move, I.Play):
                if not verdict.wait(5):
                    raise SystemExit("no verdict within 5 s")
                latencies.append((arrived[0] - t0) * 1000)
            else:
                while r.last_seq == before:
                    time.sleep(0.0002)
            if len(latencies) % 500 == 0:
                hub.send(Heartbeat, 1)
    driver.stop()
    service.close()
    raw = raw_round_trip(max(args.plays, 2000))
    p50, p99 = statistics.median(latencies), pct(latencies, 99)
    r50, r99 = statistics.median(raw), pct(raw, 99)
    print(f"plays measured: {len(latencies)}; journal fsync on {state}")
    print(f"latency plays={len(latencies)} p50_ms={p50:.2f} p99_ms={p99:.2f} raw_p50_ms={r50:.3f} "
          f"raw_p99_ms={r99:.3f} p99_over_raw_ms={p99 - r99:.2f}")


if __name__ == "__main__":
    main()
