"""Settings shared by every mode, read from the environment.

Two variables choose the stack:

* ``DATABASE_URL`` unset: SQLite in ``CARDROOM_VAR_DIR`` (default ``var/``);
  set: that database (``postgres://...`` runs on psycopg 3).
* ``REDIS_URL`` unset: the in-memory channel layer, a local-memory cache and
  Celery running tasks in-process (eager); set: Redis for all three.

So a bare machine runs the whole service in one process (the "embedded
default") and the full stack is the same code with two URLs set. Every variable
is listed in ``.env.example`` and explained in ``docs/operations.md``.
"""

import hashlib
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import environ

from config.env import Env, at_least

BASE_DIR = Path(__file__).resolve().parents[2]

# django-environ's reader, refusing (by name) a value it cannot read.
env = Env()

# A .env file fills in what the real environment leaves unset; it never wins
# over a variable that is already set.
ENV_FILE = Path(env.str("CARDROOM_ENV_FILE", default=str(BASE_DIR / ".env")))
if ENV_FILE.is_file():
    environ.Env.read_env(str(ENV_FILE), overwrite=False)

# Where the embedded default keeps its files (the SQLite database).
VAR_DIR = Path(env.str("CARDROOM_VAR_DIR", default=str(BASE_DIR / "var")))

# Each mode decides what an empty SECRET_KEY means: local and test use a fixed
# development key, production refuses to start.
SECRET_KEY = env.str("SECRET_KEY", default="")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS: list[str] = env.list("ALLOWED_HOSTS", default=[])
CSRF_TRUSTED_ORIGINS: list[str] = env.list("CSRF_TRUSTED_ORIGINS", default=[])

from config.commands import runserver_command  # noqa: E402

INSTALLED_APPS = [
    # First, so that ``manage.py runserver`` serves the ASGI app (WebSockets
    # too); in that process only (config.commands.runserver_command): the
    # servers, workers and other commands do not start through it.
    *(["daphne"] if runserver_command() else []),
    "config.apps.AdminConfig",  # django.contrib.admin on our site
    # Before django.contrib.auth, so that its changepassword command (the name
    # in any case, as on the site) is the one manage.py runs.
    "accounts",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "games",
    "stats",
    "tournaments",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads the body: 413 for one declared over the limit.
    "config.limits.BodyLimitMiddleware",
    # WhiteNoise, made async-capable (config/static.py).
    "config.static.StaticFilesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Django's, building the message storage only for a request that uses it.
    "config.middleware.LazyMessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------

DATABASE_URL = env.str("DATABASE_URL", default="")
DATABASES: dict[str, dict[str, Any]]
# Django's PostgreSQL backend with a cheaper pool check (config/postgresql).
POSTGRESQL = "config.postgresql"
if DATABASE_URL:
    DATABASES = {"default": environ.Env.db_url_config(DATABASE_URL)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "cardroom.sqlite3",
            "OPTIONS": {
                # WAL lets readers run beside the writer; IMMEDIATE takes the
                # write lock at BEGIN, so concurrent writers queue for up to
                # `timeout` seconds instead of failing with "database is locked".
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
            },
        }
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, with a pooled connection checked without a round trip.
    DATABASES["default"]["ENGINE"] = POSTGRESQL
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", env.int("DB_CONNECT_TIMEOUT", default=5)
    )
    # psycopg's own automatic preparing is not used: Django's cursors bind on
    # the client, and the move's hot path prepares its own statements.
    DATABASES["default"]["OPTIONS"].setdefault("prepare_threshold", None)
    # Bounded waits (docs/operations.md, "Waiting for a lock"): a statement
    # waits at most DB_LOCK_TIMEOUT ms for a lock, so a move on a table that a
    # stuck transaction holds answers 503 `busy` instead of keeping a request
    # thread forever; a session left idle inside a transaction for
    # DB_IDLE_IN_TRANSACTION_TIMEOUT ms is ended by the server, which frees its
    # locks. Sent as startup options (no round trip); 0 leaves the server's
    # own setting (behind PgBouncer, which refuses startup options, use 0 and
    # set them on the role: ALTER ROLE ... SET lock_timeout = '5s').
    DATABASES["default"]["OPTIONS"]["options"] = " ".join(
        [
            DATABASES["default"]["OPTIONS"].get("options", ""),
            *(
                f"-c {name}={ms}"
                for name, ms in (
                    ("lock_timeout", env.int("DB_LOCK_TIMEOUT", default=5000)),
                    (
                        "idle_in_transaction_session_timeout",
                        env.int("DB_IDLE_IN_TRANSACTION_TIMEOUT", default=60000),
                    ),
                )
                if ms > 0
            ),
        ]
    ).strip()
