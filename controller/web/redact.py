"""What of a table event may leave the Pi on a public page or stream.

The referee decides each event's audience where it is made and writes its notices twice,
whole for the admin and without their secrets for everyone
(``controller.referee.table_events``); this is the one way a table event becomes public
JSON on the dashboard, the WebSocket and the club broker.
"""

from __future__ import annotations

from typing import Any

from controller.referee.table_events import PUBLIC, TableEvent, sees

__all__ = ["public_event"]


def public_event(event: TableEvent) -> dict[str, Any] | None:
    """The public JSON of a table event, or None when it is for one seat (or the admin) only."""
    if not sees(PUBLIC, event):
        return None
    return event.to_dict()
