"""Deck enrollment from a plain list, from the simulated PN532, and from the command line."""

from __future__ import annotations

import threading

import pytest

from controller.cli import main
from controller.decks.deckmap import (
    DECK_ORDER,
    DeckError,
    DeckFileError,
    DeckMap,
    DeckStore,
    LookupKind,
)
from controller.decks.enroll import (
    Enrollment,
    EnrollmentIncomplete,
    Outcome,
    Prompt,
    Step,
    card_name,
    enroll_deck,
)
from controller.readers.pn532 import Pn532Reader
from controller.readers.pn532_sim import SimulatedPn532
from controller.readers.sightings import TagSeen


def tag_ids(seed: int, n: int = 52) -> list[str]:
    """Distinct 4-byte UIDs, made from a seed so each deck differs."""
    return [f"{seed:02X}{i:02X}A0{(seed * 7 + i) % 256:02X}" for i in range(n)]


def run(name, tags, store, **kw):
    prompts: list[Prompt] = []
    steps: list[Step] = []
    deck, path = enroll_deck(
        name, tags, store, on_prompt=prompts.append, on_step=steps.append, **kw
    )
    return deck, path, prompts, steps


def test_card_names():
    assert card_name("AS") == "Ace of Spades"
    assert card_name("TD") == "Ten of Diamonds"
    assert card_name("2C") == "Two of Clubs"


def test_plain_list_enrolls_in_order_and_saves(tmp_path):
    store = DeckStore(tmp_path)
    tags = tag_ids(1)
    deck, path, prompts, steps = run("red", iter(tags), store)
    assert [p.card for p in prompts] == list(DECK_ORDER)
    assert prompts[0].text() == "[ 1/52] Tap the Ace of Spades (AS)"
    assert prompts[13].as_dict() == {
        "deck": "red",
        "card": "AH",
        "name": "Ace of Hearts",
        "index": 13,
        "total": 52,
    }
    assert all(s.accepted for s in steps) and len(steps) == 52
    assert dict(deck.cards) == dict(zip(DECK_ORDER, tags, strict=True))
    assert path == tmp_path / "decks" / "red.json"
    assert store.load("red") == deck


def test_a_tag_tapped_twice_is_refused_and_the_card_asked_again(tmp_path):
    tags = tag_ids(2)
    stream = tags[:3] + [tags[1]] + tags[3:]  # the KS tag again when JS is asked
    deck, _, prompts, steps = run("red", stream, DeckStore(tmp_path))
    refused = [s for s in steps if not s.accepted]
    assert len(refused) == 1
    (r,) = refused
    assert (r.outcome, r.card, r.other_card) == (Outcome.ALREADY_ENROLLED, "JS", "KS")
    assert (
        "already the King of Spades (KS)" in r.message
        and "Tap the Jack of Spades (JS)" in r.message
    )
    assert [p.card for p in prompts[3:5]] == ["JS", "JS"]  # asked again
    assert deck.tag_of("JS") == tags[3]


def test_a_tag_of_another_deck_is_refused_naming_that_deck(tmp_path):
    store = DeckStore(tmp_path)
    blue, _, _, _ = run("blue", tag_ids(3), store)
    stream = [blue.tag_of("8D")] + tag_ids(4)
    deck, _, _, steps = run("red", stream, store)
    first = steps[0]
    assert (first.outcome, first.other_deck, first.other_card) == (Outcome.OTHER_DECK, "blue", "8D")
    assert "Eight of Diamonds of deck 'blue'" in first.message
    assert steps[1].accepted and deck.tag_of("AS") == tag_ids(4)[0]
    # and the deck map then tells the two apart
    decks = DeckMap.load(tmp_path, active="red")
    assert decks.lookup(blue.tag_of("8D")).kind is LookupKind.OTHER_DECK


def test_existing_deck_is_only_replaced_when_asked(tmp_path):
    store = DeckStore(tmp_path)
    old, _, _, _ = run("red", tag_ids(5), store)
    with pytest.raises(DeckError, match="already enrolled"):
        run("red", tag_ids(6), store)
    assert store.load("red") == old
    # re-enrolling the same physical deck: its own tags are not "another deck"
    new, _, _, steps = run("red", list(reversed(tag_ids(5))), store, replace=True)
    assert all(s.accepted for s in steps)
    assert store.load("red") == new != old


def test_a_source_that_runs_dry_saves_nothing(tmp_path):
    store = DeckStore(tmp_path)
    with pytest.raises(EnrollmentIncomplete, match="only 51 of 52"):
        run("red", tag_ids(7, 51), store)
    assert store.names() == []


