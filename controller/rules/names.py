"""Names shared by the engine's parts: knowledge modes and the rules a flag can cite.

Rule names appear in ``RevokeFlagged.rule``; they are stable because the dashboard
translates them.
"""

from __future__ import annotations

DEALT = "dealt"
PLAYED = "played"

# Rule names used in RevokeFlagged.rule (stable: the dashboard translates them).
FOLLOW_SUIT = "follow-suit"
TRUMP_AFTER_ASK = "trump-after-ask"
MUST_ASK = "must-ask"
LEAD_TRUMP_AFTER_REVEAL = "lead-trump-after-reveal"
ACE_WITHDRAW = "ace-withdraw"
FACE_DOWN_NOT_VOID = "face-down-not-void"
FACE_DOWN_TRUMP = "face-down-trump"


def seat_name(seat: int) -> str:
    return f"seat {seat}"
