"""Which zones the referee tells the reader hub to poll (``Referee.zones_in_use``): the
deal spot alone while the cards of a read deal come, the trump spot too once a trump may
be put down, every zone otherwise. In process, so the referee's mutation run
(bench/mutation.py --part referee) judges it; the real hub on a pty follows it in
test_hub_follows_the_deal.py."""

from __future__ import annotations

from controller.referee.referee import Referee
from controller.rules import Phase

from .tablekit import STORY_HANDS, deal_sightings, new_match_args, see


def test_the_zones_that_matter_follow_a_dealt_hand() -> None:
    r = Referee()
    assert r.zones_in_use() is None  # no match: every zone
    r.command("new-match", new_match_args("court-piece"))
    assert r.zones_in_use() == ("deal",)
    order = deal_sightings(STORY_HANDS)
    for card in order[:19]:
        see(r, "deal", card)
    assert r.zones_in_use() == ("deal",)  # the first five each are not all out yet
    see(r, "deal", order[19])
    assert r.zones_in_use() == ("deal", "trump")  # the caller may put a trump down now
    r.command("call-trump", {"suit": "S"})
    assert r.zones_in_use() == ("deal",)
    for card in order[20:51]:
        see(r, "deal", card)
    assert r.zones_in_use() == ("deal",)
    see(r, "deal", order[51])
    assert r.match is not None and r.match.phase is Phase.PLAY
    assert r.zones_in_use() is None


def test_a_deal_read_whole_before_the_call_polls_every_zone() -> None:
    """The dealer may deal on before trump is called: once all 52 are out no card comes
    over the deal spot any more, so nothing is left to give it every turn for."""
    r = Referee()
    r.command("new-match", new_match_args("court-piece"))
    for card in deal_sightings(STORY_HANDS):
        see(r, "deal", card)
    assert r.match is not None and r.match.phase is Phase.CALL
    assert r.zones_in_use() is None


def test_a_played_mode_match_reads_no_deal_so_every_zone_is_polled() -> None:
    r = Referee()
    r.command("new-match", new_match_args("court-piece", knowledge="played"))
    assert r.zones_in_use() is None
