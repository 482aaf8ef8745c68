"""psycopg 3 underneath Django's connection, for the move's hot path.

A move runs a handful of statements whose cost is mostly the ORM's around
them (composing the query, wrapping the cursor, converting rows), so the hot
path (``games.services.locking.table_lock_seats`` and
``games.event_store.append_with_projection``) sends them through psycopg
itself, on the same connection and in the same transaction as the ORM:
pipelined (several statements in one round trip) and, when the settings
allow, as prepared statements. Everything else keeps the ORM.
"""

from __future__ import annotations

import os
from typing import Any

from django.db import connection


def pg_connection() -> Any | None:
    """The psycopg connection under Django's default one; None off PostgreSQL.

    The hot path's callers run inside ``transaction.atomic``: psycopg then
    sends the transaction's ``BEGIN`` with the first statement (in the same
    pipeline), and Django's ``atomic`` commits or rolls back as for the ORM.
    """
    if connection.vendor != "postgresql":
        return None
    connection.ensure_connection()
    return connection.connection


def prepare() -> bool | None:
    """``prepare=`` for the hot path's statements.

    True (prepare at once, plan once per connection) unless the settings turn
    prepared statements off (``DB_PREPARED_STATEMENTS=false``, e.g. behind a
    pooler that cannot keep them): Django then gives psycopg no
    ``prepare_threshold`` and psycopg prepares nothing.
    """
    pg = connection.connection
    return None if pg is None or pg.prepare_threshold is None else True


#: Pools a forked child inherited, kept referenced so that they are never
#: garbage-collected there (closing their connections would end the parent's).
_inherited_pools: list[Any] = []


def _forget_pools_after_fork() -> None:
    """In a forked child, drop the parent's connection pools.

    A psycopg pool's worker threads do not survive ``fork``: a child borrowing
    from the inherited pool would wait for connections no thread ever opens.
    Forking servers (Celery's prefork pool, the bench's clients) therefore get
    a fresh pool of their own, opened on first use.
    """
    from django.db.backends.postgresql.base import DatabaseWrapper

    pools: dict[str, Any] = DatabaseWrapper._connection_pools  # type: ignore[attr-defined]
    _inherited_pools.extend(pools.values())
    pools.clear()


os.register_at_fork(after_in_child=_forget_pools_after_fork)
