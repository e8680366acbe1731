"""Reading options and cards as the config file, the CLI and the readers write them:
mutation testing found the text parsing unpinned (what "yes" means, a list of calls, a
deal written 5,4,4, a card written 10H). See docs/mutation.md.
"""

from __future__ import annotations

import pytest

from controller.rules import Card, OptionError, preset
from controller.rules.cards import card
from controller.rules.options import CallerRule, HandEnd, Options, TrumpCall


@pytest.mark.parametrize(("text", "value"), [("yes", True), ("On", True), ("1", True), ("true", True),
                                             ("no", False), ("OFF", False), ("0", False), ("false", False),
                                             (True, True), (False, False)])
def test_a_switch_reads_the_usual_words(text: object, value: bool) -> None:
    assert Options().with_changes(sweep_stop=text).sweep_stop is value


def test_numbers_lists_and_names_are_read_from_text() -> None:
    o = Options().with_changes(match_target="104", deal_batches="5,8", trump_calls="announced, hidden",
                               caller="bidding", hand_end="all")
    assert o.match_target == 104 and o.deal_batches == (5, 8)
    assert o.trump_calls == frozenset({TrumpCall.ANNOUNCED, TrumpCall.HIDDEN})
    assert o.caller is CallerRule.BIDDING and o.hand_end is HandEnd.ALL
    assert Options().with_changes(deal_batches=[5, 4, 4], trump_calls=[TrumpCall.SHOWN]).trump_calls == \
        frozenset({TrumpCall.SHOWN})


@pytest.mark.parametrize(("name", "value", "says"), [
    ("sweep_stop", "maybe", "bad value 'maybe' for option 'sweep-stop'"),
    ("match_target", True, "bad value True for option 'match-target'"),
    ("match_target", "ten", "bad value 'ten' for option 'match-target'"),
    ("hand_end", "never", "bad value 'never' for option 'hand-end' (one of: all, seven, bid)"),
    ("trump_calls", "shouted", "(a list of: announced, shown, deferred, card-number, hidden, first-void)"),
    ("deal_batches", "5,x", "bad value '5,x' for option 'deal-batches'"),
])
def test_a_bad_value_is_refused_in_the_options_own_words(name: str, value: object, says: str) -> None:
    with pytest.raises(OptionError) as caught:
        Options().with_changes(**{name: value})
    assert says in str(caught.value)


def test_an_unknown_option_or_preset_is_named() -> None:
    with pytest.raises(OptionError, match="unknown option 'colour'"):
        Options().with_changes(colour="red")
    with pytest.raises(OptionError, match="unknown preset 'snap'"):
        preset("snap")


@pytest.mark.parametrize(("text", "expected"), [("AS", "AS"), ("td", "TD"), ("10H", "TH"), (" 7c ", "7C"),
                                                ("2d", "2D")])
def test_a_card_is_read_as_players_write_it(text: str, expected: str) -> None:
    assert card(text).text == expected and Card.parse(text) is card(expected)


@pytest.mark.parametrize("text", ["", "A", "1S", "AX", "10", "ASS", "11H"])
def test_text_that_is_no_card_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        card(text)
