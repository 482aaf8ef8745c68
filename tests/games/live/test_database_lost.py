"""A ping or sync whose database session is ended under it answers ``busy``.

The consumer runs in this process (``WebsocketCommunicator`` on the
assembled ASGI app, the Redis channel layer, PostgreSQL). As for a move
(``tests/games/test_connection_lost.py``): an operator ending a session, a
restart or a failover is no bug, so the client is told to send again, and
nothing is logged as a failure.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.db import connection

from config.asgi import application
from config.errors import BUSY_CODE, LOST_MESSAGE
from tests.accounts.factories import UserFactory, token_for
from tests.games.tables import seat_users, table_started
from tests.games.test_connection_lost import waiter_terminated
from tests.helpers import another_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]

WAIT = 15.0


async def _next(comm: WebsocketCommunicator, kind: str) -> Any:
    while True:
        frame = await comm.receive_json_from(timeout=WAIT)
        if frame["type"] == kind:
            return frame


def test_a_ping_whose_session_is_ended_is_told_busy(caplog: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("pg_terminate_backend is PostgreSQL's")
    table = table_started(seating=[UserFactory(), UserFactory()])
    path = f"/ws/tables/{table.pk}/?token={token_for(seat_users(table)[0])}"

    async def go() -> list[Any]:
        comm = WebsocketCommunicator(application, path)
        connected, _ = await comm.connect(timeout=WAIT)
        assert connected
        got = []
        try:
            await _next(comm, "state")
            with another_session() as other:
                # The socket's own registration, held: its ping's update waits.
                other.execute(
                    "SELECT 1 FROM games_seatconnection WHERE table_id = %s FOR UPDATE",
                    [table.pk],
                )
                with waiter_terminated():
                    await comm.send_json_to({"type": "ping"})
                    got.append(await _next(comm, "error"))
                other.rollback()
            for _ in range(2):  # the thread's next sessions are fresh
                await comm.send_json_to({"type": "ping"})
                got.append(await _next(comm, "pong"))
        finally:
            await comm.disconnect(timeout=WAIT)
        return got

    busy, *pongs = asyncio.run(go())
    assert busy == {"type": "error", "code": BUSY_CODE, "message": LOST_MESSAGE}
    assert pongs == [{"type": "pong"}] * 2
    assert "failed" not in caplog.text
