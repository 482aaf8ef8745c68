"""Bounded waits: a move on a table held too long answers ``busy``, writes nothing.

A stuck transaction holding a table's row lock (a paused worker, a shell left
open) would otherwise keep every request that moves on that table waiting
forever, each holding a request thread or a socket's database thread. Every
connection waits at most ``DB_LOCK_TIMEOUT`` for a lock (docs/operations.md,
"Waiting for a lock"); the move then answers 503 ``busy`` over REST and an
``error`` frame over a socket, with nothing written, and the same command
goes through once the table is free.

Real PostgreSQL: another connection holds the row (``FOR UPDATE`` in an open
transaction) while the move runs on Django's own connection, whose lock
timeout is shortened here to keep the test quick.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import DatabaseError, connection, connections
from psycopg_pool import ConnectionPool, PoolTimeout
from rest_framework.test import APIClient

import rules
from config import db
from config.asgi import application
from config.errors import BUSY_CODE, BUSY_MESSAGE
from games.consumers import CLOSE_FEED_LOST
from games.models import GameEvent, ProcessedCommand, SeatConnection, Table
from tests.accounts.factories import UserFactory, token_for
from tests.games.tables import seat_users, table_started
from tests.games.test_consumers import Socket, run
from tests.helpers import another_session

pytestmark = [pytest.mark.timeout(60)]
committed = pytest.mark.django_db(transaction=True)

GAME = rules.get_game("alkort")
LOCK_TIMEOUT_MS = 300


@pytest.fixture
def short_lock_timeout(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Connections opened from now on wait at most 300 ms for a lock."""
    if connection.vendor != "postgresql":
        pytest.skip("lock_timeout is PostgreSQL's")
    options = connections.settings["default"]["OPTIONS"]
    # The last setting of an option wins: the configured one stays in front.
    monkeypatch.setitem(
        options, "options", f"{options['options']} -c lock_timeout={LOCK_TIMEOUT_MS}"
    )
    connection.close()  # the next query connects with the short timeout
    yield
    connection.close()


@contextmanager
def row_held(table_id: int) -> Iterator[Callable[[], None]]:
    """The table's row locked by another session's open transaction, until
    the block ends or the function it gives is called."""
    with another_session() as other:
        other.execute("SELECT 1 FROM games_table WHERE id = %s FOR UPDATE", [table_id])
        lock = threading.Lock()

        def release() -> None:
            with lock:
                other.rollback()

        yield release
        release()


def _written(table_id: int) -> tuple[int, int, int]:
    return (
        GameEvent.objects.filter(table_id=table_id).count(),
        ProcessedCommand.objects.filter(table_id=table_id).count(),
        Table.objects.get(pk=table_id).seq,
    )


def _next_move(table: Table) -> tuple[Any, dict[str, Any]]:
    """The person to act and a legal action of theirs."""
    state = GAME.load_state(table.state)
    seat = GAME.to_act(state)[0]
    return seat_users(table)[seat], dict(GAME.legal_actions(state, seat)[0])


@committed
def test_the_configured_waits_reach_the_server() -> None:
    """What the settings say (their defaults: tests/config/test_settings.py)
    is what the server applies to a session."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's settings")
    configured = dict(
        re.findall(r"-c (\w+)=(\d+)", connection.settings_dict["OPTIONS"]["options"])
    )
    assert {"lock_timeout", "idle_in_transaction_session_timeout"} <= set(configured)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name, setting FROM pg_settings WHERE name IN "
            "('lock_timeout', 'idle_in_transaction_session_timeout')"
        )
        assert dict(cursor.fetchall()) == {
            name: configured[name]
            for name in ("lock_timeout", "idle_in_transaction_session_timeout")
        }


@committed
def test_a_move_on_a_held_table_answers_busy_and_writes_nothing(
    short_lock_timeout: None, caplog: pytest.LogCaptureFixture
) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])
    user, action = _next_move(table)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    path = f"/api/tables/{table.pk}/actions/"
    body = {"action": action, "expected_seq": table.seq, "command_id": "c-1"}
    before = _written(table.pk)

    with row_held(table.pk):
        started = time.monotonic()
        response = client.post(path, body, format="json")
        waited = time.monotonic() - started

    assert response.status_code == 503, response.content
    assert response.json() == {"code": BUSY_CODE, "message": BUSY_MESSAGE}
    assert response["Retry-After"] == "1"
    assert LOCK_TIMEOUT_MS / 1000 <= waited < 5
    assert _written(table.pk) == before
    assert f"Slow move: table {table.pk}, " in caplog.text
    assert "without the table's lock" in caplog.text
    # The same command, once the table is free, is played once.
    response = client.post(path, body, format="json")
    assert response.status_code == 200, response.content
    assert _written(table.pk)[1:] == (before[1] + 1, response.json()["seq"])
    assert client.post(path, body, format="json").json() == response.json()


@committed
def test_a_move_that_waited_for_its_table_is_logged_with_the_wait(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The slow-move log: the table, the time, the wait for the lock; ids and
    times only. A quick move says nothing."""
    # Far apart, for a loaded machine: a quick move stays under the line, and
    # the lock's wait counts at least what is left of the hold once the
    # request has reached the move (its own start takes some of the hold).
    settings.SLOW_MOVE_MS = 300
    table = table_started(seating=[UserFactory(), UserFactory()])
    user, action = _next_move(table)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    path = f"/api/tables/{table.pk}/actions/"
    with caplog.at_level(logging.WARNING, logger="games.services.actions"):
        with row_held(table.pk) as release:
            threading.Timer(0.8, release).start()
            response = client.post(path, {"action": action}, format="json")
        assert response.status_code == 200, response.content
        (record,) = [r for r in caplog.records if r.msg.startswith("Slow move")]
        found = re.fullmatch(
            rf"Slow move: table {table.pk}, \d+ ms, of which (\d+) ms until "
            "the table's lock was held",
            record.getMessage(),
        )
        assert found is not None, record.getMessage()  # ids and times only
        assert int(found[1]) >= 400
        caplog.clear()
        user, action = _next_move(Table.objects.get(pk=table.pk))
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
        assert client.post(path, {"action": action}, format="json").status_code == 200
    assert "Slow move" not in caplog.text


