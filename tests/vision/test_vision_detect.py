"""Recognition on scenes the project renders itself (never on real photographs)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import CardDetector
from vision.synth import CardSpec, scene

RANKS = "AKQJT98765432"
SUITS = "SHDC"


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def read(detector: CardDetector, img: np.ndarray) -> list[str]:
    return sorted(d.card for d in detector.detect(img) if d.card)


@pytest.mark.parametrize("style", [0, 1, 3])
def test_every_rank_and_suit_reads_at_any_angle(detector: CardDetector, style: int) -> None:
    rng = np.random.default_rng(style)
    misses = []
    for i, rank in enumerate(RANKS):
        card = rank + SUITS[(i + style) % 4]
        spec = CardSpec(
            card,
            (640 + rng.uniform(-200, 200), 480 + rng.uniform(-120, 120)),
            rng.uniform(260, 380),
            rng.uniform(0, 360),
            style,
        )
        img, _ = scene([spec], seed=100 * style + i)
        got = read(detector, img)
        if got != [card]:
            misses.append((card, got))
    assert misses == []


def test_four_play_spots_in_one_frame(detector: CardDetector) -> None:
    specs = [
        CardSpec("AS", (320, 240), 280, 10),
        CardSpec("TD", (960, 240), 280, 95),
        CardSpec("7H", (320, 720), 280, 200),
        CardSpec("QC", (960, 720), 280, 300),
    ]
    img, placed = scene(specs, seed=3)
    dets = [d for d in detector.detect(img) if d.card]
    assert sorted(d.card for d in dets) == ["7H", "AS", "QC", "TD"]
    for d in dets:
        truth = next(p for p in placed if p.card == d.card)
        # the outline is the card's: centres agree within a few pixels
        assert np.linalg.norm(np.array(d.center) - truth.quad.mean(axis=0)) < 8
        assert 0.5 <= d.confidence <= 1.0


def test_touching_cards_are_told_apart(detector: CardDetector) -> None:
    h = 300
    w = h * 250 / 350
    specs = [CardSpec("KS", (500, 480), h, 0), CardSpec("3H", (500 + w + 1, 480), h, 0)]
    img, _ = scene(specs, seed=5, glare=False)
    assert read(detector, img) == ["3H", "KS"]


def test_slightly_overlapping_cards_both_read(detector: CardDetector) -> None:
    h = 300
    w = h * 250 / 350
    specs = [CardSpec("8C", (500, 480), h, 0), CardSpec("JD", (500 + w * 0.93, 490), h, 4)]
    img, _ = scene(specs, seed=6, glare=False)
    assert read(detector, img) == ["8C", "JD"]


def test_face_down_card_is_not_read(detector: CardDetector) -> None:
    img, _ = scene(
        [CardSpec(None, (640, 480), 320, 30), CardSpec("2S", (1000, 480), 300, 80)], seed=8
    )
    assert read(detector, img) == ["2S"]


def test_empty_table_has_no_cards(detector: CardDetector) -> None:
    for seed in range(4):
        img, _ = scene([], seed=seed)
        assert read(detector, img) == []