# The move's hot path prepares its statements on each connection with SQL
# PREPARE and runs them with EXECUTE (config/db.py). Off behind a pooler in
# transaction mode: a prepared statement lives in one server session, and
# PgBouncer (even 1.21+) tracks only protocol-level ones.
DB_PREPARED_STATEMENTS = env.bool("DB_PREPARED_STATEMENTS", default=True)
# Under ASGI every request may run in a different thread, so persistent
# connections are opt-in (and then checked before reuse).
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# On PostgreSQL each process keeps a pool of connections (psycopg_pool), so a
# request borrows an open connection instead of opening one (about 10 ms) and
# its prepared statements live on; the pool replaces CONN_MAX_AGE.
# DB_POOL_MAX_SIZE bounds the connections of one process (docs/performance.md).
# A one-off manage.py command opens one connection, without a pool: with the
# database down it fails at once, in one line (config/commands.py).
from config.commands import one_off_command  # noqa: E402

if (
    DATABASES["default"]["ENGINE"] == POSTGRESQL
    and env.bool("DB_POOL", default=True)
    and DATABASES["default"]["CONN_MAX_AGE"] == 0
    and not one_off_command()
):
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": env.int("DB_POOL_MIN_SIZE", default=1),
        "max_size": at_least(
            "DB_POOL_MAX_SIZE", env.int("DB_POOL_MAX_SIZE", default=10), 1
        ),
        "timeout": env.int("DB_POOL_TIMEOUT", default=10),
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache, Celery broker -----------------------------

REDIS_URL = env.str("REDIS_URL", default="")
# The channel layer may live on a Redis of its own (default: REDIS_URL).
CHANNEL_LAYER_URL = env.str("CHANNEL_LAYER_URL", default=REDIS_URL)
CHANNEL_LAYERS: dict[str, dict[str, Any]]
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    # Redis pub/sub with local delivery first (config/channel_layer.py): one
    # subscription per group per process, so Redis work per message does not
    # grow with the sockets. Lost messages (a process away from Redis) are
    # caught by the consumers' seq checks (docs/live-protocol.md). Verified
    # under load with redis-py 5 (docs/architecture.md §6).
    # Pub/sub ignores the Redis database number, so deployments sharing one
    # Redis server would hear each other's channels under one prefix: the
    # default names this deployment's database (its name, or a hash of it when
    # not plain letters, digits, - and _) and the layer's Redis database.
    _layer_url = urlsplit(CHANNEL_LAYER_URL)
    _layer_db = (
        parse_qs(_layer_url.query).get("db", [""])[0]
        or ("" if _layer_url.scheme == "unix" else _layer_url.path.strip("/"))
        or "0"
    )
    _db_name = str(DATABASES["default"]["NAME"])
    if not (
        len(_db_name) <= 32
        and _db_name.isascii()
        and _db_name.replace("-", "").replace("_", "").isalnum()
    ):
        _db_name = hashlib.sha256(_db_name.encode()).hexdigest()[:12]
    CHANNEL_LAYER_PREFIX = env.str(
        "CHANNEL_LAYER_PREFIX", default=f"cardroom-{_db_name}-{_layer_db}"
    )
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.LocalFirstPubSubLayer",
            "CONFIG": {
                "hosts": [CHANNEL_LAYER_URL],
                "prefix": CHANNEL_LAYER_PREFIX,
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "config.cache.SharedPoolRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "cardroom",
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery (read by config/celery.py through the CELERY_ namespace) --------

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://")
# Without Redis there is no broker and no worker: tasks run inline, in the
# process that queues them.
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Tasks are fire-and-forget (their effects live in the database): no results.
CELERY_TASK_IGNORE_RESULT = True
# Tasks are idempotent (they may run twice), so acknowledge after running: a
# worker that dies mid-task leaves the task for another worker.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Seconds to connect to the broker, and to wait for any one of its answers. A
# web process publishes tasks on commit, in the request (or the socket thread)
# that made the move: a broker that accepts connections and never answers (hung,
# or a firewall's black hole) held it for ever without a read timeout. With it,
# one publish gives up after at most three of these (docs/operations.md,
# "Celery"); the sweeps queue again what was lost. Workers are unaffected: they
# wait for tasks by polling their sockets, not in a blocking read.
BROKER_TIMEOUT = env.float("CELERY_BROKER_TIMEOUT", default=1.0)
if not BROKER_TIMEOUT > 0:  # 0 would make every read non-blocking, and fail
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        f"CELERY_BROKER_TIMEOUT={BROKER_TIMEOUT:g} is not above 0 seconds."
    )
