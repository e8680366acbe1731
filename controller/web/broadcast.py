"""The WebSocket broadcast: one referee, many screens.

The referee calls its subscribers from whatever thread fed it (a reader, the admin
page), so the broadcast hops onto the asyncio loop first. Each message is built and
serialised once, then offered to every client's own bounded queue: a phone on a weak
link fills its queue and is switched to "resync" (its queue dropped, a fresh full
snapshot sent when it catches up) instead of holding up the table screen.

Messages (JSON text; a frame is one message or a JSON array of them):
- ``{"type": "state", "state": {...public state...}, "recent": [events]}`` on connect,
  after an ``undone`` event (history changed) and after a resync;
- ``{"type": "event", "event": {...}}`` for every public event. The events of one
  referee input go out together, and the last of them carries ``"state"``: the public
  state after the input, *without* ``view.history`` (it only grows, and it is the bulk
  of the state), plus ``"history"`` when a hand was added to it. Clients keep the
  history from the last snapshot or ``history`` field.

Why coalesce: at full simulator speed a table makes thousands of events a second, and
the cost that grows with the number of screens is frames sent, not events. So frames
go out at most every ``MIN_FRAME_INTERVAL``: an input arriving after a quiet spell is
sent at once, a burst is folded into the next frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from controller.referee.referee import Referee
from controller.referee.table_events import TableEvent
from controller.web.redact import public_event

log = logging.getLogger(__name__)

QUEUE_SIZE = 1024
RECENT = 30
MIN_FRAME_INTERVAL = 0.02  # seconds: at most 50 frames a second to each screen
FOLD_RETRY = 0.002  # while screens are still busy with the last frame, look again this soon
MAX_HOLD = 0.25  # but never hold events back longer than this for slow screens


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


class Broadcast:
    def __init__(self, referee: Referee, *, queue_size: int = QUEUE_SIZE) -> None:
        self.referee = referee
        self.queue_size = queue_size
        self.clients: set[Client] = set()
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Any = None
        self._pending: list[dict[str, Any]] = []
        self._flush_scheduled = False
        self._history_len = -1
        self._last_flush = float("-inf")
        #: At most one frame per interval: a table plays a card a second, so this only
        #: ever folds bursts (a replayed log, the simulator at full speed) into one frame,
        #: which keeps the work per screen bounded however fast inputs come.
        self.min_frame_interval = MIN_FRAME_INTERVAL
        for ev in referee.public_events(newest=RECENT):
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
    def snapshot(self) -> str:
        state = self.referee.public_state()
        return f'{{"type":"state","state":{dumps(state)},"recent":{dumps(list(self.recent))}}}'

    def publish(self, event: TableEvent) -> None:
        """On the loop: queue one table event; the events of one input are sent together."""
        pub = public_event(event)
        if pub is None:
            return
        self.recent.append(pub)
        self._pending.append(pub)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            loop = asyncio.get_running_loop()
            wait = self._last_flush + self.min_frame_interval - loop.time()
            if wait > 0:  # a burst: fold it into the next frame rather than a frame per input
                loop.call_later(wait, self.flush)
            else:
                loop.call_soon(self.flush)

    def flush(self) -> None:
        """Build one frame for everything pending and offer it to every client."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        lagging = sum(1 for c in self.clients if not c.queue.empty())
        if lagging * 10 > len(self.clients) and now - self._last_flush < MAX_HOLD:
            # Most screens are still being sent the last frame: fold more events into
            # this one instead of queueing frame after frame behind it.
            loop.call_later(FOLD_RETRY, self.flush)
            return
        self._flush_scheduled = False
        self._last_flush = now
        pending, self._pending = self._pending, []
        if not pending:
            return
        if any(e.get("event") == "undone" for e in pending):
            message = self.snapshot()  # history was rewritten: everyone starts again
            self._history_len = -1
        else:
            parts = [f'{{"type":"event","event":{dumps(e)}}}' for e in pending[:-1]]
            state = self.referee.public_state()
            extra = ""
            view = state["view"]
            if view is not None:
                history = view.pop("history")
                if len(history) != self._history_len:
                    self._history_len = len(history)
                    extra = f',"history":{dumps(history)}'
            parts.append(f'{{"type":"event","event":{dumps(pending[-1])},"state":{dumps(state)}{extra}}}')
            message = parts[0] if len(parts) == 1 else "[" + ",".join(parts) + "]"
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
                else:  # a client that fell a little behind gets its backlog in one flat array
                    await ws.send_text("[" + ",".join(m[1:-1] if m[0] == "[" else m for m in batch) + "]")
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
