"""Random complete matches of every preset, in both knowledge modes, with revokes injected.

Whatever the bots do, these must hold: a card is played once per hand, trick counts add
up, the score is exactly what the scoring events say, replaying the inputs rebuilds the
same state and events, impossible inputs change nothing, and the public view and public
events never hold a card that is still hidden at the table.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import PRESETS, ImpossibleInput, Match, Phase, preset
from controller.rules import inputs as I
from controller.rules.cards import CARDS, Card
from controller.rules.events import (
    CardShown,
    CardTakenBack,
    CourtsScored,
    FaceDownPlayed,
    FaceDownShown,
    HandStarted,
    HandWon,
    PilePickedUp,
    PlayAccepted,
    PointsScored,
    ProofShown,
    TrickWon,
)
from controller.rules.options import MatchEnd, Scoring
from controller.sim.bots import BotTable

PROPERTY_SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def short_match(name: str) -> object:
    """A few hands of each preset: long enough for streaks, piles and dealer changes."""
    opts = preset(name)
    if opts.match_end is not MatchEnd.POINTS:
        opts = opts.with_changes(match_end=MatchEnd.HANDS, match_target=4)
    return opts


def hidden_cards(m: Match, table: BotTable) -> set[int]:
    """Cards physically hidden right now: in hands, a face-down trump, face-down discards."""
    table.sync()
    h = m.hand
    hidden: set[int] = set()
    for seat in range(4):
        hidden |= table.hands[seat] - h.played
    if h.trump_card is not None:
        if h.trump_public:
            hidden.discard(h.trump_card)  # a shown, turned or revealed trump card is public
        else:
            hidden.add(h.trump_card)
    if not m.options.show_caller_discards:
        hidden |= {c for _, c, _ in h.face_down}
    return hidden


def card_texts(obj: object) -> set[str]:
    """Every string in a JSON-able structure that reads as a card."""
    found: set[str] = set()
    if isinstance(obj, dict):
        for v in obj.values():
            found |= card_texts(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= card_texts(v)
    elif isinstance(obj, str) and len(obj) == 2:
        try:
            found.add(Card.parse(obj).text)
        except ValueError:
            pass
    return found


def run_match(name: str, mode: str, seed: int, revoke_rate: float, poke: bool) -> tuple[Match, list]:
    m = Match(short_match(name), first_dealer=seed % 4, knowledge=mode)
    rng = random.Random(seed)
    table = BotTable(m, rng, revoke_rate=revoke_rate)
    proofs: set[str] = set()
    for _ in range(40_000):
        if m.phase is Phase.OVER:
            break
        if poke and m.phase is Phase.PLAY and rng.random() < 0.05:
            _poke_impossible(m, rng)
        hand_before = m.hand
        before_hidden = hidden_cards(m, table)
        out = m.apply(table.next_input())
        old_hand_proofs = set(proofs)
        for e in out:
            if isinstance(e, HandStarted):
                old_hand_proofs |= proofs
                proofs.clear()
            shown_now = _shown_by_rule(e)
            if shown_now:
                proofs.add(shown_now)
        public = [e.to_dict() for e in out if e.private is None]
        now_hidden = {Card(c).text for c in hidden_cards(m, table)} - proofs
        if m.hand is hand_before:
            leaked = (card_texts(public) | card_texts(m.public_view())) & now_hidden
        else:
            # The hand ended in this step: judge its events by what the old hand still hid.
            ends = [i for i, e in enumerate(public) if e["event"] in ("hand-won", "redeal")]
            shown = card_texts(public[: ends[0]])
            old_hidden = {Card(c).text for c in before_hidden} - shown - old_hand_proofs
            leaked = (card_texts(public) & old_hidden) | (card_texts(m.public_view()) & now_hidden)
        assert not leaked, f"hidden cards {leaked} reached the public view or events"
        if m.hand.trump is not None and not m.hand.trump_public:
            assert m.public_view()["trump"] is None
    assert m.phase is Phase.OVER
    return m, m.events


def _shown_by_rule(e: object) -> str | None:
    """A card the rules put face up while it is still (or again) in a hand."""
    if isinstance(e, ProofShown):
        return e.card.text  # a revoke's proof, once played or at the hand's end (never sooner)
    if isinstance(e, CardTakenBack) and e.card is not None:
        return e.card.text  # it lay face up on the table before it went back
    if isinstance(e, FaceDownShown):
        return e.card.text  # turned up when the hand ended
    if isinstance(e, CardShown):
        return e.card.text  # shown by a suspected seat when the hand ended
    return None


def _poke_impossible(m: Match, rng: random.Random) -> None:
    """Throw an impossible input at the engine; it must refuse it and change nothing."""
    h = m.hand
    if h.pending is not None or h.correction_from is not None:
        return  # a seat may legally replace its card now
    candidates: list[object] = []
    if h.played:
        candidates.append(I.Play(rng.randrange(4), CARDS[rng.choice(sorted(h.played))]))
    turn = h.turn()
    if turn is not None:
        candidates.append(I.Play((turn + rng.randrange(1, 4)) & 3, CARDS[rng.randrange(52)]))
    if m.dealt_mode:
        candidates.append(I.Deal(CARDS[rng.randrange(52)]))
    if not candidates:
        return
    move = rng.choice(candidates)
    snapshot = json.dumps([m.public_view()] + [m.seat_view(s) for s in range(4)], sort_keys=True)
    n_events, n_inputs = len(m.events), len(m.inputs)
    try:
        m.apply(move)
    except ImpossibleInput:
        assert json.dumps([m.public_view()] + [m.seat_view(s) for s in range(4)], sort_keys=True) == snapshot
        assert (len(m.events), len(m.inputs)) == (n_events, n_inputs)
        return
    raise AssertionError(f"{move} should have been impossible")


def check_invariants(m: Match) -> None:
    plays_this_hand: Counter[int] = Counter()
    last_face_down: dict[int, int] = {}
    tricks_this_hand = 0
    pile_taken = 0
    scored = [0, 0]
    net = 0
    for e in m.events:
        if isinstance(e, HandStarted):
            plays_this_hand.clear()
            tricks_this_hand = 0
            pile_taken = 0
        elif isinstance(e, PlayAccepted) and e.card is not None:
            plays_this_hand[int(e.card)] += 1
        elif isinstance(e, FaceDownPlayed):
            plays_this_hand[int(e.card)] += 1
            last_face_down[e.seat] = int(e.card)
        elif isinstance(e, CardTakenBack):
            plays_this_hand[int(e.card) if e.card is not None else last_face_down[e.seat]] -= 1
        elif isinstance(e, TrickWon):
            tricks_this_hand += 1
        elif isinstance(e, PilePickedUp):
            pile_taken += e.tricks
        elif isinstance(e, HandWon):
            assert sum(e.tricks) <= tricks_this_hand
            if m.options.collection.value == "each-trick":
                assert sum(e.tricks) == tricks_this_hand
            else:
                assert sum(e.tricks) == pile_taken
        elif isinstance(e, (CourtsScored, PointsScored)):
            n = e.courts if isinstance(e, CourtsScored) else e.points
            scored[e.team] += n
            net += n if e.team == 0 else -n
        if plays_this_hand:
            assert max(plays_this_hand.values()) <= 1, "a card was played twice in one hand"
    assert scored == m.tally.score
    if m.options.scoring is Scoring.BID:
        assert net == m.tally.net


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("mode", ["dealt", "played"])
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**31), revoke_rate=st.sampled_from([0.0, 0.03, 0.12]))
def test_random_matches_keep_every_invariant(name: str, mode: str, seed: int, revoke_rate: float) -> None:
    m, _ = run_match(name, mode, seed, revoke_rate, poke=mode == "dealt")
    check_invariants(m)
    again = Match.replay(m.options, m.inputs, first_dealer=m.first_dealer, knowledge=m.knowledge)
    assert again.events == m.events
    assert again.public_view() == m.public_view()
    assert [again.seat_view(s) for s in range(4)] == [m.seat_view(s) for s in range(4)]


def check_hidden_suit_absent(name: str, seed: int) -> int:
    """Before the reveal, no public event names the face-down suit; returns events checked."""
    _, events = run_match(name, "dealt", seed, 0.0, poke=False)
    hidden_suit = None
    checked = 0
    for e in events:
        if e.kind == "trump-set-secretly":
            hidden_suit = e.suit.name
        elif e.kind in ("trump-revealed", "trump-called", "hand-started"):
            hidden_suit = None
        elif hidden_suit is not None and e.private is None:
            data = e.to_dict()
            checked += 1
            for key in ("suit", "open_suit", "trump"):
                if data.get(key) == hidden_suit:
                    assert e.kind in ("void-shown", "suspicion-cleared"), f"{e.kind} named the hidden trump"
    return checked


@pytest.mark.parametrize("name", ["hidden-rung", "band-rung"])
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**31))
def test_hidden_trump_suit_is_absent_from_public_events_until_revealed(name: str, seed: int) -> None:
    check_hidden_suit_absent(name, seed)


@pytest.mark.parametrize("name", ["hidden-rung", "band-rung"])
def test_hidden_trump_check_is_not_vacuous(name: str) -> None:
    assert sum(check_hidden_suit_absent(name, seed) for seed in range(4)) > 20