@committed
def test_only_waits_that_ran_out_are_busy() -> None:
    """A lock timeout is busy; a bad statement stays what it is."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's errors")
    table = table_started(seating=[UserFactory(), UserFactory()])
    with row_held(table.pk), connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = 50")
        try:
            with pytest.raises(DatabaseError) as ran_out:
                cursor.execute(
                    "SELECT 1 FROM games_table WHERE id = %s FOR UPDATE", [table.pk]
                )
            with pytest.raises(DatabaseError) as wrong:
                cursor.execute("SELECT no_such_column FROM games_table")
        finally:
            cursor.execute("RESET lock_timeout")
    assert db.waited_out(ran_out.value)
    assert not db.waited_out(wrong.value)


@committed
def test_a_socket_move_on_a_held_table_is_told_busy(
    short_lock_timeout: None,
) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])
    user, action = _next_move(table)
    token = token_for(user)
    before = _written(table.pk)
    act = {"type": "act", "action": action, "command_id": "s-1"}
    written = database_sync_to_async(_written)

    async def go() -> None:
        async with Socket(table.pk, token) as ws:
            await ws.next("state")
            with row_held(table.pk):
                await ws.send(act)
                error = await ws.next("error")
            assert error == {
                "type": "error",
                "code": BUSY_CODE,
                "message": BUSY_MESSAGE,
                "command_id": "s-1",
            }
            assert await written(table.pk) == before
            await ws.send(act)  # the same command, the table free: played
            frame = await ws.next("state")
            assert frame["seq"] > before[2]

    run(go)


@committed
def test_a_socket_opening_on_a_held_table_is_told_to_come_back(
    short_lock_timeout: None,
) -> None:
    """A socket registers under a share lock on the table's row: held past
    the lock timeout, it is closed with 4503 (reconnect), and leaves no
    registration."""
    table = table_started(seating=[UserFactory(), UserFactory()])
    token = token_for(_next_move(table)[0])

    async def go() -> None:
        comm = WebsocketCommunicator(
            application, f"/ws/tables/{table.pk}/?token={token}"
        )
        with row_held(table.pk):
            connected, _ = await comm.connect(timeout=10)
            assert connected
            assert await comm.receive_output(10) == {
                "type": "websocket.close",
                "code": CLOSE_FEED_LOST,
            }
        async with Socket(table.pk, token) as ws:  # the table free: it opens
            assert (await ws.next("state"))["seq"] == table.seq

    run(go)
    assert not SeatConnection.objects.filter(table_id=table.pk).exists()


def test_no_pooled_connection_in_time_is_busy() -> None:
    """Every connection of a process's pool lent out past its timeout."""
    params = connections.settings["default"]
    if params["ENGINE"] != "config.postgresql":
        pytest.skip("the pool is PostgreSQL's")
    conninfo = f"host={params['HOST']} port={params['PORT']} user={params['USER']}"
    pool = ConnectionPool(conninfo, min_size=1, max_size=1, timeout=0.1, open=False)
    # Its one connection opened and lent first, with time to spare on a busy
    # machine; only the second loan is held to the pool's short timeout.
    pool.open(wait=True, timeout=30)
    with pool, pool.connection(timeout=30), pytest.raises(PoolTimeout) as ran_out:
        pool.getconn()
    wrapped = DatabaseError("pool")
    wrapped.__cause__ = ran_out.value  # as Django raises it
    assert db.waited_out(wrapped)


def test_sqlites_write_lock_still_taken_is_busy(tmp_path: Path) -> None:
    """The embedded default: another writer kept SQLite's lock past the
    timeout."""
    path = tmp_path / "busy.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    waiter = sqlite3.connect(path, timeout=0.05, isolation_level=None)
    try:
        holder.execute("CREATE TABLE t (x)")
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(sqlite3.OperationalError) as ran_out:
            waiter.execute("BEGIN IMMEDIATE")
        with pytest.raises(sqlite3.OperationalError) as wrong:
            waiter.execute("SELECT no_such_column FROM t")
    finally:
        holder.close()
        waiter.close()
    assert db.waited_out(ran_out.value)
    assert not db.waited_out(wrong.value)
