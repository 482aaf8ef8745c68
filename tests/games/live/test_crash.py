"""The web process is killed (SIGKILL) in the middle of a move, and replaced.

The production web process (``scripts/web.sh``: uvicorn) serves a duel. A move
over REST is parked inside it, waiting for the table's row lock that another
session holds, when the process is killed with no chance to clean up. Nothing
of that move may land (its transaction dies with the connection); a new
process then serves the table, the client resends the same ``command_id`` and
it is played exactly once; both sockets reconnect to the new process with
their last seq and get exactly the events they missed, and play goes on over
the sockets. The cached state still equals the replayed events.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from games.models import GameEvent, ProcessedCommand, Table
from tests.games.live.conftest import Ws, event_seqs, stack_env
from tests.games.live.test_play import duel_on
from tests.games.test_busy import row_held
from tests.helpers import (
    REPO,
    another_session,
    free_port,
    lock_waiters,
    server_process,
    until,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@contextmanager
def web_process(log: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``scripts/web.sh`` (one uvicorn process) on a free port, on the test
    database and Redis; its process and base URL."""
    from django.conf import settings
    from django.db import connection

    port = free_port()
    env = stack_env(
        connection.settings_dict["NAME"],
        settings.REDIS_URL,
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_WORKERS="1",
        BIN=str(Path(sys.executable).parent),
    )
    with server_process([str(REPO / "scripts" / "web.sh")], env, log) as process:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log.read_text()
            try:
                urllib.request.urlopen(f"{base}/api/games/", timeout=2).close()
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        yield process, base


def _written(table_id: int) -> tuple[int, int, int]:
    return (
        GameEvent.objects.filter(table_id=table_id).count(),
        ProcessedCommand.objects.filter(table_id=table_id).count(),
        Table.objects.get(pk=table_id).seq,
    )


def test_a_web_process_killed_mid_move_loses_nothing_and_repeats_nothing(
    tmp_path: Path,
) -> None:
    with web_process(tmp_path / "web-1.log") as (first, base):
        table_id, ada, bo = duel_on(base, base)
        detail = bo.get(f"/api/tables/{table_id}/")
        mover = bo if detail["legal_actions"] else ada
        detail = mover.get(f"/api/tables/{table_id}/")
        path = f"/api/tables/{table_id}/actions/"
        body = {
            "action": detail["legal_actions"][0],
            "expected_seq": detail["seq"],
            "command_id": "crash-1",
        }
        before = _written(table_id)

        async def watch() -> tuple[int, int, list[Any]]:
            async with (
                Ws(base, table_id, ada.token) as wa,
                Ws(base, table_id, bo.token) as wb,
            ):
                held = (
                    (await wa.next("state"))["seq"],
                    (await wb.next("state"))["seq"],
                )
                with row_held(table_id):
                    answers: list[Any] = []
                    sender = threading.Thread(
                        target=lambda: answers.append(_call(mover, path, body))
                    )
                    sender.start()
                    until(lock_waiters, "the move never reached the lock")
                    waiting = lock_waiters()
                    os.killpg(first.pid, signal.SIGKILL)
                    first.wait()
                    sender.join()
                for ws in (wa, wb):  # the sockets died with the process
                    assert ws.conn is not None
                    await asyncio.wait_for(ws.conn.wait_closed(), 10)
            return held[0], held[1], [answers, waiting]

        held_a, held_b, (answers, waiting) = asyncio.run(watch())

    # The parked move's session ends once it gets the lock and finds its
    # client gone: nothing of it was written.
    until(
        lambda: not set(waiting) & set(_backends()),
        "the killed process's session stayed",
    )
    assert answers == ["connection lost"]
    assert _written(table_id) == before

    with web_process(tmp_path / "web-2.log") as (_, base):
        mover.base = ada.base = bo.base = base
        status, played = mover.call("POST", path, body)
        assert status == 200, played
        assert mover.call("POST", path, body) == (200, played)  # once
        now = played["seq"]

        async def come_back() -> tuple[list[int], list[int], int]:
            async with (
                Ws(base, table_id, ada.token, after=held_a) as wa,
                Ws(base, table_id, bo.token, after=held_b) as wb,
            ):
                fa, fb = await wa.next("state"), await wb.next("state")
                # Live again: a move over one socket reaches the other.
                acting, other, frame = (
                    (wa, wb, fa) if fa["legal_actions"] else (wb, wa, fb)
                )
                await acting.send(
                    {
                        "type": "act",
                        "action": frame["legal_actions"][0],
                        "expected_seq": frame["seq"],
                    }
                )
                echo = await other.until(lambda f: f["seq"] > now)
                return event_seqs([fa]), event_seqs([fb]), echo["seq"]

        missed_a, missed_b, echoed = asyncio.run(come_back())

    assert held_a == held_b == before[2]
    assert missed_a == missed_b == list(range(before[2] + 1, now + 1))
    assert echoed > now
    commands = ProcessedCommand.objects.filter(table_id=table_id)
    assert commands.filter(command_id="crash-1").count() == 1
    assert commands.count() == before[1] + 1  # the socket's act had no id
    assert Table.objects.get(pk=table_id).seq == echoed
    call_command("rebuild_table_state", str(table_id), check=True)


def _call(api: Any, path: str, body: Any) -> Any:
    try:
        return api.call("POST", path, body)
    except (urllib.error.URLError, ConnectionError):
        return "connection lost"


def _backends() -> list[int]:
    with another_session() as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
        ).fetchall()
    return [pid for (pid,) in rows]
