"""Messages a player understands (issue 10): the seat names given in new-match, one plain
sentence for each card that cannot count, and each refusal printed once by replay.

Everything goes through the referee with real sightings, as readers would report them.
"""

from __future__ import annotations

import json

from controller.cli import main
from controller.referee.notices import ADMIN, sees
from controller.referee.referee import Referee
from controller.web.admin_routes import default_table_log

from .tablekit import STORY_HANDS, deal_sightings, see

NAMES = ["Asha", "Bilal", "Chetan", "Dua"]


def story(preset: str = "court-piece", trump: str = "S") -> Referee:
    """STORY_HANDS dealt, dealer 0: Bilal (seat 1) names ``trump`` and leads."""
    r = Referee()
    r.command("new-match", {"preset": preset, "seats": NAMES, "first_dealer": 0,
                            "options": {"match-end": "hands", "match-target": 3}})
    order = deal_sightings(STORY_HANDS)
    for c in order[:20]:
        see(r, "deal", c)
    r.command("call-trump", {"suit": trump})
    for c in order[20:]:
        see(r, "deal", c)
    return r


def refusal(out: list[dict], audience: str | int = ADMIN) -> str:
    """The one refusal an input caused, as ``audience`` reads it."""
    (notice,) = [e for e in out if e["event"] == "impossible" and sees(audience, e)]
    return notice["message"]


def kinds(out: list[dict]) -> list[str]:
    return [e["event"] for e in out if sees(ADMIN, e)]


def test_refusals_and_reasons_use_the_seat_names():
    r = story()
    assert refusal(see(r, "seat2", "AS")) == "it is Bilal's turn, not Chetan's"
    see(r, "seat1", "2H")
    out = see(r, "seat2", "AC")  # Chetan trumps holding hearts
    out += r.command("apply-penalty")
    (won,) = [e for e in out if e["event"] == "hand-won"]
    assert won["reason"] == "revoke by Chetan"
    assert "seat" not in refusal(see(r, "seat3", "2C"), "public")


def test_a_card_after_the_hand_ended_says_so():
    """The hand is over (a penalty ended it) while Dua still holds cards; one of them lands
    on her spot before the next deal."""
    r = story()
    see(r, "seat1", "2H")
    see(r, "seat2", "AC")
    r.command("apply-penalty")
    assert r.match.hand.number == 2 and r.match.hand.deal_index == 0
    out = see(r, "seat3", "9H")
    assert refusal(out) == "hand 1 is over: 9H from Dua is not counted (hand 2 waits for the deal)"
    assert refusal(out, "public") == "hand 1 is over: a card from Dua is not counted (hand 2 waits for the deal)"


def test_a_53rd_card_over_the_deal_spot_says_so():
    r = story()
    out = see(r, "deal", "8S")  # Asha's first card, over the deal spot again after 52
    assert refusal(out) == "all 52 cards are already dealt, so 8S is not counted: no hand gets a 53rd card"
    assert r.match.hand.deal_index == 52
    last = deal_sightings(STORY_HANDS)[-1]
    assert kinds(see(r, "deal", last)) == ["duplicate-read"]  # still lying there


def test_a_card_from_the_wrong_seat_names_who_played_it():
    r = story()
    see(r, "seat1", "2H")
    # Dua's reader sees Bilal's card, before her turn and on it
    assert refusal(see(r, "seat3", "2H")) == "2H was played by Bilal in this trick; it cannot come from Dua as well"
    see(r, "seat2", "QH")
    see(r, "seat3", "9H")
    see(r, "seat0", "8H")  # Chetan wins and leads
    assert refusal(see(r, "seat2", "9H")) == "9H was played by Dua in trick 1; it cannot come from Chetan as well"


def test_a_face_up_card_seen_twice_counts_once():
    """Chetan's queen from trick 1 read again at his spot after he has played another."""
    r = story()
    for zone, c in [("seat1", "2H"), ("seat2", "QH"), ("seat3", "9H"), ("seat0", "8H"),
                    ("seat2", "AD"), ("seat3", "6D"), ("seat0", "2D"), ("seat1", "8D")]:
        see(r, zone, c)
    out = see(r, "seat2", "QH")
    assert refusal(out) == "QH is already on the table (Chetan played it in trick 1); seen again, it is counted once"
    assert kinds(see(r, "seat1", "8D")) == ["duplicate-read"]  # the card lying there now


def _log_with_a_refusal_and_a_proof(tmp_path) -> str:
    r = story()
    see(r, "seat1", "2H")
    see(r, "seat2", "AC")  # flagged; the proof, QH, is Chetan's own
    see(r, "seat3", "KD")  # Chetan's card on Dua's spot: the full text names it
    path = tmp_path / "table.log"
    path.write_text(default_table_log(r))
    return str(path)


def _replay(log: str, capsys, *flags: str) -> list[dict]:
    assert main(["replay", log, *flags]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_replay_prints_each_refusal_once_for_the_chosen_audience(tmp_path, capsys):
    log = _log_with_a_refusal_and_a_proof(tmp_path)
    admin = _replay(log, capsys)
    assert admin == _replay(log, capsys, "--audience", "admin")
    public = _replay(log, capsys, "--audience", "public")
    assert public == _replay(log, capsys, "--public")
    seat2 = _replay(log, capsys, "--audience", "seat:2")
    seat0 = _replay(log, capsys, "--audience", "seat:0")

    def refusals(events: list[dict]) -> list[str]:
        return [e["message"] for e in events if e["event"] == "impossible"]

    assert refusals(admin) == ["KD was dealt to Chetan, it cannot come from Dua"]
    assert refusals(public) == refusals(seat2) == ["a card was dealt to Chetan, it cannot come from Dua"]
    assert [e["card"] for e in admin if e["event"] == "revoke-proof"] == ["QH"]
    assert [e["card"] for e in seat2 if e["event"] == "revoke-proof"] == ["QH"]
    assert not [e for e in public + seat0 if e["event"] == "revoke-proof" or "private_to" in e]
    assert "QH" not in json.dumps([dict(e) for e in public])


def test_replay_refuses_an_unknown_audience(tmp_path, capsys):
    log = _log_with_a_refusal_and_a_proof(tmp_path)
    assert main(["replay", log, "--audience", "seat:7"]) == 2
    assert "seat:0 to seat:3" in capsys.readouterr().err


def test_each_public_copy_of_a_notice_is_followed_by_its_full_copy():
    """What lets the admin audience drop public copies: every redacted notice is paired
    with the admin's full copy of the same input, right after it."""
    r = story()
    see(r, "seat2", "KD")  # out of turn
    see(r, "seat1", "KD")  # Chetan's card on Bilal's spot
    see(r, "deal", "2S")  # a 53rd card
    r.command("undo")  # the notice names the card undone
    redacted = [i for i, e in enumerate(r.events) if e.get("redacted")]
    assert len(redacted) >= 3
    for i in redacted:
        public, full = r.events[i], r.events[i + 1]
        assert (full["private_to"], full["seq"], full["event"]) == (ADMIN, public["seq"], public["event"])
        assert sees(ADMIN, full) and not sees(ADMIN, public) and sees("public", public) and not sees("public", full)
