"""A full card halts the referee; once there is room again it carries on by itself.

Two ways to fill the journal for real: SQLite's own page cap (``max_page_count``, the
same SQLITE_FULL a full disk gives; room comes back by raising the cap), and where
this machine allows private mounts, a genuinely full tmpfs (room comes back by deleting
a filler file). Either way the inputs that arrived during the halt are held, then
journaled and refereed in order: nothing is lost and nobody restarts anything.
"""

from __future__ import annotations

import json
from pathlib import Path

from controller.readers.sightings import CardSeen
from controller.referee.journal import Journal
from controller.referee.referee import Referee

from .service.tablekit import new_match_args
from .test_journal_failures import private_mounts, run_in_namespace  # noqa: F401 (fixture)


def fill(referee: Referee) -> int:
    """Pad the journal with harmless commands until the referee halts; return how many."""
    n = 0
    while not referee.halted and n < 10_000:
        referee.command("confirm", {"padding": "x" * 500}, at=10.0 + n)
        n += 1
    assert referee.halted, "the journal never filled up"
    return n


def test_full_journal_resumes_when_room_comes_back(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path, max_bytes=64 * 1024)
    referee = Referee(journal)
    referee.command("new-match", new_match_args("court-piece"), at=1.0)
    seen: list[dict] = []
    referee.subscribe(seen.append)
    fill(referee)
    before = len(list(journal.entries()))
    out = [referee.sighting(CardSeen("deal", card, 20_000.0 + i, "hub"))[0] for i, card in enumerate(["AS", "KS"])]
    assert [e["event"] for e in out] == ["input-held", "input-held"]
    assert referee.match.hand.deal_index == 0  # held, not refereed: nothing unjournaled counts
    assert referee.retry_journal() is False  # still full

    journal.set_max_bytes(16 * 1024 * 1024)  # room again
    assert referee.retry_journal() is True
    assert referee.halted is None
    resumed = [e for e in seen if e["event"] == "journal-resumed"]
    # The padding command that hit the full card was held too, then the two cards.
    assert resumed and resumed[-1]["recorded"] == 3 and resumed[-1]["refused"] == 0
    assert referee.match.hand.deal_index == 2
    entries = list(journal.entries())
    assert len(entries) == before + 3
    assert [e.payload.get("card") for e in entries[-2:]] == ["AS", "KS"]
    # The next input goes straight through, and a restart rebuilds the same table.
    referee.sighting(CardSeen("deal", "QS", 30_000.0, "hub"))
    journal.close()
    with Journal.open(path) as again:
        twin = Referee(again)
        twin.restore()
        assert twin.public_state() == referee.public_state()


def test_inputs_arriving_while_full_are_recorded_once_there_is_room(tmp_path: Path) -> None:
    # The next input after room came back retries by itself: no timer needed.
    journal = Journal.open(tmp_path / "journal.sqlite3", max_bytes=64 * 1024)
    referee = Referee(journal)
    referee.command("new-match", new_match_args("court-piece"), at=1.0)
    fill(referee)
    referee.sighting(CardSeen("deal", "AS", 20_000.0, "hub"))
    journal.set_max_bytes(16 * 1024 * 1024)
    referee.sighting(CardSeen("deal", "KS", 20_001.0, "hub"))
    assert referee.halted is None
    assert [e.payload.get("card") for e in list(journal.entries())[-2:]] == ["AS", "KS"]
    assert referee.match.hand.deal_index == 2
    journal.close()


FULL_TMPFS = r"""
import json, sys
from pathlib import Path
from controller.referee.journal import Journal
from controller.readers.sightings import CardSeen
from controller.referee.referee import Referee

d = Path(sys.argv[1])
filler = d / "filler"
filler.write_bytes(b"\0" * 96 * 1024)
journal = Journal.open(d / "journal.sqlite3")
referee = Referee(journal)
referee.command("new-match", {"preset": "court-piece"}, at=1.0)
n = 0
while not referee.halted and n < 100_000:
    referee.command("confirm", {"padding": "x" * 900}, at=10.0 + n)
    n += 1
halted = referee.halted
held = referee.sighting(CardSeen("deal", "AS", 1e6, "hub"))[0]["event"]
still = referee.retry_journal()
filler.unlink()
resumed = referee.retry_journal()
journal.close()
with Journal.open(d / "journal.sqlite3") as again:
    last = [e.payload.get("card") for e in again.entries()][-1]
print(json.dumps({"halted": halted, "held": held, "still": still, "resumed": resumed, "last": last}))
"""


def test_really_full_file_system_clears_by_itself(private_mounts: None, tmp_path: Path) -> None:  # noqa: F811
    out = run_in_namespace('mount -t tmpfs -o size=256k tmpfs "$1"', FULL_TMPFS, tmp_path)
    assert out["halted"] and "full" in out["halted"], json.dumps(out)
    assert out["held"] == "input-held"
    assert out["still"] is False and out["resumed"] is True
    assert out["last"] == "AS"
