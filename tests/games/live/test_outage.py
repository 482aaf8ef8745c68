"""The channel layer's Redis goes down mid-match and comes back.

A daphne process whose channel layer is a ``redis-server`` of this test's own
(on a free port, no persistence) serves a duel; the database, cache and broker
stay on the machine's services. With the channel layer down, moves still
commit over REST and the failure is logged once, not per move; when Redis is
back, the clients reconnect with their last seq and get exactly the events
they missed, and live notifications flow again.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from tests.games.live.conftest import (
    Process,
    Ws,
    daphne,
    event_seqs,
    stack_env,
)
from tests.games.live.test_play import duel_on
from tests.helpers import OwnRedis

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
    pytest.mark.skipif(
        shutil.which("redis-server") is None, reason="needs redis-server"
    ),
]

FAILING = "Live notifications are failing"
BACK = "Live notifications work again."


def test_moves_commit_while_the_channel_layer_is_down_and_sockets_resync(
    own_redis: OwnRedis, tmp_path: Path
) -> None:
    from django.conf import settings
    from django.db import connection

    env = stack_env(
        connection.settings_dict["NAME"],
        settings.REDIS_URL,
        CHANNEL_LAYER_URL=own_redis.url,
    )
    server: Process
    server, base = daphne(env, tmp_path / "daphne.log")
    try:
        table_id, ada, bo = duel_on(base, base)

        async def go() -> tuple[list[int], list[int], int, int, int, int]:
            async with (
                Ws(base, table_id, ada.token) as wa,
                Ws(base, table_id, bo.token) as wb,
            ):
                held_a = (await wa.next("state"))["seq"]
                held_b = (await wb.next("state"))["seq"]
                own_redis.stop()
                # The feed is gone: the server closes both sockets with 4503
                # (reconnect and resync) rather than leaving them silent.
                for ws in (wa, wb):
                    assert ws.conn is not None
                    await asyncio.wait_for(ws.conn.wait_closed(), 10)
                    codes.append(ws.conn.close_code)
                # Three moves over REST with the channel layer down.
                for _ in range(3):
                    mover = next(
                        api
                        for api in (ada, bo)
                        if api.get(f"/api/tables/{table_id}/")["legal_actions"]
                    )
                    detail = mover.get(f"/api/tables/{table_id}/")
                    status, body = mover.call(
                        "POST",
                        f"/api/tables/{table_id}/actions/",
                        {"action": detail["legal_actions"][0]},
                    )
                    assert status == 200, body
            own_redis.start()
            # Back: each client reconnects with the last seq it holds.
            await asyncio.sleep(0.2)
            async with (
                Ws(base, table_id, ada.token, after=held_a) as wa,
                Ws(base, table_id, bo.token, after=held_b) as wb,
            ):
                fa, fb = await wa.next("state"), await wb.next("state")
                now = fa["seq"]
                # Live again: a move over the socket reaches the other socket.
                mover, other = (wa, wb) if fa["legal_actions"] else (wb, wa)
                frame = fa if mover is wa else fb
                await mover.send(
                    {
                        "type": "act",
                        "action": frame["legal_actions"][0],
                        "expected_seq": now,
                    }
                )
                echo = await other.until(lambda f: f["seq"] > now)
            return event_seqs([fa]), event_seqs([fb]), held_a, now, echo["seq"], held_b

        codes: list[int | None] = []
        missed_a, missed_b, held_a, now, echoed, held_b = asyncio.run(go())
        log = (tmp_path / "daphne.log").read_text()
    finally:
        server.stop()

    assert held_a == held_b == 2
    assert now >= held_a + 3  # three moves, each one event or more
    assert missed_a == missed_b == list(range(held_a + 1, now + 1))
    assert echoed > now
    assert codes == [4503, 4503]
    assert log.count(FAILING) == 1, log
    assert "Traceback" not in log, log
    assert log.count(BACK) == 1, log
