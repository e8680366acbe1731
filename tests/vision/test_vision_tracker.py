"""Zone stability: debounce, removal, no double plays, covered cards."""

from __future__ import annotations

from vision.tracker import Reading, TrackerConfig, ZoneTracker

ZONES = ("seat0", "seat1")


def feed(tracker: ZoneTracker, frames: list[list[Reading]]) -> list[tuple[str, str, str]]:
    out = []
    for readings in frames:
        out += [(e.kind, e.zone, e.card) for e in tracker.update(readings, ZONES)]
    return out


def test_card_counts_as_played_after_configured_frames() -> None:
    for n in (1, 3, 5):
        t = ZoneTracker(TrackerConfig(frames_to_play=n))
        seen = [Reading("seat0", "AS", 0.9)]
        assert feed(t, [seen] * (n - 1)) == []
        assert feed(t, [seen]) == [("played", "seat0", "AS")]


def test_flicker_between_readings_restarts_the_count() -> None:
    t = ZoneTracker(TrackerConfig(frames_to_play=3))
    a, b = [Reading("seat1", "KH", 0.9)], [Reading("seat1", "KD", 0.9)]
    assert feed(t, [a, a, b, a, a]) == []
    assert feed(t, [a]) == [("played", "seat1", "KH")]


def test_low_confidence_readings_do_not_count() -> None:
    t = ZoneTracker(TrackerConfig(frames_to_play=2, min_confidence=0.6))
    assert feed(t, [[Reading("seat0", "2C", 0.3)]] * 5) == []


def test_removal_is_noticed_and_card_seen_again_is_not_a_second_play() -> None:
    t = ZoneTracker(TrackerConfig(frames_to_play=2, frames_to_clear=3))
    card = [Reading("seat0", "TD", 0.9)]
    assert feed(t, [card, card]) == [("played", "seat0", "TD")]
    assert feed(t, [[], []]) == []
    assert feed(t, [[]]) == [("removed", "seat0", "TD")]
    assert feed(t, [card] * 4) == []
    assert t.played("seat0") == ["TD"]


def test_half_covered_card_stays_played_and_next_card_is_played() -> None:
    t = ZoneTracker(TrackerConfig(frames_to_play=2, frames_to_clear=2))
    first = [Reading("seat0", "9S", 0.9)]
    assert feed(t, [first, first]) == [("played", "seat0", "9S")]
    # the next card goes on top: the first is now an unreadable outline or not read at all
    both = [Reading("seat0", None, 0.0), Reading("seat0", "QS", 0.9)]
    assert feed(t, [both, both, both]) == [("played", "seat0", "QS")]
    assert t.played("seat0") == ["9S", "QS"]


def test_new_hand_allows_the_same_card_again() -> None:
    t = ZoneTracker(TrackerConfig(frames_to_play=1))
    card = [Reading("seat0", "AH", 0.9)]
    assert feed(t, [card]) == [("played", "seat0", "AH")]
    t.new_hand()
    assert feed(t, [card]) == [("played", "seat0", "AH")]


def test_zones_are_independent() -> None:
    t = ZoneTracker(TrackerConfig(frames_to_play=2))
    frames = [[Reading("seat0", "5C", 0.9), Reading("seat1", "5C", 0.9)]] * 2
    assert feed(t, frames) == [("played", "seat0", "5C"), ("played", "seat1", "5C")]
