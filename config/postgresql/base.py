"""Django's PostgreSQL backend, with a pooled connection checked without a
round trip.

Django has psycopg's pool check every connection it lends with an empty
query (``ConnectionPool.check_connection``): a round trip at the start of
every request, about a tenth of a move over HTTP (docs/performance.md).
``pool_check`` lends a connection without one when libpq still counts it
open, it is outside a transaction, and nothing waits to be read on its
socket; a server that ended the session (a restart, a terminated backend, an
idle timeout) says so on the socket before it closes, so the connection is
then checked with the query as before, and the pool replaces it if that
fails. redis-py checks its pooled connections the same way. The settings
use this backend wherever they would use Django's (``config/settings``).

A thread that serves request after request (the HTTP handler's) also keeps
the connection it borrowed between its requests, by the same test, instead
of giving it back and borrowing again for each (``DatabaseWrapper``).

The pool also remembers why its last attempt to connect failed
(``RecordingPool``): a request that waited ``DB_POOL_TIMEOUT`` for a
connection is only told that it waited, and ``/healthz`` says why.
"""

from __future__ import annotations

import select
import threading
import time
from typing import Any

from django.db import OperationalError
from django.db.backends.postgresql import base
from psycopg.pq import ConnStatus, TransactionStatus
from psycopg_pool import ConnectionPool

from config.commands import DatabaseUnreachable, one_off_command


def plainly_healthy(conn: Any) -> bool:
    """Whether libpq counts ``conn`` open and outside a transaction, with
    nothing from the server waiting on its socket (which is how a server
    that ends a session says so first)."""
    pg = conn.pgconn
    if pg.status != ConnStatus.OK or pg.transaction_status != TransactionStatus.IDLE:
        return False
    waiting = select.poll()
    waiting.register(pg.socket, select.POLLIN | select.POLLPRI)
    return not waiting.poll(0)


def pool_check(conn: Any) -> None:
    """psycopg's check of a pooled connection, skipped when the connection
    is plainly healthy (the module's doc); raises as psycopg's does."""
    if not plainly_healthy(conn):
        ConnectionPool.check_connection(conn)


class RecordingPool(ConnectionPool):
    """psycopg's pool, keeping the error of its last failed attempt to
    connect (``last_connect_error``) until an attempt succeeds.

    The pool connects in its own threads and only logs why it could not;
    whoever waits for a connection meanwhile gets a ``PoolTimeout`` that says
    nothing of the server.
    """

    last_connect_error: Exception | None = None

    def _connect(self, timeout: float | None = None) -> Any:
        try:
            conn = super()._connect(timeout)
        except Exception as exc:
            self.last_connect_error = exc
            raise
        self.last_connect_error = None
        return conn


def last_connect_error(wrapper: Any) -> Exception | None:
    """Why the pool of Django's connection ``wrapper`` last failed to
    connect, if it did and has not connected since; None without a pool."""
    pool = getattr(wrapper, "pool", None)
    return getattr(pool, "last_connect_error", None)


#: How long a request thread keeps a borrowed connection between its
#: requests before giving it back to the pool at the end of one (where the
#: pool's own bounds on a connection's idle time and age apply again).
KEEP_SECONDS = 60.0

_thread = threading.local()


def keep_connections_in_this_thread() -> None:
    """Mark the calling thread as one that serves request after request
    (``config.handlers``' HTTP threads): a connection it borrows from the
    pool stays lent to it between requests while it is plainly healthy
    (``DatabaseWrapper.close_if_unusable_or_obsolete``)."""
    _thread.keeps = True


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's, with ``pool_check`` for the pool's connections, and a
    request thread's connection kept between its requests.

    Django gives a pooled connection back at the end of every request and
    borrows one at the first query of the next: about 0.1 ms of CPU a move
    over HTTP (docs/performance.md). A thread marked with
    ``keep_connections_in_this_thread`` keeps it instead, for up to
    ``KEEP_SECONDS``, when the request left it clean: no error since its
    last commit, autocommit on, outside any transaction, and plainly
    healthy. Anything else is given back as Django gives it back, and the
    pool checks it before lending it again.
    """

    _lent_at = 0.0

    def connect(self) -> None:
        super().connect()
        self._lent_at = time.monotonic()

    def ensure_connection(self) -> None:
        """Django's; in a one-off ``manage.py`` command, a connection that
        cannot be opened is a ``DatabaseUnreachable``: one line saying where
        the database is and why, not a traceback (``config/commands.py``)."""
        try:
            super().ensure_connection()
        except OperationalError as exc:
            if self.connection is None and one_off_command():
                raise DatabaseUnreachable.from_error(self.settings_dict, exc) from exc
            raise

    def close_if_unusable_or_obsolete(self) -> None:
        if self._keeps():
            return  # lent to this thread for its next request
        super().close_if_unusable_or_obsolete()

    def _keeps(self) -> bool:
        return (
            self.connection is not None
            and self.pool is not None
            and getattr(_thread, "keeps", False)
            and not self.errors_occurred
            and not self.in_atomic_block
            and self.get_autocommit() == self.settings_dict["AUTOCOMMIT"]
            and time.monotonic() - self._lent_at < KEEP_SECONDS
            and plainly_healthy(self.connection)
        )

    @property
    def pool(self) -> Any:
        pool = super().pool  # type: ignore[misc]
        # Django passes psycopg's check (or none, without CONN_HEALTH_CHECKS)
        # and takes no other; the pool keeps it as its ``_check``.
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = pool_check
        # Django builds psycopg's own class and takes no other: the same
        # pool, made a RecordingPool as soon as Django has built it.
        if type(pool) is ConnectionPool:
            pool.__class__ = RecordingPool
        return pool
