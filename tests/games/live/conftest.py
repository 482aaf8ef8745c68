"""Real servers for live-play tests: daphne and a Celery worker in subprocesses.

``stack`` (one per xdist worker, shared by the tests of this package) runs two
daphne processes on free ports and one Celery worker, on the test database
(PostgreSQL) and Redis with this worker's key prefix and queue, as the full
stack runs in production. Tests talk to them over HTTP (``Api``) and real
WebSockets (``Ws``, the ``websockets`` client). Test data is committed
(``transactional_db``), so the servers see it.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.helpers import DAPHNE, REPO, clean_env, database_url, free_port

WAIT = 10.0


def stack_env(db_name: str, redis_url: str, **extra: str) -> dict[str, str]:
    """The environment of a server or worker of the full stack under test."""
    from django.conf import settings

    return clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        DATABASE_URL=database_url(db_name),
        REDIS_URL=redis_url,
        CELERY_TASK_ALWAYS_EAGER="false",
        TASK_RUNNER="celery",
        BOT_MOVE_DELAY="0",
        PYTEST_XDIST_WORKER=settings.TEST_WORKER,
        CELERY_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE,
        **extra,
    )


@dataclass
class Process:
    """A subprocess in its own process group, its output in a log file."""

    args: list[str]
    env: dict[str, str]
    log: Path
    popen: subprocess.Popen[bytes] | None = None

    def start(self) -> Process:
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                self.args,
                cwd=REPO,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    def stop(self) -> None:
        if self.popen is None or self.popen.poll() is not None:
            return
        os.killpg(self.popen.pid, signal.SIGTERM)
        try:
            self.popen.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait()

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def daphne(env: dict[str, str], log: Path) -> tuple[Process, str]:
    port = free_port()
    args = [*DAPHNE, "-p", str(port), "config.asgi:application"]
    process = Process(args, env, log).start()
    base = f"http://127.0.0.1:{port}"
    wait_http(base, process)
    return process, base


def celery_worker(env: dict[str, str], log: Path) -> Process:
    args = [sys.executable, "-m", "celery", "-A", "config", "worker"]
    args += ["-Q", env["CELERY_QUEUE"], "-P", "threads", "-c", "4", "-l", "WARNING"]
    args += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    return Process(args, env, log).start()


def wait_http(base: str, process: Process, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.popen is not None and process.popen.poll() is None, (
            process.output()
        )
        try:
            urllib.request.urlopen(f"{base}/api/games/", timeout=2).close()
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise AssertionError(f"{base} did not answer:\n{process.output()}")


@dataclass
class Stack:
    servers: list[str]
    processes: list[Process] = field(default_factory=list)

    @property
    def base(self) -> str:
        return self.servers[0]

    def logs(self) -> str:
        return "\n".join(p.output() for p in self.processes)


@pytest.fixture(scope="session")
def stack(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    """Two daphne processes and a Celery worker on PostgreSQL and Redis."""
    from django.conf import settings
    from django.db import connection

    logs = tmp_path_factory.mktemp("stack")
    env = stack_env(connection.settings_dict["NAME"], settings.REDIS_URL)
    worker = celery_worker(env, logs / "worker.log")
    processes = [worker]
    try:
        servers = []
        for name in ("a", "b"):
            process, base = daphne(env, logs / f"daphne-{name}.log")
            processes.append(process)
            servers.append(base)
        yield Stack(servers, processes)
    finally:
        for process in processes:
            process.stop()


#: How long the stack must leave the database alone before a test ends.
QUIET_FOR = 0.5


@pytest.fixture(autouse=True)
def _stack_settles(transactional_db: None) -> Iterator[None]:
    """End each live test only once the stack has left the database alone.

    A match's end sets work going after the test has seen the last frame (the
    worker records the table's statistics; the servers forget closed sockets).
    Emptying the tables (``transactional_db``'s TRUNCATE, torn down after this)
    while such a transaction holds row locks deadlocks. So this waits until no
    other connection to the test database is running a statement or holding a
    transaction, for ``QUIET_FOR`` seconds in a row.
    """
    yield
    from django.db import connection

    deadline = time.monotonic() + 30
    quiet_since = None
    while True:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND state IN ('active', 'idle in transaction', "
                "'idle in transaction (aborted)')"
            )
            (busy,) = cursor.fetchone()
        now = time.monotonic()
        if busy:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = now
        elif now - quiet_since >= QUIET_FOR:
            return
        assert now < deadline, "the live stack kept working on the database"
        time.sleep(0.05)


# --- clients -----------------------------------------------------------------


class Api:
    """A token-authenticated HTTP client of one server."""

    def __init__(self, base: str, token: str | None = None) -> None:
        self.base, self.token = base, token

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.base}{path}", data, method=method)
        request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def get(self, path: str) -> Any:
        status, body = self.call("GET", path)
        assert status == 200, body
        return body

    def post(self, path: str, body: Any = None) -> Any:
        status, body = self.call("POST", path, body or {})
        assert status in (200, 201), body
        return body


def person(base: str, username: str) -> Api:
    """Register ``username`` on the server; a client with its token."""
    status, body = Api(base).call(
        "POST",
        "/api/accounts/register/",
        {"username": username, "password": "live-play-pass-7391"},
    )
    assert status == 201, body
    return Api(base, body["token"])


class Ws:
    """A real WebSocket on ``ws/tables/<id>/``, collecting every frame."""

    def __init__(
        self, base: str, table_id: int, token: str | None = None, **query: Any
    ):
        params = {**({"token": token} if token else {}), **query}
        tail = "?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else ""
        self.url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}/{tail}"
        self.frames: list[dict[str, Any]] = []
        self.conn: ClientConnection | None = None

    async def __aenter__(self) -> Ws:
        self.conn = await connect(self.url, open_timeout=WAIT)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self.conn is not None:
            await self.conn.close()

    async def send(self, message: dict[str, Any]) -> None:
        assert self.conn is not None
        await self.conn.send(json.dumps(message))

    async def next(self, kind: str | None = None, timeout: float = WAIT) -> Any:
        assert self.conn is not None
        while True:
            frame = json.loads(await asyncio.wait_for(self.conn.recv(), timeout))
            self.frames.append(frame)
            if kind is None or frame["type"] == kind:
                return frame

    async def until(self, done: Any, timeout: float = 60) -> dict[str, Any]:
        """Read frames until ``done(frame)`` holds for a state frame."""
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.next(
                "state", timeout=max(deadline - time.monotonic(), 0.1)
            )
            if done(frame):
                return frame

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "state"]


def event_seqs(frames: list[dict[str, Any]]) -> list[int]:
    return [e["seq"] for f in frames if f["type"] == "state" for e in f["events"]]


__all__ = ["Api", "ConnectionClosed", "Stack", "Ws", "event_seqs", "person"]
