"""What each person at the table may see, as JSON-ready data.

The public view is built only from public facts: played face-up cards, a trump once it
is public, scores. A seat view adds that seat's own hand, the proofs of its own revoke
flags and, for the caller, the face-down trump. The admin view is the public view with
every revoke proof. Nothing here reads a hidden card into the public view: a flag's
proving card appears only once ``ProofShown`` made it public (see ``proofs``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import Card, Suit
from .events import HandStarted, ProofShown, RevokeFlagged, RevokeProof
from .hand import Phase

if TYPE_CHECKING:
    from .match import Match


def _flags_this_hand(m: Match, seat: int | None, admin: bool) -> list[dict[str, Any]]:
    """This hand's flags, each with the proof this audience may know: a proof made public,
    and the secret proofs of ``seat``'s own flags (all of them for the admin)."""
    flags: list[dict[str, Any]] = []
    proofs: dict[tuple[int, int], str] = {}
    for e in reversed(m.events):
        if isinstance(e, HandStarted):
            break
        if isinstance(e, RevokeFlagged):
            flags.append(e.to_dict())
        elif isinstance(e, ProofShown) or (isinstance(e, RevokeProof) and (admin or e.seat == seat)):
            proofs.setdefault((e.seat, e.trick), e.card.text)
    flags.reverse()
    for f in flags:
        if f["proof"] is None:
            f["proof"] = proofs.get((f["seat"], f["trick"]))
    return flags


def _showing(m: Match) -> list[dict[str, Any]]:
    """Who is still asked to show, for which suits, and what each has shown (public once
    shown); the cards not yet shown stay hidden."""
    h = m.hand
    return [{"seat": seat,
             "suits": [Suit(s).name for s in sorted(claims, key=lambda s: claims[s][0])],
             "tricks": sorted(claim[0] for claim in claims.values()),
             "shown": [Card(c).text for c in sorted(h.shown[seat])],
             "left": 13 - h.played_count[seat] - len(h.shown[seat])}
            for seat, claims in sorted(h.show_asked.items())]


def public_view(m: Match) -> dict[str, Any]:
    return _view(m, None, False)


def admin_view(m: Match) -> dict[str, Any]:
    """What the referee's admin sees: the public view with every revoke proof."""
    return _view(m, None, True)


def _view(m: Match, seat: int | None, admin: bool) -> dict[str, Any]:
    h = m.hand
    o = m.options
    trick_cards = [
        {"seat": tc.seat, "card": None if tc.face_down and not o.show_caller_discards else Card(tc.card).text,
         "face_down": tc.face_down}
        for tc in sorted(h.trick, key=lambda tc: (tc.seat - h.leader) & 3)
    ]
    revokes = _flags_this_hand(m, seat, admin)
    pending = None
    if h.pending is not None:
        pc = None if any(tc.face_down and tc.card == h.pending.card for tc in h.trick) else Card(h.pending.card).text
        p = h.pending
        flag = next((f for f in reversed(revokes) if f["seat"] == p.seat), {})
        pending = {"seat": p.seat, "card": pc, "rule": p.rule, "suit": flag.get("suit"),
                   "proof": flag.get("proof"), "detail": p.detail}
    auction = None
    if h.auction is not None:
        a = h.auction
        auction = {"turn": None if a.done else a.turn, "high": a.high or None, "high_seat": a.high_seat,
                   "open_suit": Suit(a.open_suit).name if a.open_suit is not None else None,
                   "passed": sorted(a.passed), "done": a.done}
    shown = m.tally.shown_score(o)
    return {
        "phase": m.phase.value,
        "knowledge": m.knowledge,
        "direction": o.direction.value,
        "hand": h.number,
        "dealer": h.dealer,
        "caller": h.caller,
        "bid": h.bid or None,
        "bid_open": h.bid_open,
        "auction": auction,
        "trump": Suit(h.trump).name if h.trump is not None and h.trump_public else None,
        "trump_card": Card(h.trump_card).text if h.trump_public and h.trump_card is not None
        and (o.show_caller_discards or all(fd[1] != h.trump_card for fd in h.face_down)) else None,
        "trump_hidden": h.trump is not None and not h.trump_public,
        "trump_how": h.trump_how or None,
        "cards_dealt": h.deal_index if m.dealt_mode else None,
        "hand_knowledge": "dealt" if h.dealt_mode else "played",
        "turn": h.turn() if m.phase is Phase.PLAY else None,
        "trick": {"number": h.trick_no, "leader": h.leader, "cards": trick_cards},
        "tricks": list(h.captured),
        "pile": h.pile,
        "tricks_by_seat": [sum(1 for w in h.trick_winners if w == s) for s in range(4)],
        "score": list(shown),
        "score_kind": {"courts": "courts", "bid": "net"}.get(o.scoring.value, "points"),
        "streak": {"team": m.tally.streak_team, "count": m.tally.streak, "target": o.hand_streak},
        "trick_streak": {"team": m.tally.trick_streak_team, "count": m.tally.trick_streak, "target": o.trick_streak},
        "pending_revoke": pending,
        "revokes": revokes,
        "play_on_team": h.play_on_team if m.phase is Phase.PLAY_ON else None,
        "playing_on": h.playing_on,
        "showing": _showing(m) if m.phase is Phase.SHOW else None,
        "history": list(m.history),
        "last_hand": m.history[-1] if m.history else None,
        "match_end": {"kind": o.match_end.value, "target": o.match_target, "time_up": m.time_up},
        "match_over": None if m.phase is not Phase.OVER else {"winner": m.winner, "reason": m.over_reason},
    }


def seat_view(m: Match, seat: int) -> dict[str, Any]:
    h = m.hand
    view = _view(m, seat, False)
    view["seat"] = seat
    view["my_hand"] = [Card(c).text for c in sorted(h.holdings[seat], key=lambda c: (c // 13, -(c % 13)))]
    if seat == h.caller and h.trump is not None:
        view["my_trump"] = Suit(h.trump).name
        view["my_trump_card"] = Card(h.trump_card).text if h.trump_card is not None else None
    view["my_face_down"] = [Card(c).text for s, c, _ in h.face_down if s == seat]
    return view
