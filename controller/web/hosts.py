"""A Host allowlist against DNS rebinding.

Why: a web page anywhere on the internet can point its own domain at this Pi's LAN
address (DNS rebinding) and then talk to the dashboard from a player's phone as if it
were same-origin. The browser still sends the attacker's domain in ``Host``, so the
server answers only to its own names: localhost and loopback addresses, this machine's
host name and ``name.local``, the address the connection actually arrived on, and the
names in ``[web] allowed_hosts`` (a club's DNS name, a reverse proxy's).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controller.web.address import LOOPBACK_NAMES, host_names


def host_of(header: str) -> str:
    """``Host`` without its port, lower case, without a trailing dot; IPv6 unbracketed."""
    value = header.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        return name if rest == "" or (rest[:1] == ":" and rest[1:].isdigit()) else value
    if value.count(":") == 1:
        name, _, port = value.partition(":")
        if not port.isdigit():  # "localhost:1@evil.example" is no port: the whole is no name of ours
            return value
        value = name
    return value.rstrip(".")


class HostAllowlist:
    """ASGI middleware: HTTP requests and WebSockets with a foreign ``Host`` are refused."""

    def __init__(self, app: Any, extra: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = {*LOOPBACK_NAMES, *host_names(), *(host_of(h) for h in extra if h)}

    def allows(self, host: str | None, local_address: str | None) -> bool:
        if host is None:
            return True  # HTTP/1.0 without Host: not a browser, so not a rebinding
        name = host_of(host)
        return name in self.allowed or (local_address is not None and name == local_address.lower())

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), None)
        server = scope.get("server")
        if self.allows(host, server[0] if server else None):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = b"unknown Host: this dashboard answers to its own names only ([web] allowed_hosts)\n"
        await send({"type": "http.response.start", "status": 400, "headers": [
            (b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
