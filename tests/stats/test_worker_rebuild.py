"""The worker path counts exactly what ``stats_rebuild`` computes.

A real Celery worker process (``tests.celery_worker``) on this test database
counts a mix of finished tables queued in shuffled order, some twice; the read
models it leaves equal, row for row, what a rebuild then computes, and both
equal the figures recomputed from the outcomes with ``openskill`` itself
(``tests/stats/test_oracle.py``). The test commits for real
(``transaction=True``) so that the worker process sees the tables.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from stats.models import CountedTable
from stats.services import stats_rebuild
from stats.tasks import stats_record_table
from tests.celery_worker import Worker, celery_worker, tasks_to
from tests.helpers import database_url
from tests.stats.test_oracle import api_check, figures_expected, plan_build, plan_insert
from tests.stats.test_rebuild import snapshot

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[Worker]:
    with (
        celery_worker(
            "stats-rebuild", tmp_path / "worker.log", database_url=database_url()
        ) as started,
        tasks_to(started),
    ):
        yield started


def test_the_worker_counts_what_the_rebuild_computes(api_client, people, bot, worker):
    plan = plan_build(people, bot)
    ids = plan_insert(plan, plan[0][1][0])
    queued = ids + ids[::4]  # a few tasks run twice
    random.Random(5).shuffle(queued)
    for table_id in queued:
        stats_record_table.delay(table_id)

    deadline = time.monotonic() + 120
    while CountedTable.objects.count() < len(ids):
        worker.assert_running()
        assert time.monotonic() < deadline, worker.log_text()
        time.sleep(0.2)
    by_worker = snapshot()
    expected = figures_expected(plan, ids)
    users = list({u.pk: u for _, seating, _ in plan for u in seating}.values())
    api_check(api_client, users, expected)

    assert stats_rebuild() == len(ids)

    assert snapshot() == by_worker
    api_check(api_client, users, expected)
