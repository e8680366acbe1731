"""Turn noisy per-frame readings into plays: debounce, removal, no double counting.

A single frame can misread (glare, a hand passing over), so a card counts as played only
after it has read the same in one zone for ``frames_to_play`` frames in a row. Once
played it is remembered for that zone until :meth:`ZoneTracker.new_hand`: seeing it again
(after it was lifted and put back, or when the next card half covers it and it comes and
goes from view) is not a second play. A zone with nothing in it for ``frames_to_clear``
frames reports its cards removed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Reading:
    """One card outline seen in one frame: its zone and what it read as (None = unreadable)."""

    zone: str
    card: str | None
    confidence: float


@dataclass(frozen=True)
class ZoneEvent:
    kind: str  # "played" or "removed"
    zone: str
    card: str
    frame: int


@dataclass
class TrackerConfig:
    frames_to_play: int = 3
    frames_to_clear: int = 5
    min_confidence: float = 0.5


@dataclass
class _ZoneState:
    streak: dict[str, int] = field(default_factory=dict)  # card -> consecutive frames read
    played: list[str] = field(default_factory=list)  # this hand, in order
    present: set[str] = field(default_factory=set)  # played and not yet removed
    empty_frames: int = 0


class ZoneTracker:
    def __init__(self, config: TrackerConfig | None = None) -> None:
        self.config = config or TrackerConfig()
        self.zones: dict[str, _ZoneState] = {}
        self.frame = 0

    def new_hand(self) -> None:
        """Forget what was played (a new deal), so the same cards can be played again."""
        self.zones.clear()

    def played(self, zone: str) -> list[str]:
        return list(self.zones.get(zone, _ZoneState()).played)

    def update(self, readings: Iterable[Reading], zones: Iterable[str] = ()) -> list[ZoneEvent]:
        """Feed one frame's readings; ``zones`` names every zone watched (so empties count)."""
        self.frame += 1
        cfg = self.config
        by_zone: dict[str, list[Reading]] = {z: [] for z in zones}
        for r in readings:
            by_zone.setdefault(r.zone, []).append(r)
        events: list[ZoneEvent] = []
        for zone, rs in by_zone.items():
            st = self.zones.setdefault(zone, _ZoneState())
            if not rs:  # nothing card-shaped in the zone at all
                st.empty_frames += 1
                st.streak.clear()
                if st.empty_frames >= cfg.frames_to_clear and st.present:
                    for card in sorted(st.present):
                        events.append(ZoneEvent("removed", zone, card, self.frame))
                    st.present.clear()
                continue
            st.empty_frames = 0
            # An outline that cannot be read (covered, glare) keeps what is there: it is
            # neither a new card nor a removal.
            seen = {r.card for r in rs if r.card is not None and r.confidence >= cfg.min_confidence}
            st.streak = {c: st.streak.get(c, 0) + 1 for c in seen}
            for card in sorted(seen):
                if card in st.played:
                    st.present.add(card)
                    continue
                if st.streak[card] >= cfg.frames_to_play:
                    st.played.append(card)
                    st.present.add(card)
                    events.append(ZoneEvent("played", zone, card, self.frame))
        return events
