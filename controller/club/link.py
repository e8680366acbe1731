"""One way to open a broker connection, for the table and the scoreboard alike.

paho-mqtt (Eclipse) is the client: it is the reference Python MQTT client, threaded like
the referee (``loop_start``), and it gives what the outbox needs, a persistent session and a
PUBACK callback per message id. TLS is the broker's job to require; the files are passed
through when configured, and a link that fails on them says why in words an organiser
can act on (:func:`tls_problem`), instead of paho's silent retries.
"""

from __future__ import annotations

import hashlib
import logging
import socket
import ssl
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BrokerLink:
    host: str = "127.0.0.1"
    port: int = 1883
    username: str = ""
    password: str = ""
    tls_ca: str = ""  # CA file: when set, the connection uses TLS
    tls_cert: str = ""  # client certificate and key, if the broker asks for them
    tls_key: str = ""
    keepalive: int = 30

    @property
    def key(self) -> str:
        """Names this broker and user, so a mark saved for one broker is not used with another."""
        return f"{self.host}:{self.port}/{self.username}"


def make_client(link: BrokerLink, client_id: str, *, persistent: bool = True) -> mqtt.Client:
    """A paho client set up for ``link`` but not connected.

    ``persistent``: a clean_session=False session, so the broker keeps this client's
    subscriptions and queued QoS 1 messages across a dropped link.
    """
    if link.password:
        client_id = f"{client_id}-{private_tag(link)}"
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=not persistent,
                         protocol=mqtt.MQTTv311)
    if link.username:
        client.username_pw_set(link.username, link.password or None)
    if link.tls_ca:
        client.tls_set(ca_certs=link.tls_ca, certfile=link.tls_cert or None, keyfile=link.tls_key or None)
    client.reconnect_delay_set(min_delay=1, max_delay=4)
    client.max_inflight_messages_set(200)
    if link.tls_ca:
        client.on_connect_fail = _TlsWatch(link)
    return client


def private_tag(link: BrokerLink) -> str:
    """A tag only this user's password gives, for the end of its client id.

    The broker lets any logged-in client take any client id, and a second connection
    with one already in use throws the first off (and a clean start drops its saved
    session). With ids anyone could guess (``courtpiece-table-NAME``), one table's
    password was enough to knock another table, or the scoreboard, off the broker over
    and over. A tag from the password (one-way) is known to that user alone."""
    digest = hashlib.sha256(f"courtpiece-client-id\0{link.username}\0{link.password}".encode())
    return digest.hexdigest()[:16]


class _TlsWatch:
    """paho retries a failed connection without saying why; on a TLS link, each failure
    is checked once by hand and a new reason is logged (once, not at every retry)."""

    def __init__(self, link: BrokerLink) -> None:
        self.link = link
        self.said: str | None = None

    def __call__(self, _client: Any, _userdata: Any) -> None:
        why = tls_problem(self.link)
        if why is not None and why != self.said:
            log.error("%s", why)
        self.said = why


def tls_problem(link: BrokerLink, timeout: float = 5.0) -> str | None:
    """Why a TLS link to the broker fails, in words; None when the handshake works, when
    TLS is off, or when the broker cannot be reached at all (not a TLS matter)."""
    if not link.tls_ca:
        return None
    where = f"the club broker at {link.host}:{link.port}"
    try:
        ctx = ssl.create_default_context(cafile=link.tls_ca)
        if link.tls_cert:
            ctx.load_cert_chain(link.tls_cert, link.tls_key or None)
    except (OSError, ssl.SSLError) as err:
        return f"cannot use the TLS files for {where} (tls_ca {link.tls_ca}, tls_cert {link.tls_cert or '-'}): {err}"
    try:
        with socket.create_connection((link.host, link.port), timeout) as raw, \
                ctx.wrap_socket(raw, server_hostname=link.host) as tls:
            # TLS 1.3 tells a client without the certificate the broker asks for only
            # after the handshake: listen a moment (a broker happy with us says nothing)
            tls.settimeout(min(timeout, 1.0))
            try:
                tls.recv(1)
            except TimeoutError:
                pass
            return None
    except ssl.SSLCertVerificationError as err:
        return (f"{where} is not trusted: {err.verify_message}. Its certificate must be signed by the CA in "
                f"tls_ca ({link.tls_ca}) and name the host as given ({link.host})")
    except ssl.SSLError as err:
        return f"{where} refused the TLS link ({err.reason or err}): does it ask for a client certificate (tls_cert)?"
    except OSError:
        return None
