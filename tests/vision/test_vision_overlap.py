"""The top card of a pile, read from one visible corner when the pile's outline is no
card's. Masks and scenes are made here."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import CardDetector
from vision.detector import CORNER_MIN, Detection
from vision.index_pairs import INK_MIN, RANK_TO_SUIT
from vision.locate import order_quad
from vision.overlap import corner_hypotheses
from vision.quads import misshapen
from vision.reader import CardRead
from vision.stock import bare_stock, pale_gaps
from vision.synth import CardSpec, camera, card_face, place, scene, table


def test_convex_right_angles_of_a_pile_are_card_corners_never_its_notches() -> None:
    mask = np.zeros((480, 640), np.uint8)
    cv2.rectangle(mask, (100, 100), (240, 300), 255, -1)  # two cards, one on the other
    cv2.rectangle(mask, (200, 200), (340, 400), 255, -1)
    hyps = corner_hypotheses(mask, 1.0, 140.0)
    corners = {(round(float(q[0][0])), round(float(q[0][1]))) for q in hyps}
    assert (100, 100) in corners and (340, 400) in corners  # both index corners
    assert (240, 200) not in corners and (200, 300) not in corners  # the notches
    for q in hyps:  # every outline turns like an upright card: never mirrored
        sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
        assert sides[1] > sides[0]  # corner first, then the short side
        area = cv2.contourArea(q.reshape(-1, 1, 2), oriented=True)
        ref = cv2.contourArea(np.array([[0, 0], [2, 0], [2, 3], [0, 3]], np.float32), oriented=True)
        assert np.sign(area) == np.sign(ref)


def test_a_plain_card_outline_gives_no_hypotheses() -> None:
    mask = np.zeros((480, 640), np.uint8)
    cv2.rectangle(mask, (100, 100), (240, 300), 255, -1)
    assert corner_hypotheses(mask, 1.0, 140.0) == []


def test_the_top_card_of_a_heavy_overlap_is_read() -> None:
    specs = [
        CardSpec("4C", (560, 470), 320, 0),
        CardSpec("JD", (700, 560), 320, 0),  # covers most of the four's lower right
    ]
    img, _ = scene(specs, seed=12, glare=False, table_colour=(40, 110, 30))
    cards = {d.card for d in CardDetector().detect(img) if d.card}
    assert "JD" in cards
    assert cards <= {"JD", "4C"}


def fused_pile() -> np.ndarray:
    """Two cards pasted flat, no shadow and no seam, the second over the first's corner:
    one blob of card stock whose outline is no card's."""
    img = np.full((960, 1280, 3), (60, 90, 40), np.uint8)
    for card, (x, y) in (("6S", (420, 260)), ("KH", (560, 440))):
        face = cv2.resize(card_face(card), (250, 350), interpolation=cv2.INTER_AREA)
        img[y : y + 350, x : x + 250] = face
    return cv2.GaussianBlur(img, (3, 3), 0)


def test_the_top_card_of_a_fused_pile_is_read_from_its_corner() -> None:
    dets = [d for d in CardDetector().detect(fused_pile()) if d.card]
    assert "KH" in {d.card for d in dets}
    assert {d.card for d in dets} <= {"KH", "6S"}
    whole = np.array([[560, 440], [810, 440], [810, 790], [560, 790]], np.float32)
    for d in dets:
        if d.card == "KH" and d.confidence >= 0.9:
            # sure only when its own printed border closed the whole card (both its
            # corners in view): read from one corner of the pile, it never is
            assert np.abs(np.sort(d.quad, axis=0) - np.sort(whole, axis=0)).max() < 16


def fan_beside_a_face_down_card() -> np.ndarray:
    """A fan of three (7C under KD under 4S), a 9H apart, and a face-down card with a
    red lattice back, on a green cloth."""
    specs = [
        CardSpec("9H", (250, 300), 300, 5),
        CardSpec(None, (1050, 250), 300, -10),
        CardSpec("7C", (620, 560), 300, 0),
        CardSpec("KD", (700, 545), 300, 15),
        CardSpec("4S", (790, 540), 300, 30),
    ]
    return scene(specs, seed=1, glare=False, table_colour=(40, 110, 30))[0]


