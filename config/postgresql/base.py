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
"""

from __future__ import annotations

import select
from typing import Any

from django.db.backends.postgresql import base
from psycopg.pq import ConnStatus, TransactionStatus
from psycopg_pool import ConnectionPool


def pool_check(conn: Any) -> None:
    """psycopg's check of a pooled connection, skipped when the connection
    is plainly healthy (the module's doc); raises as psycopg's does."""
    pg = conn.pgconn
    if pg.status == ConnStatus.OK and pg.transaction_status == TransactionStatus.IDLE:
        waiting = select.poll()
        waiting.register(pg.socket, select.POLLIN | select.POLLPRI)
        if not waiting.poll(0):  # nothing from the server: not hung up on
            return
    ConnectionPool.check_connection(conn)


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's, with ``pool_check`` for the pool's connections."""

    @property
    def pool(self) -> Any:
        pool = super().pool  # type: ignore[misc]
        # Django passes psycopg's check (or none, without CONN_HEALTH_CHECKS)
        # and takes no other; the pool keeps it as its ``_check``.
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = pool_check
        return pool
