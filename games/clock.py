"""The move clock of timed tables (docs/live-protocol.md, "Turn timers")."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from games.models import TableStatus


def turn_deadline(table: Any) -> datetime | None:
    """When the current move's time runs out (timed tables in play).

    ``table`` is a ``Table`` or anything with its ``time_control``,
    ``status`` and ``updated_at``. A move's clock starts when the previous
    move was stored: every move writes the table's ``updated_at`` with its
    events.
    """
    if not table.time_control or table.status != TableStatus.PLAYING:
        return None
    deadline: datetime = table.updated_at + timedelta(seconds=table.time_control)
    return deadline