def test_a_fanned_card_whose_soft_index_reads_at_a_countable_confidence_is_reported() -> None:
    """A fan of three cards beside a card that reads and a face-down one (an outline
    that reads as nothing, so the corner indices beside the cards read are searched).
    The fan's lower cards show only their index, and a soft index reads at about 0.6,
    which the tracker counts (0.5): they are reported, not dropped as before (0.7)."""
    img = fan_beside_a_face_down_card()
    detector = CardDetector()
    sharp = detector.reader.read_corner

    def soft_read(card: np.ndarray, colour: bool = True, first_only: bool = False) -> CardRead:
        res = sharp(card, colour, first_only)
        return replace(res, confidence=min(res.confidence, 0.6)) if res.card else res

    detector.reader.read_corner = soft_read  # type: ignore[method-assign]
    dets = {d.card: d.confidence for d in detector.detect(img) if d.card}
    assert dets.get("7C") == pytest.approx(0.6)
    assert dets["9H"] > 0.9 and dets["4S"] > 0.9  # read whole
    assert set(dets) <= {"9H", "7C", "KD", "4S"}


FAN = ["9C", "5D", "KH", "2S", "7H"]


def fan_outlined_as_one(crumbs: int = 0) -> tuple[np.ndarray, CardDetector]:
    """A fan of five on a pale table, and a detector that outlines the whole fan as one
    card and reads that outline as 3D at 0.25 (a webcam's soft fan, as it fails).
    ``crumbs``: pairs of dark specks strewn on the table round it, each pair a glyph's
    size apart (crumbs, a grained or speckled cloth): candidates the index search reads."""
    specs = [CardSpec(c, (560, 260 + k * 57), 260, 8.0) for k, c in enumerate(FAN)]
    img, placed = scene(specs, seed=3, glare=False, table_colour=(190, 200, 205))
    rng = np.random.default_rng(5)
    for _ in range(crumbs):
        x, y = int(rng.uniform(50, 1230)), int(rng.uniform(50, 910))
        if 380 < x < 760 and 80 < y < 760:
            continue  # not on the fan
        for dy in (0, 30):
            cv2.ellipse(img, (x, y + dy), (8, 11), 0, 0, 360, (40, 40, 40), -1)
    corners = np.concatenate([p.quad for p in placed]).astype(np.float32)
    pile = order_quad(cv2.boxPoints(cv2.minAreaRect(corners)).astype(np.float32))
    detector = CardDetector()

    def one_outline(frame, masks, weak, edges=True, first_only=False):  # noqa: ANN001, ANN202
        weak.append(False)
        return [[pile]], None

    sharp = detector.reader.read

    def weak_read(card: np.ndarray, colour: bool = True) -> CardRead:
        return replace(sharp(card, colour), card="3D", confidence=0.25)

    detector._candidates = one_outline  # type: ignore[method-assign]
    detector.reader.read = weak_read  # type: ignore[method-assign]
    return img, detector


def test_a_fan_outlined_as_one_weak_card_is_read_from_its_indices() -> None:
    """A webcam's soft fan on a pale table is often outlined as one card, whose read is
    weak and wrong (a quarter-sure three of diamonds for a fan of clubs). Where no outline
    reads as surely as the tracker counts, the corner indices inside are searched too,
    and the outline that holds the cards they read is dropped as the pile it is."""
    img, detector = fan_outlined_as_one()
    dets = {d.card: d.confidence for d in detector.detect(img) if d.card}
    assert "3D" not in dets
    assert len(set(dets) & set(FAN)) >= 3
    assert set(dets) <= set(FAN)
    assert all(c < 0.9 for c in dets.values())  # found by an index alone: never sure


def test_crumbs_on_the_table_do_not_crowd_out_a_fans_indices() -> None:
    """Pairs of specks are index candidates too, nearest pairs first: with 24 pairs read
    a frame (until the seventh round), forty crumb pairs left the fan's last card
    unread; the webcam scenes' speckle did the same to whole fans."""
    img, detector = fan_outlined_as_one(crumbs=40)
    dets = {d.card for d in detector.detect(img) if d.card}
    assert dets == set(FAN)


