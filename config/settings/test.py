"""Settings for the test suite: real PostgreSQL and Redis, as in production.

Tests default to the services on this machine (``DATABASE_URL`` and
``REDIS_URL`` below); set either in the environment to point elsewhere.
pytest-django creates a separate database per xdist worker, and every Redis key
the tests write carries the worker's name, so parallel workers never see each
other's cache entries or channel groups. Both also carry a short id of the
checkout, so two checkouts testing on one machine (a CI clone beside a working
tree) do not drop each other's test databases.
"""

import hashlib
import os

# No user: libpq's default (PGUSER, else the operating system's user name).
os.environ.setdefault("DATABASE_URL", "postgres://127.0.0.1:5432/cardroom")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")

from .base import *  # noqa: E402, F403
from .base import (  # noqa: E402
    BASE_DIR,
    CACHES,
    CHANNEL_LAYERS,
    DATABASES,
    POSTGRESQL,
    REDIS_URL,
    env,
)

DEBUG = False
SECRET_KEY = "test-only-secret-key-not-for-any-deployment"
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

# Hashing passwords properly is deliberately slow; tests make many users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# There is no worker beside the test process: run tasks inline so tests see
# their effects. Tests of the broker path switch this off for themselves.
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=True)
# Follow-ups run inline in the test; bots move at once. Servers that tests
# start in a subprocess set both in their environment.
TASK_RUNNER = env.str("TASK_RUNNER", default="inline")
BOT_MOVE_DELAY = env.float("BOT_MOVE_DELAY", default=0.0)
BOT_THINK_TIME = env.float("BOT_THINK_TIME", default=0.0)

# Look static files up per request instead of requiring collectstatic first.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

CHECKOUT_ID = hashlib.sha256(str(BASE_DIR).encode()).hexdigest()[:8]
TEST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")

# The event log is append-only: a trigger refuses UPDATE, DELETE and TRUNCATE
# on games_gameevent (games/migrations). Transactional tests empty every table
# with TRUNCATE between tests, so test connections (only) let TRUNCATE through;
# UPDATE and DELETE stay refused. See docs/event-store.md.
if DATABASES["default"]["ENGINE"] == POSTGRESQL:
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options["options"] = f"{_options.get('options', '')} -c cardroom.allow_truncate=on"

# Test databases are created and dropped under the connections' feet; a
# pool opened before that would keep talking to the wrong database.
DATABASES["default"].get("OPTIONS", {}).pop("pool", None)

# pytest-django appends the xdist worker (``_gw0``) to this name.
DATABASES["default"]["TEST"] = {
    "NAME": f"test_{DATABASES['default']['NAME']}_{CHECKOUT_ID}"
}
if REDIS_URL:
    CACHES["default"]["KEY_PREFIX"] = f"cardroom-test-{CHECKOUT_ID}-{TEST_WORKER}"
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = (
        f"cardroom-test-{CHECKOUT_ID}-{TEST_WORKER}"
    )
    # A Celery worker started by a test (the stats, tournaments and browser
    # tests start one) listens on a queue of its own checkout and xdist worker,
    # so two test runs on one machine never take each other's tasks.
    CELERY_TASK_DEFAULT_QUEUE = env.str(
        "CELERY_QUEUE", default=f"cardroom-test-{CHECKOUT_ID}-{TEST_WORKER}"
    )