# Connecting (the socket, then a PING) is tried once within that time, not
# again and again for Celery's default 4 s.
CELERY_BROKER_CONNECTION_TIMEOUT = BROKER_TIMEOUT
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": BROKER_TIMEOUT,
    "socket_timeout": BROKER_TIMEOUT,
}
# A broker that is down must not hold a committed move's request for long: one
# retry (a pooled connection that Redis closed is replaced), then the task is
# dropped for the sweeps to queue again (config/broker.py).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_TIMEZONE = "UTC"
# The queue the web processes send to and the workers read (one per test
# worker in the test settings, so parallel test runs never take each other's).
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
# Seconds between beat's heartbeats (config/celery.py): a worker records each
# in the cache, and /healthz calls beat stale after BEAT_STALE_AFTER of them
# without one (config/health.py, docs/operations.md).
BEAT_HEARTBEAT_SECONDS = at_least(
    "BEAT_HEARTBEAT_SECONDS",
    env.float("BEAT_HEARTBEAT_SECONDS", default=30.0),
    0,
    above=True,
)
# Periodic tasks (stats sweep, turn sweep) are added here by their apps.
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    # Proves beat (and a worker) alive to /healthz. A heartbeat no worker took
    # within its interval is dropped: the next one replaces it.
    "beat-heartbeat": {
        "task": "config.celery.beat_heartbeat",
        "schedule": BEAT_HEARTBEAT_SECONDS,
        "options": {"expires": BEAT_HEARTBEAT_SECONDS},
    },
    # Standings of tournaments whose table-finished task was lost.
    "tournaments-sweep": {
        "task": "tournaments.tasks.tournaments_sweep",
        "schedule": env.float("TOURNAMENTS_SWEEP_SECONDS", default=300.0),
    },
    # Re-schedules the bot turn or turn timer of any table whose follow-up was
    # lost (a worker or the broker down when the move committed).
    "games-turns-sweep": {"task": "games.tasks.turns_sweep", "schedule": 30.0},
    # Re-queue finished tables whose statistics task was lost (docs/stats.md).
    "stats-sweep": {
        "task": "stats.tasks.stats_sweep",
        "schedule": env.float("STATS_SWEEP_SECONDS", default=300.0),
    },
    # Queue finished tables neither counted nor queued, and repair progress
    # rows that disagree with the counted tables (docs/stats.md).
    "stats-reconcile": {
        "task": "stats.tasks.stats_reconcile",
        "schedule": env.float("STATS_RECONCILE_SECONDS", default=86400.0),
    },
}
#: The sweep leaves tables that finished less than this long ago to their own task.
STATS_SWEEP_GRACE_SECONDS = env.float("STATS_SWEEP_GRACE_SECONDS", default=60.0)
#: At most this many tables are queued per sweep run.
STATS_SWEEP_BATCH = env.int("STATS_SWEEP_BATCH", default=1000)

# --- Live play: bot turns, turn timers, resync (docs/live-protocol.md) ------

# Who runs follow-up jobs (bot turns, turn timers): "celery" (a worker, the
# full stack), "thread" (a scheduler thread inside each server process, the
# embedded default), "inline" (the caller, at once; delayed jobs are held for
# the test that wants them: the test settings).
TASK_RUNNER = env.str(
    "TASK_RUNNER", default="thread" if CELERY_TASK_ALWAYS_EAGER else "celery"
)
# Seconds between a bot's turn coming and its move, so people can follow.
BOT_MOVE_DELAY = at_least("BOT_MOVE_DELAY", env.float("BOT_MOVE_DELAY", default=0.7), 0)
# Seconds every move of a strong bot takes from its turn's job starting to the
# move, however long its search took: a forced move is chosen at once, and a
# move that came sooner than the others would tell its hand. Longer than the
# strong bots' search caps (0.6-0.8 s); its moves come max(BOT_MOVE_DELAY,
# BOT_THINK_TIME) apart (docs/security.md, "Bots' timing").
BOT_THINK_TIME = at_least("BOT_THINK_TIME", env.float("BOT_THINK_TIME", default=1.0), 0)
# Hours without a move after which a table in play counts as idle, and
# without a seat taken after which an open table does: the lobby's Playing
# and Open tabs fold them away (a match everyone walked away from, with no
# turn clock, stays in play for ever, and an open table whose creator went
# away stays open for ever; docs/web.md, "Idle tables").
TABLE_IDLE_HOURS = at_least(
    "TABLE_IDLE_HOURS", env.int("TABLE_IDLE_HOURS", default=24), 1
)
# A reconnecting client further behind than this many events gets one full
# state instead of the missing events.
LIVE_RESYNC_MAX_EVENTS = env.int("LIVE_RESYNC_MAX_EVENTS", default=200)
# Threads one server process gives its sockets' database work (moves, reads,
# presence). Few on purpose: more threads contend with the event loop for
# the GIL and delay every socket's frames (docs/performance.md, "Live play").
LIVE_DB_THREADS = env.int("LIVE_DB_THREADS", default=1)
# A move (REST or socket) that takes at least this many milliseconds is
# logged as one warning line, with how long it waited for its table's lock
# (docs/operations.md, "Waiting for a lock"); a move takes 1-3 ms. 0 logs every move.
SLOW_MOVE_MS = env.float("SLOW_MOVE_MS", default=250.0)