def test_a_pile_read_weakly_beside_a_card_read_surely_is_searched_for_indices() -> None:
    """A knit cloth outlines a card together with its folds: the outline reads weakly
    (here a fan outlined as one, read as 3D at 0.25) while another card on the table
    reads surely. The indices outside the sure card are searched, and the weak outline
    holding the cards they read is dropped. (Until the eighth round only a frame with an
    outline read as nothing, or with nothing read surely, was searched.)"""
    img, detector = fan_outlined_as_one()
    sure = CardSpec("AH", (1080, 520), 260, -4.0)
    lone, placed = scene([sure], seed=4, glare=False, table_colour=(190, 200, 205))
    ace = order_quad(placed[0].quad.astype(np.float32))
    x, y, w, h = cv2.boundingRect(ace.astype(np.int32))
    img[y : y + h, x : x + w] = lone[y : y + h, x : x + w]
    fan_outline = detector._candidates
    weak_read = detector._read_group  # the fan's: 3D at 0.25
    sharp_read = CardDetector()._read_group

    def with_the_ace(frame, masks, weak, edges=True, first_only=False):  # noqa: ANN001, ANN202
        groups, plane = fan_outline(frame, masks, weak, edges, first_only)
        weak.append(False)
        return [*groups, [ace]], plane

    def read(frame, group):  # noqa: ANN001, ANN202
        return (sharp_read if group[0] is ace else weak_read)(frame, group)

    detector._candidates = with_the_ace  # type: ignore[method-assign]
    detector._read_group = read  # type: ignore[method-assign]
    dets = {d.card: d.confidence for d in detector.detect(img) if d.card}
    assert dets.get("AH", 0.0) >= 0.9
    assert "3D" not in dets
    assert len(set(dets) & set(FAN)) >= 3
    assert set(dets) <= {*FAN, "AH"}


def test_a_fan_beside_a_card_read_surely_and_a_piece_of_table_is_searched() -> None:
    """A fan with no outline of its own, a card read surely and an outline only the
    shape sources found that reads as nothing (a pale knit cloth's fold): that outline
    is dropped as the table's, and the fan's indices are still searched, since it is
    about as pale inside as the card read (a darker one is table, and is not searched:
    the rendered four-card tables' grain)."""
    img, _ = fan_outlined_as_one()
    lone, placed = scene(
        [CardSpec("AH", (1080, 520), 260, -4.0)], seed=4, glare=False, table_colour=(190, 200, 205)
    )
    ace = order_quad(placed[0].quad.astype(np.float32))
    x, y, w, h = cv2.boundingRect(ace.astype(np.int32))
    img[y : y + h, x : x + w] = lone[y : y + h, x : x + w]
    # a fold of a pale knit cloth: about as bright as the card stock
    fold = order_quad(np.array([[80, 700], [300, 690], [310, 900], [90, 910]], np.float32))
    cv2.fillPoly(img, [fold.astype(np.int32)], (224, 228, 232))
    detector = CardDetector()

    def ace_and_fold(frame, masks, weak, edges=True, first_only=False):  # noqa: ANN001, ANN202
        weak += [False, True]  # the fold: found by the shape sources alone
        return [[ace], [fold]], None

    detector._candidates = ace_and_fold  # type: ignore[method-assign]
    dets = {d.card: d.confidence for d in detector.detect(img) if d.card}
    assert dets.get("AH", 0.0) >= 0.9
    assert len(set(dets) & set(FAN)) >= 3
    assert set(dets) <= {*FAN, "AH"}


