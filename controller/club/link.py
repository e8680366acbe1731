"""One way to open a broker connection, for the table and the scoreboard alike.

paho-mqtt (Eclipse) is the client: it is the reference Python MQTT client, threaded like
the referee (``loop_start``), and it gives what the outbox needs, a persistent session and a
PUBACK callback per message id. TLS is the broker's job to require; the files are passed
through when configured.
"""

from __future__ import annotations

from dataclasses import dataclass

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion


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
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=not persistent,
                         protocol=mqtt.MQTTv311)
    if link.username:
        client.username_pw_set(link.username, link.password or None)
    if link.tls_ca:
        client.tls_set(ca_certs=link.tls_ca, certfile=link.tls_cert or None, keyfile=link.tls_key or None)
    client.reconnect_delay_set(min_delay=1, max_delay=4)
    client.max_inflight_messages_set(200)
    return client
