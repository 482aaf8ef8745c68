"""Hooks into the games app: a tournament table's match ended.

``games.signals.table_finished`` is sent on commit once per finished match;
if the table belongs to a tournament, its standings task is queued (on
commit, in case a caller sends the signal inside a transaction), through
``config.broker`` so that a broker down or hung does not hold the commit's
thread (the tournaments sweep queues a lost one again).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournaments.models import RoundTable


def table_finished_receiver(sender: Any, table_id: int, **kwargs: Any) -> None:
    """Queue ``tournament_standings_update`` for the table's tournament, if any."""
    tournament_id = (
        RoundTable.objects.filter(table_id=table_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        return
    from config.broker import task_send
    from tournaments.tasks import tournament_standings_update

    transaction.on_commit(
        lambda: task_send(tournament_standings_update, (tournament_id,)), robust=True
    )