def test_a_misshapen_outline_read_surely_hides_no_index() -> None:
    """An outline that starts at one card's corner and runs over a pile (opposite sides
    three times unlike: no card seen whole is so shaped) may read surely as that card,
    but it is no card's region: the indices inside it are searched, and it is kept."""
    img, _ = fan_outlined_as_one()
    corner = np.array([1100, 300], np.float32)
    sprawl = np.array([corner, [1110, 420], [420, 900], [400, 60]], np.float32)
    assert misshapen(sprawl)
    detector = CardDetector()

    def sprawling(frame, masks, weak, edges=True, first_only=False):  # noqa: ANN001, ANN202
        weak.append(False)
        return [[sprawl]], None

    def read(frame, group):  # noqa: ANN001, ANN202
        return Detection(group[0], "AS", 0.93)  # its corner: the ace's, read whole

    detector._candidates = sprawling  # type: ignore[method-assign]
    detector._read_group = read  # type: ignore[method-assign]
    dets = {d.card: d.confidence for d in detector.detect(img) if d.card}
    assert dets.get("AS") == pytest.approx(0.93)
    assert len(set(dets) & set(FAN)) >= 3
    assert set(dets) <= {*FAN, "AS"}


def test_only_an_unread_outline_as_pale_as_the_cards_read_calls_for_a_search() -> None:
    """The index search costs a frame several milliseconds; an unread outline of darker
    table (grain, a shadow) beside cards that read does not call for it, one as pale
    as their stock (a cloth's fold over cards) does."""
    frame = np.full((960, 1280, 3), (60, 90, 60), np.uint8)  # a green cloth
    card = np.array([[100, 100], [350, 100], [350, 450], [100, 450]], np.float32)
    frame[100:450, 100:350] = 235
    frame[200:260, 150:200] = 20  # some ink on the card
    patch = np.array([[600, 300], [800, 300], [800, 500], [600, 500]], np.float32)
    read = Detection(card, "AS", 0.95)
    unread = Detection(patch, None, 0.0)
    assert not pale_gaps(frame, [read, unread])
    frame[300:500, 600:800] = 215  # now pale, like stock
    assert pale_gaps(frame, [read, unread])
    assert pale_gaps(frame, [unread])  # nothing read to compare with: searched as before


def test_bare_stock_beside_cards_read_surely_is_searched_for_indices() -> None:
    """Cards on a light wooden table whose outlines run into the wood: one card is
    outlined and read surely, the others give no outline at all (none reads as nothing
    either). Stock as white as the card read, outside it, in a piece of a fifth of a
    card or more, calls for the corner-index search (``bare_stock``); a darker table
    beside four cards read (the rendered tables' usual frame) does not."""
    specs = [
        CardSpec("AH", (330, 300), 300, 6.0),
        CardSpec("8S", (850, 320), 300, -12.0),
        CardSpec("KC", (640, 700), 300, 80.0),
    ]
    img, placed = scene(specs, seed=6, glare=False, table_colour=(150, 175, 195))
    ace = order_quad(placed[0].quad.astype(np.float32))
    detector = CardDetector()

    def the_ace_alone(frame, masks, weak, edges=True, first_only=False):  # noqa: ANN001, ANN202
        weak.append(False)
        return [[ace]], None

    detector._candidates = the_ace_alone  # type: ignore[method-assign]
    dets = {d.card: d.confidence for d in detector.detect(img) if d.card}
    assert dets.get("AH", 0.0) >= 0.9
    assert {"8S", "KC"} <= set(dets), dets
    assert set(dets) <= {"AH", "8S", "KC"}
    assert bare_stock(img, [Detection(ace, "AH", 0.95)])
    read = [Detection(order_quad(p.quad.astype(np.float32)), p.card, 0.95) for p in placed]
    assert not bare_stock(img, read)


def test_a_red_card_back_is_no_card() -> None:
    """A face-down card with a red lattice back: both corners hold index-like pairs of
    the lattice, one reads as junk and the other weakly as a red ten. A weak corner read
    beside a junk corner is no card (``vision.reader.JUNK_BESIDE``); read as one corner
    it came out a ten of diamonds at 0.29 once red counts from 6."""
    dets = CardDetector().detect(fan_beside_a_face_down_card())
    back = [d for d in dets if np.hypot(*(d.quad.mean(axis=0) - (1050, 250))) < 40]
    assert back, [(d.card, d.center) for d in dets]
    assert all(d.card is None for d in back), [(d.card, d.confidence) for d in back]


