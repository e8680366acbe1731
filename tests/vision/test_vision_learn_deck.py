"""Learning a table's own deck (``vision.learn_deck``, ``courtpiece camera learn``) from
captures rendered here: the card found as the referee finds it, its corners read as the
reader reads them, pictures named wrong passed over, and the referee's camera reading
with what was learned."""

from __future__ import annotations

import argparse
import io
import logging
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.commands.camera import run_check, run_learn
from controller.runtime import DECK_FILE, camera_detector
from vision import CardDetector, glyphs
from vision.index import IndexGlyphs
from vision.learn_deck import LearnReport, _laid_otherwise, learn_deck
from vision.model import BLACK_SUITS, RANKS, SUITS, DeckGlyphs, GlyphModel, Mlp
from vision.reader import CardReader
from vision.synth import CardSpec, camera, card_face, place, scene, table


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def gold_on_black(card: str) -> np.ndarray:
    """A dark deck's face: black stock, the red suits in gold, the black suits in silver."""
    face = card_face(card).astype(np.float32)
    ink = np.clip((240 - face.min(axis=2)) / 210, 0, 1)[:, :, None]
    colour = (60, 170, 215) if card[-1] in "HD" else (205, 205, 205)
    return (np.array([22, 22, 24]) * (1 - ink) + np.array(colour) * ink).astype(np.uint8)


def dark_capture(card: str, seed: int) -> np.ndarray:
    """A gold-on-black card alone on a plain white desk, as the capture saves it."""
    rng = np.random.default_rng(seed)
    img = np.full((960, 1280, 3), (226, 230, 232), np.uint8)
    place(img, gold_on_black(card), (640, 480), 340, 10 + 23 * seed, rng)
    return camera(img, rng, glare=False)


def capture(card: str, seed: int, style: int = 0) -> np.ndarray:
    return scene([CardSpec(card, (640, 480), 330, 15 + 31 * seed, style)], seed=seed)[0]


@pytest.mark.parametrize(
    ("read", "label", "laid_otherwise"),
    [
        ("8S", "9S", True),  # another number
        ("TS", "9S", True),
        ("KH", "AS", True),  # another suit
        ("JD", "5D", False),  # a German 5 the generic reader takes for a J, surely
        ("QS", "JS", False),  # letters are what an unusual deck prints differently
        ("AS", "2S", False),  # so is the ace's (Т in a Russian deck)
    ],
)
def test_only_another_suit_or_number_says_another_card_was_laid(
    read: str, label: str, laid_otherwise: bool
) -> None:
    assert _laid_otherwise(read, label) is laid_otherwise


def test_a_dark_deck_is_learned_from_its_negative(detector: CardDetector) -> None:
    """Its light ink is the index: read in the card's negative, as the reader reads it
    (read on the dark stock as it is, no corner held an index)."""
    cards = ["QH", "7S", "TD", "AC", "KS", "4H"]
    report = LearnReport()
    e = learn_deck(((c, dark_capture(c, i)) for i, c in enumerate(cards)), detector, report)
    assert report.used == len(cards) and not report.skipped
    assert len(e.rank_y) >= len(cards)  # a corner or two each
    learned = {RANKS[r] + SUITS[s] for r, s in zip(e.rank_y, e.suit_y, strict=True)}
    assert learned == {c.replace("T", "10") for c in cards}


def test_a_picture_that_reads_surely_as_another_card_is_passed_over(
    detector: CardDetector,
) -> None:
    """A capture saved under the wrong name (the card laid was not the one asked for)
    would teach its glyphs the wrong name: it is passed over and named instead."""
    report = LearnReport()
    e = learn_deck(
        [("KH", capture("KH", 1), "KH_00.jpg"), ("KH", capture("7C", 2), "KH_01.jpg")],
        detector,
        report,
    )
    assert report.used == 1
    assert [name for name, _ in report.skipped] == ["KH_01.jpg"]
    assert "reads surely as 7C" in report.skipped[0][1]
    assert set(e.rank_y.tolist()) == {RANKS.index("K")}


#: A four-colour deck's inks (BGR): blue spades, red hearts, yellow diamonds, green clubs.
FOUR_INKS = {"S": (150, 60, 20), "H": (40, 40, 200), "D": (40, 210, 240), "C": (40, 140, 30)}


def four_colour_shot(card: str, seed: int) -> np.ndarray:
    face = card_face(card).astype(np.float32)
    ink = np.clip((240 - face.min(axis=2)) / 210, 0, 1)[:, :, None]
    printed = np.array([245, 245, 245]) * (1 - ink) + np.array(FOUR_INKS[card[-1]]) * ink
    rng = np.random.default_rng(seed)
    img = table(rng)
    place(img, printed.astype(np.uint8), (640, 480), 330, 12 + 29 * seed, rng)
    return camera(img, rng, glare=False)


