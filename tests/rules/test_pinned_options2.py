"""A preset's variant that does not exist is refused with the variants it does have, or
"none" (mutation testing found the wording of both cases unpinned; docs/mutation.md)."""

from __future__ import annotations

import pytest

from controller.rules import preset
from controller.rules.options import OptionError


def test_an_unknown_variant_is_refused_with_the_known_ones() -> None:
    with pytest.raises(OptionError, match=r"^preset 'court-piece' has no variant 'sweep' "
                                          r"\(variants: trump-card-show, trump-deferred, double-sir\)$"):
        preset("court-piece", "sweep")


def test_a_preset_without_variants_says_so() -> None:
    with pytest.raises(OptionError, match=r"^preset 'rang' has no variant 'sweep' \(variants: none\)$"):
        preset("rang", "sweep")