def test_a_card_read_from_its_index_alone_hides_only_its_index_corner() -> None:
    """A card read from an index pair alone has an outline guessed from its index (size,
    slant); in a fan that guess lies over the next card's index. A later search (the
    one beside the cards read) must still find the next card there: only the guessed
    card's index corner hides other ink, where a card outlined hides all of its own."""
    frame, _ = scene(
        [CardSpec("KH", (500, 400), 300, 0.0), CardSpec("7S", (565, 525), 300, 0.0)],
        seed=3,
        glare=False,
        table_colour=(200, 205, 210),
    )
    seven_index = (565 - 100 + 21, 525 - 150 + 24)  # the top card's top-left rank
    d = CardDetector()
    king = [x for x in d._from_index_pairs(frame, [], 0.0) if x.card == "KH"]
    assert king, "the king's index reads"
    assert cv2.pointPolygonTest(king[0].quad.reshape(-1, 1, 2), seven_index, False) > 0
    again = d._from_index_pairs(frame, king, CORNER_MIN)
    assert [x.card for x in again] == ["7S"]
    # an outlined card is different: the same outline, not guessed, hides the seven's
    # top-left index (its far corner, clear of the king, may still be read)
    outlined = Detection(king[0].quad.copy(), "KH", 0.95)
    for x in d._from_index_pairs(frame, [outlined], CORNER_MIN):
        assert np.hypot(*np.subtract(d._index_point(x), seven_index)) > RANK_TO_SUIT


def test_a_pile_outlined_as_one_card_and_read_at_one_corner_hides_only_that_corner() -> None:
    """A king dropped on an eight, outlined together as one card: the outline reads as
    the eight from the one corner that is the eight's, and nothing at the other (the
    king lies there). Such an outline may be a pile's (or, on a knit cloth, several
    cards' run together), so a card read from one corner calls for the index search,
    only its read corner hides ink, and the king on top is found. (Before, nothing else
    in the frame called for the search, and the outline hid the king whole.)"""
    eight = CardSpec("8H", (695.6, 435.8), 317.3, 256.1)
    king = CardSpec("KS", (644.3, 541.1), 317.3, 259.4)  # covers 46 % of the eight
    frame, _ = scene([eight, king], seed=1034)
    detector = CardDetector()
    read = {d.card: d for d in detector.detect(frame) if d.card}
    assert set(read) == {"8H", "KS"}
    pile = read["8H"]
    assert id(pile) in detector._one_corner, "the eight is read from one corner of the pile"
    # the king's index lies inside the pile's outline, outside its read corner
    king_index = detector._index_point(read["KS"])
    assert cv2.pointPolygonTest(pile.quad.reshape(-1, 1, 2), king_index, False) > 0
    assert not detector._covers(pile, king_index)
    _, m, corner = detector._one_corner[id(pile)]
    # the outline's own read corner still hides its ink
    x0, y0, w0 = (
        np.linalg.inv(m) @ np.array([30.0, 40.0, 1.0])
        if corner == 0
        else (np.linalg.inv(m) @ np.array([170.0, 260.0, 1.0]))
    )
    assert detector._covers(pile, (x0 / w0, y0 / w0))


#: A fan of five (bottom first), each card a third of its width along from the last and
#: turned a little more (bench/vision_fans.py's seventh fan): every index corner shows.
FAN_OF_FIVE = [
    CardSpec("7S", (549.1, 494.7), 288.0, 98.8),
    CardSpec("5C", (628.1, 507.0), 288.0, 105.2),
    CardSpec("8C", (707.1, 519.2), 288.0, 111.6),
    CardSpec("6C", (786.0, 531.5), 288.0, 117.9),
    CardSpec("2D", (865.0, 543.7), 288.0, 124.3),
]