# Threads one server process runs HTTP requests on (config/handlers.py): a
# fixed pool rather than a thread per request. Each holds a database
# connection while it serves requests (and up to a minute between them:
# config/postgresql), so keep it within DB_POOL_MAX_SIZE.
WEB_THREADS = env.int("WEB_THREADS", default=8)

# --- Health check -----------------------------------------------------------

# Seconds each /healthz probe (the database, Redis, the Celery workers) may
# take; the request waits twice that for the Celery workers (docs/operations.md).
HEALTH_CHECK_TIMEOUT = at_least(
    "HEALTH_CHECK_TIMEOUT",
    env.float("HEALTH_CHECK_TIMEOUT", default=1.0),
    0,
    above=True,
)

# --- Auth -------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
# Django's username/password backend, refusing bot accounts (the server plays
# them; nobody logs in as one).
AUTHENTICATION_BACKENDS = ["accounts.backends.PeopleOnlyBackend"]

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation."
        "UserAttributeSimilarityValidator"
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Internationalisation ---------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files (served by WhiteNoise from the ASGI process) --------------

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# --- Errors -----------------------------------------------------------------

# A failed CSRF check answers in the API's error shape too.
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"

# --- REST API ---------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.PeopleTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # DRF's, answering "anything" or "JSON" without parsing the header.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "config.negotiation.Negotiation",
    # JSON nested past config.limits.MAX_JSON_DEPTH is a 400, not a RecursionError.
    "DEFAULT_PARSER_CLASSES": [
        "config.limits.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.errors.api_exception_handler",
    # DRF's two throttles, in one Redis round trip each (config/throttling.py).
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttling.AnonRateThrottle",
        "config.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.rate("THROTTLE_ANON_RATE", default="120/minute"),
        "user": env.rate("THROTTLE_USER_RATE", default="600/minute"),
    },
    # Throttling keys on REMOTE_ADDR unless proxies we trust sit in front: then
    # on the address the last of them saw, read from X-Forwarded-For. DRF's
    # default (None) keys on the whole header, which any client makes up.
    "NUM_PROXIES": env.int("CARDROOM_NUM_PROXIES", default=0),
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Cardroom API",
    "DESCRIPTION": (
        "Play Alager, Alkort and Allegra; query statistics and ratings. "
        'Errors are always {"code": ..., "message": ...}.'
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Request bodies get their own components, which say what the server
    # refuses (minLength for text that may not be blank, no read-only fields).
    "COMPONENT_SPLIT_REQUEST": True,
    # The API's contract is JSON (docs/api.md): forms are still parsed (the
    # browsable API), but the schema documents the JSON bodies only.
    "PARSER_WHITELIST": ["rest_framework.parsers.JSONParser"],
    # Every operation's error responses, in the one error shape.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.error_responses",
    ],
}

# --- Logging ----------------------------------------------------------------

# Either case (scripts/web.sh lowercases it for uvicorn); an unknown level is
# refused here, by name, rather than by logging's dictConfig.
from config.logs import checked_level  # noqa: E402

LOG_LEVEL = checked_level(env.str("LOG_LEVEL", default="INFO"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "filters": {
        "quiet_security": {"()": "config.limits.QuietSecurityFilter"},
        # ?token=<key> and other secret query parameters, wherever a URL is
        # logged (config/logs.py): on the handler, so every logger is covered.
        "redact_secrets": {"()": "config.logs.RedactSecrets"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["redact_secrets"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # Django's default config gives "django" a console handler of its own with
    # DEBUG on; route it through ours only, so each record prints once.
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        # With DEBUG on, Django logs every SQL statement at DEBUG with its
        # parameters: token keys, seeds, hands (a table's cached state). No
        # level of LOG_LEVEL may print them (docs/operations.md, "Logs").
        "django.db.backends": {"level": "INFO"},
        # An over-limit body or a Host header of another site is the client's
        # mistake: one line, no traceback.
        **{
            f"django.security.{name}": {"filters": ["quiet_security"]}
            for name in (
                "RequestDataTooBig",
                "TooManyFieldsSent",
                "TooManyFilesSent",
                "DisallowedHost",
            )
        },
    },
}
