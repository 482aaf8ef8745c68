"""The queue of finished tables waiting for their count (``stats.PendingTable``)."""

from __future__ import annotations

from collections.abc import Iterable

from games.models import Table
from stats.models import PendingTable


def table_queue_add(*, table: Table) -> None:
    """Queue ``table``, which the caller's transaction is finishing.

    Runs in that transaction (``games.signals.table_finishing``), so the row
    commits with the finish or rolls back with it; the count's task is
    queued on commit only, so it always finds the row. Lock: the caller holds
    the table row.
    """
    PendingTable.objects.create(
        table_id=table.pk, game=table.game, finished_at=table.finished_at
    )


def tables_queue_remove(*, table_ids: Iterable[int]) -> None:
    """Take counted tables off the queue, in the transaction that writes
    their ``CountedTable`` markers (the caller holds their game's writer lock).
    """
    PendingTable.objects.filter(table_id__in=list(table_ids)).delete()
