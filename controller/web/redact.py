"""What of a table event may leave the Pi on a public page or stream.

The referee already publishes its notices with card names scrubbed (``controller.referee.notices``)
and marks private events with ``private_to``; this is the web's own last check on the
way out, so a future notice kind cannot leak through the dashboard by mistake.
"""

from __future__ import annotations

from typing import Any

from controller.referee.notices import NOTICE_EVENTS, PUBLIC, public_copy, scrub, sees

__all__ = ["NOTICE_EVENTS", "public_event", "scrub"]


def public_event(event: dict[str, Any]) -> dict[str, Any] | None:
    """The public copy of a table event, or None when it is for one seat (or the admin) only."""
    if not sees(PUBLIC, event):
        return None
    return dict(public_copy(event))
