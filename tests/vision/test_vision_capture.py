"""`courtpiece camera capture`: labelled frames from the table's camera, in the format
bench/vision_accuracy.py measures (card code first; scenes with labels.json). Frames are rendered."""

from __future__ import annotations

import argparse
import io
import json
import runpy
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.commands.camera import run
from vision.capture import CaptureError, capture_dir, card_code
from vision.synth import CardSpec, scene

BENCH = Path(__file__).resolve().parents[2] / "bench" / "vision_accuracy.py"


def frames_folder(tmp_path: Path, specs: list[list[CardSpec]]) -> Path:
    """A folder source: one rendered frame per entry, in name order (the 'camera')."""
    cam = tmp_path / "cam"
    cam.mkdir()
    for i, cards in enumerate(specs):
        img, _ = scene(cards, seed=i, glare=False)
        cv2.imwrite(str(cam / f"f{i:03d}.jpg"), img)
    return cam


def args(tmp_path: Path, cam: Path, **kw: object) -> argparse.Namespace:
    base = {
        "deck": "club",
        "state_dir": str(tmp_path / "state"),
        "camera": str(cam),
        "frames": 2,
        "cards": None,
        "scenes": False,
        "size": (1280, 960),
    }
    return argparse.Namespace(**{**base, **kw})


def test_walk_through_cards_saves_labelled_frames_the_bench_reads(tmp_path: Path, capsys) -> None:
    one = lambda c: [CardSpec(c, (640, 480), 320, 12)]  # noqa: E731
    cam = frames_folder(
        tmp_path, [one("AS"), one("AS"), one("KH"), one("KH"), one("7D"), one("7D")]
    )
    out = io.StringIO()
    assert run(args(tmp_path, cam, cards="AS,KH,7d"), out=out, ask=lambda _: "") == 0
    folder = capture_dir(tmp_path / "state", "club")
    assert sorted(p.name for p in folder.iterdir()) == [
        "7D_00.jpg",
        "7D_01.jpg",
        "AS_00.jpg",
        "AS_01.jpg",
        "KH_00.jpg",
        "KH_01.jpg",
    ]
    assert "ok    KH" in out.getvalue()
    runpy.run_path(str(BENCH), run_name="bench")["main"]([str(folder)])
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert summary.startswith("vision images=6 found=6") and "both_right_pct=100.0" in summary


def test_a_card_captured_again_keeps_only_its_new_frames(tmp_path: Path) -> None:
    """Captured again (``--cards AS``, fewer frames this time), a card's old frames go: a
    frame of the card laid wrong must not stay behind to be learned."""
    one = lambda c: [CardSpec(c, (640, 480), 320, 12)]  # noqa: E731
    cam = frames_folder(tmp_path, [one("KH"), one("KH"), one("AS")])
    assert run(args(tmp_path, cam, cards="AS"), out=io.StringIO(), ask=lambda _: "") == 0
    again = tmp_path / "again"
    again.mkdir()
    cv2.imwrite(str(again / "f.jpg"), cv2.imread(str(cam / "f002.jpg")))
    assert (
        run(args(tmp_path, again, cards="AS", frames=1), out=io.StringIO(), ask=lambda _: "") == 0
    )
    folder = capture_dir(tmp_path / "state", "club")
    assert sorted(p.name for p in folder.iterdir()) == ["AS_00.jpg"]


def test_every_frame_saved_is_checked(tmp_path: Path) -> None:
    """All frames of a card are learned from and measured: one that shows another card
    (the card taken away early, another laid) marks the card CHECK, not only the first."""
    one = lambda c: [CardSpec(c, (640, 480), 320, 12)]  # noqa: E731
    cam = frames_folder(tmp_path, [one("AS"), one("7D")])
    out = io.StringIO()
    assert run(args(tmp_path, cam, cards="AS"), out=out, ask=lambda _: "") == 0
    line = next(x for x in out.getvalue().splitlines() if "AS:" in x)
    assert line.split()[0] == "CHECK" and "7D" in line and "AS " in line


def test_each_frame_is_read_as_saved(tmp_path: Path) -> None:
    """The reader's word at capture is on the saved JPEG, as camera check and learning
    decode it, not on the camera's frame before it was compressed."""
    from vision.capture import CaptureSession
    from vision.imageio import read_image

    frame, _ = scene([CardSpec("AS", (640, 480), 320, 12)], seed=5)
    given: list[np.ndarray] = []
    session = CaptureSession(
        tmp_path / "club", lambda: frame, 2, read=lambda f: given.append(f) or []
    )
    assert session.single("AS")[0] == 2
    assert not np.array_equal(given[0], frame)  # JPEG is lossy: the test can tell
    for i, seen in enumerate(given):
        assert np.array_equal(seen, read_image(tmp_path / "club" / f"AS_{i:02d}.jpg"))