def test_every_card_of_a_fan_is_read_by_the_index_it_shows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fan's bottom card is read from the corner it shows (a corner hypothesis), its
    outline a whole card's guess lying over the cards above it: it hides only that corner
    (until the twenty-ninth round it hid the indices of three of the five, unread), and
    a card found by its index hides its index corner alone, which in a tight fan is
    nearer than it was (60 × 80 of its 200 × 300 pixels: at 70 × 100 the next card's
    index lies inside it, and the five of clubs goes unread)."""
    import vision.detector as detector_module

    frame, _ = scene(FAN_OF_FIVE, seed=1007)

    def counted() -> set[str]:
        return {d.card for d in CardDetector().detect(frame) if d.card and d.confidence >= 0.5}

    assert counted() == {"7S", "5C", "8C", "6C", "2D"}
    monkeypatch.setattr(detector_module, "INDEX_REACH", (70.0, 100.0))
    assert counted() == {"7S", "8C", "6C", "2D"}


def test_a_fans_suits_run_into_the_next_cards_edges_are_split_off_and_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a tight fan the shadow line of each card's edge runs through the suit of the
    index under it: one component, too long for a glyph, and the card unread (rendered
    fans: 84 % of their cards read). Split off by its darker print, the suit pairs with
    its rank again: the nine of spades and the six of clubs are read. (Searched at the
    frame's full size for small glyphs, the six's suit comes apart from the line as
    well; that search is off below.)"""
    import vision.detector as detector_module
    import vision.index_pairs as index_pairs_module

    fan = [
        CardSpec("8H", (553.5, 462.4), 254.2, 118.8),
        CardSpec("9S", (602.8, 489.5), 254.2, 123.1),
        CardSpec("KH", (652.2, 516.7), 254.2, 127.5),
        CardSpec("6C", (701.6, 543.8), 254.2, 131.9),
        CardSpec("AS", (751.0, 570.9), 254.2, 136.2),
    ]
    frame, _ = scene(fan, seed=1032)

    def counted() -> set[str]:
        return {d.card for d in CardDetector().detect(frame) if d.card and d.confidence >= 0.5}

    got = counted()
    assert {"8H", "9S", "6C", "AS"} <= got <= {s.card for s in fan}
    monkeypatch.setattr(detector_module, "SMALL_LEAST", 1.1)
    assert counted() == got
    monkeypatch.setattr(index_pairs_module, "SPLIT_FROM", 10.0)  # (no ink that dark)
    assert not {"9S", "6C"} & counted()


def test_a_fans_next_index_is_not_the_top_cards_other_index_read_again() -> None:
    """The top card of a fan, read from one corner of its outline, is doubted where its
    other index, read alone, says another card; the next card's index, just past the
    outline's edge, is not that index (until the twenty-ninth round the queen of
    diamonds below was taken for the seven's other index read again, and dropped)."""
    fan = [
        CardSpec("2H", (652.2, 620.3), 261.9, 372.6),
        CardSpec("TS", (667.6, 551.7), 261.9, 377.1),
        CardSpec("QD", (683.0, 483.1), 261.9, 381.6),
        CardSpec("TH", (698.4, 414.4), 261.9, 386.1),
        CardSpec("7D", (713.8, 345.8), 261.9, 390.5),
    ]
    frame, _ = scene(fan, seed=1014)
    counted = {d.card for d in CardDetector().detect(frame) if d.card and d.confidence >= 0.5}
    assert {"7D", "QD", "2H"} <= counted
    assert counted <= {s.card for s in fan}


#: :data:`FAN_OF_FIVE`'s places (laid on a grey cloth below), two red cards under the next.
PALE_FAN = [
    replace(spec, card=card)
    for spec, card in zip(FAN_OF_FIVE, ("7S", "5H", "8C", "6D", "2C"), strict=True)
]


def fan_with_pale_cards(pale_cards: set[str], pale: float = 0.3, seed: int = 1) -> np.ndarray:
    """:data:`PALE_FAN` where the cards named are printed pale (``pale`` of their ink's
    darkness against the stock kept), as a webcam shows a red index: its grey only a
    little darker than the stock's."""
    rng = np.random.default_rng(seed)
    img = table(rng, (1280, 960), (190, 200, 205))
    stock = np.array((235, 240, 242), np.float32)
    for spec in PALE_FAN:
        face = card_face(spec.card)
        if spec.card in pale_cards:
            face = np.clip(stock - (stock - face.astype(np.float32)) * pale, 0, 255)
            face = face.astype(np.uint8)
        place(img, face, spec.center, spec.height_px, spec.angle_deg, rng, card=spec.card)
    return camera(img, rng, glare=False)


