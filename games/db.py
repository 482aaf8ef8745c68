"""psycopg 3 underneath Django's connection, for the move's hot path.

A move runs a handful of statements whose cost is mostly what surrounds them
(the ORM composing queries and converting rows, and on these machines every
round trip's wake-ups), so the hot path (``games.services.locking.table_lock_seats``
and ``games.event_store.append_with_projection``) sends them through psycopg
itself, on the same connection and in the same transaction as the ORM, in two
round trips (docs/event-store.md, "A move's round trips"):

1. the transaction's ``BEGIN``, the row lock and the reads under it, as one
   simple-protocol message holding several statements (``transaction_begin``);
2. the append and the cached state's rewrite, with the transaction's
   ``COMMIT`` when the move ends the outermost transaction (``commit_folds``).

Several statements in one message bind their parameters on the client
(``psycopg.ClientCursor``, as Django's own cursors do). A psycopg pipeline
also sends them together, but it was measured slower here: it waits for the
socket several times per batch, and spent about twice the CPU per move
(docs/performance.md). Everything else keeps the ORM.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from psycopg import IsolationLevel
from psycopg.pq import TransactionStatus


def pg_connection() -> Any | None:
    """The psycopg connection under Django's default one; None off PostgreSQL.

    The hot path's callers run inside ``transaction.atomic``; the first
    statement carries the transaction's ``BEGIN`` (``transaction_begin``),
    and Django's ``atomic`` commits or rolls back as for the ORM.
    """
    wrapper = connections[DEFAULT_DB_ALIAS]  # one lookup, not one per attribute
    if wrapper.vendor != "postgresql":
        return None
    wrapper.ensure_connection()
    return wrapper.connection


@dataclass(frozen=True)
class Statement:
    """One statement of the hot path, with named parameters (``%(name)s``).

    Sent as ``EXECUTE name(...)`` of a statement prepared on the server
    (``PREPARE``, in the same message the first time a connection sends it),
    so it is planned once per connection, not once per move; or as plain SQL
    when the settings turn prepared statements off (``prepares``).
    """

    name: str
    sql: str
    params: tuple[str, ...]

    def __post_init__(self) -> None:
        self.prepare_sql  # noqa: B018 (checks the parameters at import)

    @cached_property
    def prepare_sql(self) -> str:
        numbered = self.sql
        for number, param in enumerate(self.params, start=1):
            numbered = numbered.replace(f"%({param})s", f"${number}")
        if "%(" in numbered:
            raise ValueError(f"{self.name}: a parameter is not in params")
        return f"PREPARE {self.name} AS {numbered.strip()}"

    @cached_property
    def execute_sql(self) -> str:
        args = ", ".join(f"%({param})s" for param in self.params)
        return f"EXECUTE {self.name}({args})"


_CAN_RUN = (TransactionStatus.IDLE, TransactionStatus.INTRANS)


class _Session:
    """What the hot path keeps per connection: the names of the statements
    prepared on it (prepared statements outlive transactions, rolled back or
    not, and end with the connection), and one cursor, reused: a new cursor
    would build its type adapters afresh for every message."""

    def __init__(self, pg: Any) -> None:
        self.prepared: set[str] = set()
        self.cursor = psycopg.ClientCursor(pg)


_sessions: weakref.WeakKeyDictionary[Any, _Session] = weakref.WeakKeyDictionary()


def send(
    pg: Any,
    statements: Sequence[Statement],
    params: dict[str, Any],
    *,
    commit: bool = False,
) -> psycopg.ClientCursor[Any]:
    """Run ``statements`` in one message: one round trip. Returns the cursor
    at the first statement's result (``nextset()`` for the next ones).

    The message starts with the transaction's ``BEGIN`` when one is due
    (``transaction_begin``) and ends with its ``COMMIT`` when ``commit``
    (the caller checked ``commit_folds``). Parameters are bound on the client
    (``psycopg.ClientCursor``, as Django's own cursors do), which is what
    lets one message hold several statements.
    """
    session = _sessions.get(pg)
    if session is None:
        session = _sessions[pg] = _Session(pg)
    known = session.prepared if prepares() else None
    head = (
        []
        if known is None
        else [s.prepare_sql for s in statements if s.name not in known]
    )
    if known is not None and head and pg.pgconn.transaction_status in _CAN_RUN:
        # Counted as prepared before the answer: they run first, so a later
        # statement's error (a deadlock, a timeout) leaves them prepared.
        known.update(s.name for s in statements)
    begin = transaction_begin(pg)
    if begin:
        head.append(begin)
    body = [s.sql.strip() if known is None else s.execute_sql for s in statements]
    cursor = session.cursor
    with connections[DEFAULT_DB_ALIAS].wrap_database_errors:
        cursor.execute(
            ";\n".join([*head, *body, *(["COMMIT"] if commit else [])]), params
        )
    for _ in head:
        cursor.nextset()
    # After a COMMIT psycopg stays in autocommit: Django turns it on anyway
    # when the block exits, the only thing the caller lets happen next.
    return cursor


def transaction_begin(pg: Any) -> str:
    """The ``BEGIN`` psycopg would send before the next statement, for the
    caller to send with that statement instead; "" when none is due.

    psycopg opens a transaction with a round trip of its own (when Django's
    ``atomic`` has turned autocommit off and nothing has run yet). The
    statement returned goes first in the caller's message, and psycopg is
    switched to autocommit so that it does not send its own: Django still
    commits or rolls back at the end of ``atomic``, because psycopg's
    ``commit()`` and ``rollback()`` act on the server's transaction status,
    not on that flag, and Django turns autocommit back on there in any case.
    Statements the ORM runs later in the block join the open transaction.
    """
    if pg.autocommit or pg.pgconn.transaction_status != TransactionStatus.IDLE:
        return ""
    parts = ["BEGIN"]
    if pg.isolation_level is not None:
        level = IsolationLevel(pg.isolation_level).name.replace("_", " ")
        parts.append(f"ISOLATION LEVEL {level}")
    if pg.read_only is not None:
        parts.append("READ ONLY" if pg.read_only else "READ WRITE")
    if pg.deferrable is not None:
        parts.append("DEFERRABLE" if pg.deferrable else "NOT DEFERRABLE")
    pg.autocommit = True
    return " ".join(parts)


def commit_folds() -> bool:
    """Whether the statement about to run may carry the transaction's
    ``COMMIT``: it runs in Django's outermost ``atomic`` block, which commits
    when it exits (not inside a savepoint, not in the transaction a test
    runs in and rolls back, not after an error marked the block for
    rollback).

    The caller must send nothing else before the block exits. psycopg's
    ``commit()`` then finds the transaction closed and sends nothing, and
    Django runs the ``on_commit`` hooks as usual.
    """
    wrapper = connections[DEFAULT_DB_ALIAS]
    return (
        wrapper.vendor == "postgresql"
        and wrapper.in_atomic_block
        and wrapper.commit_on_exit
        and len(wrapper.atomic_blocks) == 1
        and not getattr(wrapper.atomic_blocks[0], "_from_testcase", False)
        and not wrapper.savepoint_ids
        and not wrapper.needs_rollback
    )


def prepares() -> bool:
    """Whether the hot path prepares its statements: yes unless the settings
    turn prepared statements off (``DB_PREPARED_STATEMENTS=false``, e.g.
    behind a pooler in transaction mode)."""
    return bool(settings.DB_PREPARED_STATEMENTS)


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
