"""``games.db``: the hot path's psycopg handle, and pools across ``fork``."""

import pytest
from django.db import connection

from tests.helpers import clean_env, run_django_json

FORK = """
import json, os
from django.db import connection

def backend():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]

before = backend()  # opens this process's pool
connection.close()  # back to the pool, as at the end of a request
read, write = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(read)
    os.write(write, json.dumps(backend()).encode())
    connection.close()
    os._exit(0)
os.close(write)
os.waitpid(pid, 0)
child = json.loads(os.read(read, 100))
after = backend()
print(json.dumps({
    "pooled": connection.pool is not None,
    "child_has_its_own": child not in (before, after),
}))
"""


@pytest.mark.timeout(60)
@pytest.mark.django_db
def test_a_forked_child_gets_a_pool_of_its_own() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the pool is PostgreSQL's")
    s = connection.settings_dict
    url = f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL=url,
        DB_POOL_TIMEOUT="5",
    )

    result = run_django_json("import games.db\n" + FORK, env)

    # Without games.db's fork hook the child would borrow the parent's idle
    # pooled connection: one socket, two processes.
    assert result == {
        "pooled": True,
        "child_has_its_own": True,
    }
