"""Write the example table logs in this folder and their expected events.

Each example is a short scene at a real table, written the way an organiser would write
a log by hand: a ``new-match`` command, the deal as sightings over the deal spot (in
'dealt' mode), the trump call, and each card as a sighting on its seat's spot. Running
this file rewrites every ``NAME.log.jsonl`` and its golden ``NAME.events.jsonl`` (what
``courtpiece replay NAME.log.jsonl`` prints); ``tests/service/test_examples.py``
replays the logs and compares. The moment each example exists to show is listed in
``examples.json`` and checked too, so a golden file rewritten by mistake is caught.

    .venv/bin/python docs/examples/make.py
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SEATS = ["Asha", "Bilal", "Chetan", "Dua"]

# Each seat's thirteen cards in the order the seat receives them (first batch first).
# The "banded" deal: every seat holds every suit, so any seat can win any trick.
BANDED = [
    "AS 9H 5D AC 9S 5H AD 9C 5S AH 9D 5C TS",
    "KS 8H 4D KC 8S 4H KD 8C 4S KH 8D 4C TH",
    "QS 7H 3D QC 7S 3H QD 7C 3S QH 7D 3C TD",
    "JS 6H 2D JC 6S 2H JD 6C 2S JH 6D 2C TC",
]
# The "sweep" deal: seat 1 holds the top of every suit and can take trick after trick.
SWEEP = [
    "TS 9S 8S JH TH 9H 8H JD TD 9D JC TC 9C",
    "AS KS QS JS AH KH QH AD KD QD AC KC QC",
    "7S 6S 5S 7H 6H 5H 8D 7D 6D 5D 8C 7C 6C",
    "4S 3S 2S 4H 3H 2H 4D 3D 2D 5C 4C 3C 2C",
]
# The "void" deal: seat 1 holds no heart and no club; seat 0's first five hold 2C, AS, AH.
VOID = [
    "2C AS AH 3C 4C 5C 6C 6S 5S JH TH 9H 8H",
    "JS 2D TS 3D 9S 4D 8S 5D 7S 6D 7D 8D 9D",
    "KS KH 7C 8C 9C 4S 3S 7H 6H TD JD TC JC",
    "QS QH 2S 5H 4H 3H 2H QD KD AD QC KC AC",
]
# Seat 1 leading the sweep deal (spades trump): seats 1, 2, 3, 0 in each trick.
SWEEP_SEVEN = ("AS 7S 4S TS", "KS 6S 3S 9S", "QS 5S 2S 8S", "JS 8D 4D JD", "AH 7H 4H JH",
               "KH 6H 3H TH", "QH 5H 2H 9H")
BATCHES = {"rang": (5, 8)}


@dataclass
class Scene:
    """One example: the log lines it writes and the events it must show."""

    name: str
    preset: str
    knowledge: str
    shows: str
    expect: list[str]
    lines: list[dict[str, Any]] = field(default_factory=list)
    dealer: int = 0
    at: float = 0.0

    def _input(self, kind: str, payload: dict[str, Any]) -> None:
        self.at += 1.0
        self.lines.append({"type": "input", "at": self.at, "kind": kind, "payload": payload})

    def command(self, name: str, **args: Any) -> Scene:
        self._input("command", {"name": name, **args})
        return self

    def seen(self, zone: str, card: str) -> Scene:
        self._input("sighting", {"zone": zone, "card": card})
        return self

    def new_match(self, dealer: int, **options: Any) -> Scene:
        self.dealer = dealer
        return self.command("new-match", preset=self.preset, knowledge=self.knowledge, seats=SEATS,
                            first_dealer=dealer, options=options)

    def deal(self, hands: list[str], *, upto_batch: int | None = None, from_batch: int = 0) -> Scene:
        """The deal over the deal spot, batch by batch from the seat after the dealer."""
        if self.knowledge != "dealt":
            return self
        batches = BATCHES.get(self.preset, (5, 4, 4))
        split = [h.split() for h in hands]
        taken = [sum(batches[:from_batch])] * 4
        for batch in batches[from_batch:upto_batch]:
            for step in range(1, 5):
                seat = (self.dealer + step) % 4
                for card in split[seat][taken[seat]:taken[seat] + batch]:
                    self.seen("deal", card)
                taken[seat] += batch
        return self

    def trick(self, leader: int, cards: str) -> Scene:
        """Cards in playing order from ``leader``, each on its seat's spot."""
        for i, card in enumerate(cards.split()):
            self.seen(f"seat{(leader + i) % 4}", card)
        return self


