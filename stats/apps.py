from typing import Any

from django.apps import AppConfig


class StatsConfig(AppConfig):
    """Per-player and per-game statistics, ratings and their history."""

    name = "stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        from games.signals import table_finished, table_finishing

        table_finishing.connect(table_finishing_queue, dispatch_uid="stats-queue-table")
        table_finished.connect(table_finished_queue, dispatch_uid="stats-record-table")


def table_finishing_queue(sender: Any, table: Any, **kwargs: Any) -> None:
    """Put a table whose match is ending on the queue of tables waiting for
    their count, in the transaction that finishes it (``stats.PendingTable``)."""
    from stats.services.queue import table_queue_add

    table_queue_add(table=table)


def table_finished_queue(sender: Any, table_id: int, **kwargs: Any) -> None:
    """Queue the count of a table whose match just ended (sent on commit).

    A broker that is down or hung loses the task, never the move: the
    statistics sweep counts the table later (``config.broker``)."""
    from config.broker import task_send
    from stats.tasks import stats_record_table

    task_send(stats_record_table, (table_id,))
