"""A move's request answers in time whatever the broker does.

A move queues tasks on commit (a bot's turn, a turn timer, a finished table's
statistics) in the request's own thread. A broker that accepts connections and
never answers (hung, or a firewall's black hole) used to hold that request for
ever: the broker's sockets had no read timeout. Now one publish gives up after
at most three ``CELERY_BROKER_TIMEOUT`` (to read, to connect again, to retry),
the move stands (it committed before), and while the broker fails a process
asks it again once every ``config.broker.RETRY_SECONDS``, dropping the tasks
between for the sweeps (docs/operations.md, "Celery").

Real PostgreSQL, commits for real (the on-commit work runs in the request, as
in production), and a real socket for a broker: a listening port that never
answers, or a real ``redis-server`` stopped (SIGSTOP) while the process holds
a connection to it.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient

import rules
from accounts.models import User
from config import broker
from games import services
from games.models import GameEvent, Table, TableStatus
from stats.models import CountedTable
from tests.accounts.factories import UserFactory, token_for
from tests.helpers import OwnRedis, celery_pools_reset

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(90)]

GAME = rules.get_game("alkort")
# The worst case (a pooled connection that stops answering): the publish's
# read, a new connection's PING, and the one retry's PING. Plus room for a
# loaded machine.
BOUND = 3 * settings.BROKER_TIMEOUT + 1.5
FAILING = "Scheduling jobs is failing: the broker does not answer"


def broker_at(url: str) -> Any:
    """This process publishes to ``url`` for real (no eager tasks, the Celery
    runner for bot turns and timers), from a fresh pool and no outage known."""
    return override_settings(
        CELERY_BROKER_URL=url, CELERY_TASK_ALWAYS_EAGER=False, TASK_RUNNER="celery"
    )


@pytest.fixture
def fresh_broker_state() -> Iterator[None]:
    celery_pools_reset()
    broker.reset()
    yield
    celery_pools_reset()
    broker.reset()


def timed_table() -> tuple[Table, dict[int, User]]:
    """Two people at an Alkort duel on the clock: every move schedules the
    next turn's timer (a publish), and a match of target 1 ends soon (the
    statistics task, another)."""
    ada, bob = UserFactory(), UserFactory()
    table = services.table_create(
        user=ada, game="alkort", players=2, options={"target": 1}, time_control=60
    )
    services.table_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=ada, seed="broker-1")
    table.refresh_from_db()
    return table, {s.index: s.user for s in table.seats.select_related("user")}


def move(table: Table, people: dict[int, User]) -> tuple[int, float, int]:
    """POST the next legal move of whoever acts: the status, how long the
    request took, and the seq it expected."""
    table.refresh_from_db()
    state = GAME.load_state(table.state)
    seat = GAME.to_act(state)[0]
    action = GAME.legal_actions(state, seat)[0]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(people[seat])}")
    body = {"action": action, "expected_seq": table.seq}
    started = time.monotonic()
    response = client.post(f"/api/tables/{table.pk}/actions/", body, format="json")
    took = time.monotonic() - started
    assert response.status_code == 200, response.content
    return response.status_code, took, table.seq


def assert_one_outage_line(caplog: pytest.LogCaptureFixture) -> None:
    """The outage is one warning line with the error's repr, no traceback
    (and nothing of a broker URL's password)."""
    lines = [r for r in caplog.records if r.name == "config.broker"]
    assert [r.getMessage().split(" (")[0] for r in lines] == [FAILING]
    assert lines[0].exc_info is None
    assert "Timeout" in lines[0].getMessage()


def test_moves_answer_in_time_when_the_broker_never_answers(
    silent_port: int, fresh_broker_state: None, caplog: pytest.LogCaptureFixture
) -> None:
    table, people = timed_table()

    with (
        broker_at(f"redis://:hunter2@127.0.0.1:{silent_port}/0"),
        caplog.at_level(logging.WARNING),
    ):
        status, first, seq = move(table, people)
        # The next moves do not wait: the broker is asked again only once
        # every RETRY_SECONDS, and their timers are left to the turn sweep.
        times = []
        while Table.objects.get(pk=table.pk).status == TableStatus.PLAYING:
            times.append(move(table, people)[1])

    assert first < BOUND, f"the first move took {first:.1f}s"
    # The move committed: its events are there, and every later move found it.
    assert GameEvent.objects.filter(table=table, seq=seq + 1).exists()
    assert times and max(times) < 1.0, f"later moves took up to {max(times):.1f}s"
    # The finished match's statistics task was dropped too, for the sweep.
    assert not CountedTable.objects.filter(table=table).exists()
    assert_one_outage_line(caplog)
    assert "hunter2" not in caplog.text


def test_a_move_answers_in_time_when_a_connected_broker_stops_answering(
    own_redis: OwnRedis, fresh_broker_state: None, caplog: pytest.LogCaptureFixture
) -> None:
    """The broker answered the last move, then hangs (SIGSTOP: the kernel
    still accepts its connections, nobody reads them): the next publish
    waits on a connection the process already holds."""
    table, people = timed_table()
    assert own_redis.process is not None

    with broker_at(own_redis.url), caplog.at_level(logging.WARNING):
        move(table, people)  # sent: the process now holds a connection
        assert not broker.OUTAGE.failing
        os.kill(own_redis.process.pid, signal.SIGSTOP)
        try:
            status, took, seq = move(table, people)
        finally:
            os.kill(own_redis.process.pid, signal.SIGCONT)

    assert took < BOUND, f"the move took {took:.1f}s"
    assert GameEvent.objects.filter(table=table, seq=seq + 1).exists()
    assert_one_outage_line(caplog)
