"""Helpers for tests that run the project in a separate process, need a
database session beside Django's, or talk to the Celery broker from this one.

Settings are read once per process, so checking another mode (local,
production) or an unreachable service means starting a fresh interpreter with
a controlled environment.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

# Only what a process needs to run; nothing of the caller's Django, database,
# Redis or make configuration leaks in.
_PASSED_THROUGH = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")


def clean_env(**overrides: str) -> dict[str, str]:
    """A minimal environment that ignores any ``.env`` file, plus ``overrides``."""
    env = {name: os.environ[name] for name in _PASSED_THROUGH if name in os.environ}
    env["CARDROOM_ENV_FILE"] = os.devnull
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(overrides)
    return env


def run_python(
    code: str, env: dict[str, str], timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` with this interpreter in the repository root."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def run_django_json(code: str, env: dict[str, str]) -> Any:
    """Set Django up in a fresh process, run ``code``, return its JSON output.

    ``code`` must print exactly one JSON document as its last line.
    """
    result = run_python("import django\ndjango.setup()\n" + code, env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


#: The start of a data migration's test script: ``migrate(target)`` takes
#: ``target``'s app there (every other app to its latest) and returns the
#: historical models at that point; ``migrate_latest(app)`` takes the app back
#: to its newest migration. The script stores its findings in ``out`` and ends
#: by printing them (``migration_script_run``).
MIGRATION_SCRIPT_HEAD = """
import json
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    executor.loader.build_graph()
    others = [n for n in executor.loader.graph.leaf_nodes() if n[0] != target[0]]
    return executor.loader.project_state([*others, target]).apps


def migrate_latest(app):
    executor = MigrationExecutor(connection)
    migrate(next(n for n in executor.loader.graph.leaf_nodes() if n[0] == app))


out = {"vendor": connection.vendor}
"""


def migration_script_run(script: str, *, embedded: Path | None = None) -> Any:
    """Run a data migration's test script (``MIGRATION_SCRIPT_HEAD`` and what
    follows it) on the test database, in this process; or, given a variable
    directory, in a fresh process on the embedded default's SQLite there,
    migrated first. Returns its ``out``."""
    if embedded is None:
        ran: dict[str, Any] = {}
        exec(MIGRATION_SCRIPT_HEAD + script, ran)  # noqa: S102
        return ran["out"]
    code = "from django.core.management import call_command\n"
    code += 'call_command("migrate", verbosity=0)\n'
    code += MIGRATION_SCRIPT_HEAD + script + "\nprint(json.dumps(out))\n"
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local", CARDROOM_VAR_DIR=str(embedded)
    )
    return run_django_json(code, env)


def database_url(name: str | None = None) -> str:
    """The URL of the test database (or of database ``name`` on its server),
    for another process. It names a user (and password) only if the settings
    do: without one, libpq connects as PGUSER, else the operating system's
    user name, as the test settings' own default URL does."""
    from urllib.parse import quote

    from django.db import connection

    s = connection.settings_dict
    user = quote(s["USER"] or "", safe="")
    if user and s["PASSWORD"]:
        user += ":" + quote(s["PASSWORD"], safe="")
    host = s["HOST"] or "127.0.0.1"
    return f"postgres://{user + '@' if user else ''}{host}:{s['PORT'] or 5432}/{name or s['NAME']}"


def pooled_test_database_env(**overrides: str) -> tuple[str, dict[str, str]]:
    """The test database's URL, and an environment in which a separate
    process opens it with the local settings' pool; skips off PostgreSQL."""
    import pytest
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the pool is PostgreSQL's")
    url = database_url()
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL=url,
        DB_POOL_TIMEOUT="5",
    )
    env.update(overrides)
    return url, env


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def stop_process_group(process: subprocess.Popen[Any]) -> None:
    """Stop a server started in a process group of its own (``make``, a
    shell script, the server): TERM, then KILL after 15 seconds. A group
    already gone (a test killed it) is left as it is."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        process.wait()
        return
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


#: daphne serving the project as ``make run`` does (add ``-p <port>``).
DAPHNE = [sys.executable, "-m", "daphne", "-b", "127.0.0.1"]


def embedded_migrated(env: dict[str, str], timeout: float = 120) -> None:
    """Migrate the database ``env`` names, as ``make run`` does first."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=REPO,
        env=env,
        check=True,
        timeout=timeout,
    )


