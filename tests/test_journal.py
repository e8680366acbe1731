"""The journal on a real SQLite file: what goes in comes back, in order, and as a log."""

from __future__ import annotations

import io
import json
import sqlite3
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.referee.journal import (
    LOG_VERSION,
    Entry,
    Journal,
    JournalError,
    LogFormatError,
    export_log,
    import_log,
)

HEADER = {"preset": "double-sar", "players": ["Ama", "Bilal", "Chen", "Dee"], "table": "t1"}


def test_append_returns_increasing_sequence_and_entries_replay_in_order(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path, HEADER) as journal:
        seqs = [
            journal.append("card_seen", {"zone": "seat0", "card": "AS"}, 10.5, "hub"),
            journal.append("command", {"name": "undo"}, 11.0, "button"),
            journal.append("card_seen", {"zone": "seat1", "card": "TD"}, 12.25, "hub"),
        ]
        assert seqs == [1, 2, 3]
        assert journal.last_seq() == 3
        assert list(journal.entries(after=2)) == [
            Entry(3, 12.25, "hub", "card_seen", {"zone": "seat1", "card": "TD"})
        ]
    with Journal.open(path) as reopened:
        assert reopened.header == HEADER
        assert [(e.seq, e.kind, e.payload) for e in reopened.entries()] == [
            (1, "card_seen", {"zone": "seat0", "card": "AS"}),
            (2, "command", {"name": "undo"}),
            (3, "card_seen", {"zone": "seat1", "card": "TD"}),
        ]
        assert reopened.append("command", {"name": "confirm"}, 13.0, "button") == 4


def test_file_is_wal_with_the_documented_tables(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal.open(path, HEADER).close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"meta", "inputs"} <= tables
        columns = [r[1] for r in conn.execute("PRAGMA table_info(inputs)")]
        assert columns == ["seq", "at", "source", "kind", "payload"]
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        assert meta["schema_version"] == "1"
        assert json.loads(meta["header"]) == HEADER
    finally:
        conn.close()


