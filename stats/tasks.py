"""Celery tasks of the statistics app. They take ids, are idempotent, may run twice."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from stats.selectors import table_list_uncounted
from stats.services import table_record
from stats.services.reconcile import stats_reconcile as reconcile


@shared_task(
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def stats_record_table(table_id: int) -> bool:
    """Count finished table ``table_id`` (queued on commit when a match ends).

    Counting twice changes nothing (``stats.services.table_record``). A lost
    database connection is retried with backoff; the sweep catches the rest.
    """
    return table_record(table_id=table_id)


@shared_task(ignore_result=True)
def stats_sweep() -> int:
    """Re-queue finished tables that have no ``CountedTable`` marker yet.

    Run by Celery beat (``CELERY_BEAT_SCHEDULE["stats-sweep"]``): it catches a
    table whose task was lost (a broker restart, a worker killed before it
    acknowledged). Returns how many tables it queued.
    """
    ids = table_list_uncounted(
        grace_seconds=settings.STATS_SWEEP_GRACE_SECONDS,
        limit=settings.STATS_SWEEP_BATCH,
    )
    for table_id in ids:
        stats_record_table.delay(table_id)
    return len(ids)


@shared_task(ignore_result=True)
def stats_reconcile() -> int:
    """Queue finished tables that nothing would count and repair progress
    rows that disagree with their markers (``stats.services.reconcile``).

    Run by Celery beat (``CELERY_BEAT_SCHEDULE["stats-reconcile"]``, every
    ``STATS_RECONCILE_SECONDS``): a safety net under the queue and the sweep,
    for drift the count itself never makes (processes of an earlier release
    during a deploy, a table deleted by hand). Returns how many tables it
    queued and progress rows it repaired; each repair is logged at WARNING.
    """
    done = reconcile()
    return done.queued_count + len(done.progress)
