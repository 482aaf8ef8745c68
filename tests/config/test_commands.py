"""One-off ``manage.py`` commands fail fast, in one line, on a database that
cannot be reached, and open no connection pool.

They borrowed from the pool like a server: with PostgreSQL down, each waited
``DB_POOL_TIMEOUT`` (10 s) and ended in a 40-line traceback whose last line,
"couldn't get a connection after 10.00 sec", did not say where the database
was. ``config/commands.py`` describes what they do now.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import REPO, clean_env, free_port, run_python

SHELL_QUERY = "from django.db import connection; connection.ensure_connection()"


def manage(tmp_path: Path, *args: str, **env: str) -> tuple[int, str, float]:
    """Run ``manage.py`` with ``args`` on the local settings and ``env``:
    its exit status, its stderr and how long it ran."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=clean_env(CARDROOM_VAR_DIR=str(tmp_path), **env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.returncode, done.stderr, time.monotonic() - started


@pytest.mark.timeout(90)
@pytest.mark.parametrize(
    "command",
    [
        ["migrate", "--noinput"],
        ["ensure_demo_accounts", "--bots-only"],
        ["shell", "-c", SHELL_QUERY],
    ],
    ids=["migrate", "ensure_demo_accounts", "shell"],
)
def test_a_refused_database_ends_a_command_at_once_in_one_line(
    tmp_path: Path, command: list[str]
) -> None:
    port = free_port()

    status, stderr, took = manage(
        tmp_path,
        *command,
        DATABASE_URL=f"postgres://cardroom:db-s3cret@127.0.0.1:{port}/cardroom",
        DB_POOL_TIMEOUT="60",
    )

    assert status == 1
    assert stderr == (
        "DatabaseUnreachable: cannot connect to the database at "
        f"127.0.0.1:{port} (cardroom): Connection refused\n"
    )
    # Python, Django and the command's imports; no wait for the pool (60 s).
    # The margin is wide: on a loaded machine the start alone took over 8 s.
    assert took < 30, f"{took:.1f}s"


@pytest.mark.timeout(90)
def test_a_database_that_never_answers_ends_a_command_after_the_connect_timeout(
    tmp_path: Path, silent_port: int
) -> None:
    """A server that accepts the connection and never answers: the command
    waits DB_CONNECT_TIMEOUT (libpq counts at least 2 s), not for ever and
    not DB_POOL_TIMEOUT."""
    status, stderr, took = manage(
        tmp_path,
        "migrate",
        "--noinput",
        DATABASE_URL=f"postgres://127.0.0.1:{silent_port}/cardroom",
        DB_CONNECT_TIMEOUT="2",
        DB_POOL_TIMEOUT="30",
    )

    assert status == 1
    assert stderr == (
        "DatabaseUnreachable: cannot connect to the database at "
        f"127.0.0.1:{silent_port} (cardroom): connection timeout expired\n"
    )
    assert took < 12, f"{took:.1f}s"


def test_a_one_off_command_opens_no_pool(tmp_path: Path) -> None:
    status, stderr, _ = manage(
        tmp_path,
        "shell",
        "-c",
        "from django.db import connection; import sys; sys.stderr.write("
        "repr(connection.pool))",
        DATABASE_URL="postgres://127.0.0.1:5432/cardroom",
    )

    assert (status, stderr) == (0, "None")


SERVER_SETTINGS = """
from config.commands import one_off_command_start
one_off_command_start(["manage.py", COMMAND])
import django
django.setup()
from django.conf import settings
print("pool" in settings.DATABASES["default"]["OPTIONS"])
"""


@pytest.mark.parametrize(("command", "pool"), [("runserver", True), ("migrate", False)])
def test_runserver_keeps_the_pool(tmp_path: Path, command: str, pool: bool) -> None:
    """``runserver`` serves requests (daphne's): it is a server, not a one-off."""
    done = run_python(
        f"COMMAND = {command!r}\n{SERVER_SETTINGS}",
        clean_env(
            DJANGO_SETTINGS_MODULE="config.settings.local",
            CARDROOM_VAR_DIR=str(tmp_path),
            DATABASE_URL="postgres://127.0.0.1:5432/cardroom",
        ),
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(pool)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "command",
    [
        ["stats_rebuild", "--no-progress"],
        ["stats_reconcile"],
        ["rebuild_table_state", "--all", "--check"],
        ["rebuild_table_state", "1"],
        ["ensure_demo_accounts", "--bots-only"],
    ],
    ids=[
        "stats_rebuild",
        "stats_reconcile",
        "rebuild_table_state_all",
        "rebuild_table_state_id",
        "ensure_demo_accounts",
    ],
)
def test_cardrooms_commands_on_an_unmigrated_database_say_to_migrate(
    tmp_path: Path, command: list[str]
) -> None:
    """Run before ``migrate`` (a fresh database, a restored dump of an older
    release), a command ended in a traceback ("no such table: games_table");
    it now stops with one line that says what to do, before writing anything."""
    status, stderr, _ = manage(tmp_path, *command)

    assert status == 1, stderr
    assert "Traceback" not in stderr
    assert stderr.startswith("CommandError: "), stderr
    assert stderr.count("\n") == 1, stderr
    assert "run `manage.py migrate`" in stderr


@pytest.mark.timeout(120)
def test_changepassword_without_input_stops_in_one_line(tmp_path: Path) -> None:
    """Run with no terminal and nothing on stdin (``docker compose run -T``,
    cron, a pipe that ended), ``changepassword`` ended in getpass's
    ``EOFError`` traceback; it now says why it stopped, and changes nothing."""
    assert manage(tmp_path, "migrate", "--noinput")[0] == 0
    assert manage(tmp_path, "ensure_demo_accounts")[0] == 0

    done = subprocess.run(
        [sys.executable, "manage.py", "changepassword", "admin"],
        cwd=REPO,
        env=clean_env(CARDROOM_VAR_DIR=str(tmp_path)),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith("CommandError: "), done.stderr
    assert "no password" in done.stderr.lower()


@pytest.mark.parametrize(
    ("argv", "daphne"),
    [
        (["manage.py", "runserver"], True),
        (["manage.py", "migrate"], False),
        ([], False),
    ],
    ids=["runserver", "a command", "not manage.py"],
)
def test_only_runserver_loads_daphne(
    tmp_path: Path, argv: list[str], daphne: bool
) -> None:
    """daphne (Twisted and its reactor) is among the apps for ``runserver``
    alone, whose command it replaces; every other process (servers, workers,
    commands, the tests) paid its import, about 0.13–0.45 s of CPU, for
    nothing."""
    code = (
        "import sys\n"
        "from config.commands import one_off_command_start\n"
        f"if {argv!r}: one_off_command_start({argv!r})\n"
        "import django\n"
        "django.setup()\n"
        "from django.core.management import get_commands\n"
        "print(get_commands()['runserver'], 'daphne.server' in sys.modules)\n"
    )
    done = run_python(
        code,
        clean_env(
            CARDROOM_VAR_DIR=str(tmp_path),
            DJANGO_SETTINGS_MODULE="config.settings.local",
        ),
    )
    assert done.returncode == 0, done.stderr
    expected = "daphne True" if daphne else "django.contrib.staticfiles False"
    assert done.stdout.split()[-2:] == expected.split()