def scenes() -> Iterator[Scene]:
    s = Scene("rang-dealt", "rang", "dealt", "a revoke corrected before the trick ends (000)",
              ["revoke-flagged", "card-taken-back", "trick-won"])
    s.new_match(0).deal(BANDED, upto_batch=1).command("call-trump", suit="C").deal(BANDED, from_batch=1)
    s.trick(1, "KH 3C 6H AH")  # Chetan trumps although he holds hearts: flagged at once
    s.seen("seat2", "7H")  # he puts a heart down instead
    s.seen("seat3", "2H")  # Dua, who played after him, changes his card too
    s.command("confirm")  # Asha's ace takes the trick
    s.trick(0, "AS 4S 3S 2S")
    yield s

    s = Scene("rang-played", "rang", "played", "a revoke proven by a later card: forfeit, court, deal (000)",
              ["void-shown", "revoke-flagged", "hand-won", "courts-scored", "deal-passes"])
    s.new_match(0).command("call-trump", suit="C")
    s.trick(1, "KH 3C 6H AH")  # Chetan shows no heart...
    s.trick(2, "QS JS AS KS")
    s.trick(0, "9H 8H 7H")  # ...and then plays one: the revoke of trick 1 is proven
    yield s

    s = Scene("court-piece-dealt", "court-piece", "dealt", "seven tricks in a row, a court, no play-on (001)",
              ["play-on-offered", "courts-scored", "deal-passes"])
    s.new_match(0).deal(SWEEP, upto_batch=1).command("call-trump", suit="S").deal(SWEEP, from_batch=1)
    for lead in SWEEP_SEVEN:
        s.trick(1, lead)
    s.command("play-on", play_on=False)
    yield s

    s = Scene("court-piece-played", "court-piece", "played",
              "a revoke the hand's end would hide, proven when the suspect shows his cards",
              ["void-shown", "show-asked", "card-shown", "revoke-flagged", "hand-result-changed"])
    s.new_match(0).command("call-trump", suit="S")
    s.trick(1, "AS 7S 4D TS")  # Dua discards a diamond although he holds spades
    for lead in ("AH 7H 4H JH", "KH 6H 3H TH", "QH 5H 2H 9H", "AD 8D 3D JD", "KD 7D 2D TD", "QD 6D 5C 9D"):
        s.trick(1, lead)
    s.command("play-on", play_on=False)  # seven-nil for Bilal and Dua; Dua is asked to show
    s.seen("seat3", "4S")  # the first card he shows is a spade: his side forfeits the hand
    yield s

    s = Scene("double-sir-dealt", "double-sir", "dealt", "the centre pile: partners do not chain, two running take it (002)",
              ["trick-won", "pile-picked-up"])
    s.new_match(3).deal(BANDED, upto_batch=1).command("call-trump", suit="C").deal(BANDED, from_batch=1)
    s.trick(0, "AS 8S 7S 6S")  # Asha wins: the trick stays in the centre
    s.trick(0, "5S 4S QS JS")  # her partner Chetan wins: no pickup between partners
    s.trick(2, "QH 6H 9H 8H")  # Chetan again: two running, he takes all three
    yield s

    s = Scene("hidden-rung-dealt", "hidden-rung", "dealt", "a face-down trump asked for, and the pile on the reveal trick (002)",
              ["trump-hidden", "trump-asked", "trump-revealed", "pile-picked-up"])
    s.new_match(3).deal(VOID, upto_batch=1).seen("trump", "2C").deal(VOID, from_batch=1)
    s.trick(0, "AS JS KS QS")
    s.seen("seat0", "AH").command("ask-trump")  # Bilal has no heart and asks
    s.trick(1, "2D KH QH")  # nor a club: he may play anything; Asha wins twice running
    yield s

    s = Scene("hidden-rung-played", "hidden-rung", "played", "a trump laid face down by the caller is flagged (002)",
              ["trump-hidden", "play-accepted", "revoke-flagged"])
    s.new_match(0).command("hide-trump", suit="D")
    s.trick(1, "2S KS AS 3S")  # Bilal, the caller, leads; Dua wins
    s.trick(3, "AH 2H")
    s.seen("seat1", "2D")  # Bilal cannot follow and lays a diamond -- a trump -- face down
    yield s

    s = Scene("be-ranga-dealt", "be-ranga", "dealt", "the first card off suit sets trump; no pile before the trick after (002)",
              ["trump-called", "pile-picked-up"])
    s.new_match(3).deal(VOID)
    s.trick(0, "AS JS KS QS")
    s.trick(0, "AH 2D KH QH")  # Bilal has no heart: his diamond makes diamonds trump
    s.trick(1, "3D TD QD 3C")
    s.trick(3, "KD 4C 4D JD")  # Dua wins twice running after the trump trick: he takes the pile
    yield s

    s = Scene("online-points-dealt", "online-points", "dealt", "a round won without losing a trick: points with the court bonus (002)",
              ["pile-picked-up", "hand-won", "points-scored"])
    s.new_match(0).deal(SWEEP, upto_batch=1).command("call-trump", suit="S").deal(SWEEP, from_batch=1)
    for lead in SWEEP_SEVEN + ("AD 7D 3D TD",):
        s.trick(1, lead)
    yield s

    s = Scene("trick-streak-dealt", "trick-streak", "dealt", "seven tricks in a row score a court in play; the dealer's partner deals (003)",
              ["courts-scored", "hand-won", "deal-passes"])
    s.new_match(0).deal(SWEEP, upto_batch=1).command("call-trump", suit="S").deal(SWEEP, from_batch=1)
    for lead in SWEEP_SEVEN:
        s.trick(1, lead)
    s.command("confirm")  # no play-on: next hand
    yield s

    s = Scene("band-rung-dealt", "band-rung", "dealt", "the auction with an overcall, and the hidden trump (004)",
              ["bid-made", "bid-passed", "auction-won", "trump-hidden"])
    s.new_match(0).deal(BANDED, upto_batch=1)
    s.command("bid", tricks=9).command("bid", tricks=10).command("pass").command("pass").command("pass")
    s.seen("trump", "3D")  # Chetan, the caller at 10, lays 3D face down
    s.deal(BANDED, from_batch=1)
    s.trick(2, "QS JS AS KS")
    yield s

    s = Scene("band-rung-played", "band-rung", "played", "three passes make the dealer caller at nine; an opponent must ask (004)",
              ["auction-won", "trump-hidden", "revoke-flagged"])
    s.new_match(3).command("pass").command("pass").command("pass")  # Dua, the dealer, calls at 9
    s.seen("trump", "2C")
    s.trick(3, "AD")
    s.trick(0, "5D 4D")
    s.seen("seat2", "QH")  # Chetan, an opponent of the caller, plays off suit without asking
    yield s


