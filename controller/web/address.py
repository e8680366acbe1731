"""Where phones find the dashboard: this Pi's names and its address on the table's network.

Used twice: the QR code on the table screen encodes the dashboard's address, and the
Host allowlist (``hosts.py``) accepts exactly these names. Nothing here sends a packet:
the LAN address is the source address the kernel would pick for an outside route
(a UDP socket ``connect`` only looks up the route), so it works without a network.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

#: A documentation address (TEST-NET-1): routing towards it finds the default route.
_PROBE = ("192.0.2.1", 9)
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
ANY_HOSTS = ("", "0.0.0.0", "::")


def lan_address() -> str | None:
    """This machine's address on its default route, or None without one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(_PROBE)
            addr = s.getsockname()[0]
    except OSError:
        return None
    return None if addr.startswith(("0.", "127.")) else addr


def host_names() -> list[str]:
    """This machine's own names: ``name`` and the mDNS ``name.local`` phones resolve."""
    name = socket.gethostname().strip().lower()
    if not name or name == "localhost":
        return []
    short = name.split(".")[0]
    return sorted({name, short, f"{short}.local"})


@dataclass(frozen=True)
class DashboardAddress:
    """What the QR code shows: the URL a phone opens and whether a phone can reach it."""

    url: str
    names: tuple[str, ...]
    reachable: bool


def dashboard_address(listen_host: str, port: int) -> DashboardAddress:
    """The address to give phones for a server listening on ``listen_host:port``.

    A server on 127.0.0.1 (the simulator's default) is not reachable from a phone:
    the URL is still given, marked unreachable, so the screen can say why.
    """
    names = tuple(f"http://{n}:{port}/" for n in host_names() if n.endswith(".local"))
    host = listen_host.strip("[]")
    if host in ANY_HOSTS:
        lan = lan_address()
        if lan:
            return DashboardAddress(f"http://{lan}:{port}/", names, True)
        if names:
            return DashboardAddress(names[0], names, True)
        return DashboardAddress(f"http://127.0.0.1:{port}/", (), False)
    if _is_loopback(host) or host == "localhost":
        return DashboardAddress(f"http://127.0.0.1:{port}/", (), False)
    shown = f"[{host}]" if ":" in host else host
    return DashboardAddress(f"http://{shown}:{port}/", names, True)


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