def in_shade(face: np.ndarray, depth: float = 0.4) -> np.ndarray:
    """A card face with a soft-edged shadow across each index corner (a hand's, in a
    strong lamp): the stock beyond it ``depth`` as bright as the lit stock."""
    h, w = face.shape[:2]
    k = w / 200  # the shadow's line laid as on a 200-pixel-wide card
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = (xx - 30 * k) * np.cos(0.6) + (yy - 40 * k) * np.sin(0.6)
    light = 1 - (1 - depth) / (1 + np.exp(across / (3.0 * k)))
    light = np.minimum(light, light[::-1, ::-1])
    return np.clip(face.astype(np.float32) * light[:, :, None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("card", ["7C", "KH", "4D"])
def test_an_index_in_shade_is_learned_as_the_reader_finds_it(
    card: str, detector: CardDetector
) -> None:
    """A capture whose index corners lie half in a shadow: the reader finds their glyphs
    once the corner is lit evenly, and learning takes them the same way (found with the
    plain index search only, the capture was passed over: "no index found")."""
    rng = np.random.default_rng(1)
    img = np.full((960, 1280, 3), (60, 90, 50), np.uint8)
    place(img, in_shade(card_face(card)), (640, 480), 420, 28, rng)
    report = LearnReport()
    learned = learn_deck([(card, camera(img, rng, glare=False))], detector, report)
    assert report.skipped == [] and len(learned.rank_y) == 2
    assert {RANKS[i] for i in learned.rank_y} == {card[:-1]}


def test_a_four_colour_deck_is_read_once_its_colours_are_learned(detector: CardDetector) -> None:
    """Yellow ink is no red: the generic reader takes a yellow diamond for a spade. The
    deck learned, each suit's own ink colour tells it."""
    captures = [
        (r + s, four_colour_shot(r + s, i))
        for i, (r, s) in enumerate((r, s) for r in "AKQ972" for s in "SHDC")
    ]
    learned = learn_deck(captures, detector)
    assert all(len(learned.ink_of(SUITS.index(s))) for s in "SHDC")
    targets = ["KD", "AD", "QD", "7C"]
    frames = [four_colour_shot(c, 40 + i) for i, c in enumerate(targets)]

    def reads(det: CardDetector) -> list[str | None]:
        return [next((d.card for d in det.detect(f) if d.card), None) for f in frames]

    assert reads(detector) != targets  # yellow diamonds read as black suits
    assert reads(CardDetector(deck_glyphs=learned)) == targets


def test_a_learned_suit_shape_the_colour_overrules_is_left_in_doubt() -> None:
    from vision.reader import DISPUTED, _doubted_if_overruled

    shape = np.array([0.04, 0.02, 0.9, 0.02, 0.02])  # S H D C junk: a sure diamond's shape
    weighed = np.array([0.8, 0.01, 0.15, 0.03, 0.01])  # ... in ink judged black
    out = _doubted_if_overruled(shape, weighed)
    assert int(out.argmax()) == 0 and out[0] == pytest.approx(DISPUTED)
    assert out.sum() == pytest.approx(1.0)
    agreed = np.array([0.02, 0.01, 0.95, 0.01, 0.01])
    assert np.array_equal(_doubted_if_overruled(shape, agreed), agreed)


def test_a_grey_capture_teaches_no_colour(detector: CardDetector) -> None:
    """A grey picture shows no ink colour: its glyphs are learned, not its colours (a
    red heart's grey ink would teach that hearts may be printed black)."""
    grey = cv2.cvtColor(cv2.cvtColor(capture("KH", 1), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    e = learn_deck([("KH", grey)], detector)
    assert len(e.suit_y) >= 1 and not len(e.ink_of(SUITS.index("H")))
    e = learn_deck([("KH", capture("KH", 1))], detector)
    assert float(e.ink_of(SUITS.index("H"))[:, 0].min()) > 15  # red: well above the stock's a*


def test_a_deck_learned_before_colours_were_kept_still_loads(tmp_path: Path) -> None:
    np.savez_compressed(
        tmp_path / "old.npz",
        rank_x=np.zeros((1, 3), np.float32),
        rank_y=np.array([0]),
        suit_x=np.zeros((1, 3), np.float32),
        suit_y=np.array([0]),
    )
    e = DeckGlyphs.load(tmp_path / "old.npz")
    assert len(e.suit_y) == 1 and not len(e.ink_of(0))


def args(tmp_path: Path, **kw: object) -> argparse.Namespace:
    return argparse.Namespace(
        **{"deck": "club", "state_dir": str(tmp_path), "out": None, "force": False, **kw}
    )


def save_captures(tmp_path: Path, cards: list[str], style: int = 0) -> Path:
    folder = tmp_path / "camera-captures" / "club"
    folder.mkdir(parents=True)
    for i, c in enumerate(cards):
        cv2.imwrite(str(folder / f"{c}_00.jpg"), capture(c, i, style))
    return folder


def test_camera_learn_writes_the_deck_the_referees_camera_reads_with(tmp_path: Path) -> None:
    """A German deck prints B for the jack: learned from its captures, the camera reads
    its jacks; the file is where the referee looks for it."""
    style = 200
    save_captures(tmp_path, [r + s for r in "AKQJT98765432" for s in "SH"], style)
    out = io.StringIO()
    assert run_learn(args(tmp_path), out) == 0
    deck = tmp_path / DECK_FILE
    assert deck.exists() and "learned" in out.getvalue() and str(deck) in out.getvalue()
    assert len(DeckGlyphs.load(deck).rank_y) >= 26
    targets = ["JD", "JC", "QD", "KC", "TC"]
    frames = [
        scene([CardSpec(c, (640, 480), 320, 40 + 70 * i, style)], seed=30 + i)[0]
        for i, c in enumerate(targets)
    ]

    def reads(det: CardDetector) -> list[str | None]:
        return [next((d.card for d in det.detect(f) if d.card), None) for f in frames]

    assert reads(CardDetector()) != targets  # beyond the generic model
    assert reads(camera_detector(deck)) == targets
    # the organiser's check on a second capture, on the table's own machine (no bench)
    check = tmp_path / "camera-captures" / "club-check"
    check.mkdir()
    for card, frame in zip(targets, frames, strict=True):
        cv2.imwrite(str(check / f"{card}_00.jpg"), frame)
    out = io.StringIO()
    assert run_check(args(tmp_path, deck="club-check", deck_file=None), out) == 0
    generic, learned = (x for x in out.getvalue().splitlines() if not x.startswith(" "))
    assert generic.startswith("generic reader: 5 captures") and "(100.0 %)" not in generic
    assert learned.startswith("learned deck") and "5 right (100.0 %), 0 read as another" in learned


def test_camera_learn_without_captures_or_with_nothing_learned_leaves_the_deck(
    tmp_path: Path,
) -> None:
    out = io.StringIO()
    assert run_learn(args(tmp_path), out) == 2
    assert "courtpiece camera capture --deck club" in out.getvalue()
    folder = save_captures(tmp_path, [])
    cv2.imwrite(str(folder / "AS_00.jpg"), np.full((480, 640, 3), 40, np.uint8))  # no card
    deck = tmp_path / DECK_FILE
    deck.write_bytes(b"the deck learned before")
    out = io.StringIO()
    assert run_learn(args(tmp_path), out) == 1
    assert "passed over AS_00.jpg" in out.getvalue() and "left as it was" in out.getvalue()
    assert deck.read_bytes() == b"the deck learned before"


def test_learn_keeps_the_deck_when_many_captures_are_not_what_their_names_say(
    tmp_path: Path,
) -> None:
    """Frames saved out of step with the walk (a folder camera in the wrong order, a card
    skipped without 's') are mostly passed over: their glyphs are not written over the
    deck the referee reads with, unless asked to (--force)."""
    folder = save_captures(tmp_path, ["KH", "7C"])
    cv2.imwrite(str(folder / "QS_00.jpg"), capture("4H", 5))  # out of step: another suit
    cv2.imwrite(str(folder / "9D_00.jpg"), capture("2C", 6))
    deck = tmp_path / DECK_FILE
    deck.write_bytes(b"the deck learned before")
    out = io.StringIO()
    assert run_learn(args(tmp_path), out) == 1
    text = out.getvalue()
    assert "2 of 4 captures passed over" in text and "left as it was" in text
    assert "not learned (no usable capture): QS 9D\n" in text  # captured, passed over
    assert "not learned (not captured): AS KS JS TS" in text  # never in the folder
    assert deck.read_bytes() == b"the deck learned before"
    assert run_learn(args(tmp_path, force=True), io.StringIO()) == 0
    assert set(DeckGlyphs.load(deck).suit_y.tolist()) == {SUITS.index("H"), SUITS.index("C")}


def test_a_deck_file_that_will_not_load_leaves_the_generic_reader(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    deck = tmp_path / DECK_FILE
    assert camera_detector(deck).reader.model.deck_glyphs is None  # none learned
    deck.write_bytes(b"PK\x03\x04 cut short by a power cut")
    with caplog.at_level(logging.ERROR):
        det = camera_detector(deck)
    assert det.reader.model.deck_glyphs is None
    assert "will not load" in caplog.text
    # a file from another version of the glyph framing: refused at start, not per frame
    DeckGlyphs(
        np.ones((2, 7), np.float32), np.array([0, 1]), np.ones((2, 7), np.float32), np.array([0, 1])
    ).save(deck)
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        det = camera_detector(deck)
    assert det.reader.model.deck_glyphs is None
    assert "learn the deck again" in caplog.text


def test_a_deck_learns_its_spades_and_clubs_as_their_grey_levels_show_them(
    detector: CardDetector, tmp_path: Path
) -> None:
    """Beside each index glyph, a spade's or a club's suit is learned as the black-suit
    head sees it (its grey levels); a red suit is not. Saved and loaded with the deck; a
    deck learned before they were kept loads with none."""
    e = learn_deck(
        [("7S", capture("7S", 1)), ("QC", capture("QC", 2)), ("5H", capture("5H", 3))], detector
    )
    assert sorted(set(e.black_y.tolist())) == [BLACK_SUITS.index("S"), BLACK_SUITS.index("C")]
    assert len(e.black_y) == len(e.black_x) >= 2
    assert len(e.black_y) < len(e.suit_y)  # the heart's corners taught no grey suit
    e.save(tmp_path / "deck.npz")
    back = DeckGlyphs.load(tmp_path / "deck.npz")
    assert np.array_equal(back.black_y, e.black_y) and np.allclose(back.black_x, e.black_x)
    back.check(detector.reader.model.rank.w1.shape[0])


#: Real soft black suits (grey ink scores) cut from development photos (``data/README.md``).
SOFT_SUITS = Path(__file__).with_name("data") / "soft_black_suits.npz"


def test_a_decks_own_soft_clubs_outvote_a_head_that_takes_them_for_spades() -> None:
    """A table's camera may show its clubs in a way the black-suit head takes for spades.
    Learned from the table's own capture, its soft clubs and spades are blended into the
    head's vote: here a head that leans every suit to a spade, and half of a real camera's
    soft suits learned; the other half of its clubs then read as clubs (at the reader:
    the club leads the black mass), its spades still as spades. Without the deck, all
    read as spades."""
    with np.load(SOFT_SUITS) as data:
        patches = {k: data[k] for k in data.files}
    feats = {k: glyphs.features(glyphs.normalise_soft(v)[None])[0] for k, v in patches.items()}
    keys = sorted(feats)
    learned = [k for i, k in enumerate(keys) if i % 2 == 0]
    later = [k for i, k in enumerate(keys) if i % 2 == 1]
    model = GlyphModel.load()
    d = model.black.w1.shape[0]
    model.black = Mlp(
        np.zeros((d, 2), np.float32),
        np.zeros(2, np.float32),
        np.zeros((2, 2), np.float32),
        np.array([0.6, -0.6], np.float32),
    )  # spade at 0.77, whatever it is shown: a camera it has not learned
    later_x = np.stack([feats[k] for k in later])
    club = BLACK_SUITS.index("C")
    assert (model.black_proba(later_x)[:, club] < 0.5).all()
    model.deck_glyphs = DeckGlyphs(
        black_x=np.stack([feats[k] for k in learned]),
        black_y=np.array([BLACK_SUITS.index(k[0]) for k in learned], np.int32),
    )
    q = model.black_proba(later_x)
    clubs = np.array([k[0] == "C" for k in later])
    # measured: 31 of the 39 clubs read as clubs, 48 of the 49 spades still as spades
    assert (q[clubs, club] > 0.5).mean() >= 0.7, (q[clubs, club] > 0.5).mean()
    assert (q[~clubs, club] < 0.5).mean() >= 0.9
    # through the reader: a club's shape read as a spade, its grey levels (and the deck's)
    # a club: the club leads
    reader = CardReader(model)
    k = next(k for k in later if k[0] == "C" and model.black_proba(feats[k][None])[0, club] > 0.7)
    score = patches[k]
    t, _ = cv2.threshold(score, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (score > t).astype(np.uint8)
    found = [IndexGlyphs(rank=mask, suit=mask, redness=0.0, suit_score=score)]
    shape = np.zeros((1, len(SUITS)), np.float32)
    shape[0, SUITS.index("S")], shape[0, SUITS.index("C")] = 0.8, 0.2
    ps = reader._with_black_head(shape, found)
    assert ps[0, SUITS.index("C")] > ps[0, SUITS.index("S")]
