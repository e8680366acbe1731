"""Typed table events: each with its audience decided where it is made, notices written
both ways by their own class, and one filter for every surface (issue 11)."""

from __future__ import annotations

import ast
import json
from dataclasses import fields
from pathlib import Path

import pytest

from controller.readers.sightings import CardSeen
from controller.referee import notices as N
from controller.referee.referee import Referee
from controller.referee.table_events import (
    ADMIN,
    PUBLIC,
    TableEvent,
    events_for,
    for_audience,
    sees,
)
from controller.rules.cards import Card, Suit
from controller.rules.errors import THE_CARD, CardSeenTwice, NotInHand, OutOfTurn
from controller.rules.events import PlayAccepted, RevokeProof, TrumpSetSecretly

from .tablekit import STORY_HANDS, deal_sightings, see

RULES = Path(__file__).resolve().parents[2] / "controller" / "rules"
NAMES = ["Asha", "Bilal", "Chetan", "Dua"]

#: one of each notice, with every secret it can carry filled in
NOTICES: list[N.Notice] = [
    N.Refused.from_error(CardSeenTwice(f"{THE_CARD} was already dealt to Bilal this hand", Card.parse("QS")), zone="deal"),
    N.Refused.from_error(OutOfTurn("it is Bilal's turn, not Chetan's"), zone="seat2"),
    N.UnknownTag("seat1", "Bilal's spot", "04A1B2C3"),
    N.OtherDeckTag("deal", "the deal spot", "B1000007", "deck 'blue'", "7H"),
    N.DuplicateRead("seat0", "Asha's spot"),
    N.CommandRefused("hide-trump", "hide-trump: which suit (S, H, D or C)?"),
    N.Ignored("nothing to undo", "undo"),
    N.Undone(12, where="the deal spot", card="KD"),
    N.Undone(13, command="call-trump"),
    N.JournalFailed("the journal cannot be written (disk full)"),
    N.InputHeld(3),
    N.InputRefused(2, "the journal file was taken away"),
    N.JournalDamaged("journal damaged: 40 inputs recovered"),
    N.JournalResumed(3, 1),
    N.ReaderTrouble("rfid-hub", "seat2", "reader at seat2 does not answer"),
]


@pytest.mark.parametrize("notice", NOTICES, ids=lambda n: f"{n.kind}-{type(n).__name__}")
def test_a_notice_says_its_secrets_to_the_admin_only(notice: N.Notice) -> None:
    events = events_for(7, 1.0, notice)
    secrets = [str(getattr(notice, k)) for k in notice.secret if getattr(notice, k) is not None]
    public = for_audience(events, PUBLIC)
    (admin,) = for_audience(events, ADMIN)
    assert len(public) == 1 and public[0].kind == admin.kind == notice.kind
    if secrets:
        assert public[0].redacted and not admin.redacted and admin.audience == ADMIN
        assert events == [public[0], admin]  # the public copy first, the full one right after
    else:
        assert events == [admin] == public
    text = json.dumps(dict(public[0]))
    for s in secrets:
        assert s not in text
        assert s in json.dumps(dict(admin)) or s in admin["message"]
    assert admin["message"] == notice.message() and public[0]["message"] == notice.public_message()
    assert all(sees(seat, public[0]) and not (admin is not public[0] and sees(seat, admin)) for seat in range(4))


def test_every_notice_kind_is_in_the_list_and_has_a_sentence() -> None:
    made = {type(n).__name__ for n in NOTICES}
    assert made == {c.__name__ for c in N.Notice.__subclasses__()}
    assert {n.kind for n in NOTICES} == N.NOTICE_KINDS
    for n in NOTICES:
        assert n.message() and "{" not in n.message() and "{" not in n.public_message()
        assert set(n.secret) <= {f.name for f in fields(n)}


def test_an_engine_event_for_one_seat_goes_to_that_seat_and_the_admin() -> None:
    (hidden,) = events_for(3, 0.0, TrumpSetSecretly(2, Suit.H, Card.parse("8H")))
    (proof,) = events_for(3, 0.0, RevokeProof(1, Card.parse("4H"), 2, "follow-suit", "no heart, holding 4H"))
    (played,) = events_for(3, 0.0, PlayAccepted(0, Card.parse("AS"), 1, False))
    assert (hidden.audience, proof.audience, played.audience) == (2, 1, PUBLIC)
    assert [a for a in (PUBLIC, ADMIN, 0, 1, 2, 3) if sees(a, hidden)] == [ADMIN, 2]
    assert [a for a in (PUBLIC, ADMIN, 0, 1, 2, 3) if sees(a, played)] == [PUBLIC, ADMIN, 0, 1, 2, 3]
    assert hidden["private_to"] == 2 and "private_to" not in played


def test_a_table_event_is_typed_and_reads_like_its_json() -> None:
    (e,) = events_for(9, 2.5, PlayAccepted(1, Card.parse("TD"), 3, False))
    assert isinstance(e, TableEvent) and isinstance(e.body, PlayAccepted) and e.kind == "play-accepted"
    assert dict(e) == {"seq": 9, "at": 2.5, "event": "play-accepted", "seat": 1, "card": "TD", "trick": 3,
                       "face_down": False}
    assert e["card"] == "TD" and e.get("nothing") is None
    with pytest.raises(TypeError):
        e["card"] = "AS"  # type: ignore[index]


def test_a_refusal_names_its_card_for_the_admin_and_not_for_the_table() -> None:
    err = NotInHand(f"{THE_CARD} was dealt to Dua, it cannot come from Bilal", Card.parse("9C"))
    assert str(err) == "9C was dealt to Dua, it cannot come from Bilal"
    assert err.public == "a card was dealt to Dua, it cannot come from Bilal"
    assert OutOfTurn("it is Dua's turn").public == "it is Dua's turn"


def test_the_engine_writes_no_card_into_a_refusal_except_through_the_card_slot() -> None:
    """Every sentence the engine builds that names a card uses THE_CARD, so its public
    copy is made from the sentence itself; a card formatted straight into an f-string
    would reach the table. (Event data and the seat-private proof detail are not sentences
    for the table.)"""
    offenders = []
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            for part in node.values:
                if isinstance(part, ast.FormattedValue) and "CARDS[" in ast.unparse(part.value):
                    offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == ["proofs.py:31"]  # RevokeProof's detail: the offender's seat and the admin only


def test_the_referee_makes_both_copies_from_a_real_misread() -> None:
    """A card of Chetan's read at Bilal's spot during play: the table learns a card came
    from the wrong seat, the admin which card."""
    r = Referee()
    r.command("new-match", {"preset": "court-piece", "seats": NAMES, "first_dealer": 0})
    order = deal_sightings(STORY_HANDS)
    for c in order[:20]:
        see(r, "deal", c)
    r.command("call-trump", {"suit": "S"})
    for c in order[20:]:
        see(r, "deal", c)
    chetan = sorted(r.match.hand.holdings[2])[0]
    text = Card(chetan).text
    out = r.sighting(CardSeen("seat1", text, 9.0, "hub"))
    public, admin = for_audience(out, PUBLIC), for_audience(out, ADMIN)
    assert [e.kind for e in public] == ["impossible"] and public[0].redacted
    assert text not in json.dumps([dict(e) for e in public]) and "Chetan" in public[0]["message"]
    assert admin[0]["card"] == text and text in admin[0]["message"] and admin[0]["error"] == "NotInHand"
