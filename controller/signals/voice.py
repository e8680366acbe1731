"""The referee's voice: the moments that matter, spoken at the table.

A revoke, a court, the trump made known, a hand won, the match over, a seat asked to
show its cards: players looking at their cards hear them without looking up. Sentences
are built only from public table events (the same audience test every screen uses), and
only from the event's public fields, so nothing spoken can name a hidden card. Speech is
Debian's espeak-ng on the Pi's audio output, in English or Urdu; it runs on a worker
thread, so a slow sound card never holds up the referee.
"""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from controller.referee.table_events import PUBLIC, TableEvent, sees

log = logging.getLogger(__name__)

LANGUAGES = ("en", "ur")

_SUITS = {
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "ur": {"S": "حکم", "H": "پان", "D": "اینٹ", "C": "چڑیا"},
}

# One sentence pattern per moment and language; {placeholders} are filled from the event.
_SAY = {
    "en": {
        "revoke": "Revoke! {name} did not follow {suit}.",
        "revoke-rule": "Revoke! {name} broke a rule of play.",
        "trump": "Trump is {suit}.",
        "courts": "{team} score {n} court.",
        "courts-many": "{team} score {n} courts.",
        "points": "{team} score {n}.",
        "hand": "Hand {n} to {team}.",
        "over": "Match over. {team} win.",
        "draw": "Match over. It is a draw.",
        "show": "{name}, show your cards. You played no {suits} in trick {tricks}.",
        "changed": "The hand's result has changed: a revoke was proven.",
        "and": " and ",
    },
    "ur": {
        "revoke": "ریووک! {name} نے {suit} کی پیروی نہیں کی۔",
        "revoke-rule": "ریووک! {name} نے کھیل کا اصول توڑا۔",
        "trump": "رنگ {suit} ہے۔",
        "courts": "{team} کا {n} کوٹ۔",
        "courts-many": "{team} کے {n} کوٹ۔",
        "points": "{team} کے {n} پوائنٹ۔",
        "hand": "ہاتھ {n} {team} کا۔",
        "over": "میچ ختم۔ {team} جیت گئے۔",
        "draw": "میچ ختم۔ برابر رہا۔",
        "show": "{name}، اپنے پتے دکھائیں۔ آپ نے چال {tricks} میں {suits} نہیں کھیلا۔",
        "changed": "ہاتھ کا نتیجہ بدل گیا: ریووک ثابت ہوا۔",
        "and": " اور ",
    },
}


def sentence(event: dict[str, Any], seats: Sequence[str], lang: str = "en") -> str | None:
    """What the referee says for a public table event, or None if it says nothing."""
    say = _SAY[lang]
    suits = _SUITS[lang]

    def name(key: str = "seat") -> str:
        s = event.get(key)
        return seats[s] if isinstance(s, int) and 0 <= s < 4 else "?"

    def team(key: str = "team") -> str:
        t = event.get(key)
        return f"{seats[t]}{say['and']}{seats[t + 2]}" if t in (0, 1) else "?"

    kind = event.get("event")
    if kind == "revoke-flagged":
        suit = event.get("suit")
        if suit in suits:
            return say["revoke"].format(name=name(), suit=suits[suit])
        return say["revoke-rule"].format(name=name())
    if kind in ("trump-called", "trump-revealed"):
        return say["trump"].format(suit=suits[event["suit"]])
    if kind == "courts-scored":
        n = int(event["courts"])
        return say["courts" if n == 1 else "courts-many"].format(team=team(), n=n)
    if kind == "points-scored":
        return say["points"].format(team=team(), n=event["points"])
    if kind == "hand-won":
        return say["hand"].format(n=event["hand"], team=team())
    if kind == "match-over":
        return say["draw"] if event.get("winner") is None else say["over"].format(team=team("winner"))
    if kind == "show-asked":
        return say["show"].format(name=name(), suits=say["and"].join(suits[s] for s in event["suits"]),
                                  tricks=say["and"].join(str(t) for t in event["tricks"]))
    if kind == "hand-result-changed":
        return say["changed"]
    return None


@dataclass
class VoiceSettings:
    """``volume``: 0-100 (% of espeak-ng's normal loudness); ``mute`` silences without
    switching the voice off, so the admin can bring it back at once."""

    language: str = "en"
    volume: int = 80
    mute: bool = False


def espeak_command(text: str, settings: VoiceSettings, wav: str | None = None) -> list[str]:
    """The espeak-ng command line for one sentence (to the audio output, or a WAV file)."""
    cmd = ["espeak-ng", "-v", settings.language, "-a", str(max(0, min(200, settings.volume * 2)))]
    if wav is not None:
        cmd += ["-w", wav]
    return [*cmd, "--", text]


def speak_aloud(text: str, settings: VoiceSettings) -> None:
    """Say it on the audio output; a missing espeak-ng or sound card is logged, not raised."""
    try:
        subprocess.run(espeak_command(text, settings), check=True, timeout=30,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except (OSError, subprocess.SubprocessError) as err:
        log.warning("the referee's voice could not speak: %s", err)


class Voice:
    """Listens to the referee and speaks. ``speak`` is how a sentence is said (espeak-ng
    on the audio output unless given), so tests can also keep the sentences."""

    def __init__(self, settings: VoiceSettings, seats: Callable[[], Sequence[str]],
                 speak: Callable[[str, VoiceSettings], None] = speak_aloud) -> None:
        if settings.language not in LANGUAGES:
            raise ValueError(f"voice language must be one of {', '.join(LANGUAGES)}, not {settings.language!r}")
        self.settings = settings
        self._seats = seats
        self._speak = speak
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=32)
        self._thread: threading.Thread | None = None

    def hear(self, event: TableEvent) -> None:
        """A table event from the referee (called under its lock: queue, never block)."""
        if self.settings.mute or not sees(PUBLIC, event):
            return
        text = sentence(event.to_dict(), self._seats(), self.settings.language)
        if text is None:
            return
        try:
            self._queue.put_nowait(text)
        except queue.Full:  # a backlog of speech is worse than a missed sentence
            log.warning("the referee's voice is behind; dropped: %s", text)

    def start(self) -> Voice:
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=5)
            self._thread = None

    def drain(self) -> None:
        """Say everything queued now, on this thread (for a caller without the worker)."""
        while True:
            try:
                text = self._queue.get_nowait()
            except queue.Empty:
                return
            if text is not None:
                self._speak(text, self.settings)

    def _run(self) -> None:
        while (text := self._queue.get()) is not None:
            if not self.settings.mute:
                self._speak(text, self.settings)


def espeak_available() -> bool:
    return shutil.which("espeak-ng") is not None