def test_a_corrupt_deck_file_stops_enrollment_with_its_name(tmp_path):
    store = DeckStore(tmp_path)
    store.root.mkdir(parents=True)
    (store.root / "blue.json").write_text('{"format": "courtpiece-deck"')
    with pytest.raises(DeckFileError, match="blue.json: not valid JSON"):
        run("red", tag_ids(8), store)


def test_garbage_from_the_source_is_refused():
    e = Enrollment("red")
    step = e.offer("not hex")
    assert step.outcome is Outcome.NOT_A_TAG and e.next_card == "AS"
    assert e.offer("04a1b2c3").accepted  # lower case is fine: normalised
    assert e.enrolled == {"AS": "04A1B2C3"}


def test_undo_takes_back_the_last_card():
    e = Enrollment("red")
    e.offer("01020304")
    e.offer("01020305")
    assert e.undo().card == "KS"
    assert e.offer("01020305").accepted  # the tag is free again
    with pytest.raises(EnrollmentIncomplete):
        e.deck()


def test_enrollment_with_the_simulated_pn532(tmp_path):
    uids = [f"04{i:02X}1122334455" for i in range(52)]
    with SimulatedPn532() as sim:
        reader = Pn532Reader(
            "deal", sim.port, poll_interval=0.002, removal_polls=2, ack_timeout=1.0
        )
        stop = threading.Event()

        def hand():
            for i, uid in enumerate(uids):
                # the reader stops after the last card: do not wait for its lifting
                sim.tap(uid, empty_polls=2 if i < 51 else 0)
                if i == 9:
                    sim.tap(uids[0], empty_polls=2)  # oops: the ace of spades again

        t = threading.Thread(target=hand, daemon=True)
        t.start()
        tags = (s.tag for s in reader.sightings(stop) if isinstance(s, TagSeen))
        try:
            deck, _, _, steps = run("table", tags, DeckStore(tmp_path))
        finally:
            stop.set()
            reader.close()
            t.join(timeout=10)
    assert [(s.card, s.other_card) for s in steps if not s.accepted] == [("4S", "AS")]
    assert [deck.tag_of(c) for c in DECK_ORDER] == uids


# ------------------------------------------------------------------ command line


def test_cli_enrolls_with_the_simulated_reader(tmp_path, capsys):
    assert main(["enroll", "--deck", "red", "--state-dir", str(tmp_path), "--reader", "sim"]) == 0
    out = capsys.readouterr().out
    assert "[ 1/52] Tap the Ace of Spades (AS)" in out
    assert "[52/52] Tap the Two of Clubs (2C)" in out
    assert "saved to" in out
    decks = DeckMap.load(tmp_path)
    assert decks.active.name == "red" and len(decks.active.tags) == 52


def test_cli_refuses_to_overwrite_without_replace(tmp_path, capsys):
    DeckStore(tmp_path).save(run("red", tag_ids(9), DeckStore(tmp_path / "x"))[0])
    assert main(["enroll", "--deck", "red", "--state-dir", str(tmp_path), "--reader", "sim"]) == 1
    assert "--replace" in capsys.readouterr().err


def test_cli_enrolls_a_deck_tapped_on_the_reader_hub(tmp_path, capsys):
    """`--reader hub`: the real hub driver over a pty; a tap read twice still counts once."""
    import time

    from controller.readers.virtual_hub import VirtualHub

    tags = [f"0A{i:06X}" for i in range(52)]
    with VirtualHub(link_path=tmp_path / "hub") as hub:
        result: list[int] = []
        worker = threading.Thread(target=lambda: result.append(main(
            ["enroll", "--deck", "blue", "--state-dir", str(tmp_path), "--reader", "hub", "--port", hub.port])))
        worker.start()
        assert hub.wait_host(10)
        for tag in tags:
            hub.place("deal", tag, reads=2)
            hub.remove("deal")
        deadline = time.monotonic() + 30
        while worker.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        worker.join(5)
    assert result == [0]
    deck = DeckStore(tmp_path).load("blue")
    assert [deck.tag_of(c) for c in DECK_ORDER] == tags


@pytest.mark.parametrize("reader", ["pn532", "rdm6300"])
def test_cli_bad_port_fails_at_once(tmp_path, capsys, reader):
    args = ["enroll", "--deck", "red", "--state-dir", str(tmp_path), "--reader", reader]
    assert main([*args, "--port", "/dev/no-such-reader"]) == 1
    assert "/dev/no-such-reader" in capsys.readouterr().err
    assert DeckStore(tmp_path).names() == []
