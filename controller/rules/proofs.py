"""Revoke proofs kept as secret as any other card in a hand.

A dealt-mode flag is proven by a card the offender still holds. The table needs to know
*that* he could have followed, not *which* card he holds: naming it would tell every
opponent part of his hand, and under a hidden trump the proving card can be the
face-down trump itself. So one place decides what each audience learns:

- ``RevokeFlagged`` (public): offender, card played, the suit not followed, and a proof
  only when the table has already seen that card face up;
- ``RevokeProof`` (the offender's seat, and the admin through the referee): the card;
- ``ProofShown`` (public): the card, once it is played face up or the hand ends.
"""

from __future__ import annotations

from .cards import CARDS, Suit
from .events import Event, ProofShown, RevokeFlagged, RevokeProof
from .hand import Hand
from .options import Options


def flag_revoke(h: Hand, out: list[Event], seat: int, card: int | None, trick: int, rule: str,
                suit: int | None, proof: int | None, detail: str, *, proof_seen: bool = False) -> None:
    """Record a flag. ``detail`` is the public sentence and must not name ``proof``;
    ``proof_seen``: the proving card already lies face up (it is then named publicly)."""
    public_proof = CARDS[proof] if proof is not None and proof_seen else None
    out.append(RevokeFlagged(seat, CARDS[card] if card is not None else None, trick, rule,
                             Suit(suit) if suit is not None else None, public_proof, detail))
    if proof is not None and not proof_seen:
        h.hidden_proofs.append((seat, proof, trick))
        out.append(RevokeProof(seat, CARDS[proof], trick, rule, f"{detail}, holding {CARDS[proof]}"))


def show_played_proof(h: Hand, seat: int, card: int, face_down: bool, out: list[Event]) -> None:
    """A secret proving card has just been played: face up, the whole table sees it now."""
    if face_down or not h.hidden_proofs:
        return
    for p in [p for p in h.hidden_proofs if p[0] == seat and p[1] == card]:
        h.hidden_proofs.remove(p)
        out.append(ProofShown(seat, CARDS[card], p[2], "played"))


def show_proofs_at_hand_end(h: Hand, o: Options, out: list[Event]) -> None:
    """The hand is over: its proofs are public -- except a card the rules still keep hidden
    (the face-down trump, or a face-down discard, at a table that does not show them)."""
    still_hidden: set[int] = set()
    if not (o.show_caller_discards or o.reveal_at_hand_end):
        still_hidden |= {c for _, c, _ in h.face_down}
    if h.trump_card is not None and not h.trump_public:
        still_hidden.add(h.trump_card)
    for seat, card, trick in h.hidden_proofs:
        if card not in still_hidden:
            out.append(ProofShown(seat, CARDS[card], trick, "the hand is over"))
    h.hidden_proofs.clear()
