"""``courtpiece camera capture``: photograph the table's own deck under its own camera.

Walks through the 52 cards (spades, hearts, diamonds, clubs; ace down to two): lay each
card alone on a play spot, press Enter, and a few frames are saved as
``STATE/camera-captures/NAME/AS_00.jpg`` … Then ``--scenes`` saves labelled frames of
several cards at once (thrown as in play, overlapping), with a ``labels.json``.
``bench/vision_accuracy.py`` measures either folder.

``courtpiece camera learn --deck NAME`` learns the deck's own index glyphs from those
frames into ``STATE/camera-deck.npz``, which the referee's camera reads with from its
next start (a deck whose indices the generic reader does not know: German or Russian
letters, an unusual typeface).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from controller.config import add_size_option

if TYPE_CHECKING:
    from vision.focus import FocusCheck


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("camera", help="camera tools: capture the table's own deck")
    sub = p.add_subparsers(dest="camera_command", required=True)
    c = sub.add_parser(
        "capture",
        help="walk through the 52 cards under the table's camera and save labelled frames",
        description=(__doc__ or "").replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _deck_and_state(c, "a name for this deck", "captures go to DIR/camera-captures/NAME")
    c.add_argument(
        "--camera", default="0", help="camera index, 'picamera2', a video file or a folder"
    )
    add_size_option(c)
    c.add_argument("--frames", type=int, default=3, help="frames saved per card (default 3)")
    c.add_argument("--cards", help="only these cards, comma-separated (default: all 52)")
    c.add_argument(
        "--scenes", action="store_true", help="capture labelled scenes of several cards instead"
    )
    c.set_defaults(handler=run)
    learn = sub.add_parser(
        "learn",
        help="learn the captured deck's own index glyphs for the referee's camera",
        description=(
            "Learn the index glyphs of a deck captured with 'courtpiece camera capture' "
            "(STATE/camera-captures/NAME) into STATE/camera-deck.npz ([camera] deck_file), "
            "which the referee's camera reads with from its next start. Delete that file "
            "to read with the generic model again."
        ),
    )
    _deck_and_state(learn, "the captured deck's name", "reads DIR/camera-captures/NAME")
    learn.add_argument(
        "--out", metavar="FILE", help="where to write the glyphs (default DIR/camera-deck.npz)"
    )
    learn.add_argument(
        "--force",
        action="store_true",
        help="write the glyphs even if many captures were passed over",
    )
    learn.set_defaults(handler=run_learn)
    check = sub.add_parser(
        "check",
        help="read a captured deck as the referee would, generic and learned",
        description=(
            "Read the single-card captures of STATE/camera-captures/NAME as the referee "
            "would: with the generic reader and, once a deck is learned "
            "(STATE/camera-deck.npz), with it. Check a learned deck on a second capture, "
            "not on the one it learned from."
        ),
    )
    _deck_and_state(check, "the captured deck's name", "reads DIR/camera-captures/NAME")
    check.add_argument(
        "--deck-file", metavar="FILE", help="the learned deck (default DIR/camera-deck.npz)"
    )
    check.set_defaults(handler=run_check)


def _deck_and_state(p: argparse.ArgumentParser, deck_help: str, where: str) -> None:
    """``--deck NAME`` and ``--state-dir DIR`` (the service's state directory by default)."""
    p.add_argument("--deck", required=True, metavar="NAME", help=deck_help)
    p.add_argument(
        "--state-dir",
        default=os.environ.get("STATE_DIRECTORY", "./courtpiece-state"),
        metavar="DIR",
        help=f"the referee's state directory ({where}; default $STATE_DIRECTORY, else "
        "./courtpiece-state; on the Pi /var/lib/courtpiece)",
    )


def _captures(args: argparse.Namespace, out: TextIO, command: str) -> Path | None:
    """The deck's capture folder, or None (and why, on ``out``)."""
    from vision.capture import CaptureError, capture_dir

    try:
        folder = capture_dir(args.state_dir, args.deck)
    except CaptureError as exc:
        print(f"camera {command}: {exc}", file=out)
        return None
    if not folder.is_dir():
        print(
            f"camera {command}: no captures in {folder} (courtpiece camera capture --deck "
            f"{args.deck} first)",
            file=out,
        )
        return None
    return folder


#: More captures passed over than this share says the folder is not what its names say
#: (frames out of order, a walk that lost step): its glyphs are not written over the deck
#: the referee reads with, unless --force.
PASSED_OVER_MOST = 0.25


def run_learn(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Learn the captured deck; the file is replaced whole, or left as it was."""
    import io

    from controller.atomic_file import replace_bytes
    from controller.runtime import DECK_FILE
    from vision.capture import DECK_ORDER
    from vision.learn_deck import LearnReport, label_of, learn_deck, pictures

    out = out or sys.stdout
    folder = _captures(args, out, "learn")
    if folder is None:
        return 2
    report = LearnReport()
    learned = learn_deck(pictures(folder), report=report)
    for name, why in report.skipped:
        print(f"  passed over {name}: {why}", file=out)
    target = Path(args.out) if args.out else Path(args.state_dir) / DECK_FILE
    captured = {label_of(p.name) for p in folder.iterdir()}
    unusable = [c for c in DECK_ORDER if c in captured and c not in report.cards]
    absent = [c for c in DECK_ORDER if c not in captured]
    if unusable and len(learned.rank_y):
        print(f"  not learned (no usable capture): {' '.join(unusable)}", file=out)
    if absent and len(learned.rank_y):
        print(f"  not learned (not captured): {' '.join(absent)}", file=out)
    if len(report.skipped) > PASSED_OVER_MOST * report.pictures and not args.force:
        print(
            f"camera learn: {len(report.skipped)} of {report.pictures} captures passed over: "
            f"they do not show what their names say (a card laid wrong, frames out of "
            f"order?); {target} left as it was (--force writes it anyway)",
            file=out,
        )
        return 1
    if not len(learned.rank_y):
        print(
            f"camera learn: nothing learned from {report.pictures} pictures in {folder}; "
            f"{target} left as it was",
            file=out,
        )
        return 1
    buf = io.BytesIO()
    learned.save(buf)
    replace_bytes(target, buf.getvalue())
    print(
        f"learned {len(learned.rank_y)} index glyphs from {report.used} of "
        f"{report.pictures} pictures into {target}",
        file=out,
    )
    if args.out:
        print("the referee reads with them once [camera] deck_file names that file", file=out)
    else:
        print(
            "the camera reads with them from the referee's next start "
            "(systemctl restart courtpiece)",
            file=out,
        )
    return 0


def run_check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """One line per reader: captures, right, and wrong reads the referee would count."""

    from controller.runtime import DECK_FILE, camera_detector
    from vision import CardDetector
    from vision.capture import check_captures
    from vision.learn_deck import pictures

    out = out or sys.stdout
    folder = _captures(args, out, "check")
    if folder is None:
        return 2
    deck_file = Path(args.deck_file) if args.deck_file else Path(args.state_dir) / DECK_FILE
    readers = [("generic reader", CardDetector())]
    if deck_file.exists():
        learned = camera_detector(deck_file)
        if learned.reader.model.deck_glyphs is not None:
            readers.append((f"learned deck {deck_file}", learned))
    for name, det in readers:
        got = check_captures(
            pictures(folder),
            lambda f, d=det: [(x.card, x.confidence) for x in d.detect(f) if x.card],
        )
        print(
            f"{name}: {got.pictures} captures, {got.right} right ({got.right_pct:.1f} %), "
            f"{got.wrong_counted} read as another card the referee would count "
            f"({got.wrong_sure} of them sure), {got.also_counted} with another card "
            "counted beside the right one",
            file=out,
        )
        for miss in got.misses:
            print(f"  {miss}", file=out)
    return 0


def run(
    args: argparse.Namespace,
    out: TextIO | None = None,
    ask: Callable[[str], str] | None = None,
) -> int:
    from controller.readers.camera import open_source
    from vision import CardDetector
    from vision.capture import DECK_ORDER, CaptureError, CaptureSession, capture_dir, card_code

    out = out or sys.stdout
    ask = ask or input
    try:
        folder = capture_dir(args.state_dir, args.deck)
        cards = [card_code(c) for c in args.cards.split(",")] if args.cards else list(DECK_ORDER)
    except CaptureError as exc:
        print(f"camera capture: {exc}", file=out)
        return 2
    spec: str | int = int(args.camera) if str(args.camera).isdigit() else args.camera
    try:
        source = open_source(spec, args.size)
        live = getattr(source, "live", False)
        if live:
            source.read()  # a camera not there (or held by the referee) says so now
    except OSError as exc:
        print(f"camera capture: {exc}", file=out)
        return 1
    # a recording (a folder of pictures, a video file) holds each card's frames in the
    # walk's order: a card skipped must use up its frames too, or the next card is saved
    # with them. A live camera has nothing to use up.
    recorded = not (live or spec == "picamera2")
    detector = CardDetector()

    def frame():  # noqa: ANN202 - a BGR frame or None
        """The next frame; a camera unplugged mid-walk is the walk's end, said why (the
        frames saved so far stay, and the cards not reached are named)."""
        try:
            return source.read()
        except OSError as exc:
            print(f"camera capture: {exc}", file=out)
            return None

    session = CaptureSession(
        folder,
        frame,
        max(1, args.frames),
        read=lambda f: [(d.card, d.confidence) for d in detector.detect(f) if d.card],
    )
    try:
        if args.scenes:
            return _scenes(session, out, ask, recorded)
        return _singles(session, cards, out, ask, recorded)
    finally:
        source.close()


def _singles(  # noqa: ANN001
    session, cards: list[str], out: TextIO, ask: Callable[[str], str], recorded: bool = False
) -> int:
    print(f"saving to {session.folder}; Enter = take, s = skip, q = stop", file=out, flush=True)
    taken = 0
    failed = False
    skipped: list[str] = []
    rest: list[str] = []  # the cards a walk stopped before
    for n, card in enumerate(cards):
        answer = _answer(ask, f"lay {card} alone on a play spot, then Enter: ", out).lower()
        if answer == "q":
            rest = cards[n:]
            break
        if answer == "s":
            if recorded:
                session.skip()
            print(f"  skipped {card}", file=out)
            skipped.append(card)
            continue
        saved, reads = session.single(card)
        dry = DRY_RECORDING if recorded else "the camera gave no frame; stopping"
        if not saved:
            print(dry, file=out)
            failed = True
            rest = cards[n:]
            break
        taken += 1
        seen = "; ".join(
            ", ".join(f"{c} {p:.2f}" for c, p in sorted(frame, key=lambda r: -r[1]))
            or "nothing read"
            for frame in reads
        )
        short = saved < session.frames_per_card
        why = _check(card, reads)
        blurred = _out_of_focus(session.focus)
        mark = "SHORT" if short else "CHECK" if why or blurred else "ok"
        wanted = f" of {session.frames_per_card}" if short else ""
        print(f"  {mark:5} {card}: {_frames(saved)}{wanted} saved; the reader sees {seen}", file=out)
        for note in (why, blurred):
            if note:
                print(f"        ({note})", file=out)
        if short:  # the frames ran out inside this card's: the walk cannot go on
            print(dry, file=out)
            failed = True
            rest = cards[n + 1 :]
            break
    print(f"captured {_cards(taken)} in {session.folder}", file=out)
    for what, left in (("skipped", skipped), ("not reached", rest)):
        if left:
            print(
                f"{what}: {' '.join(left)} (capture them later with --cards {','.join(left)})",
                file=out,
            )
    if taken:
        where = f"--deck {session.folder.name} --state-dir {session.folder.parent.parent}"
        print(f"check:   courtpiece camera check {where}", file=out)
        print(
            f"measure: .venv/bin/python bench/vision_accuracy.py {session.folder} --as-saved",
            file=out,
        )
        print(
            f"learn:   courtpiece camera learn {where}   (learn from one capture; check "
            "the learned deck on a second one, taken under another name)",
            file=out,
        )
    return 0 if taken and not failed else 1


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _frames(n: int) -> str:
    return f"{n} frame" if n == 1 else f"{n} frames"


def _check(card: str, reads: list[list[tuple[str, float]]]) -> str | None:
    """Why the frames of ``card`` alone need a look, or None: a frame where it was not
    read, where another card was read more surely than it (the frame's read, for the
    referee), or where another card was read as surely as the referee counts a play (the
    card alone on the table: anything else counted is a play that never happened).
    ``reads``: each frame's cards and their confidences."""
    from vision.capture import counted_beside

    if not reads:
        return "no frame read"
    if any(all(c != card for c, _ in frame) for frame in reads):
        return f"a frame where {card} is not read"
    for frame in reads:  # the surest read of a frame is what the referee takes
        mine = max(p for c, p in frame if c == card)
        surer = [c for c, p in sorted(frame, key=lambda r: -r[1]) if c != card and p > mine]
        if surer:
            return f"a frame where {surer[0]} is read more surely than {card}"
    others = sorted({c for frame in reads for c, _ in counted_beside(card, frame)})
    if others:
        return f"also read, as surely as a play counts: {' '.join(others)}"
    return None


def _out_of_focus(focus: list[FocusCheck]) -> str | None:
    """What to do about a card's frames seen out of focus (``focus``: how soft each is,
    :func:`vision.focus.focus_check`), or None. The reader sharpens such frames, but a
    table's small indices still read fewer cards than in focus: the walk, with the
    organiser at the table, is the time to say so."""
    soft = [check for check in focus if check.out_of_focus]
    if not soft:
        return None
    softest = max(soft, key=lambda check: (check.whole, check.half))
    return f"the camera looks out of focus ({softest.said()}): focus it on the table"


#: A recording (a folder, a video) with fewer frames than the walk asks for.
DRY_RECORDING = "the recording has no more frames; stopping"


def _answer(ask: Callable[[str], str], prompt: str, out: TextIO) -> str:
    """The organiser's answer; the end of input (Ctrl-D, a script's last line) is "q".
    Nothing ended the prompt's line then (no Enter was echoed), so it is ended here:
    the walk's closing lines start on their own."""
    try:
        return ask(prompt).strip()
    except EOFError:
        print(file=out, flush=True)
        return "q"


def _scenes(session, out: TextIO, ask: Callable[[str], str], recorded: bool = False) -> int:  # noqa: ANN001
    from vision.capture import CaptureError, card_code

    print(
        "lay out a few cards as in play (overlapping too); type the cards in view "
        "(e.g. AS KH 7D) and Enter; an empty line stops",
        file=out,
        flush=True,
    )
    n = 0
    while True:
        answer = _answer(ask, "cards in view: ", out)
        if not answer or answer.lower() == "q":
            break
        try:
            cards = [card_code(c) for c in answer.replace(",", " ").split()]
        except CaptureError as exc:
            print(f"  {exc}; again", file=out)
            continue
        twice = sorted({c for c in cards if cards.count(c) > 1})
        if twice:  # one deck: a card is in view once
            print(f"  {' '.join(twice)} named twice; again", file=out)
            continue
        name = session.scene(cards)
        if name is None:
            print(DRY_RECORDING if recorded else "the camera gave no frame; stopping", file=out)
            break
        n += 1
        print(f"  saved {name} with {' '.join(cards)}", file=out)
    scenes = session.folder / "scenes"
    print(f"captured {n} scene{'' if n == 1 else 's'} in {scenes}", file=out)
    print(f"measure: .venv/bin/python bench/vision_accuracy.py {scenes} --as-saved", file=out)
    return 0 if n else 1
