"""The club link over TLS, with a real Mosquitto on a TLS listener and certificates made
here by the ``openssl`` command (a CA, the broker's certificate for 127.0.0.1, a table's
client certificate): a table publishes over TLS and the scoreboard receives it; a link
that trusts another CA is refused, and says so in words an organiser can act on."""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from clubkit import SCOREBOARD_PW, TABLES, need_mosquitto, wait_for  # noqa: E402

from controller.club.broker_files import BrokerSetup  # noqa: E402
from controller.club.link import BrokerLink, tls_problem  # noqa: E402
from controller.club.mosquitto import Mosquitto  # noqa: E402
from controller.club.outbox import batches_of  # noqa: E402
from controller.club.scoreboard import Scoreboard  # noqa: E402
from controller.club.simclub import SimMatch, SimTable  # noqa: E402
from controller.club.store import ClubStore  # noqa: E402
from controller.club.topics import SCOREBOARD_USER  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command (apt install openssl)")


def openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def make_ca(folder: Path, name: str) -> tuple[Path, Path]:
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name}",
            "-keyout", f"{name}.key", "-out", f"{name}.crt", cwd=folder)
    return folder / f"{name}.crt", folder / f"{name}.key"


def signed(folder: Path, ca: tuple[Path, Path], name: str, *, server: bool) -> tuple[Path, Path]:
    """A certificate for ``name`` signed by ``ca``; a server's names 127.0.0.1 and localhost."""
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={name}", "-keyout", f"{name}.key",
            "-out", f"{name}.csr", cwd=folder)
    ext = folder / f"{name}.ext"
    ext.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n" if server
                   else "extendedKeyUsage=clientAuth\n")
    openssl("x509", "-req", "-in", f"{name}.csr", "-CA", str(ca[0]), "-CAkey", str(ca[1]), "-CAcreateserial",
            "-days", "2", "-extfile", str(ext), "-out", f"{name}.crt", cwd=folder)
    (folder / f"{name}.key").chmod(0o600)
    return folder / f"{name}.crt", folder / f"{name}.key"


@pytest.fixture
def pki(tmp_path: Path) -> dict[str, tuple[Path, Path]]:
    folder = tmp_path / "pki"
    folder.mkdir()
    ca = make_ca(folder, "club-ca")
    return {"ca": ca, "other-ca": make_ca(folder, "other-ca"), "broker": signed(folder, ca, "broker", server=True),
            "t1": signed(folder, ca, "t1", server=False), "scoreboard": signed(folder, ca, "scoreboard", server=False)}


@pytest.fixture
def tls_broker(tmp_path: Path, pki):
    need_mosquitto()
    setup = BrokerSetup(tls_cert=str(pki["broker"][0]), tls_key=str(pki["broker"][1]), tls_ca=str(pki["ca"][0]),
                        require_certificate=True)
    b = Mosquitto(tmp_path / "broker", prefix="courtpiece", tables=TABLES, scoreboard_password=SCOREBOARD_PW, tls=setup)
    try:
        yield b.start()
    finally:
        b.stop()


def link(broker: Mosquitto, user: str, password: str, ca: Path, cert: tuple[Path, Path] | None) -> BrokerLink:
    return BrokerLink(port=broker.port, username=user, password=password, tls_ca=str(ca),
                      tls_cert=str(cert[0]) if cert else "", tls_key=str(cert[1]) if cert else "", keepalive=5)


def test_a_table_publishes_over_tls_and_the_scoreboard_receives_it(tls_broker, pki, tmp_path):
    assert "require_certificate true" in tls_broker.conf.read_text()
    board_link = link(tls_broker, SCOREBOARD_USER, SCOREBOARD_PW, pki["ca"][0], pki["scoreboard"])
    assert tls_problem(board_link) is None
    board = Scoreboard(ClubStore(tmp_path / "club.sqlite3"), board_link).start()
    wait_for(lambda: board.connected, "the scoreboard's TLS link")
    table = SimTable("t1", tmp_path / "t1", link(tls_broker, "t1", TABLES["t1"], pki["ca"][0], pki["t1"]),
                     seed=3).start()
    try:
        table.new_match(SimMatch(["Asha", "Bilal", "Chand", "Dua"], options={"match-end": "hands", "match-target": 1}))
        table.play()
        want = batches_of(table.referee, "t1")
        wait_for(lambda: "t1" in board.tables and board.tables["t1"].have == want[-1].seq, "every batch over TLS")
        assert [m.over for m in board.matches()] == [True]
    finally:
        table.close()
        board.stop()
        board.store.close()
    # and nothing went in clear: the listener speaks only TLS
    assert tls_problem(BrokerLink(port=tls_broker.port)) is None  # TLS off: not this check's business


def test_a_wrong_ca_is_refused_with_a_clear_message(tls_broker, pki, tmp_path, caplog):
    wrong = link(tls_broker, "t1", TABLES["t1"], pki["other-ca"][0], pki["t1"])
    why = tls_problem(wrong)
    assert why is not None and "is not trusted" in why and "certificate verify failed" not in why
    assert "self-signed certificate in certificate chain" in why or "unable to get local issuer" in why
    assert str(pki["other-ca"][0]) in why
    no_cert = link(tls_broker, "t1", TABLES["t1"], pki["ca"][0], None)
    assert "client certificate" in (tls_problem(no_cert) or "")
    caplog.set_level(logging.ERROR, logger="controller.club.link")
    table = SimTable("t1", tmp_path / "t1", wrong, seed=3).start()
    try:
        table.new_match(SimMatch(["Asha", "Bilal", "Chand", "Dua"], options={"match-end": "hands", "match-target": 1}))
        table.play(steps=30)  # the table referees on, whatever the link does
        wait_for(lambda: any("is not trusted" in r.getMessage() for r in caplog.records), "the reason in the log")
        assert not table.publisher.connected and table.publisher.published_upto == 0
    finally:
        table.close()
    said = [r.getMessage() for r in caplog.records if "is not trusted" in r.getMessage()]
    assert len(set(said)) == 1, "the same reason is said once, not at every retry"


def test_courtpiece_club_with_a_wrong_ca_says_why_and_stops(tls_broker, pki, tmp_path):
    cfg = tmp_path / "club.toml"
    cfg.write_text(f'[club]\nstate_dir = "{tmp_path / "club"}"\npin = "135790"\n'
                   f'[broker]\nport = {tls_broker.port}\npassword = "{SCOREBOARD_PW}"\n'
                   f'tls_ca = "{pki["other-ca"][0]}"\ntls_cert = "{pki["scoreboard"][0]}"\n'
                   f'tls_key = "{pki["scoreboard"][1]}"\n'
                   "[tables]\n" + "".join(f'{n} = "{pw}"\n' for n, pw in TABLES.items()))
    cfg.chmod(0o600)
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "controller.cli", "club", "--config", str(cfg)], cwd=repo,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(repo)}, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"the club broker at 127.0.0.1:{tls_broker.port} is not trusted" in done.stderr
    assert str(pki["other-ca"][0]) in done.stderr
