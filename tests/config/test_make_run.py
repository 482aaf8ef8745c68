"""``make run`` keeps DEBUG pages and the demo admin on this machine.

With DEBUG on, a HOST other than loopback is refused before anything starts;
with ``DEBUG=false`` it serves, without the demo admin. ``make up`` finds its
database and Redis as the settings do (environment, then the .env file) and
starts this machine's services only when it uses them.
"""

import hashlib
import os
import subprocess
import sys
import time
import urllib.error
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.config.test_asgi import fetch_json
from tests.helpers import REPO, clean_env, free_port, stop_process_group

# This machine's server, as libpq's default user (PGUSER, else the OS user).
MAINTENANCE_URL = "postgresql://127.0.0.1:5432/postgres"


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.10", "::"])
def test_a_network_host_with_debug_on_is_refused(tmp_path: Path, host: str) -> None:
    env = clean_env(CARDROOM_VAR_DIR=str(tmp_path / "var"))

    result = subprocess.run(
        ["make", "run", f"HOST={host}", f"PORT={free_port()}"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode != 0
    assert f"make run/up: refusing HOST={host} with DEBUG on." in result.stderr
    assert not (tmp_path / "var" / "cardroom.sqlite3").exists()  # nothing ran


@pytest.mark.timeout(300)
def test_a_network_host_with_debug_off_serves_without_the_demo_admin(
    tmp_path: Path,
) -> None:
    port = free_port()
    log_path = tmp_path / "make-run.log"
    env = clean_env(
        CARDROOM_VAR_DIR=str(tmp_path / "var"),
        STATIC_ROOT=str(tmp_path / "static"),
        ALLOWED_HOSTS="127.0.0.1",
    )
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            ["make", "run", "HOST=0.0.0.0", f"PORT={port}", "DEBUG=false"],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        answer = None
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            assert process.poll() is None, log_path.read_text()
            try:
                answer = fetch_json(f"http://127.0.0.1:{port}/healthz")
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.5)
        missing = fetch_json(f"http://127.0.0.1:{port}/no/such/page/")
    finally:
        stop_process_group(process)

    output = log_path.read_text()
    assert answer is not None and answer[0] == 200, output
    # DEBUG off: Django's JSON 404, not its debug page listing every URL.
    assert missing == (404, {"code": "not_found", "message": "Not found."})
    assert "Bot account bot-strong (strong): created" in output
    assert "Demo admin" not in output
    assert "(DEBUG off)" in output


def _make_up_plan(env: dict[str, str]) -> str:
    """What ``make up`` would run (``make -n``), with ``env`` on top of a
    clean environment (no DATABASE_URL or REDIS_URL of the caller's)."""
    base = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")
    }
    result = subprocess.run(
        ["make", "-n", "up"],
        cwd=REPO,
        env={**base, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return result.stdout


def test_make_up_takes_its_services_from_the_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / "env"
    env_file.write_text(
        'DATABASE_URL="postgres://root@127.0.0.1:5432/elsewhere"\n'
        "REDIS_URL=redis://127.0.0.1:6379/13\n"
    )

    plan = _make_up_plan({"CARDROOM_ENV_FILE": str(env_file)})

    assert "DATABASE_URL=postgres://root@127.0.0.1:5432/elsewhere " in plan
    assert "REDIS_URL=redis://127.0.0.1:6379/13 " in plan
    # both on this machine: started, and the database created if missing
    assert (
        "DATABASE_URL=postgres://root@127.0.0.1:5432/elsewhere scripts/services-up.sh"
        in plan
    )


def test_make_up_leaves_this_machines_services_alone_for_remote_ones(
    tmp_path: Path,
) -> None:
    plan = _make_up_plan(
        {
            "CARDROOM_ENV_FILE": str(tmp_path / "none"),
            "DATABASE_URL": "postgres://cardroom@db.example:5432/cardroom",
            "REDIS_URL": "redis://cache.example:6379/0",
        }
    )

    assert "DATABASE_URL=postgres://cardroom@db.example:5432/cardroom " in plan
    assert "services-up" not in plan
    assert "scripts/prepare.sh" in plan  # demo admin only with DEBUG on


def test_make_ups_default_database_names_no_user(tmp_path: Path) -> None:
    """A machine whose PostgreSQL role is its user's own (not ``root``, as on
    CI) runs ``make up`` as it is: libpq picks the user."""
    plan = _make_up_plan({"CARDROOM_ENV_FILE": str(tmp_path / "none")})

    assert "DATABASE_URL=postgres://127.0.0.1:5432/cardroom scripts/services-up.sh" in (
        plan
    )
    assert "DATABASE_URL=postgres://127.0.0.1:5432/cardroom REDIS_URL=" in plan
    assert "root@" not in plan


@pytest.fixture
def own_role() -> Iterator[str]:
    """A PostgreSQL role of the test's own, allowed to log in and no more:
    the role of a machine's user, named by PGUSER here."""
    role = f"cardroom_up_{hashlib.sha256(str(REPO).encode()).hexdigest()[:8]}"
    with psycopg.connect(MAINTENANCE_URL, autocommit=True) as conn:
        conn.execute(f'DROP ROLE IF EXISTS "{role}"')
        conn.execute(f'CREATE ROLE "{role}" LOGIN')
    try:
        yield role
    finally:
        with psycopg.connect(MAINTENANCE_URL, autocommit=True) as conn:
            conn.execute(f'DROP ROLE IF EXISTS "{role}"')


CURRENT_USER = (
    "from django.db import connection\n"
    "with connection.cursor() as cursor:\n"
    "    cursor.execute('SELECT current_user')\n"
    "    print(cursor.fetchone()[0])"
)


@pytest.mark.timeout(120)
def test_make_ups_default_database_is_libpqs_default_users(
    tmp_path: Path, own_role: str
) -> None:
    """The stack ``make up`` starts connects as libpq's default user."""
    plan = _make_up_plan({"CARDROOM_ENV_FILE": str(tmp_path / "none")})
    [url] = {
        word.removeprefix("DATABASE_URL=")
        for word in plan.split()
        if word.startswith("DATABASE_URL=")
    }

    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", CURRENT_USER],
        cwd=REPO,
        env=clean_env(
            CARDROOM_VAR_DIR=str(tmp_path / "var"), DATABASE_URL=url, PGUSER=own_role
        ),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == own_role


@pytest.mark.timeout(120)
def test_services_up_connects_as_libpqs_default_user() -> None:
    """It names no user of its own: PGUSER (here a role that does not exist)
    is the one it connects as, as the OS user would be without it."""
    result = _services_up("", PGUSER="cardroom_no_such_role")

    assert result.returncode != 0
    assert 'role "cardroom_no_such_role" does not exist' in result.stderr


def _services_up(database_url: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["scripts/services-up.sh"],
        cwd=REPO,
        env=clean_env(DATABASE_URL=database_url, **env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _database_exists(name: str) -> bool:
    with psycopg.connect(MAINTENANCE_URL) as conn:
        found = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
    return found is not None


@pytest.mark.timeout(180)
def test_services_up_creates_the_local_database_make_up_runs_on() -> None:
    # `make up` with DATABASE_URL naming a new database on this machine used
    # to wait DB_POOL_TIMEOUT in migrate and fail with a traceback.
    name = f"cardroom_up_{hashlib.sha256(str(REPO).encode()).hexdigest()[:8]}"
    url = f"postgres://127.0.0.1:5432/{name}?sslmode=disable"
    with psycopg.connect(MAINTENANCE_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
    try:
        first = _services_up(url)
        again = _services_up(url)
    finally:
        created = _database_exists(name)
        with psycopg.connect(MAINTENANCE_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')

    assert first.returncode == 0, first.stderr
    assert created
    assert f"services-up: created the database {name}" in first.stdout
    assert again.returncode == 0, again.stderr
    assert "created the database" not in again.stdout  # idempotent


@pytest.mark.parametrize(
    "url",
    ["postgres://cardroom@db.example:5432/elsewhere", "sqlite:////tmp/cardroom.db"],
)
def test_services_up_leaves_a_database_elsewhere_alone(url: str) -> None:
    result = _services_up(url)

    assert result.returncode == 0, result.stderr
    assert "created the database" not in result.stdout


def _running_in_session(session: int) -> str:
    """The processes of a session still running, waiting up to 5 seconds for
    ones on their way out. A zombie is not running: a child of a killed
    script (a ``$(...)`` of scripts/web.sh) is reaped by the machine's init,
    which here may take its time, and a CI run once found one."""
    deadline = time.monotonic() + 5
    while True:
        left = subprocess.run(
            ["pgrep", "--runstates", "D,R,S,T,t", "-s", str(session)],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        if left == "" or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("dies", ["worker", "beat"])
def test_up_sh_stops_the_stack_when_a_celery_process_exits(
    tmp_path: Path, dies: str
) -> None:
    """A worker or beat that exits (a broker it cannot reach, a crash) stops
    ``scripts/up.sh`` and the other processes, with its status, rather than
    leaving the web process serving a stack whose tasks nobody runs."""
    celery = tmp_path / "celery"
    celery.write_text(
        "#!/bin/sh\n"
        f'case " $* " in *" {dies} "*) echo "{dies} failed" >&2; exit 3 ;; esac\n'
        "exec sleep 30\n"
    )
    uvicorn = tmp_path / "uvicorn"
    uvicorn.write_text("#!/bin/sh\nexec sleep 30\n")
    for fake in (celery, uvicorn):
        fake.chmod(0o755)
    started = time.monotonic()
    process = subprocess.Popen(
        ["scripts/up.sh"],
        cwd=REPO,
        env=clean_env(BIN=str(tmp_path), CARDROOM_VAR_DIR=str(tmp_path / "var")),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _, stderr = process.communicate(timeout=20)
        # Nothing of the stack is left running (the fakes would sleep on).
        left = _running_in_session(process.pid)
    finally:
        stop_process_group(process)
    assert time.monotonic() - started < 20
    assert process.returncode == 3, stderr
    assert f"{dies} failed" in stderr
    assert "stopping the others" in stderr
    assert left == ""


@pytest.mark.parametrize(
    ("variable", "value", "error"),
    [
        ("LOG_LEVEL", "bogus", "LOG_LEVEL='bogus' is not a log level"),
        ("HEALTH_CHECK_TIMEOUT", "0", "HEALTH_CHECK_TIMEOUT=0 is not above 0"),
    ],
)
def test_make_run_on_a_bad_setting_says_so_in_one_line(
    tmp_path: Path, variable: str, value: str, error: str
) -> None:
    """A value the settings refuse stopped ``make run`` (and ``make up``)
    with a 20-line traceback around the one line that mattered."""
    result = subprocess.run(
        ["make", "run", f"PORT={free_port()}"],
        cwd=REPO,
        env=clean_env(CARDROOM_VAR_DIR=str(tmp_path / "var"), **{variable: value}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert f"make run/up: ImproperlyConfigured: {error}" in result.stderr
    assert not (tmp_path / "var" / "cardroom.sqlite3").exists()  # nothing ran
