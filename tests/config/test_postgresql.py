"""``config.postgresql``: Django's backend, lending a pooled connection without
a round trip when it is plainly healthy, and checking it with psycopg's query
when the server may have hung up."""

import pytest

from tests.helpers import pooled_test_database_env, run_django_json

BORROW = """
import json
import psycopg
from django.db import connection, connections
from psycopg_pool import ConnectionPool

checks = []
query_check = ConnectionPool.check_connection
ConnectionPool.check_connection = staticmethod(
    lambda conn: (checks.append(1), query_check(conn))[1]
)


def borrow():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    connection.close()  # back to the pool, as at the end of a request
    return pid


lent = {borrow() for _ in range(6)}
checked_healthy = len(checks)
with psycopg.connect(__URL__, autocommit=True) as admin:
    # Every connection of this process's pool, as a server restart would.
    # Waits (up to 10 s) until each backend has exited, so its goodbye is on
    # the socket: pg_terminate_backend(pid) alone only signals it.
    admin.execute(
        "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity "
        "WHERE application_name = 'cardroom-pool-check'"
    )
after = borrow()
print(json.dumps({
    "backend": type(connections["default"]).__module__,
    "checked_healthy": checked_healthy,
    "checked_after_termination": len(checks) > checked_healthy,
    "replaced": after not in lent,
}))
"""


@pytest.mark.timeout(60)
@pytest.mark.django_db
def test_a_pooled_connection_is_checked_only_when_the_server_hung_up() -> None:
    url, env = pooled_test_database_env(DB_POOL_MIN_SIZE="1")
    env["DATABASE_URL"] = url + "?application_name=cardroom-pool-check"

    result = run_django_json(BORROW.replace("__URL__", repr(url)), env)

    # Without config.postgresql every borrow would be checked with a query;
    # with no check at all the terminated connection would be lent and fail.
    assert result == {
        "backend": "config.postgresql.base",
        "checked_healthy": 0,
        "checked_after_termination": True,
        "replaced": True,
    }


KEEP = """
import json
import psycopg
from django.core import signals
from django.db import connection
from psycopg_pool import ConnectionPool

from config.handlers import http_executor
from config.postgresql import base

borrowed = []
getconn = ConnectionPool.getconn
ConnectionPool.getconn = lambda pool, *a, **k: (
    borrowed.append(1), getconn(pool, *a, **k)
)[1]


def request(sql="SELECT pg_backend_pid()"):
    # What a request does around its view (config.handlers: one hop).
    signals.request_started.send(sender=None)
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql)
            return cursor.fetchone()[0]
    except Exception as exc:
        return type(exc).__name__
    finally:
        signals.request_finished.send(sender=None)


def in_a_request_thread(fn):
    return http_executor().submit(fn).result()


def terminate():
    with psycopg.connect(__URL__, autocommit=True) as admin:
        # Waits until the backend has exited (its goodbye is on the socket).
        admin.execute(
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity "
            "WHERE application_name = 'cardroom-keep'"
        )


out = {}
pids = [in_a_request_thread(request) for _ in range(3)]
out["kept"] = (len(set(pids)), len(borrowed))
terminate()
borrowed.clear()
after = in_a_request_thread(request)
out["after_termination"] = (after in pids, isinstance(after, int), len(borrowed))
borrowed.clear()
failed = in_a_request_thread(lambda: request("SELECT * FROM no_such_table"))
in_a_request_thread(request)
out["after_an_error"] = (failed, len(borrowed))
borrowed.clear()
base.KEEP_SECONDS = 0
in_a_request_thread(request)
in_a_request_thread(request)
out["kept_for_keep_seconds"] = len(borrowed)
borrowed.clear()
base.KEEP_SECONDS = 60
request()
request()
out["elsewhere"] = len(borrowed)
print(json.dumps(out))
"""


@pytest.mark.timeout(60)
@pytest.mark.django_db
def test_a_request_thread_keeps_its_connection_while_it_is_clean() -> None:
    """Between two requests a request thread keeps its pooled connection; a
    connection the server hung up on, one a request left with an error, one
    kept longer than ``KEEP_SECONDS`` and any other thread's go back."""
    url, env = pooled_test_database_env(DB_POOL_MIN_SIZE="1")
    env["DATABASE_URL"] = url + "?application_name=cardroom-keep"

    result = run_django_json(KEEP.replace("__URL__", repr(url)), env)

    assert result == {
        "kept": [1, 1],  # one backend, one borrow for three requests
        "after_termination": [False, True, 1],  # replaced, no error seen
        "after_an_error": ["ProgrammingError", 1],  # given back, borrowed again
        "kept_for_keep_seconds": 2,  # given back after each request
        "elsewhere": 2,  # the main thread borrows for each request
    }
