"""The table's publisher drives its broker link from its own thread (paho's external
loop): no second network thread to hand a batch to, and the housekeeping that thread
used to do (keepalive pings, reconnecting) is the pump's own job now."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from clubkit import TABLES, Listener, table_link, wait_for  # noqa: E402

from controller.club.link import BrokerLink  # noqa: E402
from controller.club.simclub import SimTable, short_match  # noqa: E402
from controller.club.topics import StatusMessage  # noqa: E402

SEATS = ["Asha", "Bilal", "Chand", "Dua"]


def statuses(listener: Listener, table: str) -> list[str]:
    return [StatusMessage.from_bytes(p).status for t, p in listener.taken()
            if t == f"courtpiece/tables/{table}/status"]


def play_and_see(table: SimTable, listener: Listener, steps: int) -> None:
    """A match begun and ``steps`` inputs played; the listener holds the state after them."""
    table.new_match(short_match(SEATS, hands=1))
    table.play(steps=steps)
    seq = table.referee.last_seq
    wait_for(lambda: listener.state_seq(table.name) >= seq, f"{table.name}'s state after input {seq}")


def test_one_thread_per_table_and_a_batch_goes_out_in_the_publishing_call(broker, tmp_path):
    listener = Listener(broker)
    table = SimTable("t1", tmp_path / "t1", table_link(broker, "t1"), seed=5).start()
    try:
        wait_for(lambda: table.publisher.connected, "the table's link")
        names = [t.name for t in threading.enumerate()]
        assert "club-t1" in names
        assert not [n for n in names if n.startswith("paho-mqtt-client-courtpiece-table")], names
        play_and_see(table, listener, 40)
    finally:
        table.close()
        listener.close()
    assert statuses(listener, "t1")[-1] == "offline"  # the goodbye, said by stop()


def test_an_idle_link_outlives_its_keepalive(broker, tmp_path):
    """Nothing happens at the table for three times the keepalive: the pump's pings keep
    the broker from dropping it (a dropped table would show its will, "offline")."""
    listener = Listener(broker)
    link = BrokerLink(port=broker.port, username="t2", password=TABLES["t2"], keepalive=2)
    table = SimTable("t2", tmp_path / "t2", link, seed=6).start()
    try:
        wait_for(lambda: table.publisher.connected, "the table's link")
        wait_for(lambda: statuses(listener, "t2") == ["online"], "the table online")
        time.sleep(6.5)
        assert statuses(listener, "t2") == ["online"], "the broker dropped an idle table"
        play_and_see(table, listener, 10)
    finally:
        table.close()
        listener.close()


def test_a_table_that_starts_before_its_broker_connects_once_it_is_up(broker, tmp_path):
    port = broker.port
    broker.stop()
    table = SimTable("t3", tmp_path / "t3", table_link(broker, "t3", port), seed=8).start()
    try:
        table.new_match(short_match(SEATS, hands=1))
        table.play(steps=20)
        time.sleep(1.5)  # a refused dial or two, waiting their pause
        assert not table.publisher.connected
        broker.start()
        listener = Listener(broker)
        seq = table.referee.last_seq
        wait_for(lambda: listener.state_seq("t3") >= seq, "the state of what was played before the broker came")
        wait_for(lambda: table.publisher.published_upto > 0, "the match's first batch acknowledged")
        listener.close()
    finally:
        table.close()


def test_a_wrong_password_is_reported_once_with_what_to_check(broker, tmp_path, caplog):
    link = BrokerLink(port=broker.port, username="t1", password="not-the-password-of-t1", keepalive=5)
    table = SimTable("t1", tmp_path / "t1", link, seed=9).start()
    try:
        with caplog.at_level("WARNING", logger="controller.club.publisher"):
            table.new_match(short_match(SEATS, hands=1))
            table.play(steps=30)  # the table referees on
            time.sleep(4)  # three refusals at least (redials after 1 s, then 2 s)
        said = [r.getMessage() for r in caplog.records if "refused table t1" in r.getMessage()]
        assert len(said) == 1, said
        assert "[club] table and password" in said[0]
        assert not table.publisher.connected and table.referee.last_seq >= 30
    finally:
        table.close()
