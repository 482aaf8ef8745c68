"""One-off ``manage.py`` commands: no connection pool, and one line when the
database cannot be reached.

A server keeps a pool of PostgreSQL connections per process (``DB_POOL``) so
that a request borrows an open one. A one-off command (``migrate``,
``ensure_demo_accounts``, ``stats_rebuild``, ``shell``) opens one connection
and ends: a pool would only add its threads and, with the database down,
wait ``DB_POOL_TIMEOUT`` for a connection that never comes, then end in
``PoolTimeout``'s traceback, which does not even say where the database is.
So ``manage.py`` marks the process as a one-off command before Django reads
its settings (``one_off_command_start``), the settings then leave the pool out
(``config/settings/base.py``), and a connection that cannot be opened ends
the command with one line on stderr and exit status 1
(``DatabaseUnreachable``, raised by ``config.postgresql``)::

    DatabaseUnreachable: cannot connect to the database at 127.0.0.1:5432 (cardroom): Connection refused

``manage.py runserver`` serves requests: it keeps the pool. Celery's worker
and beat and the ASGI servers do not start through ``manage.py``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.core.management import CommandError
from django.db import OperationalError

from config.logs import redact

#: ``manage.py`` commands that serve requests, and so keep the pool.
SERVERS = frozenset({"runserver"})

_one_off = False
_runserver = False


def one_off_command_start(argv: Sequence[str]) -> None:
    """Mark this process as running the one-off command of ``argv``
    (``manage.py``'s), unless that command is a server. Called before
    Django reads its settings, which ask ``one_off_command``."""
    global _one_off, _runserver
    command = argv[1] if len(argv) > 1 else "help"
    _one_off = command not in SERVERS
    _runserver = command == "runserver"


def runserver_command() -> bool:
    """Whether this process runs ``manage.py runserver``: the one process
    that needs ``daphne`` among the apps (its ``runserver`` serves the ASGI
    application, WebSockets too). Everywhere else importing daphne (Twisted
    and its reactor) cost about 0.13–0.45 s of CPU a process for nothing."""
    return _runserver


def one_off_command() -> bool:
    """Whether this process runs a one-off ``manage.py`` command."""
    return _one_off


# libpq's "connection to server at "host", port 5432 failed: <why>" (or "on
# socket ..."), after psycopg's "connection failed: ".
_LIBPQ_FAILED = re.compile(r"connection to server (?:at|on) .*? failed: (.+)")


class DatabaseUnreachable(CommandError, OperationalError):
    """The database did not let a one-off command connect.

    A ``CommandError``, which Django's ``manage.py`` prints as one line (its
    traceback only with ``--traceback``) before exiting with status 1; and
    still an ``OperationalError``, for code that catches one (``makemigrations``
    checks the migration history if it can, and warns if it cannot).
    """

    @classmethod
    def from_error(
        cls, settings_dict: dict[str, Any], exc: BaseException
    ) -> DatabaseUnreachable:
        """The error for a failed connection to the database of
        ``settings_dict`` (Django's ``DATABASES`` entry): where it is, and
        libpq's reason, on one line and without any password."""
        host = settings_dict.get("HOST") or "the local socket"
        port = settings_dict.get("PORT") or 5432
        name = settings_dict.get("NAME")
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        found = _LIBPQ_FAILED.search(first_line)
        reason = " ".join((found[1] if found else first_line).split())
        return cls(
            redact(
                f"cannot connect to the database at {host}:{port} ({name}): "
                f"{reason or type(exc).__name__}"
            )
        )


def migrations_applied_or_stop(database: str = "default") -> None:
    """Stop a command of Cardroom's with one line unless ``database`` has every
    migration of this release: run on a fresh database, or on a restored dump
    of an older release, before ``migrate``, the command would end in a
    traceback ("no such table", "relation … does not exist") or, worse, in
    the middle of its work."""
    from django.db import connections
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connections[database])
    missing = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if missing:
        name = connections[database].settings_dict.get("NAME")
        raise CommandError(
            redact(
                f"The database ({name}) lacks {len(missing)} of this release's "
                "migrations: run `manage.py migrate` first."
            )
        )
