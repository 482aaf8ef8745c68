"""Follow-ups of a table change: live play, bot turns, statistics.

What other processes must hear about is scheduled with
``transaction.on_commit`` and never runs for a rolled-back change. (The row
lock and seats are in ``games.services.locking``; state loading and
recording in ``games.services.recording``.)
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

import rules
from games import realtime, signals
from games.models import Seat, Table, TableStatus


def followups_schedule(
    *,
    table: Table,
    bots_to_act: bool = False,
    queue_bots: bool = True,
) -> None:
    """On commit: notify live play; queue bot turns; announce a finished match.

    ``bots_to_act`` says a bot seat may act now; ``queue_bots=False`` is for
    the bot loop itself, which plays on without queuing another task.
    """
    table_id, seq = table.pk, table.seq
    transaction.on_commit(lambda: realtime.table_changed(table_id, seq), robust=True)
    if table.status == TableStatus.FINISHED:
        transaction.on_commit(lambda: _table_finished_send(table_id), robust=True)
    elif bots_to_act and queue_bots:
        transaction.on_commit(lambda: bot_turns_queue(table_id, seq), robust=True)


def _table_finished_send(table_id: int) -> None:
    # send_robust logs a failing receiver and goes on with the others.
    signals.table_finished.send_robust(sender=Table, table_id=table_id)


def bot_turns_queue(table_id: int, seq: int) -> None:
    """Queue the bot-turn task for the table as it stands at ``seq``."""
    from games.tasks import bot_turns_play

    bot_turns_play.delay(table_id, seq)


def bots_to_act(game: rules.Game[Any], state: Any, seats: list[Seat]) -> bool:
    """Whether some bot seat is among the seats that may act now."""
    to_act = set(game.to_act(state))
    return any(s.bot_level is not None and s.index in to_act for s in seats)
