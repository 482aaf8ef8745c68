"""A Celery worker killed (SIGKILL) while it counts a table: counted once, later.

The worker is a real process (``tests.celery_worker``) on Redis and the test
database. Its count of a finished table is parked on the game's statistics
writer lock (``stats.locks``), held here by another session, when the worker
is killed with no chance to clean up. Nothing of the count may land; its
message stays unacknowledged in Redis (``CELERY_TASK_ACKS_LATE``) until the
broker's visibility timeout, so it is the statistics sweep, run by a new
worker, that counts the table, exactly once, and a late duplicate of the task
changes nothing (docs/operations.md, "Recovering from a failure").
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

import rules
from games.models import Table
from stats.locks import LOCK_NAMESPACE
from stats.models import CountedTable, PlayerGameStat
from stats.tasks import stats_record_table, stats_sweep
from tests.celery_worker import celery_worker, tasks_to
from tests.helpers import another_session, database_url, lock_waiters, until

pytestmark = [pytest.mark.timeout(120), pytest.mark.django_db(transaction=True)]


def _long_finished(table_id: int) -> None:
    """Past the sweep's grace: its own task would have come long ago."""
    Table.objects.filter(pk=table_id).update(
        finished_at=timezone.now() - timedelta(hours=1)
    )


def test_a_count_killed_with_its_worker_is_made_once_by_the_sweep(
    tmp_path: Path, people, finished_table
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the writer lock is a PostgreSQL advisory lock")
    players = people(2)
    table_id = finished_table("alkort", players, options={"target": 1})
    url = database_url(connection.settings_dict["NAME"])

    with another_session() as holder:
        holder.execute(
            "SELECT pg_advisory_xact_lock(%s, %s)",
            [LOCK_NAMESPACE, rules.GAMES.index("alkort")],
        )
        with (
            celery_worker("stats-killed", tmp_path / "w1.log", database_url=url) as w,
            tasks_to(w),
        ):
            stats_record_table.delay(table_id)
            until(lock_waiters, f"the count never waited:\n{w.log_text()}")
            parked = lock_waiters()
            w.process.kill()
            w.process.wait()
        holder.rollback()
    # The parked session gets the lock, finds its client gone and ends:
    # nothing of the count was written.
    until(lambda: not set(parked) & set(lock_waiters()), "it stayed")
    assert not CountedTable.objects.filter(table_id=table_id).exists()

    _long_finished(table_id)
    with (
        celery_worker(
            "stats-killed", tmp_path / "w2.log", database_url=url, sends_to_itself=True
        ) as w,
        tasks_to(w),
    ):
        stats_sweep.delay()
        until(
            lambda: CountedTable.objects.filter(table_id=table_id).exists(),
            f"the sweep did not count it:\n{w.log_text()}",
        )
        # A late duplicate (the killed worker's message, once Redis hands it
        # out again) changes nothing. The solo worker runs its queue in
        # order: once a table swept after it is counted, it has run.
        stats_record_table.delay(table_id)
        marker = finished_table("alkort", people(2), options={"target": 1})
        _long_finished(marker)
        stats_sweep.delay()
        until(
            lambda: CountedTable.objects.filter(table_id=marker).exists(),
            f"the marker was not counted:\n{w.log_text()}",
        )

    stats = PlayerGameStat.objects.filter(user__in=players, game="alkort")
    assert [s.counters["matches"] for s in stats] == [1, 1]
    assert CountedTable.objects.filter(table_id=table_id).count() == 1
