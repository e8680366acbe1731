"""The voice's volume and mute as the organiser last set them on the admin page, kept.

Why a small file in the state folder and not the journal: loudness is not a match input.
An undo must not turn the voice back up, a new match must not reset it, and a replay
of a table log must not depend on how loud the room was. ``[voice] volume`` and ``mute``
in the config are the start; once the admin page changes them, ``STATE/voice.json``
wins (delete it to go back to the config). The file is replaced atomically and is the
service user's alone (0600), like everything else in the state folder.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from controller.atomic_file import replace_file
from controller.signals.voice import Voice

log = logging.getLogger(__name__)

FILE = "voice.json"


class VoiceSettingError(ValueError):
    """A volume or mute the voice cannot take; the text says what is allowed."""


@dataclass(frozen=True)
class VoiceLevel:
    """How loud the referee speaks: ``volume`` 0-100, ``mute`` silences it."""

    volume: int
    mute: bool

    @classmethod
    def checked(cls, volume: Any, mute: Any) -> VoiceLevel:
        if isinstance(volume, bool) or not isinstance(volume, int) or not 0 <= volume <= 100:
            raise VoiceSettingError("the volume is a whole number from 0 to 100")
        if not isinstance(mute, bool):
            raise VoiceSettingError("mute is true or false")
        return cls(volume, mute)


class VoiceControl:
    """The running voice's loudness, changed live and kept in ``STATE/voice.json``."""

    def __init__(self, voice: Voice, state_dir: Path) -> None:
        self.voice = voice
        self.path = Path(state_dir) / FILE
        self._lock = threading.Lock()

    @classmethod
    def open(cls, voice: Voice, state_dir: Path) -> VoiceControl:
        """Attach to ``voice`` and apply what the admin page saved last, if anything."""
        control = cls(voice, state_dir)
        saved = control._load()
        if saved is not None:
            control._apply(saved)
        return control

    def current(self) -> dict[str, Any]:
        s = self.voice.settings
        return {"language": s.language, "volume": s.volume, "mute": s.mute}

    def set(self, volume: Any = None, mute: Any = None) -> dict[str, Any]:
        """Change the volume and/or mute now (the next sentence uses them) and keep them.
        ``kept`` is False when the file could not be written (a full or read-only card):
        the change holds until the service restarts."""
        with self._lock:
            s = self.voice.settings
            level = VoiceLevel.checked(s.volume if volume is None else volume, s.mute if mute is None else mute)
            self._apply(level)
            try:
                self._save(level)
                kept = True
            except OSError as err:
                log.error("the voice settings could not be kept in %s: %s", self.path, err)
                kept = False
        return {**self.current(), "kept": kept}

    def _apply(self, level: VoiceLevel) -> None:
        # One assignment: the speaking thread reads whole settings, never half of them.
        self.voice.settings = replace(self.voice.settings, volume=level.volume, mute=level.mute)

    def _load(self) -> VoiceLevel | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return VoiceLevel.checked(data.get("volume"), data.get("mute"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, AttributeError) as err:
            log.warning("%s is unreadable (%s): the voice keeps the config's volume and mute", self.path, err)
            return None

    def _save(self, level: VoiceLevel) -> None:
        text = json.dumps({"volume": level.volume, "mute": level.mute}) + "\n"
        replace_file(self.path, text, mode=0o600)
