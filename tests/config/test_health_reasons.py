"""``/healthz``'s warning says why the database is unreachable.

With the pool (on by default) the probe waits for a pooled connection while
the pool's own threads try to connect, so all it learnt was "no answer within
1s" (or psycopg's "couldn't get a connection after 10.00 sec"): the warning
now carries the pool's last error connecting, or the probe's own, with any
password redacted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from psycopg import OperationalError

from config import health
from tests.helpers import clean_env, free_port, run_python

GET_HEALTHZ = """
import django
django.setup()
from django.test import Client
response = Client().get("/healthz", HTTP_HOST="localhost")
print(response.status_code, response.json()["database"])
"""


def healthz_log(tmp_path: Path, **env: str) -> tuple[str, str]:
    """GET /healthz in a fresh process on the local settings: what it
    answered (status code, database) and what it logged."""
    done = run_python(
        GET_HEALTHZ,
        clean_env(
            DJANGO_SETTINGS_MODULE="config.settings.local",
            CARDROOM_VAR_DIR=str(tmp_path),
            **env,
        ),
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip(), done.stderr


def degraded_line(log: str) -> str:
    [line] = [x for x in log.splitlines() if "Health check degraded" in x]
    return line


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("case", "env", "waited"),
    [
        # The request stops waiting first: the pool's last error is added.
        ("probe timeout", {"HEALTH_CHECK_TIMEOUT": "0.5"}, "no answer within 0.5s; "),
        # The pool stops waiting first: its error replaces "couldn't get a
        # connection after 1.00 sec".
        ("pool timeout", {"HEALTH_CHECK_TIMEOUT": "3", "DB_POOL_TIMEOUT": "1"}, ""),
    ],
)
def test_a_refused_database_is_logged_with_the_pools_last_error(
    tmp_path: Path, case: str, env: dict[str, str], waited: str
) -> None:
    port = free_port()
    answer, log = healthz_log(
        tmp_path,
        DATABASE_URL=f"postgres://cardroom:db-s3cret@127.0.0.1:{port}/cardroom",
        **env,
    )

    assert answer == "503 unreachable"
    line = degraded_line(log)
    assert (
        f"WARNING config.health: Health check degraded: database unreachable ({waited}"
    ) in line, log
    assert (
        "OperationalError('connection failed: connection to server at "
        f'"127.0.0.1", port {port} failed: Connection refused'
    ) in line, log
    assert "couldn't get a connection" not in line
    assert "s3cret" not in log


def test_a_password_in_a_connection_error_is_redacted() -> None:
    """libpq quotes parts of a connection string in some errors; a URL or a
    ``password=`` it quotes loses its password."""
    error = OperationalError(
        'invalid connection option in "postgres://cardroom:db-s3cret@db/x '
        'password=db-s3cret"'
    )

    reason = health._reason(error)

    assert "s3cret" not in reason
    assert "postgres://cardroom:[redacted]@db/x password=[redacted]" in reason