def test_iterating_while_appending_sees_a_consistent_prefix(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        for i in range(1200):  # more than one read batch
            journal.append("card_seen", {"i": i}, float(i), "sim")
        seen = []
        for entry in journal.entries():
            seen.append(entry.payload.get("i", entry.kind))
            if entry.seq == 600:
                journal.append("command", {"name": "undo"}, 600.5, "button")
        # Nothing skipped, nothing twice; the entry added mid-way arrives at its place, last.
        assert seen == [*range(1200), "command"]
        assert journal.last_seq() == 1201


def test_threads_share_one_journal_without_losing_or_duplicating(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    got: dict[str, list[int]] = {}

    def writer(name: str) -> None:
        got[name] = [journal.append("card_seen", {"w": name, "n": n}, 1.0, name) for n in range(40)]

    threads = [threading.Thread(target=writer, args=(f"w{k}",)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    all_seqs = sorted(s for seqs in got.values() for s in seqs)
    assert all_seqs == list(range(1, 121))
    by_seq = {e.seq: e for e in journal.entries()}
    for name, seqs in got.items():
        assert [by_seq[s].payload for s in seqs] == [{"w": name, "n": n} for n in range(40)]
    journal.close()


def test_bad_arguments_raise_before_writing_and_leave_the_journal_usable(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        with pytest.raises(TypeError):
            journal.append("card_seen", {"when": object()}, 1.0, "hub")
        with pytest.raises(ValueError):
            journal.append("card_seen", {"x": float("nan")}, 1.0, "hub")
        with pytest.raises(ValueError):
            journal.append("", {}, 1.0, "hub")
        with pytest.raises(ValueError):
            journal.append("card_seen", {}, float("inf"), "hub")
        with pytest.raises(TypeError):
            journal.append("card_seen", ["AS"], 1.0, "hub")  # type: ignore[arg-type]
        assert journal.failed is None
        assert journal.append("card_seen", {"card": "AS"}, 1.0, "hub") == 1
        assert journal.last_seq() == 1


def test_a_different_match_header_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    Journal.open(path, HEADER).close()
    with pytest.raises(JournalError, match="another match"):
        Journal.open(path, {**HEADER, "preset": "rung"})
    Journal.open(path, dict(HEADER)).close()  # the same header is fine


def test_a_header_may_be_given_later_but_then_not_changed(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        assert journal.header == {}
    with Journal.open(path, HEADER) as journal:
        assert journal.header == HEADER
    with pytest.raises(JournalError, match="another match"):
        Journal.open(path, {"preset": "rang"})


def test_every_append_is_synced_in_wal_mode(tmp_path: Path) -> None:
    # Per-connection settings, so read them from the journal's own connection.
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        conn = journal._conn
        assert conn is not None
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_closed_journal_refuses_appends(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    journal.close()
    journal.close()
    with pytest.raises(JournalError, match="closed"):
        journal.append("command", {}, 1.0, "button")


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    Journal.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(JournalError, match="schema 99"):
        Journal.open(path)


# -- the table log ------------------------------------------------------------------------


def test_export_writes_header_then_one_line_per_entry_and_imports_back(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3", HEADER) as journal:
        journal.append("card_seen", {"zone": "seat0", "card": "AS"}, 10.5, "hub")
        journal.append("command", {"name": "undo"}, 11.0, "button")
        out = io.StringIO()
        assert export_log(journal, out) == 2
        original = list(journal.entries())
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0] == {"type": "header", "version": LOG_VERSION, **HEADER}
    assert lines[1] == {
        "type": "input",
        "seq": 1,
        "at": 10.5,
        "source": "hub",
        "kind": "card_seen",
        "payload": {"zone": "seat0", "card": "AS"},
    }
    log = import_log(io.StringIO(out.getvalue()))
    assert log.header == HEADER
    assert log.entries == original


def test_hand_written_log_may_leave_out_seq() -> None:
    text = "\n".join(
        [
            '{"type": "header", "version": 1, "preset": "rung"}',
            "",
            '{"type": "input", "at": 1, "source": "sim", "kind": "card_seen", "payload": {"card": "AS"}}',
            '{"type": "input", "seq": 7, "at": 2, "source": "sim", "kind": "command", "payload": {}}',
            '{"type": "input", "at": 3, "source": "sim", "kind": "command", "payload": {}}',
        ]
    )
    log = import_log(io.StringIO(text))
    assert log.header == {"preset": "rung"}
    assert [e.seq for e in log.entries] == [1, 7, 8]
    assert log.entries[0] == Entry(1, 1.0, "sim", "card_seen", {"card": "AS"})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty log"),
        ('{"type": "input"}', "line 1: the first line must have type 'header'"),
        ('{"type": "header", "version": 2}', "unsupported log version"),
        ('{"type": "header", "version": 1}\nnot json', "line 2: not JSON"),
        ('{"type": "header", "version": 1}\n[1]', "line 2: expected a JSON object"),
        (
            '{"type": "header", "version": 1}\n'
            '{"type": "input", "seq": 2, "at": 1, "source": "s", "kind": "k", "payload": {}}\n'
            '{"type": "input", "seq": 2, "at": 1, "source": "s", "kind": "k", "payload": {}}',
            "line 3: seq 2 does not follow 2",
        ),
        (
            '{"type": "header", "version": 1}\n{"type": "input", "at": 1, "source": "s", "kind": "k"}',
            "line 2: payload must be a dict",
        ),
        (
            '{"type": "header", "version": 1}\n{"type": "note", "at": 1}',
            "line 2: expected type 'input'",
        ),
    ],
)
def test_malformed_logs_name_the_line(text: str, message: str) -> None:
    with pytest.raises(LogFormatError, match=message):
        import_log(io.StringIO(text))


def test_reserved_header_keys_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="reserved"):
        Journal.open(tmp_path / "j.sqlite3", {"version": 3})


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**62), max_value=2**62)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)
inputs = st.lists(
    st.tuples(
        st.sampled_from(["card_seen", "tag_seen", "reader_fault", "command"]),
        st.dictionaries(st.text(max_size=8), json_values, max_size=5),
        st.floats(min_value=0, max_value=2e9, allow_nan=False),
        st.text(min_size=1, max_size=10),
    ),
    max_size=8,
)


@settings(max_examples=40, deadline=None)
@given(inputs)
def test_any_json_payload_survives_journal_and_log_round_trip(
    rows: list[tuple[str, dict, float, str]],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        with Journal.open(Path(tmp) / "j.sqlite3", {"preset": "rung"}) as journal:
            for kind, payload, at, source in rows:
                journal.append(kind, payload, at, source)
            entries = list(journal.entries())
            out = io.StringIO()
            export_log(journal, out)
    assert [(e.kind, e.payload, e.at, e.source) for e in entries] == rows
    assert import_log(io.StringIO(out.getvalue())).entries == entries


def test_hand_written_lines_may_leave_out_seq_time_and_source():
    """A log written by hand needs only kind and payload; time repeats, source is named."""
    log = import_log([
        '{"type": "header", "version": 1}',
        '{"type": "input", "kind": "command", "payload": {"name": "new-match"}}',
        '{"type": "input", "at": 5.5, "kind": "sighting", "payload": {"zone": "deal", "card": "AS"}}',
        '{"type": "input", "kind": "sighting", "payload": {"zone": "deal", "card": "KS"}}',
    ])
    assert [(e.seq, e.at, e.source) for e in log.entries] == [
        (1, 0.0, "hand-written"), (2, 5.5, "hand-written"), (3, 5.5, "hand-written")]
