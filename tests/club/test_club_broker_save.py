"""The generated broker config saves sessions and retained states every so often, not only
on a clean stop: a club machine that loses power keeps the tables' latest states."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from clubkit import SCOREBOARD_PW, TABLES, Listener, need_mosquitto, table_link, wait_for  # noqa: E402

from controller.club.broker_files import BrokerSetup, conf_file  # noqa: E402
from controller.club.link import make_client  # noqa: E402
from controller.club.mosquitto import Mosquitto  # noqa: E402

STATE = "courtpiece/tables/t1/state"


def test_the_default_saves_every_minute(tmp_path):
    assert "autosave_interval 60" in conf_file(BrokerSetup(), tmp_path).splitlines()


def test_a_retained_state_outlives_a_power_cut(tmp_path):
    need_mosquitto()
    broker = Mosquitto(tmp_path / "broker", prefix="courtpiece", tables=TABLES, scoreboard_password=SCOREBOARD_PW,
                       tls=BrokerSetup(autosave_seconds=1)).start()
    try:
        table = make_client(table_link(broker, "t1"), "save-test-t1", persistent=False)
        table.connect("127.0.0.1", broker.port)
        table.loop_start()
        info = table.publish(STATE, b'{"kept": true}', qos=1, retain=True)
        info.wait_for_publish(10)
        table.disconnect()
        table.loop_stop()
        time.sleep(2.5)  # two saves
        broker.kill()  # SIGKILL: no save on the way down
        assert (tmp_path / "broker" / "mosquitto.db").exists()
        broker.start()
        listener = Listener(broker)
        wait_for(lambda: any(t == STATE for t, _ in listener.taken()), "the retained state after the power cut",
                 timeout=10)
        listener.close()
    finally:
        broker.stop()
