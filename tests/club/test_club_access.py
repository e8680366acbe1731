"""Access through the generated Mosquitto files: each table authenticates and may write
only its own topics; a wrong password is refused; the scoreboard may only read tables
and ask for a resend."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

sys.path.insert(0, str(Path(__file__).parent))

from clubkit import TABLES, Listener, board_link, table_link, wait_for  # noqa: E402

from controller.club.broker_files import acl_file, hash_password  # noqa: E402
from controller.club.link import BrokerLink  # noqa: E402


class Probe:
    """A bare MQTT v5 client, so the broker's PUBACK says whether a publish was allowed."""

    def __init__(self, link: BrokerLink) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"probe-{link.username}",
                                  protocol=mqtt.MQTTv5)
        self.client.username_pw_set(link.username, link.password)
        self.connected = threading.Event()
        self.reason: list[object] = []
        self.acks: dict[int, object] = {}
        self.client.on_connect = lambda _c, _u, _f, reason, _p: (self.reason.append(reason), self.connected.set())
        self.client.on_publish = lambda _c, _u, mid, reason, _p: self.acks.__setitem__(mid, reason)
        self.client.connect("127.0.0.1", link.port)
        self.client.loop_start()
        assert self.connected.wait(10), "no CONNACK"

    def publish(self, topic: str, payload: bytes = b"{}") -> object:
        info = self.client.publish(topic, payload, qos=1)
        wait_for(lambda: info.mid in self.acks, f"PUBACK for {topic}")
        return self.acks[info.mid]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_a_table_cannot_publish_as_another(broker):
    listener = Listener(broker)
    t1 = Probe(table_link(broker, "t1"))
    try:
        assert not t1.reason[0].is_failure
        forged = t1.publish("courtpiece/tables/t2/events", b'{"forged": true}')
        assert forged.is_failure and forged.getName() == "Not authorized"
        assert t1.publish("courtpiece/tables/t2/state", b'{"forged": true}').is_failure
        assert t1.publish("courtpiece/tables/t1/resend", b'{"after": 0}').is_failure  # only the scoreboard asks
        own = t1.publish("courtpiece/tables/t1/events", b'{"own": true}')
        assert not own.is_failure
        # same client, same broker: once its own message is through, a forged one would be too
        wait_for(lambda: any(t.endswith("/t1/events") for t, _ in listener.taken()), "t1's own message")
        assert not any(b"forged" in p for _, p in listener.taken())
    finally:
        t1.close()
        listener.close()


def test_the_scoreboard_reads_but_cannot_write_as_a_table(broker):
    board = Probe(board_link(broker))
    try:
        assert board.publish("courtpiece/tables/t1/events").is_failure
        assert not board.publish("courtpiece/tables/t1/resend", b'{"after": 0}').is_failure
    finally:
        board.close()


def test_a_wrong_password_is_refused(broker):
    bad = BrokerLink(port=broker.port, username="t1", password=TABLES["t2"])
    probe = Probe(bad)
    try:
        assert probe.reason[0].is_failure
    finally:
        probe.close()


def test_generated_files():
    acl = acl_file("club", ["t1", "t2"])
    assert "user t1\ntopic write club/tables/t1/events\n" in acl
    assert "topic write club/tables/t2" not in acl.split("user t2")[0].split("user t1")[1]
    line = hash_password("secret", salt=bytes.fromhex("f5968e051f84ead85fd1a910"))
    # the same line `mosquitto_passwd -b FILE alice secret` wrote for this salt
    assert line == ("$7$101$9ZaOBR+E6thf0akQ$0tqc0MK4rj7tOD1juQPiRVaYWnNJCGXtxZKyyfrQFSVgcs4Lky9c1D5kWXPOf88BLU"
                    "AerFlfF1uZb3HP6H3TyA==")


