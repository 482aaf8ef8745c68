"""A move whose database session is ended under it answers ``busy``, not 500.

An operator ending a stuck session (``pg_terminate_backend``), a database
restart or failover, or ``DB_IDLE_IN_TRANSACTION_TIMEOUT`` can end the session
a move is running in. The move's transaction is gone, and the next request
gets a fresh connection from the pool, so the client is told to try again (503
``busy`` with ``Retry-After``; an ``error`` frame over a socket, with its
``command_id``), exactly as for a lock that was not free in time, and the same
command then plays once. It used to answer 500 ``server_error`` (a socket's
frame without its ``command_id``) and log a traceback as if it were a bug.

Real PostgreSQL: another session holds the table's row, so the move waits in
a known place; a third ends the move's backend while it waits.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from channels.db import database_sync_to_async
from django.db import DatabaseError, connection
from rest_framework.test import APIClient

from config.errors import BUSY_CODE, LOST_MESSAGE, busy, connection_lost
from games.models import Table
from tests.accounts.factories import UserFactory, token_for
from tests.games.tables import table_started
from tests.games.test_busy import _next_move, _written, row_held
from tests.games.test_consumers import Socket, run
from tests.helpers import another_session

pytestmark = [pytest.mark.timeout(60), pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("pg_terminate_backend is PostgreSQL's")


def _terminate_the_waiter(done: threading.Event) -> None:
    """End the backend that waits for a lock on this test database."""
    with another_session() as admin:
        admin.autocommit = True
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            row = admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            ).fetchone()
            if row is not None:
                admin.execute("SELECT pg_terminate_backend(%s)", [row[0]])
                done.set()
                return
            time.sleep(0.02)


@contextmanager
def waiter_terminated() -> Iterator[threading.Event]:
    """Within the block, the first session to wait for a lock is ended."""
    done = threading.Event()
    thread = threading.Thread(target=_terminate_the_waiter, args=(done,))
    thread.start()
    try:
        yield done
    finally:
        thread.join()


def test_a_move_whose_session_is_ended_answers_busy_and_plays_once_resent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = table_started_duel()
    user, action = _next_move(table)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    path = f"/api/tables/{table.pk}/actions/"
    body = {"action": action, "expected_seq": table.seq, "command_id": "c-1"}
    before = _written(table.pk)

    with row_held(table.pk), waiter_terminated() as done:
        response = client.post(path, body, format="json")

    assert done.is_set()
    assert response.status_code == 503, response.content
    assert response.json() == {"code": BUSY_CODE, "message": LOST_MESSAGE}
    assert response["Retry-After"] == "1"
    assert _written(table.pk) == before
    assert "Busy: AdminShutdown in ActionSubmitApi" in caplog.text
    assert "Traceback" not in caplog.text
    # The same command again: a fresh connection, played once.
    response = client.post(path, body, format="json")
    assert response.status_code == 200, response.content
    assert _written(table.pk)[1:] == (before[1] + 1, response.json()["seq"])
    assert client.post(path, body, format="json").json() == response.json()


def test_a_socket_move_whose_session_is_ended_is_told_busy_with_its_command() -> None:
    table = table_started_duel()
    user, action = _next_move(table)
    token = token_for(user)
    before = _written(table.pk)
    act = {"type": "act", "action": action, "command_id": "s-1"}
    written = database_sync_to_async(_written)

    async def go() -> None:
        async with Socket(table.pk, token) as ws:
            await ws.next("state")
            with row_held(table.pk), waiter_terminated():
                await ws.send(act)
                error = await ws.next("error")
            assert error == {
                "type": "error",
                "code": BUSY_CODE,
                "message": LOST_MESSAGE,
                "command_id": "s-1",
            }
            assert await written(table.pk) == before
            await ws.send(act)  # the same command: the socket's thread reconnects
            frame = await ws.next("state")
            assert frame["seq"] > before[2]

    run(go)
    assert _written(table.pk)[1] == before[1] + 1


def test_only_a_lost_connection_is_lost() -> None:
    """An ended session is lost (and busy); a bad statement is neither."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    with another_session() as admin:
        admin.autocommit = True
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    with pytest.raises(DatabaseError) as ended, connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    connection.close()
    with pytest.raises(DatabaseError) as wrong, connection.cursor() as cursor:
        cursor.execute("SELECT no_such_column FROM games_table")
    assert connection_lost(ended.value)
    assert busy(ended.value, "in a test") == LOST_MESSAGE
    assert not connection_lost(wrong.value)
    assert busy(wrong.value, "in a test") is None


def table_started_duel() -> Table:
    return table_started(seating=[UserFactory(), UserFactory()])