def counted_cards(frame: np.ndarray) -> set[str]:
    return {d.card for d in CardDetector().detect(frame) if d.card and d.confidence >= 0.5}


def test_pale_red_indices_under_the_next_card_are_found_at_fainter_ink(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fan whose five of hearts and six of diamonds are printed pale: their outlines
    are the next cards', and their indices too faint for the search beside the cards
    read. Searched again at fainter ink (``FAINT_BESIDE_INK``), both are read; at the
    search's own ink, neither is."""
    import vision.detector as detector_module

    frame = fan_with_pale_cards({"5H", "6D"})
    assert counted_cards(frame) == {"7S", "5H", "8C", "6D", "2C"}
    monkeypatch.setattr(detector_module, "FAINT_BESIDE_INK", INK_MIN)
    assert counted_cards(frame) == {"7S", "8C", "2C"}


def test_a_pale_black_index_is_kept_from_the_fainter_search_only_in_a_grey_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same fan with its eight of clubs pale too. In a frame with colour the fainter
    search keeps red reads only (``FAINT_BESIDE_SUITS``): on the development webcam
    photos its one black read was a nine of diamonds taken for a spade, so a rendered
    pale club is given up with it. In a grey frame, where ink has no colour to tell red
    from black, the club is kept; at the search's own ink it is not read at all."""
    import vision.detector as detector_module

    frame = fan_with_pale_cards({"5H", "6D", "8C"})
    grey = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert counted_cards(frame) == {"7S", "5H", "6D", "2C"}
    assert "8C" in counted_cards(grey)
    monkeypatch.setattr(detector_module, "FAINT_BESIDE_SUITS", ("S", "H", "D", "C"))
    assert counted_cards(frame) == {"7S", "5H", "8C", "6D", "2C"}
    monkeypatch.setattr(detector_module, "FAINT_BESIDE_INK", INK_MIN)
    assert "8C" not in counted_cards(grey)


def _box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_a_card_found_by_its_index_on_a_pile_read_from_one_corner_stays() -> None:
    """A pile outlined as one, read from its bottom-right corner as the card under, and
    the card on top of it found by its own index pair: each outline holds the other's
    centre, as one card's outlines from two masks do, and the less sure one was
    dropped. Where the top card's index is in neither of the pile's index corners, both
    stay; where it is the pile's other corner, or the two read alike, or the index read
    does not count, or the outline was read from both corners, one card stays."""
    from vision.detector import CARD_SIZE
    from vision.locate import card_map
    from vision.quads import one_per_card

    def kept(pile_corner: int | None, card_box: np.ndarray, card: str, conf: float) -> list[str]:
        det = CardDetector()
        pile = Detection(_box(100, 100, 500, 400), "3H", 0.55)
        top = Detection(card_box, card, conf)
        if pile_corner is not None:
            det._one_corner[id(pile)] = (pile, card_map(pile.quad, CARD_SIZE), pile_corner)
        det._by_index[id(top)] = (top, card_map(top.quad, CARD_SIZE), False)
        return [d.card or "" for d in one_per_card([pile, top], det._on_a_pile)]

    on_top = _box(250, 130, 450, 400)  # its index at about (271, 152): mid-pile
    assert kept(1, on_top, "3D", 0.51) == ["3H", "3D"]
    assert kept(0, on_top, "3D", 0.51) == ["3H", "3D"]
    assert kept(1, _box(130, 110, 330, 390), "3D", 0.51) == ["3H"]  # the pile's top-left
    assert kept(1, on_top, "3H", 0.51) == ["3H"]
    assert kept(1, on_top, "3D", CORNER_MIN - 0.01) == ["3H"]
    assert kept(None, on_top, "3D", 0.51) == ["3H"]
    assert kept(1, on_top, "3D", 0.6) == ["3H", "3D"]  # surer than the pile: both still
    plain = one_per_card([Detection(_box(100, 100, 500, 400), "3H", 0.55), Detection(on_top, "3D", 0.51)])
    assert [d.card for d in plain] == ["3H"]  # without the pile's rule, as before
