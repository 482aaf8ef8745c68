"""The task path with a real Celery worker on Redis: on commit, and the sweep.

The worker runs in this process (``celery.contrib.testing.worker``) on a
queue, exchange and Redis key prefix of its own, unique per checkout and
xdist worker, so parallel runs on this machine never take each other's tasks.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings

import rules
from accounts.models import User
from config.celery import app
from games import services
from games.models import Table, TableStatus
from stats.models import CountedTable, PlayerGameStat
from stats.tasks import stats_record_table, stats_sweep
from tests.helpers import celery_pools_reset


@pytest.fixture
def celery_worker(transactional_db: None) -> Iterator[None]:
    name = f"stats-test-{settings.CHECKOUT_ID}-{settings.TEST_WORKER}"
    saved = {
        key: app.conf[key]
        for key in (
            "task_always_eager",
            "broker_url",
            "task_default_queue",
            "task_default_exchange",
            "task_default_routing_key",
            "broker_transport_options",
        )
    }
    app.conf.update(
        task_always_eager=False,
        broker_url=settings.REDIS_URL,
        task_default_queue=name,
        task_default_exchange=name,
        task_default_routing_key=name,
        broker_transport_options={
            **saved["broker_transport_options"],
            "global_keyprefix": f"{name}:",
        },
    )
    celery_pools_reset()
    try:
        with start_worker(
            app, pool="solo", perform_ping_check=False, loglevel="WARNING"
        ):
            yield
    finally:
        app.conf.update(saved)
        celery_pools_reset()


def _wait_counted(table_id: int, seconds: float = 20) -> CountedTable:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        counted = CountedTable.objects.filter(table_id=table_id).first()
        if counted is not None:
            return counted
        time.sleep(0.05)
    raise AssertionError(f"table {table_id} was not counted within {seconds} s")


def _play_out(table: Table, users: list[User]) -> None:
    """Every seat plays its first legal action until the match ends."""
    game = rules.get_game(table.game)
    while True:
        table.refresh_from_db()
        if table.status != TableStatus.PLAYING:
            return
        state = game.load_state(table.state)
        seat = game.to_act(state)[0]
        action = game.legal_actions(state, seat)[0]
        services.action_submit(table_id=table.pk, user=users[seat], action=action)


@pytest.mark.timeout(90)
def test_a_match_that_ends_is_counted_by_the_worker(celery_worker: None) -> None:
    ada = User.objects.create_user("ada", password="x")
    bob = User.objects.create_user("bob", password="x")
    table = services.table_create(
        user=ada, game="alkort", players=2, options={"target": 1}
    )
    services.table_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=ada, seed="worker-1")
    assert Table.objects.get(pk=table.pk).rated is True

    _play_out(table, [ada, bob])

    counted = _wait_counted(table.pk)
    assert counted.rated is True
    assert PlayerGameStat.objects.get(user=ada, game="alkort").counters["matches"] == 1


@pytest.mark.timeout(90)
def test_the_sweep_catches_a_table_whose_task_was_lost(
    celery_worker: None, settings, people, finished_table
) -> None:
    settings.STATS_SWEEP_GRACE_SECONDS = 0
    lost = finished_table("alager", people(3), options={"penalty_limit": 1})
    assert not CountedTable.objects.exists()  # no task was ever queued for it

    stats_sweep.delay()

    _wait_counted(lost)
    # A late duplicate of the lost task changes nothing. The solo worker
    # takes its queue in order, so once a table finished after them is
    # counted by the sweep queued last, the duplicates have run.
    stats_record_table.delay(lost)
    stats_sweep.delay()
    marker = finished_table("alkort", people(2), options={"target": 1})
    stats_sweep.delay()
    _wait_counted(marker)
    assert CountedTable.objects.count() == 2
    assert PlayerGameStat.objects.filter(game="alager").count() == 3
    assert all(
        s.counters["matches"] == 1 for s in PlayerGameStat.objects.filter(game="alager")
    )


def test_the_sweep_leaves_fresh_tables_to_their_own_task(
    db: None, settings, people, finished_table
) -> None:
    settings.STATS_SWEEP_GRACE_SECONDS = 3600
    finished_table("alkort", people(2), options={"target": 1})

    assert stats_sweep.apply().get() == 0


def test_the_beat_schedule_runs_the_sweep() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["stats-sweep"]
    assert entry["task"] == stats_sweep.name == "stats.tasks.stats_sweep"
    assert stats_record_table.name == "stats.tasks.stats_record_table"
