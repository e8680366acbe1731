"""SIGKILL in the middle of a trick, then a restart: the same state and event stream as
a run that was never killed, because every acknowledged input was journaled first."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

from controller.referee.journal import Journal
from controller.referee.referee import Referee

from .tablekit import new_match_args, play_out

CHILD = textwrap.dedent(
    """
    import json, sys
    from controller.referee.journal import Journal
    from controller.referee.referee import Referee
    from controller.readers.sightings import CardSeen
    journal = Journal.open(sys.argv[1])
    referee = Referee(journal)
    referee.restore()
    done = referee.last_seq  # restore() counts the inputs replayed since the last snapshot
    inputs = json.load(open(sys.argv[2]))
    for kind, payload, at in inputs[done:]:
        if kind == "sighting":
            referee.sighting(CardSeen(payload["zone"], payload["card"], at, "test"))
        else:
            args = {k: v for k, v in payload.items() if k != "name"}
            referee.command(payload["name"], args, at=at, source="test")
        h = referee.match.hand
        print("ok", referee.last_seq, len(h.trick), flush=True)
        sys.stdin.readline()  # the parent's go-ahead (at most one input past the kill)
    print("finished", flush=True)
    """
)


def test_sigkill_mid_trick_then_restart_gives_the_uninterrupted_result(tmp_path):
    reference = Referee()
    args = new_match_args("rang", hands=2)
    reference.command("new-match", args, at=1.0)
    fed = [("command", {"name": "new-match", **args}, 1.0)] + play_out(reference, seed=11, revoke_rate=0.05)
    inputs_file = tmp_path / "inputs.json"
    inputs_file.write_text(json.dumps(fed))
    path = tmp_path / "journal.sqlite3"
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {**os.environ, "PYTHONPATH": os.getcwd()}

    # In step with the child: a go-ahead after each input it acknowledges, so a slow
    # parent (tests on both cores) cannot let it finish the match before the kill; the
    # kill follows the last go-ahead at once, landing while the next input is handled.
    child = subprocess.Popen([sys.executable, str(script), str(path), str(inputs_file)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    killed_at = None
    assert child.stdout is not None and child.stdin is not None
    for line in child.stdout:
        parts = line.split()
        if parts[0] != "ok":
            break
        child.stdin.write("\n")
        child.stdin.flush()
        if int(parts[1]) >= 80 and 0 < int(parts[2]) < 4:
            child.send_signal(signal.SIGKILL)
            killed_at = int(parts[1])
            break
    child.wait(timeout=60)
    assert killed_at is not None and child.returncode == -signal.SIGKILL

    with Journal.open(path) as j:
        survived = len(list(j.entries()))
    assert survived >= killed_at  # everything acknowledged is still there

    done = subprocess.run([sys.executable, str(script), str(path), str(inputs_file)],
                          input="\n" * len(fed), capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0 and "finished" in done.stdout

    with Journal.open(path) as j:
        restarted = Referee(j)
        restarted.restore()
        # A restart starts from the last hand start's snapshot: the events from there on
        # are the uninterrupted run's; a full replay gives every one of them.
        expected = json.loads(json.dumps([dict(e) for e in reference.events]))
        first = restarted.events[0]["seq"] if restarted.events else restarted.last_seq + 1
        assert restarted.events == [e for e in expected if e["seq"] >= first]
        assert Referee().replay(j.entries()) == expected
        assert restarted.public_state()["view"] == json.loads(json.dumps(reference.public_state()["view"]))
