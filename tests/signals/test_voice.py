"""The referee's voice: every announcement is real, audible speech (espeak-ng to a WAV
file, measured with sox), and nothing spoken ever names a hidden card."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from controller.config import ConfigError, load_config
from controller.readers.sightings import CardSeen
from controller.referee.actions import table_input
from controller.referee.notices import Refused
from controller.referee.referee import SIGHTING, Referee
from controller.referee.table_events import ADMIN, PUBLIC, events_for
from controller.rules import Phase
from controller.rules.cards import Card, Suit
from controller.rules.errors import THE_CARD, CardSeenTwice
from controller.rules.events import RevokeFlagged, RevokeProof, TrumpSetSecretly
from controller.signals.voice import LANGUAGES, Voice, VoiceSettings, espeak_command, sentence
from controller.sim.bots import BotTable

SEATS = ["Asha", "Bilal", "Chetan", "Dua"]
MOMENTS = [
    {"event": "revoke-flagged", "seat": 1, "card": "3C", "suit": "H", "rule": "follow-suit", "proof": None},
    {"event": "revoke-flagged", "seat": 2, "card": None, "suit": None, "rule": "must-ask", "proof": None},
    {"event": "trump-revealed", "suit": "D", "card": "8D", "trick": 3, "reason": "asked"},
    {"event": "courts-scored", "team": 1, "courts": 1, "reason": "first seven tricks"},
    {"event": "courts-scored", "team": 0, "courts": 52, "reason": "all thirteen tricks"},
    {"event": "hand-won", "hand": 4, "team": 0, "tricks": [7, 2], "reason": "seven tricks"},
    {"event": "match-over", "winner": 1, "score": [3, 5], "reason": "time is up"},
    {"event": "show-asked", "seat": 3, "suits": ["H", "S"], "tricks": [3, 5]},
    {"event": "hand-result-changed", "team_before": 1, "team": 0, "reason": "revoke by Dua"},
]
CARD_TEXT = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b")


def rms_and_length(wav: Path) -> tuple[float, float]:
    out = subprocess.run(["sox", str(wav), "-n", "stat"], capture_output=True, text=True, check=True).stderr
    rms = float(re.search(r"RMS\s+amplitude:\s+([0-9.]+)", out).group(1))
    length = float(re.search(r"Length \(seconds\):\s+([0-9.]+)", out).group(1))
    return rms, length


@pytest.mark.skipif(not (shutil.which("espeak-ng") and shutil.which("sox")),
                    reason="needs Debian's espeak-ng and sox (.ci/setup installs them)")
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("moment", MOMENTS, ids=lambda m: f"{m['event']}-{m.get('rule') or m.get('courts') or ''}")
def test_each_moment_is_audible_speech(moment: dict, lang: str, tmp_path: Path) -> None:
    text = sentence(moment, SEATS, lang)
    assert text
    wav = tmp_path / "said.wav"
    subprocess.run(espeak_command(text, VoiceSettings(language=lang, volume=80), str(wav)), check=True, timeout=60)
    rms, length = rms_and_length(wav)
    assert length > 0.5, f"{text!r} lasts {length}s"
    assert rms > 0.01, f"{text!r} is silent (RMS {rms})"


def test_volume_reaches_espeak_and_zero_is_silent(tmp_path: Path) -> None:
    assert espeak_command("x", VoiceSettings(volume=80))[:5] == ["espeak-ng", "-v", "en", "-a", "160"]
    if not (shutil.which("espeak-ng") and shutil.which("sox")):
        pytest.skip("needs espeak-ng and sox")
    quiet, loud = tmp_path / "quiet.wav", tmp_path / "loud.wav"
    subprocess.run(espeak_command("Trump is hearts.", VoiceSettings(volume=0), str(quiet)), check=True)
    subprocess.run(espeak_command("Trump is hearts.", VoiceSettings(volume=100), str(loud)), check=True)
    assert rms_and_length(quiet)[0] < 0.001 < rms_and_length(loud)[0]


def test_private_events_and_mute_say_nothing() -> None:
    said: list[str] = []
    voice = Voice(VoiceSettings(), lambda: SEATS, lambda text, _s: said.append(text))
    secret = [*events_for(5, 0.0, TrumpSetSecretly(1, Suit.H, Card.parse("8H"))),
              *events_for(6, 0.0, RevokeProof(1, Card.parse("4H"), 1, "follow-suit", "no heart, holding 4H"))]
    refusal = events_for(7, 0.0, Refused.from_error(CardSeenTwice(f"{THE_CARD} was dealt to Bilal", Card.parse("8H"))))
    assert [e.audience for e in secret] == [1, 1] and [e.audience for e in refusal] == [PUBLIC, ADMIN]
    for e in [*secret, refusal[1]]:
        voice.hear(e)
    voice.drain()
    assert said == []
    (flag,) = events_for(8, 0.0, RevokeFlagged(1, Card.parse("3C"), 1, "follow-suit", Suit.H, None, "no heart"))
    voice.settings.mute = True
    voice.hear(flag)
    voice.drain()
    assert said == []
    voice.settings.mute = False
    voice.hear(flag)
    voice.drain()
    assert said == ["Revoke! Bilal did not follow hearts."]


@pytest.mark.parametrize(("preset", "knowledge"), [("hidden-rung", "dealt"), ("band-rung", "dealt"),
                                                   ("rang", "played")])
def test_a_whole_match_is_spoken_from_public_events_only(preset: str, knowledge: str) -> None:
    """Bots play a match with revokes through the referee; the voice hears everything the
    referee publishes. What it says equals what the public events say, and no sentence
    names a card (a hidden trump's suit is only ever spoken once it is revealed)."""
    said: list[str] = []
    referee = Referee()
    voice = Voice(VoiceSettings(), lambda: SEATS, lambda text, _s: said.append(text))
    referee.subscribe(voice.hear)
    options = {} if preset == "band-rung" else {"match-end": "hands", "match-target": 2}
    referee.command("new-match", {"preset": preset, "knowledge": knowledge, "seats": SEATS,
                                  "first_dealer": 0, "options": options}, at=1.0)
    m = referee.match
    assert m is not None
    bots = BotTable(m, random.Random(7), revoke_rate=0.1)
    at = 2.0
    for _ in range(20_000):
        if m.phase is Phase.OVER:
            break
        kind, payload = table_input(bots.next_input())
        if kind == SIGHTING:
            referee.sighting(CardSeen(payload["zone"], payload["card"], at, "test"))
        else:
            referee.command(payload.pop("name"), payload, at=at)
        at += 0.5
        m = referee.match
        bots.match = m
        voice.drain()
    expected = [t for e in referee.public_events() if (t := sentence(e, SEATS, "en"))]
    assert said == expected and said
    assert not [s for s in said if CARD_TEXT.search(s)]


def test_voice_settings_are_checked_in_the_config(tmp_path: Path) -> None:
    cfg = tmp_path / "table.toml"
    cfg.write_text('[voice]\nenabled = true\nlanguage = "ur"\nvolume = 40\n', encoding="utf-8")
    loaded = load_config(cfg)
    assert (loaded.voice.enabled, loaded.voice.language, loaded.voice.volume) == (True, "ur", 40)
    cfg.write_text('[voice]\nlanguage = "fr"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="voice.language"):
        load_config(cfg)
    cfg.write_text('[voice]\nvolume = 150\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="voice.volume"):
        load_config(cfg)
