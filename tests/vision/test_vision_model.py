"""The glyph model: shipped weights, rebuilding them, and learning one deck's glyphs."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import CardDetector, synth
from vision.learn_deck import learn_deck
from vision.model import BLACK_SUITS, DEFAULT_WEIGHTS, RANKS, DeckGlyphs, GlyphModel, blend
from vision.reader import CardReader
from vision.train import REAL_SUITS, main, real_soft_set, train, train_black


def flat(face: np.ndarray) -> np.ndarray:
    return cv2.resize(face, (200, 300), interpolation=cv2.INTER_AREA)


def test_shipped_weights_are_small_and_load() -> None:
    assert DEFAULT_WEIGHTS.stat().st_size < 1_000_000
    model = GlyphModel.load()
    assert model.rank.w1.shape[0] == model.suit.w1.shape[0]
    assert model.black is not None and model.black.w1.shape[0] == model.suit.w1.shape[0]


def test_the_shipped_black_head_has_learned_the_real_soft_suits() -> None:
    """The committed black-suit head was trained with the real soft suits cut from the
    development photos (``vision/data/real_suits.npz``, ``bench/real_suits.py``). Built
    from rendered glyphs alone it read 93 % of them (a webcam's soft clubs as spades);
    with them, all."""
    head = GlyphModel.load().black
    assert head is not None
    x, y = real_soft_set(REAL_SUITS, np.random.default_rng(0), repeats=1)
    assert len(y) >= 600 and {0, 1} <= set(y.tolist())
    right = head.proba(x).argmax(1) == y
    assert right.mean() >= 0.98, right.mean()


def _patches(tmp_path: Path, suits: str) -> Path:
    """A small real-suits file: a soft ring (labelled a club) or a soft bar (a spade), one
    per letter of ``suits``, as grey ink-score patches."""
    out = {}
    for i, suit in enumerate(suits):
        patch = np.zeros((30, 26), np.uint8)
        if suit == "C":
            cv2.circle(patch, (13, 15), 8, 200, 3)
        else:
            cv2.rectangle(patch, (10, 4), (16, 26), 200, -1)
        out[f"{suit}_{i:04d}"] = cv2.GaussianBlur(patch, (0, 0), 1.0)
    path = tmp_path / "real.npz"
    np.savez(path, photos=np.array(["made-up"] * len(suits)), **out)
    return path


def test_real_soft_suits_are_learned_each_many_times(tmp_path: Path) -> None:
    """Each real glyph is learned ``repeats`` times under its own suit, the first copy as
    it is and the rest each a little different; keys that are no suit are not glyphs."""
    path = _patches(tmp_path, "CSC")
    x, y = real_soft_set(path, np.random.default_rng(1), repeats=4)
    assert len(x) == len(y) == 12
    assert y.tolist() == [BLACK_SUITS.index(s) for s in "CCS"] * 4  # in key order
    first, again = x[:3], x[3:6]
    assert not np.allclose(first, again)  # jittered, not the same glyph four times
    assert np.allclose(x[:3], real_soft_set(path, np.random.default_rng(9), repeats=1)[0])


def test_the_black_head_learns_the_real_suits_where_the_file_is_there(tmp_path: Path) -> None:
    """With a real-suits file that calls a soft ring a club, the head takes the ring for
    a club; without the file (or with None) the rendered glyphs alone decide."""
    path = _patches(tmp_path, "C" * 6 + "S" * 6)
    ring = real_soft_set(path, np.random.default_rng(2), repeats=1)[0][:1]
    with_real, _ = train_black(seed=1, per_source=3, epochs=8, real=path)
    alone, _ = train_black(seed=1, per_source=3, epochs=8, real=None)
    missing, _ = train_black(seed=1, per_source=3, epochs=8, real=tmp_path / "none.npz")
    club = BLACK_SUITS.index("C")
    assert with_real.proba(ring)[0, club] > 0.9
    assert np.array_equal(alone.w1, missing.w1)
    assert not np.array_equal(alone.w1, with_real.w1)


def test_rebuilding_the_black_suit_head_alone_keeps_the_other_heads(tmp_path: Path) -> None:
    out = tmp_path / "g.npz"
    shutil.copy(DEFAULT_WEIGHTS, out)
    assert main(["--out", str(out), "--black", "--seed", "5"]) == 0
    before, after = np.load(DEFAULT_WEIGHTS), np.load(out)
    for key in before.files:
        if not key.startswith("b_"):
            assert np.array_equal(before[key], after[key]), key
    assert not np.array_equal(before["b_w1"], after["b_w1"])  # rebuilt, from seed 5


def test_rebuilding_the_black_head_onto_no_weights_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--out", str(tmp_path / "none.npz"), "--black"]) == 2
    assert "not there" in capsys.readouterr().out
    assert not (tmp_path / "none.npz").exists()


def test_training_script_rebuilds_a_working_model(tmp_path: Path) -> None:
    model, stats = train(seed=3, per_rank=6, per_suit=8, epochs=15)
    assert stats["rank_heldout_acc"] > 0.9
    assert stats["suit_heldout_acc"] > 0.9
    assert stats["black_heldout_acc"] > 0.85
    model.save(tmp_path / "g.npz")
    reader = CardReader(GlyphModel.load(tmp_path / "g.npz"))
    cards = ["AS", "KH", "TD", "7C", "QS", "2H"]
    got = [reader.read(flat(synth.card_face(c, style=1))).card for c in cards]
    assert sum(g == c for g, c in zip(got, cards, strict=True)) >= 5


def test_learning_a_deck_teaches_an_unusual_index(tmp_path: Path) -> None:
    """A German-pattern deck prints B for the jack: unknown to the generic model."""
    style = 200
    spades_hearts = [r + s for r in "AKQJT98765432" for s in "SH"]
    # learned the way a table would: each card laid once under the camera
    e = learn_deck(
        (c, synth.scene([synth.CardSpec(c, (640, 480), 320, 17 * i, style)], seed=i)[0])
        for i, c in enumerate(spades_hearts)
    )
    e.save(tmp_path / "deck.npz")
    targets = ["JD", "JC", "QD", "KC", "TC"]
    specs = [synth.CardSpec(c, (640, 480), 320, 40 + 70 * i, style) for i, c in enumerate(targets)]
    frames = [synth.scene([s], seed=20 + i)[0] for i, s in enumerate(specs)]

    def reads(det: CardDetector) -> list[str | None]:
        return [next((d.card for d in det.detect(f) if d.card), None) for f in frames]

    generic = reads(CardDetector())
    assert generic != targets  # the jacks are beyond the generic model
    learned = reads(CardDetector(deck_glyphs=DeckGlyphs.load(tmp_path / "deck.npz")))
    assert learned == targets


def test_a_partly_learned_deck_leaves_other_classes_alone() -> None:
    e = learn_deck((c, synth.card_face(c, 0)) for c in ("KS", "KH"))
    reader = CardReader(GlyphModel.load())
    reader.model.deck_glyphs = e
    for card in ("7D", "AC", "TS"):
        assert reader.read(flat(synth.card_face(card, 0))).card == card


def test_a_glyph_the_deck_taught_is_not_vetoed_as_junk() -> None:
    """The generic model may call an unusual index junk outright (OpenCV 4.11 draws the
    test deck's script "B" so); the same glyph learned from the deck still reads."""
    rng = np.random.default_rng(4)
    ref = rng.normal(size=(3, 16)).astype(np.float32)
    ref /= np.linalg.norm(ref, axis=1, keepdims=True)
    ref_y = np.array([RANKS.index("K"), RANKS.index("J"), RANKS.index("Q")])
    p_model = np.full((1, len(RANKS)), 0.08 / (len(RANKS) - 1), np.float32)
    p_model[0, -1] = 0.92  # junk, as sure as it was of that "B"
    glyph = ref[:1] + 0.05 * rng.normal(size=(1, 16)).astype(np.float32)
    p = blend(p_model, glyph, ref, ref_y)
    assert RANKS[int(p.argmax())] == "K"
    assert abs(float(p.sum()) - 1) < 1e-5
    # a shape like none of the deck's glyphs keeps the model's junk
    far = -ref[:1]
    assert RANKS[int(blend(p_model, far, ref, ref_y).argmax())] == "junk"


def test_the_decks_vote_counts_as_far_as_the_glyph_is_near_a_learned_one() -> None:
    """A glyph like none the deck taught (a webcam's soft index, a glyph in other light)
    is left to the model; one like a learned glyph takes the deck's vote in full."""
    rng = np.random.default_rng(6)
    ref = rng.normal(size=(2, 16)).astype(np.float32)
    ref /= np.linalg.norm(ref, axis=1, keepdims=True)
    ref_y = np.array([RANKS.index("K"), RANKS.index("7")])
    p_model = np.full((1, len(RANKS)), 0.02 / (len(RANKS) - 2), np.float32)
    p_model[0, RANKS.index("7")] = 0.78
    p_model[0, RANKS.index("K")] = 0.2
    near_k = ref[:1] + 0.02 * rng.normal(size=(1, 16)).astype(np.float32)
    assert RANKS[int(blend(p_model, near_k, ref, ref_y).argmax())] == "K"
    # equally far from both learned glyphs, and far from each: the model's 7 stands
    far = np.zeros((1, 16), np.float32)
    far[0, :] = 2.0 / 4.0
    far -= 0.5 * (ref[0] + ref[1])
    p = blend(p_model, far, ref, ref_y)
    assert RANKS[int(p.argmax())] == "7"
    assert float(p[0, RANKS.index("7")]) > 0.7


def test_a_ten_with_touching_digits_is_told_from_a_queen() -> None:
    """Blur joins a tight ``10`` into one blob; a faint bridge still gives it away."""
    from vision.index import _is_tight_ten

    ten = np.zeros((30, 22), np.uint8)
    ten[1:29, 2:5] = 200  # the 1
    cv2.ellipse(ten, (14, 15), (5, 13), 0, 0, 360, 200, 3)  # the 0
    ten[12:18, 5:9] = 60  # blur between the digits: ink, but fainter
    queen = np.zeros((30, 22), np.uint8)
    cv2.ellipse(queen, (11, 14), (8, 12), 0, 0, 360, 200, 3)
    cv2.line(queen, (12, 22), (19, 29), 200, 3)
    assert _is_tight_ten(ten, 40.0)
    assert not _is_tight_ten(queen, 40.0)


def test_a_light_card_in_dim_light_is_not_taken_for_a_dark_deck() -> None:
    """A dim photo makes the stock as dark as a black deck's, but its ink is darker
    still: it is read as it is, not as its negative."""
    reader = CardReader(GlyphModel.load())
    for card in ("9C", "QH"):
        dim = (flat(synth.card_face(card, 0)).astype(np.float32) * 0.3).astype(np.uint8)
        assert reader.read(dim).card == card


def test_a_soft_zero_broken_open_still_has_its_hole() -> None:
    """Only a ten's right glyph encloses paper; a soft "0" whose thin side fell below
    the ink threshold is a "C", and a webcam's ten was read as its "1" alone, a jack.
    A gap of a pixel or two is closed before the hole is looked for; a solid pip, a
    jack's hook and a wide-open "C" still have none."""
    from vision.index import Blob, _encloses_paper, _has_hole

    def holed(mask: np.ndarray) -> bool:
        labels = (mask > 0).astype(np.int32)
        h, w = mask.shape
        return _has_hole(labels, Blob(0, 0, w, h, 1))

    broken = np.zeros((30, 22), np.uint8)
    cv2.ellipse(broken, (11, 15), (7, 12), 0, 0, 360, 255, 3)
    broken[13:17, 15:22] = 0  # its thin right side gone: two pixels' gap and more
    assert not _encloses_paper((broken > 0).astype(np.uint8))
    assert holed(broken)
    whole = np.zeros((30, 22), np.uint8)
    cv2.ellipse(whole, (11, 15), (7, 12), 0, 0, 360, 255, 3)
    assert holed(whole)
    pip = np.zeros((30, 22), np.uint8)
    cv2.ellipse(pip, (11, 15), (8, 12), 0, 0, 360, 255, -1)
    assert not holed(pip)
    hook = np.zeros((30, 22), np.uint8)
    hook[2:24, 13:17] = 255  # a jack's stem and its hook
    cv2.ellipse(hook, (10, 22), (5, 5), 0, 0, 180, 255, 3)
    assert not holed(hook)
    wide = np.zeros((30, 22), np.uint8)
    cv2.ellipse(wide, (11, 15), (7, 12), 0, 60, 300, 255, 3)  # a "C"
    assert not holed(wide)
