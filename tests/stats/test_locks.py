"""``stats.locks``: a statistics writer waits for another, however long, and
may compute between statements for as long as it needs.

Every connection waits at most ``DB_LOCK_TIMEOUT`` for a lock
(docs/operations.md, "Waiting for a lock"), but a writer queued behind
another, a rebuild say, is expected to wait for as long as that runs. Real
PostgreSQL: another session holds the game's advisory lock past the
connection's lock timeout, shortened here.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

import rules
from stats.locks import LOCK_NAMESPACE, game_writer
from tests.helpers import another_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


def test_a_writer_waits_for_another_past_the_lock_timeout() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the advisory lock is PostgreSQL's")
    other = another_session()
    other.execute(
        "SELECT pg_advisory_xact_lock(%s, %s)",
        [LOCK_NAMESPACE, rules.GAMES.index("alager")],
    )
    releaser = threading.Timer(0.6, other.rollback)
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = 100")
    try:
        # The clock first: the release then comes 0.6 s after it at the
        # earliest, however late this thread runs again.
        started = time.monotonic()
        releaser.start()
        with game_writer("alager"), connection.cursor() as cursor:
            waited = time.monotonic() - started
            cursor.execute("SHOW lock_timeout")
            assert cursor.fetchone() == ("0",)  # for this transaction only
            cursor.execute("SHOW idle_in_transaction_session_timeout")
            assert cursor.fetchone() == ("0",)
        with connection.cursor() as cursor:
            cursor.execute("SHOW lock_timeout")
            assert cursor.fetchone() == ("100ms",)
    finally:
        releaser.join()
        other.close()
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
    assert waited >= 0.5