def test_a_card_skipped_from_a_recording_uses_up_its_frames(tmp_path: Path) -> None:
    """From a folder (or a video) the frames lie in the walk's order: skipping a card
    must use up its frames, or the next card is saved with the skipped one's."""
    one = lambda c: [CardSpec(c, (640, 480), 320, 12)]  # noqa: E731
    cam = frames_folder(tmp_path, [one("AS"), one("AS"), one("KH"), one("KH")])
    answers = iter(["s", ""])
    out = io.StringIO()
    assert run(args(tmp_path, cam, cards="AS,KH"), out=out, ask=lambda _: next(answers)) == 0
    folder = capture_dir(tmp_path / "state", "club")
    assert sorted(p.name for p in folder.iterdir()) == ["KH_00.jpg", "KH_01.jpg"]
    text = out.getvalue()
    assert "skipped AS" in text and "ok    KH" in text and "captured 1 card in" in text
    assert "skipped: AS (capture them later with --cards AS)" in text


def test_another_card_counted_in_a_frame_of_one_card_is_flagged(tmp_path: Path) -> None:
    """A frame of one card in which the reader also counts another (read at 0.5 or more)
    is a play the referee would see that never happened: CHECK, and why."""
    two = [CardSpec("AS", (400, 480), 300, 0), CardSpec("KH", (880, 480), 300, 30)]
    cam = frames_folder(tmp_path, [two])
    out = io.StringIO()
    assert run(args(tmp_path, cam, cards="AS", frames=1), out=out, ask=lambda _: "") == 0
    lines = out.getvalue().splitlines()
    at = next(i for i, x in enumerate(lines) if "AS:" in x)
    assert lines[at].split()[0] == "CHECK" and "KH" in lines[at]
    assert "KH" in lines[at + 1] and ("also read" in lines[at + 1] or "more surely" in lines[at + 1])


