"""One writer at a time per game, for every statistics and rating write.

On PostgreSQL a transaction-scoped advisory lock per game
(``pg_advisory_xact_lock``): it serialises the workers of every machine and
ends with the transaction, so it cannot leak. On the embedded default
(SQLite) everything runs in one process: a lock per game in that process does
the same job, and SQLite itself allows one writer at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager

from django.db import connection, transaction

import rules

#: First key of the advisory locks; the second is the game's index in rules.GAMES.
LOCK_NAMESPACE = 0x5747  # "SG": stats, per game
_local = {game: threading.RLock() for game in rules.GAMES}


@contextmanager
def games_writer(games: Sequence[str]) -> Iterator[None]:
    """A transaction holding the writer lock of each of ``games`` (sorted order)."""
    ordered = sorted(set(games))
    with ExitStack() as stack:
        if connection.vendor != "postgresql":
            for game in ordered:
                stack.enter_context(_local[game])
        stack.enter_context(transaction.atomic())
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # Waiting for another writer is expected (a rebuild holds its
                # game for as long as it runs, computing between statements),
                # unlike a lock held by a stuck transaction: neither
                # DB_LOCK_TIMEOUT nor DB_IDLE_IN_TRANSACTION_TIMEOUT here
                # (docs/operations.md, "Waiting for a lock").
                cursor.execute(
                    "SET LOCAL lock_timeout = 0; "
                    "SET LOCAL idle_in_transaction_session_timeout = 0"
                )
                for game in ordered:
                    cursor.execute(
                        "SELECT pg_advisory_xact_lock(%s, %s)",
                        [LOCK_NAMESPACE, rules.GAMES.index(game)],
                    )
        yield


def game_writer(game: str) -> AbstractContextManager[None]:
    """``games_writer`` for one game."""
    return games_writer([game])
