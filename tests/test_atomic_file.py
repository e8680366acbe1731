"""One way to rewrite a small file whole (deck maps, the PIN's hash, the voice level, the
club outbox mark): the old file or the new one, never half, a secret never readable by
others even while it is being written."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from controller.atomic_file import replace_file


def test_a_private_file_is_private_from_its_first_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    real_fsync = os.fsync

    def look(fd: int) -> None:  # the temporary file, while it is still being written
        seen.append(stat.S_IMODE(os.fstat(fd).st_mode))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", look)
    target = tmp_path / "state" / "admin-pin"
    replace_file(target, "scrypt$...\n", mode=0o600)
    assert target.read_text() == "scrypt$...\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600 and seen[0] == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_debris(tmp_path: Path) -> None:
    target = tmp_path / "deck.json"
    replace_file(target, "old\n")
    with pytest.raises(UnicodeEncodeError):
        replace_file(target, "new \u2660\n", encoding="ascii")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.json"]


def test_a_rewrite_replaces_the_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "voice.json"
    replace_file(target, '{"volume": 80, "mute": false}\n' * 3)
    replace_file(target, '{"volume": 10}\n')
    assert target.read_text() == '{"volume": 10}\n'