def replay_text(log: Path) -> str:
    """What ``courtpiece replay LOG`` prints."""
    from controller.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["replay", str(log)])
    if code != 0:
        raise SystemExit(f"replay of {log.name} failed with exit code {code}")
    return out.getvalue()


def write_all() -> None:
    manifest = []
    for s in scenes():
        log = HERE / f"{s.name}.log.jsonl"
        with log.open("w", encoding="utf-8") as f:
            f.write(json.dumps({"type": "header", "version": 1, "example": s.shows}) + "\n")
            for line in s.lines:
                f.write(json.dumps(line) + "\n")
        events = replay_text(log)
        kinds = {json.loads(line)["event"] for line in events.splitlines()}
        missing = [k for k in s.expect if k not in kinds]
        if missing:
            raise SystemExit(f"{s.name}: the replay shows no {missing}")
        (HERE / f"{s.name}.events.jsonl").write_text(events, encoding="utf-8")
        manifest.append({"name": s.name, "preset": s.preset, "knowledge": s.knowledge,
                         "shows": s.shows, "expect": s.expect})
    (HERE / "examples.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    write_readme_table(manifest)
    print(f"wrote {len(manifest)} examples")


def write_readme_table(manifest: list[dict[str, Any]]) -> None:
    """The README's table of examples, from the manifest (so the two never drift)."""
    readme = HERE / "README.md"
    text = readme.read_text(encoding="utf-8")
    head = "| log | preset | knowledge | what it shows |\n|---|---|---|---|\n"
    start = text.index(head)
    end = text.index("\n\n", start)
    rows = "\n".join(f"| [`{e['name']}`]({e['name']}.log.jsonl) | `{e['preset']}` | {e['knowledge']} | {e['shows']} |"
                     for e in manifest)
    readme.write_text(text[:start] + head + rows + text[end:], encoding="utf-8")


if __name__ == "__main__":
    write_all()
