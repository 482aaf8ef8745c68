"""The ASGI app: served the way ``make run`` serves it, and its WebSocket gate."""

import asyncio
import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator

from config.asgi import application
from config.websocket import BrowserOriginValidator
from tests.helpers import (
    REPO,
    clean_env,
    free_port,
    run_django_json,
    stop_process_group,
)


def fetch_json(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture
def make_run(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str, Path]]:
    """``make run`` on a free port, embedded default, in a throwaway var dir."""
    port = free_port()
    log_path = tmp_path / "make-run.log"
    env = clean_env(
        CARDROOM_VAR_DIR=str(tmp_path / "var"), STATIC_ROOT=str(tmp_path / "static")
    )
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            ["make", "run", f"PORT={port}"],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: make, sh, daphne
        )
    try:
        yield process, f"http://127.0.0.1:{port}", log_path
    finally:
        stop_process_group(process)


@pytest.mark.timeout(300)
def test_make_run_serves_healthz_on_the_embedded_default(
    make_run: tuple[subprocess.Popen[bytes], str, Path],
) -> None:
    process, base_url, log_path = make_run
    answer: tuple[int, Any] | None = None
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        assert process.poll() is None, log_path.read_text()
        try:
            answer = fetch_json(f"{base_url}/healthz")
            break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.5)

    assert answer == (
        200,
        {
            "status": "ok",
            "database": "ok",
            "redis": "not configured",
            "celery": "eager",
            "beat": "eager",
        },
    ), log_path.read_text()
    output = log_path.read_text()
    assert "Demo admin: username 'admin', password 'cardroom-admin'" in output
    assert "Bot account bot-strong (strong): created" in output
    with urllib.request.urlopen(f"{base_url}/api/docs/", timeout=5) as docs:
        assert docs.status == 200


class Accept(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()


def handshake(app: Any, headers: list[tuple[bytes, bytes]]) -> bool:
    async def connect() -> bool:
        communicator = WebsocketCommunicator(app, "/ws/anything/", headers=headers)
        connected, _ = await communicator.connect(timeout=10)
        await communicator.disconnect(timeout=10)
        return bool(connected)

    return asyncio.run(connect())


def test_origin_check_admits_our_hosts_and_non_browser_clients() -> None:
    gate = BrowserOriginValidator(Accept.as_asgi(), ["localhost", ".cardroom.example"])

    assert handshake(gate, []) is True  # an API client sends no Origin
    assert handshake(gate, [(b"origin", b"http://localhost:8000")]) is True
    assert handshake(gate, [(b"origin", b"https://play.cardroom.example")]) is True
    assert handshake(gate, [(b"origin", b"https://evil.example")]) is False


def test_websocket_from_a_foreign_page_is_refused() -> None:
    """The assembled ASGI app checks Origin before any route runs."""
    assert handshake(application, [(b"origin", b"https://evil.example")]) is False


@contextmanager
def web_sh_serving(
    tmp_path: Path, **extra: str
) -> Iterator[tuple[subprocess.Popen[bytes], str, Path]]:
    """``scripts/web.sh`` (uvicorn, as ``make up`` and the containers serve)
    on a free port, with ``extra`` environment, once it answers: its process
    (uvicorn's, which the script becomes), base URL and log."""
    port = free_port()
    log_path = tmp_path / "web.log"
    env = clean_env(
        CARDROOM_VAR_DIR=str(tmp_path / "var"),
        STATIC_ROOT=str(tmp_path / "static"),
        DJANGO_SETTINGS_MODULE="config.settings.local",
        BIN=str(Path(os.sys.executable).parent),
        PORT=str(port),
        **extra,
    )
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            ["scripts/web.sh"],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log_path.read_text()
            try:
                fetch_json(f"{base_url}/healthz")
                break
            except OSError:  # not listening yet, or busy starting
                assert time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.2)
        yield process, base_url, log_path
    finally:
        stop_process_group(process)


