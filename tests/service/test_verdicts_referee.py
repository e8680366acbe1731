"""Issue 10's verdicts as the table meets them: through the referee's commands."""

from __future__ import annotations

from controller.readers.sightings import CardSeen
from controller.referee.referee import Referee

from .tablekit import new_match_args


def test_band_rung_dealer_hides_his_trump_after_three_passes_without_naming_a_seat() -> None:
    """004 5.5: after three passes the dealer is caller at once, so the table's
    'hide trump' command needs no seat (it was refused with 'which seat?')."""
    r = Referee()
    r.command("new-match", new_match_args("band-rung", first_dealer=3), at=1.0)
    first_five = ["2S 3S 4S 5S 6S", "7S 8S 9S TS JS", "QS KS AS 2C 3C", "4C 5C 6C 7C 8C"]
    for five in first_five:  # seats 0, 1, 2, then the dealer (3)
        for text in five.split():
            r.sighting(CardSeen("deal", text, 1.5, "test"))
    for _ in range(3):
        out = r.command("pass", {}, at=2.0)
        assert out[0]["event"] == "bid-passed", out
    won = [e for e in r.events if e["event"] == "auction-won"]
    assert [(e["seat"], e["tricks"], e["forced"]) for e in won] == [(3, 9, True)]
    out = r.command("hide-trump", {"card": "6C"}, at=3.0)
    assert [e["event"] for e in out] == ["trump-hidden", "trump-set-secretly"], out
    assert r.match is not None and r.match.hand.caller == 3
