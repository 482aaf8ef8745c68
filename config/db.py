"""psycopg 3 underneath Django's connection, for the statements every move
and every API request runs.

A move runs a handful of statements whose cost is mostly what surrounds them
(the ORM composing queries and converting rows, and on these machines every
round trip's wake-ups), so the hot path (``games.services.locking.table_lock_seats``
and ``games.event_store.append_with_projection``) sends them through psycopg
itself, on the same connection and in the same transaction as the ORM, in two
round trips (docs/event-store.md, "A move's round trips"). The API token's
lookup (``accounts.authentication``) goes the same way, prepared once per
connection.

1. the transaction's ``BEGIN``, the row lock and the reads under it, as one
   simple-protocol message holding several statements (``transaction_begin``);
2. the append and the cached state's rewrite, with the transaction's
   ``COMMIT`` when the move ends the outermost transaction (``commit_folds``).

Several statements in one message bind their parameters on the client, as
literals (as Django's own cursors do), and the message goes to libpq under
psycopg's waiting and errors, without a cursor (``send``). A psycopg pipeline
also sends statements together, but it was measured slower here: it waits
for the socket several times per batch, and spent about twice the CPU per
move; a ``ClientCursor`` spent more CPU than the statements
(docs/performance.md). Everything else keeps the ORM.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from psycopg import IsolationLevel, errors, generators
from psycopg.adapt import AdaptersMap, Transformer
from psycopg.pq import Escaping, ExecStatus, Format, TransactionStatus
from psycopg_pool import PoolTimeout

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


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

    def execute_bytes(self, literals: dict[str, bytes]) -> bytes:
        """``EXECUTE`` of the prepared statement with these literals."""
        if not self.params:
            return self._execute_head[:-1]  # no "()" for none
        args = b", ".join([literals[param] for param in self.params])
        return self._execute_head + args + b")"

    def plain_bytes(self, literals: dict[str, bytes]) -> bytes:
        """The statement itself with these literals in place."""
        parts, names = self._plain
        out = [parts[0]]
        for name, part in zip(names, parts[1:], strict=True):
            out += (literals[name], part)
        return b"".join(out)

    @cached_property
    def _execute_head(self) -> bytes:
        return f"EXECUTE {self.name}(".encode()

    @cached_property
    def _plain(self) -> tuple[list[bytes], list[str]]:
        pieces = _PLACEHOLDER.split(self.sql.strip())
        return [p.encode() for p in pieces[::2]], pieces[1::2]


_ANSWERED = (ExecStatus.TUPLES_OK, ExecStatus.COMMAND_OK)


class _Session:
    """What the hot path keeps per connection: the names of the statements
    prepared on it (prepared statements outlive transactions, rolled back or
    not, and end with the connection), the escaping of its strings, and one
    row loader with the connection's type adapters (Django's), reused: a new
    one would look its loaders up afresh for every message."""

    def __init__(self, pg: Any) -> None:
        if pg.info.encoding != "utf-8":
            raise ValueError("the hot path needs client_encoding UTF8 (Django's)")
        self.prepared: set[str] = set()
        self.escape = Escaping(pg.pgconn).escape_string
        self.rows = Transformer(_RowContext(pg))


class _RowContext:
    """The adapters the hot path reads rows with: the connection's (Django's),
    except that a ``timestamptz`` is read by psycopg's own loader, written in
    C, where the connection's time zone is UTC. Django's loader (in Python)
    only replaces the time zone with UTC, which psycopg's then gives anyway:
    the same values, a tenth of the time."""

    def __init__(self, pg: Any) -> None:
        self.connection = pg
        self.adapters = AdaptersMap(pg.adapters)
        if pg.pgconn.parameter_status(b"TimeZone") == b"UTC":
            oid = self.adapters.types["timestamptz"].oid
            loader = psycopg.adapters.get_loader(oid, Format.TEXT)
            if loader is not None:
                self.adapters.register_loader(oid, loader)


def _session(pg: Any) -> _Session:
    # Kept on the connection itself, so it goes when the connection goes.
    session: _Session | None = getattr(pg, "_cardroom_session", None)
    if session is None:
        session = pg._cardroom_session = _Session(pg)
    return session


def send(
    pg: Any,
    statements: Sequence[Statement],
    params: dict[str, Any],
    *,
    commit: bool = False,
    meanwhile: Callable[[], None] | None = None,
) -> list[list[tuple[Any, ...]]]:
    """Run ``statements`` in one message: one round trip. Returns each
    statement's rows (an empty list for a write).

    The message starts with the transaction's ``BEGIN`` when one is due
    (``transaction_begin``) and ends with its ``COMMIT`` when ``commit``
    (the caller checked ``commit_folds``). Parameters are bound on the
    client, as literals (``_literal``; Django's own cursors bind on the
    client too), which is what lets one message hold several statements.
    The message goes straight to libpq, under psycopg's own waiting (so the
    thread waits without holding the GIL) and its own errors; the rows are
    read by psycopg's loaders with the connection's adapters (Django's), as
    a cursor would read them. A cursor costs more than the statements here:
    converting the query, its prepared-statement bookkeeping, a result set
    at a time (docs/performance.md).

    ``meanwhile`` runs once the message is sent and before its answer is
    read, so the thread works while the server does (it must not touch the
    connection; whatever it raises is raised once the answer is read).
    """
    session = _session(pg)
    django_errors = connections[DEFAULT_DB_ALIAS].wrap_database_errors
    with django_errors:  # refused values change nothing: nothing is sent
        escape = session.escape
        literals = {name: _literal(value, escape) for name, value in params.items()}
    known = session.prepared if prepares() else None
    preparing = [] if known is None else [s for s in statements if s.name not in known]
    head = [s.prepare_sql for s in preparing]
    begin = transaction_begin(pg)
    if begin:
        head.append(begin)
    with django_errors, pg.lock:
        body = [
            s.execute_bytes(literals) if known is not None else s.plain_bytes(literals)
            for s in statements
        ]
        message = b";\n".join(
            [*(sql.encode() for sql in head), *body, *([b"COMMIT"] if commit else [])]
        )
        pg.pgconn.send_query(message)
        if meanwhile is None:
            results = pg.wait(generators.execute(pg.pgconn))
        else:
            pg.wait(generators.send(pg.pgconn))
            try:
                meanwhile()
            finally:  # the answer is read whatever happened
                results = pg.wait(generators.fetch_many(pg.pgconn))
        for statement, result in zip(preparing, results, strict=False):
            # A PREPARE that succeeded stays, whatever fails after it (a lock
            # timeout, a deadlock): prepared statements outlive transactions.
            if result.status == ExecStatus.COMMAND_OK:
                known.add(statement.name)  # type: ignore[union-attr]
        for result in results:
            if result.status not in _ANSWERED:
                raise errors.error_from_result(result, encoding="utf-8")
        loader = session.rows
        answers = []
        for result in results[len(head) : len(head) + len(statements)]:
            if result.status == ExecStatus.TUPLES_OK:
                loader.set_pgresult(result)
                answers.append(loader.load_rows(0, result.ntuples, tuple))
            else:
                answers.append([])
    # After a COMMIT psycopg stays in autocommit: Django turns it on anyway
    # when the block exits, the only thing the caller lets happen next.
    return answers


def _literal(value: Any, escape: Callable[[bytes], bytes]) -> bytes:
    """``value`` as an SQL literal, as psycopg's ``ClientCursor`` writes it,
    for the types the hot path sends. Strings are escaped by libpq for the
    connection (``PQescapeStringConn``)."""
    if value is None:
        return b"NULL"
    if isinstance(value, bool):
        return b"true" if value else b"false"
    if isinstance(value, int):
        return b"%d" % value
    if isinstance(value, str):
        if "\x00" in value:
            raise psycopg.DataError(
                "PostgreSQL text fields cannot contain NUL (0x00) bytes"
            )
        return b"'" + escape(value.encode()) + b"'"
    if isinstance(value, datetime):
        kind = b"timestamptz" if value.tzinfo is not None else b"timestamp"
        return b"'" + value.isoformat().encode() + b"'::" + kind
    raise TypeError(f"the hot path sends no {type(value).__name__} parameter")


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


def waited_out(exc: BaseException) -> bool:
    """Whether a database error means a wait ran out, so the request may
    simply be tried again: a lock not free within ``DB_LOCK_TIMEOUT`` (a
    table's row held by a stuck transaction), no pooled connection free
    within ``DB_POOL_TIMEOUT``, or SQLite's write lock still taken after its
    timeout. The transaction it ran in was rolled back.

    ``exc`` is the error as Django raises it; what the driver raised is its
    cause.
    """
    cause = exc.__cause__ or exc
    if isinstance(cause, errors.LockNotAvailable | PoolTimeout):
        return True
    return isinstance(cause, sqlite3.OperationalError) and str(cause) in (
        "database is locked",
        "database table is locked",
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