def test_junk_on_a_tables_own_topic_is_ignored_in_a_line_a_minute(broker, tmp_path, caplog):
    """Anyone holding a table's password can write its topics: a hundred bad messages
    must neither stop the scoreboard nor put a hundred tracebacks in the club's log."""
    import json
    import logging

    from controller.club.scoreboard import Scoreboard
    from controller.club.store import ClubStore

    caplog.set_level(logging.WARNING, logger="controller.club.scoreboard")
    board = Scoreboard(ClubStore(tmp_path / "club.sqlite3"), board_link(broker)).start()
    t1 = Probe(table_link(broker, "t1"))
    try:
        wait_for(lambda: board.connected, "the scoreboard's connection")
        for i in range(100):
            assert not t1.publish("courtpiece/tables/t1/events", f"g{i}".encode()).is_failure
        good = {"v": 1, "table": "t1", "seq": 3, "prev": 0, "events": [{"seq": 3, "event": "match-setup"}]}
        assert not t1.publish("courtpiece/tables/t1/events", json.dumps(good).encode()).is_failure
        wait_for(lambda: "t1" in board.tables and board.tables["t1"].have == 3, "the good batch after the junk")
    finally:
        t1.close()
        board.stop()
    ignored = [r for r in caplog.records if "was ignored" in r.getMessage()]
    assert len(ignored) == 1, [r.getMessage() for r in caplog.records]
    assert "courtpiece/tables/t1/events" in ignored[0].getMessage()
    assert not ignored[0].exc_info  # a line, not a traceback


def test_one_tables_password_cannot_throw_another_table_off(broker):
    """A second connection under a client id in use throws the first off. Table t2,
    logging in with its own password under the id t1's referee would use without a
    tag (``courtpiece-table-t1``), must not disconnect t1: t1's id ends in a tag from
    its own password, which t2 cannot make."""
    from controller.club.link import make_client, private_tag

    dropped = threading.Event()
    connected = threading.Event()
    t1 = make_client(table_link(broker, "t1"), "courtpiece-table-t1")
    t1.on_connect = lambda *_a: connected.set()
    t1.on_disconnect = lambda *_a: dropped.set()
    t1.connect("127.0.0.1", broker.port)
    t1.loop_start()
    try:
        assert connected.wait(10)
        assert private_tag(table_link(broker, "t1")) != private_tag(table_link(broker, "t2"))
        guesses = ["courtpiece-table-t1", f"courtpiece-table-t1-{private_tag(table_link(broker, 't2'))}"]
        for guess in guesses:
            rogue = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=guess, protocol=mqtt.MQTTv5)
            link = table_link(broker, "t2")
            rogue.username_pw_set(link.username, link.password)
            up = threading.Event()
            rogue.on_connect = lambda *_a, up=up: up.set()
            rogue.connect("127.0.0.1", broker.port)
            rogue.loop_start()
            assert up.wait(10)
            assert not dropped.wait(1.5), f"t1 was thrown off by t2 connecting as {guess}"
            rogue.disconnect()
            rogue.loop_stop()
    finally:
        t1.disconnect()
        t1.loop_stop()


def test_a_message_past_the_brokers_limit_is_refused_at_the_door(broker):
    """A table's messages are kilobytes; the generated broker refuses a packet past
    ``max_packet_size`` (one table's password publishing 100 MB states filled the
    scoreboard before), and the sender's next, normal message still goes through."""
    from controller.club.broker_files import BrokerSetup

    listener = Listener(broker)
    t1 = Probe(table_link(broker, "t1"))
    try:
        gone = threading.Event()  # (paho reconnects by itself: the drop is caught as it happens)
        t1.client.on_disconnect = lambda *_a: gone.set()
        t1.client.publish("courtpiece/tables/t1/events", b"x" * (BrokerSetup().max_packet + 1), qos=0)
        assert gone.wait(60), "the broker did not close the link"
    finally:
        t1.close()
    t1 = Probe(table_link(broker, "t1"))
    try:
        assert not t1.publish("courtpiece/tables/t1/events", b'{"small": true}').is_failure
        wait_for(lambda: any(p == b'{"small": true}' for _, p in listener.taken()), "the small message")
        assert all(len(p) < 1024 for _, p in listener.taken())
    finally:
        t1.close()
        listener.close()