def test_a_camera_out_of_focus_is_said_so_at_the_walk(tmp_path: Path) -> None:
    """Frames of a card seen out of focus: CHECK, with what to do, whatever the reader
    made of them (the organiser is at the table now; during play it is too late). The
    same card in focus is ok."""
    cam = tmp_path / "cam"
    cam.mkdir()
    img, _ = scene([CardSpec("KH", (640, 480), 320, 12)], seed=0, glare=False)
    cv2.imwrite(str(cam / "f000.jpg"), img)
    blurred = cv2.GaussianBlur(img, (0, 0), 3.2)
    cv2.imwrite(str(cam / "f001.jpg"), blurred)
    # the same in a dim room: the camera's noise on top of the blur
    noise = np.random.default_rng(5).normal(0, 6, img.shape)
    noisy = np.clip(blurred.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    cv2.imwrite(str(cam / "f002.jpg"), noisy)
    out = io.StringIO()
    assert run(args(tmp_path, cam, cards="KH,KH,KH", frames=1), out=out, ask=lambda _: "") == 0
    lines = out.getvalue().splitlines()
    marks = [i for i, x in enumerate(lines) if "KH:" in x]
    assert [lines[i].split()[0] for i in marks] == ["ok", "CHECK", "CHECK"]
    for i in marks[1:]:
        assert "out of focus" in lines[i + 1] and "focus it on the table" in lines[i + 1]
    assert not any("out of focus" in x for x in lines[: marks[1]])


def test_the_end_of_input_stops_the_walk_and_a_camera_out_of_frames_says_so(
    tmp_path: Path,
) -> None:
    """Answers piped from a script that end (or Ctrl-D) stop the walk as "q" would; a
    camera that runs dry mid-walk leaves cards missing: the run says so in its exit
    code, and a run that captured nothing offers nothing to measure or learn."""
    cam = frames_folder(tmp_path, [[CardSpec("AS", (640, 480), 320, 12)]] * 2)
    answers = iter([""])

    def ask(_: str) -> str:
        return next(answers)  # then StopIteration... as EOFError, like input() at the end

    out = io.StringIO()

    def ask_eof(prompt: str) -> str:
        out.write(prompt)  # as input() writes it, with no line's end
        try:
            return ask(prompt)
        except StopIteration:
            raise EOFError from None

    assert run(args(tmp_path, cam, cards="AS,KH"), out=out, ask=ask_eof) == 0
    assert "captured 1 card in" in out.getvalue() and "Traceback" not in out.getvalue()
    # the end of input ends the last prompt's line: the closing line starts its own
    assert "\ncaptured 1 card in" in out.getvalue()
    out = io.StringIO()  # two frames, both AS's: none left for KH
    assert run(args(tmp_path, cam, cards="AS,KH"), out=out, ask=lambda _: "") == 1
    assert "the recording has no more frames; stopping" in out.getvalue()
    assert "captured 1 card in" in out.getvalue()
    assert "not reached: KH (capture them later with --cards KH)" in out.getvalue()
    empty = tmp_path / "dry"
    empty.mkdir()
    out = io.StringIO()
    assert run(args(tmp_path, empty, cards="AS"), out=out, ask=lambda _: "") == 1
    assert "captured 0 cards" in out.getvalue() and "learn:" not in out.getvalue()


def test_a_recording_that_runs_out_inside_a_card_says_so_and_stops(tmp_path: Path) -> None:
    """Three frames for two cards of two frames each: the second card gets one. It is
    saved, but the line says how short it fell, the walk stops there, and the exit
    code says the walk did not finish."""
    one = [CardSpec("AS", (640, 480), 320, 12)]
    cam = frames_folder(tmp_path, [one, one, [CardSpec("KH", (640, 480), 320, 12)]])
    out = io.StringIO()
    assert run(args(tmp_path, cam, cards="AS,KH,7D"), out=out, ask=lambda _: "") == 1
    text = out.getvalue()
    assert "ok    AS: 2 frames saved" in text
    assert "SHORT KH: 1 frame of 2 saved" in text
    assert "the recording has no more frames; stopping" in text
    assert "not reached: 7D (capture them later with --cards 7D)" in text
    assert "captured 2 cards in" in text


def test_a_frame_where_another_card_reads_surer_is_named_so() -> None:
    """What the referee takes from a frame is its surest read: another card read more
    surely than the card laid out is a wrong read, said so, not 'also read'."""
    from controller.commands.camera import _check

    reads = [[("QD", 0.76)], [("QD", 0.77)], [("QD", 0.51), ("TD", 0.52)]]
    assert _check("QD", reads) == "a frame where TD is read more surely than QD"
    assert _check("QD", reads[:2]) is None
    beside = [[("QD", 0.8), ("TD", 0.6)]]  # less sure, but counted all the same
    assert _check("QD", beside) == "also read, as surely as a play counts: TD"


def test_scenes_are_saved_with_labels(tmp_path: Path, capsys) -> None:
    cam = frames_folder(
        tmp_path,
        [
            [CardSpec("AS", (400, 480), 300, 0), CardSpec("KH", (880, 480), 300, 30)],
            [CardSpec("7D", (640, 480), 300, 50)],
        ],
    )
    answers = iter(["AS, KH", "X9", "3C 3c", "7d", ""])
    out = io.StringIO()
    assert run(args(tmp_path, cam, scenes=True), out=out, ask=lambda _: next(answers)) == 0
    scenes = capture_dir(tmp_path / "state", "club") / "scenes"
    labels = json.loads((scenes / "labels.json").read_text())
    assert labels == {"scene_000.jpg": ["AS", "KH"], "scene_001.jpg": ["7D"]}
    assert "not a card" in out.getvalue() and "3C named twice" in out.getvalue()
    # as an organiser runs it (docs/camera.md)
    done = subprocess.run(
        [sys.executable, str(BENCH), str(scenes)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    summary = done.stdout.strip().splitlines()[-1]
    assert summary.startswith("vision_scenes scenes=2 cards=3 right_pct=100.0 wrong=0")


def test_the_bench_reads_captures_as_saved_as_the_check_does(tmp_path: Path) -> None:
    """``--as-saved``: each capture at the size it was saved, as ``courtpiece camera
    check`` and the referee read a frame; by default the bench scales to 1280 px."""
    small = np.full((300, 400, 3), 90, np.uint8)
    path = tmp_path / "AS_00.png"
    cv2.imwrite(str(path), small)
    load = runpy.run_path(str(BENCH), run_name="bench")["load_frame"]
    assert load(path).shape[:2] == (960, 1280)
    assert load(path, as_saved=True).shape[:2] == (300, 400)


def test_scene_labels_may_carry_boxes_and_bad_ones_are_named(tmp_path: Path) -> None:
    """labels.json as another tool writes it: cards as objects with a box, a photo named
    that is not there; and a label that is no card, which stops the bench with a message
    naming the photo, not a traceback."""
    scenes = tmp_path / "scenes"
    scenes.mkdir()
    img, _ = scene([CardSpec("QD", (640, 480), 300, 20)], seed=2, glare=False)
    cv2.imwrite(str(scenes / "table.jpg"), img)
    boxed = {"table.jpg": [{"card": "qd", "box": [10, 10, 50, 80]}], "gone.jpg": ["AS"]}
    (scenes / "labels.json").write_text(json.dumps(boxed))
    done = subprocess.run(
        [sys.executable, str(BENCH), str(scenes)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "gone.jpg, which is not in" in done.stdout
    summary = done.stdout.strip().splitlines()[-1]
    assert summary.startswith("vision_scenes scenes=1 cards=1 right_pct=100.0 wrong=0")
    (scenes / "labels.json").write_text(json.dumps({"table.jpg": ["QD", "11S"]}))
    done = subprocess.run(
        [sys.executable, str(BENCH), str(scenes)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 2
    assert "table.jpg: '11S' is not a card" in done.stdout
    assert "Traceback" not in done.stderr


def test_a_folder_with_no_labelled_photo_is_said_so(tmp_path: Path, capsys) -> None:
    (tmp_path / "holiday.jpg").write_bytes(b"")
    main = runpy.run_path(str(BENCH), run_name="bench")["main"]
    assert main([str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert "no labelled photo" in out and "1 photos not named by their card" in out
    (tmp_path / "KD_broken.jpg").write_bytes(b"not a picture")
    assert main([str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert "KD_broken.jpg will not decode" in out and "no photo" in out
    assert main([str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().out


def test_names_and_cards_are_checked() -> None:
    assert card_code("10h") == "TH" and card_code(" qs ") == "QS"
    with pytest.raises(CaptureError):
        card_code("1S")
    with pytest.raises(CaptureError):
        capture_dir("/tmp", "../etc")


def test_a_capture_check_counts_what_the_referee_would_count() -> None:
    """The surest read of each capture is what the referee sees: right, a wrong card it
    would count (0.5) or be sure of (0.9), or nothing."""
    from vision.capture import check_captures

    frame = np.zeros((4, 4, 3), np.uint8)
    reads = {
        "AS_00.jpg": [("AS", 0.97)],
        "10C_00.jpg": [("TC", 0.8), ("7C", 0.3)],
        "KH_00.jpg": [("KS", 0.95), ("KH", 0.6)],  # the surer, wrong read is the one seen
        "QD_00.jpg": [("QH", 0.45)],  # wrong, but not counted
        "2C_00.jpg": [],
    }
    names = iter(reads)
    got = check_captures(
        [(n.split("_")[0], frame, n) for n in reads], lambda _f: reads[next(names)]
    )
    assert (got.pictures, got.right, got.wrong_counted, got.wrong_sure) == (5, 2, 1, 1)
    assert got.misses == [
        "KH_00.jpg: read KS (0.95)",
        "QD_00.jpg: read QH (0.45)",
        "2C_00.jpg: nothing read",
    ]
    assert got.right_pct == 40.0
    assert got.also_counted == 0  # 7C at 0.3 beside TC is not counted; KH is the card laid


def test_a_capture_check_counts_a_second_card_beside_the_right_one() -> None:
    """A frame of one card in which another is also read at 0.5 or more is right, and a
    second play the referee would see: counted apart (as the capture's CHECK says)."""
    from vision.capture import check_captures

    frame = np.zeros((4, 4, 3), np.uint8)
    reads = {
        "6S_00.jpg": [("6S", 0.99), ("QS", 0.67)],
        "6S_01.jpg": [("6S", 0.99), ("QS", 0.45)],
    }
    names = iter(reads)
    got = check_captures(
        [(n.split("_")[0], frame, n) for n in reads], lambda _f: reads[next(names)]
    )
    assert (got.pictures, got.right, got.wrong_counted, got.also_counted) == (2, 2, 0, 1)
    assert got.misses == ["6S_00.jpg: also read QS (0.67)"]


def test_the_bench_counts_a_second_card_in_a_photo_of_one(tmp_path: Path, capsys) -> None:
    """A single-card photo in which another card is read too: ``also_counted``."""
    two = [CardSpec("AS", (400, 480), 300, 0), CardSpec("KH", (880, 480), 300, 30)]
    img, _ = scene(two, seed=4, glare=False)
    cv2.imwrite(str(tmp_path / "KH_00.jpg"), img)  # KH reads the surer of the two
    runpy.run_path(str(BENCH), run_name="bench")["main"]([str(tmp_path)])
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert "both_right_pct=100.0" in summary and " also_counted=1 " in summary