@pytest.fixture
def web_sh(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``scripts/web.sh`` serving, one process: its base URL and log."""
    with web_sh_serving(tmp_path) as (_, base_url, log_path):
        yield base_url, log_path


def _children(pid: int) -> set[int]:
    """The processes ``pid`` started that are still running (Linux)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def _running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not exited (a zombie has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.timeout(120)
def test_web_sh_workers_stop_when_their_supervisor_is_killed(tmp_path: Path) -> None:
    """uvicorn's worker processes (``WEB_WORKERS`` above 1, as ``make up``
    runs on two cores) used to serve on, unsupervised, when their parent was
    killed (``SIGKILL``, the OOM killer): ``make up`` then stopped worker and
    beat, and started again failed with ``Address already in use`` until
    someone found and killed them. Each now stops (``SIGTERM``: its sockets
    closed, its requests finished) as soon as its parent is gone."""
    with web_sh_serving(tmp_path, WEB_WORKERS="2") as (process, base_url, log):
        workers = _children(process.pid)
        assert len(workers) >= 2, log.read_text()
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        deadline = time.monotonic() + 20
        while any(_running(pid) for pid in workers):
            assert time.monotonic() < deadline, (
                f"workers still serving: {[p for p in workers if _running(p)]}"
                f"\n{log.read_text()}"
            )
            time.sleep(0.2)
        # The port is free for the next start.
        port = int(base_url.rsplit(":", 1)[1])
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("127.0.0.1", port))
            sock.listen()


@pytest.mark.timeout(120)
def test_web_sh_serves_http_and_websockets_under_uvicorn(
    web_sh: tuple[str, Path],
) -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    base_url, log_path = web_sh

    status, body = fetch_json(f"{base_url}/healthz")
    assert (status, body["database"]) == (200, "ok"), log_path.read_text()
    # The upgrade reaches Channels (whose origin gate refuses a foreign page):
    # without a WebSocket library uvicorn would refuse it itself, with no
    # Channels answer at all.
    ws_url = base_url.replace("http", "ws") + "/ws/tables/1/"
    with pytest.raises(InvalidStatus) as refused:
        connect(ws_url, origin="https://evil.example", open_timeout=10)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    output = log_path.read_text()
    assert "Uvicorn running on" in output
    assert "No supported WebSocket library" not in output


OPEN_TABLE = """
import json
from django.core.management import call_command
call_command("migrate", verbosity=0)
from accounts.models import User
from games.services import table_create
ada = User.objects.create_user(username="ada")
table = table_create(user=ada, game="alkort", players=2, options={}, watch=True)
print(json.dumps({"table": table.pk}))
"""


@pytest.mark.timeout(120)
def test_web_sh_closes_a_socket_sending_a_message_over_64_kib_with_1009(
    web_sh: tuple[str, Path], tmp_path: Path
) -> None:
    """uvicorn's own limit on a WebSocket message is 16 MiB, a thousand times
    what Cardroom reads (``games.consumers.MAX_MESSAGE_CHARS``): it is set
    to 64 KiB, so that a bigger message is never buffered, and the socket is
    closed with 1009 (message too big) instead."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    base_url, log_path = web_sh
    env = clean_env(
        CARDROOM_VAR_DIR=str(tmp_path / "var"),
        DJANGO_SETTINGS_MODULE="config.settings.local",
    )
    table = run_django_json(OPEN_TABLE, env)["table"]
    ws_url = base_url.replace("http", "ws") + f"/ws/tables/{table}/"
    with connect(ws_url, open_timeout=10, max_size=None) as socket:
        first = json.loads(socket.recv(timeout=10))
        assert first["type"] != "error", first
        # Under 64 KiB: Cardroom's own refusal, the socket stays open.
        socket.send(json.dumps({"type": "ping", "pad": "x" * 40_000}))
        while (frame := json.loads(socket.recv(timeout=10)))["type"] != "error":
            pass
        assert frame["code"] == "request_too_large", frame
        socket.send(json.dumps({"type": "ping", "pad": "x" * 70_000}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                socket.recv(timeout=10)
    assert closed.value.rcvd is not None, log_path.read_text()
    assert closed.value.rcvd.code == 1009, log_path.read_text()


@pytest.mark.parametrize(
    ("env", "workers"),
    [
        ({}, "1"),
        ({"REDIS_URL": "redis://127.0.0.1:6379/0"}, str(len(os.sched_getaffinity(0)))),
        ({"REDIS_URL": "redis://127.0.0.1:6379/0", "WEB_WORKERS": "3"}, "3"),
    ],
)
def test_web_sh_runs_a_process_per_core_when_they_share_redis(
    tmp_path: Path, env: dict[str, str], workers: str
) -> None:
    """Without Redis one process (its channel layer is its own memory); with
    it, one per core unless ``WEB_WORKERS`` says otherwise."""
    fake = tmp_path / "uvicorn"
    fake.write_text('#!/bin/sh\necho "$@"\n')
    fake.chmod(0o755)
    done = subprocess.run(
        ["scripts/web.sh"],
        cwd=REPO,
        env={"PATH": os.environ["PATH"], "BIN": str(tmp_path), **env},
        capture_output=True,
        text=True,
        timeout=30,
    )
    args = done.stdout.split()
    assert done.returncode == 0, done.stderr
    assert args[args.index("--workers") + 1] == workers


LOST_COUNT = """
import json, time
from django.conf import settings
from django.core.management import call_command
call_command("migrate", verbosity=0)
from accounts.models import User
from games.models import Table
from games.services import table_add_bot, table_create, table_start
from games.signals import table_finished
from stats.apps import table_finished_queue
from stats.models import CountedTable

# The statistics task of this match is lost (a server killed right after
# the commit, before its on-commit work ran).
table_finished.disconnect(dispatch_uid="stats-record-table")
ada = User.objects.create_user(username="ada")
table = table_create(user=ada, game="alkort", players=2, options={"target": 1},
                     watch=True)
table_add_bot(table_id=table.pk, user=ada, level="random")
table_add_bot(table_id=table.pk, user=ada, level="random")
table_start(table_id=table.pk, user=ada)  # bots play it out inline
table_finished.connect(table_finished_queue, dispatch_uid="stats-record-table")
finished = Table.objects.get(pk=table.pk).status
counted_before = CountedTable.objects.filter(table=table).exists()

settings.TASK_RUNNER = "thread"  # as the server process of make run has it
import config.asgi  # noqa: the server's entry point starts its periodic work
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    if CountedTable.objects.filter(table=table).exists():
        break
    time.sleep(0.2)
print(json.dumps({
    "finished": finished,
    "counted_before": counted_before,
    "counted_after": CountedTable.objects.filter(table=table).exists(),
}))
"""


@pytest.mark.timeout(120)
def test_the_embedded_default_sweeps_up_a_finished_table_its_stats_task_lost(
    tmp_path: Path,
) -> None:
    # docs/architecture.md §7: a periodic sweep re-queues finished tables
    # without a marker; on the embedded default there is no Celery beat, so
    # the server's scheduler thread must run it.
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path),
        TASK_RUNNER="inline",
        BOT_MOVE_DELAY="0",
        STATS_SWEEP_GRACE_SECONDS="0",
    )

    assert run_django_json(LOST_COUNT, env) == {
        "finished": "finished",
        "counted_before": False,
        "counted_after": True,
    }
