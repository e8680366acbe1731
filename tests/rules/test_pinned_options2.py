"""Refusals of option and card text whose wording mutation testing found unpinned
(docs/mutation.md): a preset's unknown variant (the variants it has, or "none"), a bad
value for a plain option, and text that is no card."""

from __future__ import annotations

import re

import pytest

from controller.rules import Card, preset
from controller.rules.options import PRESETS, OptionError, Options


def test_an_unknown_variant_is_refused_with_the_known_ones() -> None:
    with pytest.raises(OptionError, match=r"^preset 'court-piece' has no variant 'sweep' "
                                          r"\(variants: trump-card-show, trump-deferred, double-sir\)$"):
        preset("court-piece", "sweep")


def test_a_preset_without_variants_says_so() -> None:
    with pytest.raises(OptionError, match=r"^preset 'rang' has no variant 'sweep' \(variants: none\)$"):
        preset("rang", "sweep")


@pytest.mark.parametrize(("name", "value", "says"), [
    ("match_target", "ten", "bad value 'ten' for option 'match-target'"),
    ("sweep_stop", "maybe", "bad value 'maybe' for option 'sweep-stop'"),
])
def test_a_bad_number_or_yes_no_is_refused_in_one_plain_sentence(name: str, value: object, says: str) -> None:
    """Only options with a list of choices add them; the others end with the option's name."""
    with pytest.raises(OptionError) as caught:
        Options().with_changes(**{name: value})
    assert str(caught.value) == says


@pytest.mark.parametrize("text", ["XS", "AX", "1C"])
def test_text_that_is_no_card_is_refused_with_what_a_card_looks_like(text: str) -> None:
    """A rank that is no rank or a suit that is no suit: the reader is told the card form."""
    with pytest.raises(ValueError, match=r"^not a card: .* \(expected rank A K Q J T 9\.\.2 and suit S H D C\)$"):
        Card.parse(text)


def test_every_preset_is_listed_under_its_name_with_the_source_it_follows() -> None:
    """The presets command and the dashboard list each preset by name with its summary,
    which says which rule source (000-004) it follows."""
    for name, p in PRESETS.items():
        assert p.name == name
        assert re.search(r"\(source 00[0-4]\)", p.summary), name
