"""The queue with a real Celery worker on Redis: the count's task is queued
on commit, after the queue row is committed with the finish, so the worker
always finds the row and takes it off with the count; a table whose task was
lost waits in the queue until the sweep counts it."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import services
from stats.models import PendingTable
from stats.selectors import computed_through_get
from stats.tasks import stats_sweep
from tests.helpers import tables_finished_unqueued, until
from tests.stats.test_tasks import _play_out, _wait_counted, celery_worker

__all__ = ["celery_worker"]


@pytest.mark.timeout(90)
def test_the_worker_takes_a_finished_table_off_the_queue(
    celery_worker: None, finishing: set[int], settings, people, finished_table
) -> None:
    ada = User.objects.create_user("ada", password="x")
    bob = User.objects.create_user("bob", password="x")
    table = services.table_create(
        user=ada, game="alkort", players=2, options={"target": 1}
    )
    services.table_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=ada, seed="queue-worker")

    _play_out(table, [ada, bob])

    _wait_counted(table.pk)
    assert finishing == {table.pk}
    assert not PendingTable.objects.exists()
    assert tables_finished_unqueued(finishing) == []

    settings.STATS_SWEEP_GRACE_SECONDS = 0
    lost = finished_table("alkort", people(2), options={"target": 1})
    assert computed_through_get()["pending"] == 1
    stats_sweep.delay()
    _wait_counted(lost)
    until(lambda: not PendingTable.objects.exists(), "the queue to empty")
    assert computed_through_get()["pending"] == 0