@contextmanager
def server_process(
    command: Sequence[str], env: dict[str, str], log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """``command`` run from the checkout in a process group of its own, its
    output in ``log``; stopped (with its children) on the way out."""
    with log.open("wb") as out:
        process = subprocess.Popen(
            list(command),
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        stop_process_group(process)


class OwnRedis:
    """A private ``redis-server`` on a free port that a test can stop and start."""

    def __init__(self, workdir: Path) -> None:
        self.port, self.workdir = free_port(), workdir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import redis  # here: the pure rules tests import this module too

        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


def another_session() -> Any:
    """A psycopg connection of its own to the test database, beside Django's:
    a second session, to hold a lock that Django's connection then waits for."""
    import psycopg
    from django.db import connection

    params = connection.settings_dict
    return psycopg.connect(
        dbname=params["NAME"],
        user=params["USER"] or None,  # None: libpq's default user
        password=params["PASSWORD"] or None,
        host=params["HOST"],
        port=params["PORT"],
    )


def lock_waiters() -> list[int]:
    """The backends of the test database that wait for a lock now."""
    with another_session() as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock'"
        ).fetchall()
    return [pid for (pid,) in rows]


def until(done: Callable[[], Any], what: str, seconds: float = 20) -> None:
    """Wait until ``done()`` is true, polling; fail with ``what`` after
    ``seconds``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def celery_pools_reset() -> None:
    """Drop every broker pool this process's Celery app holds, closed or not.

    A test that points the app at another broker (or key prefix) must reset
    them so the next publish uses the current conf, and a test that talks to
    the broker must not inherit a pool an earlier test closed. There are three
    places a pool hides: the app's connection pool, its producer pool, and the
    control mailbox's producer pool, which the mailbox caches once an
    in-process worker has replied to a broadcast. Celery clears the same
    three after a fork; ``kombu.pools.reset`` then closes and forgets the
    shared ones.
    """
    from kombu import pools  # here: the pure rules tests import this module too

    from config.celery import app

    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None
    app.control.mailbox.__dict__.pop("producer_pool", None)
    pools.reset()


@contextmanager
def tables_finishing_seen() -> Iterator[set[int]]:
    """The ids of the tables ``games.signals.table_finishing`` is sent for
    while the block runs (the signal the statistics' queue row is written
    on, in the transaction that finishes a table)."""
    from games.signals import table_finishing

    seen: set[int] = set()

    def receiver(sender: Any, table: Any, **kwargs: Any) -> None:
        seen.add(table.pk)

    table_finishing.connect(receiver, weak=False, dispatch_uid="tests-finishing")
    try:
        yield seen
    finally:
        table_finishing.disconnect(dispatch_uid="tests-finishing")


def tables_finished_unqueued(finishing: set[int] | None = None) -> list[int]:
    """Finished tables that neither wait in the statistics' queue nor are
    counted: none, unless a way of finishing a table forgot to queue it
    (``stats.PendingTable``), so that its count would never be swept up.

    ``finishing`` (``tables_finishing_seen``): the tables are also checked
    to have sent ``games.signals.table_finishing``, which the queue row is
    written on: a table counted at once (inline tasks) has left the queue
    already, so only the signal tells that its finish queued it.
    """
    from django.db.models import Exists, OuterRef

    from games.models import Table, TableStatus
    from stats.models import CountedTable, PendingTable

    finished = Table.objects.filter(status=TableStatus.FINISHED)
    forgotten = set(
        finished.exclude(Exists(PendingTable.objects.filter(table_id=OuterRef("pk"))))
        .exclude(Exists(CountedTable.objects.filter(table_id=OuterRef("pk"))))
        .values_list("id", flat=True)
    )
    if finishing is not None:
        forgotten |= set(finished.values_list("id", flat=True)) - finishing
    return sorted(forgotten)
