from typing import Any

from django.apps import AppConfig


class StatsConfig(AppConfig):
    """Per-player and per-game statistics, ratings and their history."""

    name = "stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        from games.signals import table_finished

        table_finished.connect(table_finished_queue, dispatch_uid="stats-record-table")


def table_finished_queue(sender: Any, table_id: int, **kwargs: Any) -> None:
    """Queue the count of a table whose match just ended (sent on commit)."""
    from stats.tasks import stats_record_table

    stats_record_table.delay(table_id)
