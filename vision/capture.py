"""Capture a table's own deck under its own camera and light: labelled frames to measure
and learn the deck from.

Figures from other people's photographs say little about a club's table: its deck, its
cloth, its lamp. So the organiser walks through the 52 cards under the table's camera;
each card is laid alone on a play spot, a few frames are saved with the card code first
in the file name (``AS_00.jpg``), and ``bench/vision_accuracy.py DIR`` measures the table's own
accuracy from them (:func:`check_captures` the same on the table's own machine, which has
no bench), ``python -m vision.learn_deck DIR deck.npz`` learns the deck's own glyphs. Scenes (several cards, overlapping as thrown) are saved with a
``labels.json`` (file → the cards in view), which ``bench/vision_accuracy.py`` also reads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.focus import FocusCheck, focus_check
from vision.imageio import read_image

#: The reads the referee counts (the tracker's least) and those it is sure of.
COUNTED = 0.5
SURE_READ = 0.9
#: The walk-through order: spades, hearts, diamonds, clubs, each ace down to two (as the
#: RFID enrollment asks for them).
DECK_ORDER = tuple(r + s for s in "SHDC" for r in "AKQJT98765432")
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_CARD = re.compile(r"^(10|[AKQJT2-9])[SHDC]$")


class CaptureError(ValueError):
    """A capture that cannot go on, said as a sentence for the organiser."""


def capture_dir(state_dir: str | Path, deck: str) -> Path:
    """Where a deck's captures go: ``STATE/camera-captures/NAME``."""
    if not _NAME.match(deck):
        raise CaptureError(f"a deck name is letters, digits, - and _ (not {deck!r})")
    return Path(state_dir) / "camera-captures" / deck


def card_code(text: str) -> str:
    """``10h`` → ``TH``; raises :class:`CaptureError` for anything that is not a card."""
    t = text.strip().upper()
    if not _CARD.match(t):
        raise CaptureError(f"{text!r} is not a card (like AS, TD, 10H, 7C)")
    return "T" + t[-1] if t.startswith("10") else t


@dataclass
class CaptureSession:
    """Saves labelled frames from ``grab`` (one camera frame per call) into ``folder``.

    ``read`` (optional) names what the camera reader makes of a frame (each card and its
    confidence), so the organiser sees at once when a card reads wrong under this
    table's light.
    """

    folder: Path
    grab: Callable[[], np.ndarray | None]
    frames_per_card: int = 3
    read: Callable[[np.ndarray], list[tuple[str, float]]] | None = None
    #: How soft each frame of the last card saved is (:func:`vision.focus.focus_check`):
    #: a camera out of focus is best found at the walk, while the organiser is at the table.
    focus: list[FocusCheck] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)

    def single(self, card: str) -> tuple[int, list[list[tuple[str, float]]]]:
        """Save ``frames_per_card`` frames of ``card`` alone: (frames saved, what was read
        in each: every frame is learned from and measured, so every frame is checked)."""
        saved, reads = 0, []
        self.focus = []
        for old in self.folder.glob(f"{card}_*.jpg"):  # captured again: the new frames only
            old.unlink()
        for i in range(self.frames_per_card):
            frame = self.grab()
            if frame is None:
                break
            path = self.folder / f"{card}_{i:02d}.jpg"
            cv2.imwrite(str(path), frame)
            saved += 1
            # read as saved (a JPEG, decoded as camera check and learning decode it), so
            # the word at capture is theirs: a card read without much margin read live
            # one way and saved another
            again = read_image(path)
            as_saved = again if again is not None else frame
            self.focus.append(focus_check(as_saved))
            if self.read is not None:
                reads.append(self.read(as_saved))
        return saved, reads

    def skip(self) -> int:
        """Use up the frames a card would have been saved from (a recording, in the walk's
        order, skipping a card): how many there were."""
        n = 0
        while n < self.frames_per_card and self.grab() is not None:
            n += 1
        return n

    def scene(self, cards: list[str]) -> str | None:
        """Save one frame of several ``cards`` in view, labelled in ``scenes/labels.json``."""
        frame = self.grab()
        if frame is None:
            return None
        scenes = self.folder / "scenes"
        scenes.mkdir(exist_ok=True)
        labels_file = scenes / "labels.json"
        labels = json.loads(labels_file.read_text()) if labels_file.exists() else {}
        name = f"scene_{len(labels):03d}.jpg"
        cv2.imwrite(str(scenes / name), frame)
        labels[name] = cards
        labels_file.write_text(json.dumps(labels, indent=1) + "\n")
        return name


def counted_beside(card: str, reads: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """The reads (card, confidence) of a frame of ``card`` alone that name another card
    as surely as the referee counts a play: plays that never happened. (A read judged on
    its own, a frame's surest, is left out by the caller.)"""
    return [r for r in reads if r[0] != card and r[1] >= COUNTED]


@dataclass
class CaptureCheck:
    """How a reader read a folder of single-card captures: the referee's view of them
    (a card read at 0.5 or more is one it would count; at 0.9 one it is sure of)."""

    pictures: int = 0
    right: int = 0
    #: read as another card at 0.5 or more: a card the referee would take for a play
    wrong_counted: int = 0
    #: of those, read at 0.9 or more (should never happen)
    wrong_sure: int = 0
    #: frames in which a card other than the one laid is also read at 0.5 or more,
    #: beside the surest read: a second play the referee would see that never happened
    also_counted: int = 0
    misses: list[str] = field(default_factory=list)  # "AS_00.jpg: read KS (0.67)"

    @property
    def right_pct(self) -> float:
        return 100.0 * self.right / max(self.pictures, 1)


def check_captures(
    pictures: Iterable[tuple[str, np.ndarray, str]],
    read: Callable[[np.ndarray], list[tuple[str, float]]],
) -> CaptureCheck:
    """Read each ``(card, image, name)`` capture with ``read`` (frame → cards and their
    confidences): its surest read is what the referee would see, and any other card it
    counts beside it (:attr:`CaptureCheck.also_counted`) a second play."""
    out = CaptureCheck()
    for card, image, name in pictures:
        out.pictures += 1
        reads = read(image)
        want = card.replace("10", "T")
        best = max(reads, key=lambda r: r[1], default=None)
        others = counted_beside(want, [r for r in reads if r is not best])
        if others:
            out.also_counted += 1
            also = ", ".join(f"{c} ({p:.2f})" for c, p in others)
            out.misses.append(f"{name}: also read {also}")
        if best is not None and best[0] == want:
            out.right += 1
            continue
        if best is None:
            out.misses.append(f"{name}: nothing read")
            continue
        out.misses.append(f"{name}: read {best[0]} ({best[1]:.2f})")
        out.wrong_counted += best[1] >= COUNTED
        out.wrong_sure += best[1] >= SURE_READ
    return out
