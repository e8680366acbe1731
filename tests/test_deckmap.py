"""Deck maps: validation, files in the state directory, lookups across decks."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.decks.deckmap import (
    DECK_ORDER,
    Deck,
    DeckError,
    DeckFileError,
    DeckMap,
    DeckStore,
    LookupKind,
    normalize_tag,
)
from controller.readers.sightings import CardSeen, TagSeen


def make_deck(name: str, seed: int) -> Deck:
    rng = random.Random(seed)
    tags = set()
    while len(tags) < 52:
        tags.add(rng.randbytes(4).hex().upper())
    return Deck(name, dict(zip(DECK_ORDER, sorted(tags), strict=True)))


def test_deck_order_is_spades_hearts_diamonds_clubs_ace_high():
    assert DECK_ORDER[:3] == ("AS", "KS", "QS")
    assert DECK_ORDER[12:15] == ("2S", "AH", "KH")
    assert DECK_ORDER[-1] == "2C"
    assert len(set(DECK_ORDER)) == 52


def test_a_deck_needs_all_52_cards():
    cards = dict(make_deck("red", 1).cards)
    del cards["7H"]
    with pytest.raises(DeckError, match="51 cards.*missing: 7H"):
        Deck("red", cards)


def test_a_deck_needs_52_distinct_tags():
    cards = dict(make_deck("red", 1).cards)
    cards["KS"] = cards["AS"]
    with pytest.raises(DeckError, match=r"tag \w+ is on both AS and KS"):
        Deck("red", cards)


def test_card_names_are_checked():
    cards = dict(make_deck("red", 1).cards)
    cards["1S"] = "DEADBEEF"
    with pytest.raises(DeckError, match="not card names: 1S"):
        Deck("red", cards)


def test_tags_are_normalized_and_checked():
    assert normalize_tag(" 04a1b2c3 ") == "04A1B2C3"
    for bad in ["", "XYZ1", "ABC", "00" * 11]:
        with pytest.raises(ValueError):
            normalize_tag(bad)
    cards = {c: t.lower() for c, t in make_deck("red", 1).cards.items()}
    assert Deck("red", cards) == make_deck("red", 1)


@pytest.mark.parametrize("name", ["", "../etc", "a b", "x" * 65, "-lead"])
def test_deck_names_are_safe_file_names(name):
    with pytest.raises(DeckError, match="bad deck name"):
        Deck(name, make_deck("ok", 1).cards)


def test_save_and_load_round_trip(tmp_path):
    store = DeckStore(tmp_path)
    deck = make_deck("red", 7)
    path = store.save(deck)
    assert path == tmp_path / "decks" / "red.json"
    assert store.load("red") == deck
    assert store.names() == ["red"]
    data = json.loads(path.read_text())
    assert data["format"] == "courtpiece-deck" and list(data["cards"])[:2] == ["AS", "KS"]
    assert [p.name for p in (tmp_path / "decks").iterdir()] == ["red.json"]  # no temp left


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "not a JSON object"),
        ('{"format": "something-else"}', "not a deck file"),
        ('{"format": "courtpiece-deck", "version": 9}', "unsupported deck file version"),
        (
            '{"format": "courtpiece-deck", "version": 1, "name": "red", "cards": {"AS": "0102"}}',
            "missing",
        ),
        (b"\xff\xfe\x00".decode("latin-1"), "not valid JSON"),
    ],
)
def test_corrupt_file_names_the_file(tmp_path, content, problem):
    store = DeckStore(tmp_path)
    store.root.mkdir(parents=True)
    (store.root / "red.json").write_text(content)
    with pytest.raises(DeckFileError) as err:
        store.load("red")
    assert str(err.value).startswith(str(tmp_path / "decks" / "red.json"))
    assert problem in str(err.value)


def test_file_whose_name_disagrees_with_its_content(tmp_path):
    store = DeckStore(tmp_path)
    store.save(make_deck("red", 1))
    (store.root / "red.json").rename(store.root / "blue.json")
    with pytest.raises(DeckFileError, match="blue.json: file says the deck is 'red'"):
        store.load("blue")


def test_missing_deck_lists_the_enrolled_ones(tmp_path):
    store = DeckStore(tmp_path)
    store.save(make_deck("red", 1))
    with pytest.raises(DeckFileError, match="no deck named 'blue' \\(enrolled: red\\)"):
        store.load("blue")


def test_lookup_tells_active_other_and_unknown(tmp_path):
    store = DeckStore(tmp_path)
    red, blue = make_deck("red", 1), make_deck("blue", 2)
    store.save(red)
    store.save(blue)
    decks = DeckMap.load(tmp_path, active="red")

    known = decks.lookup(red.tag_of("QH").lower())
    assert (known.kind, known.card, known.deck) == (LookupKind.KNOWN, "QH", "red")

    other = decks.lookup(blue.tag_of("3C"))
    assert (other.kind, other.card, other.deck) == (LookupKind.OTHER_DECK, "3C", "blue")
    assert "another deck, 'blue'" in other.describe()

    unknown = decks.lookup("DEADBEEFDEAD")
    assert (unknown.kind, unknown.card, unknown.deck) == (LookupKind.UNKNOWN, None, None)

    flipped = decks.with_active("blue").lookup(blue.tag_of("3C"))
    assert flipped.kind is LookupKind.KNOWN


def test_card_seen_from_tag_seen(tmp_path):
    red = make_deck("red", 1)
    decks = DeckMap([red, make_deck("blue", 2)], active="red")
    seen = TagSeen(zone="seat3", tag=red.tag_of("TD"), at=12.5, source="pn532:/dev/serial0")
    assert decks.card_seen(seen) == CardSeen(
        zone="seat3", card="TD", at=12.5, source="pn532:/dev/serial0"
    )
    assert decks.card_seen(TagSeen("seat3", "00112233", 1.0, "x")) is None


def test_active_deck_must_be_named_when_there_are_several(tmp_path):
    store = DeckStore(tmp_path)
    store.save(make_deck("red", 1))
    assert DeckMap.load(tmp_path).active.name == "red"
    store.save(make_deck("blue", 2))
    with pytest.raises(DeckError, match="say which deck is active.*blue, red"):
        DeckMap.load(tmp_path)
    with pytest.raises(DeckError, match="'green' is not enrolled"):
        DeckMap.load(tmp_path, active="green")


def test_a_tag_in_two_decks_is_refused(tmp_path):
    red = make_deck("red", 1)
    cards = dict(make_deck("blue", 2).cards)
    cards["AS"] = red.tag_of("KC")
    with pytest.raises(DeckError, match="both deck 'red' \\(KC\\) and deck 'blue' \\(AS\\)"):
        DeckMap([red, Deck("blue", cards)], active="red")


def test_no_decks_at_all(tmp_path):
    assert DeckStore(tmp_path).names() == []
    with pytest.raises(DeckError, match="none"):
        DeckMap.load(tmp_path)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32), card=st.sampled_from(DECK_ORDER))
def test_every_card_maps_back_to_itself(seed, card):
    deck = make_deck("any", seed)
    assert deck.card_of(deck.tag_of(card)) == card
    assert DeckMap([deck], "any").lookup(deck.tag_of(card)).card == card
