"""The WebSocket hub: one referee, many screens.

The referee calls its subscribers from whatever thread fed it (a reader, the admin
page), so the hub hops onto the asyncio loop first. Each message is built and
serialised once, then offered to every client's own bounded queue: a phone on a weak
link fills its queue and is switched to "resync" (its queue dropped, a fresh full
snapshot sent when it catches up) instead of holding up the table screen.

Messages (JSON text):
- ``{"type": "state", "state": {...public state...}, "recent": [events]}`` on connect,
  after an ``undone`` event (history changed) and after a resync;
- ``{"type": "event", "event": {...}, "state": {...}}`` for every public event, with
  the public state after the input that caused it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from controller.table import Referee, TableEvent
from controller.web.redact import public_event

log = logging.getLogger(__name__)

QUEUE_SIZE = 64
RECENT = 30


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Client:
    """One connected screen: a bounded queue of ready-made messages."""

    def __init__(self, size: int) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue(size)
        self.resync = False
        self.wake = asyncio.Event()

    def offer(self, message: str) -> None:
        if self.resync:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.resync = True  # too slow: drop the backlog, send one snapshot instead
            while not self.queue.empty():
                self.queue.get_nowait()
        self.wake.set()

    async def next_batch(self) -> list[str] | None:
        """Queued messages (None: send a snapshot instead), waiting if there are none."""
        while True:
            if self.resync:
                self.resync = False
                return None
            if not self.queue.empty():
                batch = []
                while not self.queue.empty():
                    batch.append(self.queue.get_nowait())
                return batch
            self.wake.clear()
            await self.wake.wait()


class Hub:
    def __init__(self, referee: Referee, *, queue_size: int = QUEUE_SIZE) -> None:
        self.referee = referee
        self.queue_size = queue_size
        self.clients: set[Client] = set()
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Any = None
        self._state_seq: int | None = None
        self._state_json = "null"
        for ev in referee.public_events()[-RECENT:]:
            pub = public_event(ev)
            if pub is not None:
                self.recent.append(pub)

    # -------------------------------------------------------------- lifecycle
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._unsubscribe = self.referee.subscribe(self._from_referee)

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _from_referee(self, event: TableEvent) -> None:
        """Called on the referee's thread: never touch clients here."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # loop shutting down
            loop.call_soon_threadsafe(self.publish, event)

    # -------------------------------------------------------------- messages
    def _state(self, seq: int | None) -> str:
        """The public state as JSON, computed once per referee input (events share it)."""
        if seq is None or seq != self._state_seq:
            state = self.referee.public_state()
            self._state_seq = seq if seq is not None else state["seq"]
            self._state_json = dumps(state)
        return self._state_json

    def snapshot(self) -> str:
        state = dumps(self.referee.public_state())
        return f'{{"type":"state","state":{state},"recent":{dumps(list(self.recent))}}}'

    def publish(self, event: TableEvent) -> None:
        """On the loop: turn one table event into one message for every client."""
        pub = public_event(event)
        if pub is None:
            return
        self.recent.append(pub)
        if pub.get("event") == "undone":
            self._state_seq = None
            message = self.snapshot()
        else:
            message = f'{{"type":"event","event":{dumps(pub)},"state":{self._state(pub.get("seq"))}}}'
        for client in list(self.clients):
            client.offer(message)

    # -------------------------------------------------------------- serving
    async def serve(self, ws: WebSocket) -> None:
        await ws.accept()
        client = Client(self.queue_size)
        self.clients.add(client)
        receiver = asyncio.ensure_future(self._drain(ws))
        try:
            await ws.send_text(self.snapshot())
            while not receiver.done():
                batch = await _first(client.next_batch(), receiver)
                if batch is _CLOSED:
                    break
                if batch is None:
                    await ws.send_text(self.snapshot())
                elif len(batch) == 1:
                    await ws.send_text(batch[0])
                else:  # a client that fell a little behind gets its backlog in one frame
                    await ws.send_text("[" + ",".join(batch) + "]")
        except (WebSocketDisconnect, RuntimeError, ConnectionError):
            pass
        finally:
            self.clients.discard(client)
            receiver.cancel()

    async def _drain(self, ws: WebSocket) -> None:
        """Read (and ignore) what the client sends, to notice it leaving."""
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                msg = await ws.receive()
                if msg.get("type") == "websocket.disconnect":
                    return


_CLOSED = object()


async def _first(batch_coro: Any, receiver: asyncio.Future[Any]) -> Any:
    """The next batch, or _CLOSED if the client went away first."""
    getter = asyncio.ensure_future(batch_coro)
    done, _ = await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
    if getter in done:
        return getter.result()
    getter.cancel()
    return _CLOSED
