"""A strong bot's think time in a real Celery worker leaves its slot free.

A strong bot's move lands ``BOT_THINK_TIME`` after its job began, whatever its
search took (docs/security.md, "Bots' timing"). A worker that slept through
the rest held one of its pool's slots (two, as ``make up`` runs it) for the
whole wait, so it played at most two strong moves a second for every table it
served. The wait is a deferred call on the worker process's own scheduler
thread instead (``games.scheduler.call_defer``): the task returns, and the
slot takes the next job.

Real worker (solo pool: one slot), Redis broker, the test database.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from games import scheduler
from games.models import Table
from games.tasks import bot_turn_play
from tests.accounts.factories import UserFactory
from tests.celery_worker import celery_worker, tasks_to
from tests.games.tables import table_started
from tests.helpers import database_url

pytestmark = [pytest.mark.timeout(120), pytest.mark.django_db(transaction=True)]

THINK = 3.0


def _moved_at(table: Table, deadline: float) -> float:
    """When ``table`` moved past its seq (polled), or fail at ``deadline``."""
    while Table.objects.get(pk=table.pk).seq == table.seq:
        assert time.monotonic() < deadline, f"table {table.pk} did not move"
        time.sleep(0.02)
    return time.monotonic()


def test_a_strong_bots_wait_leaves_the_workers_slot_to_other_tables(
    tmp_path: Path, settings: Any
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the worker shares the test's PostgreSQL database")
    settings.BOT_MOVE_DELAY = 60  # the starts' bot turns are held, not run
    strong = table_started(seating=[UserFactory(), "strong"])
    basic = table_started(seating=[UserFactory(), "basic"])
    scheduler.held.clear()
    env = {"TASK_RUNNER": "celery", "BOT_THINK_TIME": str(THINK)}

    with (
        celery_worker(
            "bot-think",
            tmp_path / "worker.log",
            database_url=database_url(),
            settings_env=env,
        ) as worker,
        tasks_to(worker),
    ):
        # Queued in this order: one slot takes the strong bot's turn first.
        bot_turn_play.delay(strong.pk, strong.seq)
        bot_turn_play.delay(basic.pk, basic.seq)
        deadline = time.monotonic() + 60
        basic_moved = _moved_at(basic, deadline)
        strong_moved = _moved_at(strong, deadline)
        worker.assert_running()

    # The basic bot's turn ran while the strong bot's move waited, not after.
    assert strong_moved - basic_moved > THINK / 2, worker.log_text()


@contextmanager
def prefork_worker(
    name: str, tmp_path: Path, *, move_delay: float, think: float
) -> Iterator[Any]:
    """A worker as ``make up`` runs it (prefork, the local settings: a pool of
    database connections in each process) on the test's database, with the
    tasks sent to it."""
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
        "TASK_RUNNER": "celery",
        "BOT_MOVE_DELAY": str(move_delay),
        "BOT_THINK_TIME": str(think),
    }
    with (
        celery_worker(
            name,
            tmp_path / "worker.log",
            database_url=database_url(),
            sends_to_itself=True,
            settings_env=env,
            pool="prefork",
        ) as worker,
        tasks_to(worker),
    ):
        yield worker


def test_strong_bots_play_to_the_end_on_a_prefork_worker(
    tmp_path: Path, settings: Any
) -> None:
    """The worker as ``make up`` runs it: prefork, each process with its pool
    of database connections. Celery's Django fixup closed that pool before
    and after every task, under the deferred moves that the process's
    scheduler thread was about to play or playing (``PoolClosed``): each such
    move was lost, and its table waited for the turn sweep (up to 40 s)."""
    if connection.vendor != "postgresql":
        pytest.skip("the worker shares the test's PostgreSQL database")
    settings.BOT_MOVE_DELAY = 60  # the starts' bot turns are held, not run
    tables = [
        table_started(
            seating=["strong", "strong"],
            options={"target": 1},
            creator=UserFactory(),
        )
        for _ in range(4)
    ]
    scheduler.held.clear()
    with prefork_worker("bot-prefork", tmp_path, move_delay=0, think=0.3) as worker:
        for table in tables:
            bot_turn_play.delay(table.pk, table.seq)
        # No beat runs: a lost move leaves its table waiting for good.
        deadline = time.monotonic() + 60
        while Table.objects.filter(pk__in=[t.pk for t in tables]).exclude(
            status="finished"
        ):
            worker.assert_running()
            assert time.monotonic() < deadline, worker.log_text()
            time.sleep(0.2)

    # Each lost move is retried soon (``turn_retried_soon``), so the tables
    # finish either way: the log is what tells the pool closed under one.
    log = worker.log_text()
    assert "failed" not in log and "PoolClosed" not in log, log


def test_a_stopping_worker_plays_the_strong_move_it_holds_first(
    tmp_path: Path, settings: Any
) -> None:
    """A worker stopped as a deploy or ``make up``'s Ctrl-C stops it (warm
    shutdown, ``SIGTERM``) while a strong bot's chosen move waits out its
    think time in a process's memory: the move is played before the process
    exits. It used to be lost with it, and the table waited for the turn
    sweep (up to 40 s) to choose again."""
    if connection.vendor != "postgresql":
        pytest.skip("the worker shares the test's PostgreSQL database")
    settings.BOT_MOVE_DELAY = 60  # the start's bot turn is held, not run
    table = table_started(
        seating=["strong", "strong"], options={"target": 1}, creator=UserFactory()
    )
    scheduler.held.clear()
    # No second move before the stop.
    with prefork_worker("bot-stop", tmp_path, move_delay=60, think=THINK) as worker:
        bot_turn_play.delay(table.pk, table.seq)
        # The task returns at once (None), its move left to the scheduler thread.
        deadline = time.monotonic() + 60
        while "bot_turn_play" not in worker.log_text() or "s: None" not in (
            worker.log_text()
        ):
            worker.assert_running()
            assert time.monotonic() < deadline, worker.log_text()
            time.sleep(0.05)
        assert Table.objects.get(pk=table.pk).seq == table.seq
        stopped = time.monotonic()
    # Leaving the block stopped the worker (SIGTERM), and waited for it.

    assert time.monotonic() - stopped < THINK + 10
    assert Table.objects.get(pk=table.pk).seq > table.seq, worker.log_text()
