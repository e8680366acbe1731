"""Revoke recall: of the revokes bots really commit, how many the referee flags by the end
of the hand, per preset and knowledge mode, and how many flags are false.

Bots play random matches of every preset and, now and then, play a card off the led suit
while they hold it (``--revoke-rate``, default 8%). The bots know the true hands, so each
revoke is known here as it happens. The unit is the offender: a seat that revoked in a
hand is caught when the referee flags it for not following in that hand (the penalty is
one however many times he failed to follow, and a seat proven at the hand's end is asked
no further); a revoke taken back before its trick closed is no offence any more. A false
flag is a flag on a seat that never revoked in that hand. Hands stop early as they do at
a table (seven tricks, a court, a forfeit).

The baseline, measured in the same run on the same deals, is the referee without the
showing at the hand's end (``show-at-hand-end = false``): 'played' mode then clears every
unproven void when the hand stops.

    .venv/bin/python bench/revokes.py [--matches N] [--seed S] [--revoke-rate R]

The last line reads
``revokes played_recall_min=… dealt_recall_min=… false_flags=… baseline_played_recall_min=…``.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field

from controller.rules import PRESETS, Match, Phase, preset
from controller.rules import inputs as I
from controller.rules.events import CardTakenBack, HandStarted, RevokeFlagged
from controller.rules.names import FACE_DOWN_NOT_VOID, FOLLOW_SUIT
from controller.rules.options import MatchEnd
from controller.sim.bots import BotTable

NOT_FOLLOWING = (FOLLOW_SUIT, FACE_DOWN_NOT_VOID)


@dataclass
class Tally:
    revokes: int = 0
    caught: int = 0
    false_flags: int = 0
    hands: int = 0
    missed: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.caught / self.revokes if self.revokes else 1.0


def short_match(name: str, show: bool) -> object:
    opts = preset(name, show_at_hand_end=show)
    if opts.match_end is not MatchEnd.POINTS:
        opts = opts.with_changes(match_end=MatchEnd.HANDS, match_target=4)
    return opts


def play(name: str, knowledge: str, seed: int, rate: float, show: bool, tally: Tally) -> None:
    m = Match(short_match(name, show), first_dealer=seed % 4, knowledge=knowledge)
    bots = BotTable(m, random.Random(seed), revoke_rate=rate)
    hand = m.hand.number
    # seat -> the trick of its first real revoke / first flag, this hand
    real: dict[int, int] = {}
    flagged: dict[int, int] = {}
    corrected: set[int] = set()

    def settle() -> None:
        for seat in real:
            tally.revokes += 1
            if seat in flagged:
                tally.caught += 1
            else:
                tally.missed.append((seed, hand, seat))
        tally.false_flags += sum(1 for key in flagged if key not in real and key not in corrected)
        real.clear()
        flagged.clear()
        corrected.clear()

    for _ in range(200_000):
        if m.phase is Phase.OVER:
            break
        move = bots.next_input()
        h = m.hand
        if isinstance(move, I.Play) and m.phase is Phase.PLAY and h.trick:
            led = h.led_suit()
            mine = bots.hands[move.seat] - h.played
            if led is not None and led >= 0 and move.card.suit != led and any(c // 13 == led for c in mine) \
                    and not any(tc.seat == move.seat for tc in h.trick):
                real.setdefault(move.seat, h.trick_no)
        for e in m.apply(move):
            if isinstance(e, HandStarted):
                settle()
                tally.hands += 1
                hand = e.hand
            elif isinstance(e, CardTakenBack):
                # Corrected before the trick closed (and before any flag): no offence any more.
                if real.get(e.seat) == e.trick and e.seat not in flagged:
                    del real[e.seat]
                    corrected.add(e.seat)
            elif isinstance(e, RevokeFlagged) and e.rule in NOT_FOLLOWING:
                flagged[e.seat] = min(flagged.get(e.seat, 99), e.trick)
    settle()
    tally.hands += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=40, help="matches per preset and mode (default 40)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--revoke-rate", type=float, default=0.08, help="chance a bot plays any card (default 0.08)")
    args = ap.parse_args()
    worst = {"played": 1.0, "dealt": 1.0, "baseline": 1.0}
    false_flags = 0
    for name in PRESETS:
        for knowledge in ("dealt", "played"):
            now, base = Tally(), Tally()
            for i in range(args.matches):
                play(name, knowledge, args.seed + i, args.revoke_rate, True, now)
                if knowledge == "played":
                    play(name, knowledge, args.seed + i, args.revoke_rate, False, base)
            false_flags += now.false_flags
            worst[knowledge] = min(worst[knowledge], now.recall)
            line = (f"{name:14} {knowledge:6} hands={now.hands} revokes={now.revokes} caught={now.caught} "
                    f"recall={now.recall:.3f} false_flags={now.false_flags}")
            if knowledge == "played":
                worst["baseline"] = min(worst["baseline"], base.recall)
                line += f" baseline_recall={base.recall:.3f}"
            print(line, flush=True)
            for seed, hand, seat in now.missed[:3]:
                print(f"    missed: seed {seed} hand {hand} seat {seat}")
    print(f"revokes played_recall_min={worst['played']:.3f} dealt_recall_min={worst['dealt']:.3f} "
          f"false_flags={false_flags} baseline_played_recall_min={worst['baseline']:.3f}")


if __name__ == "__main__":
    main()
