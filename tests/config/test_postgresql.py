"""``config.postgresql``: Django's backend, lending a pooled connection without
a round trip when it is plainly healthy, and checking it with psycopg's query
when the server may have hung up."""

import pytest

from tests.helpers import pooled_test_database_env, run_django_json

BORROW = """
import json, time
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
    admin.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE application_name = 'cardroom-pool-check'"
    )
time.sleep(0.5)  # the server's goodbye reaches the sockets
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
