"""``/healthz``: can this process reach what it depends on?

The answer names each dependency::

    {"status": "ok", "database": "ok", "redis": "ok", "celery": "ok", "beat": "ok"}

* ``database``: ``ok`` or ``unreachable`` (a ``SELECT 1`` on the default database).
* ``redis``: ``ok``, ``unreachable``, or ``not configured`` (no ``REDIS_URL``:
  the embedded default).
* ``celery``: ``eager`` (tasks run in-process; there is no broker), ``ok`` (a
  worker consumes the queue tasks are sent to, ``CELERY_QUEUE``), ``no worker
  on queue`` (workers answer, but none consumes that queue: tasks wait there),
  ``no workers`` (the broker is reachable but no worker answered in time), or
  ``unreachable`` (the broker refused, failed or did not answer in time).
* ``beat``: ``eager`` (no beat: the embedded default runs the schedule on its
  scheduler thread), ``ok`` (a heartbeat within ``BEAT_STALE_AFTER``
  intervals), ``stale (last heartbeat <n>s ago)``, ``stale (no heartbeat
  recorded)`` (none, or none readable), ``not configured`` (no ``REDIS_URL``:
  no cache shared with the workers) or ``unreachable`` (Redis is). Beat sends
  ``beat_heartbeat`` every ``BEAT_HEARTBEAT_SECONDS`` and a worker records
  its time in the cache (``config/celery.py``), so a recent one proves beat
  and a worker alive; the time is read on the Redis ping's connection.

The status is 200 ``ok`` unless a configured dependency is unreachable, then
503 ``degraded``. ``no workers`` and ``no worker on queue`` are reported but
do not fail the check: this web process still serves pages and queues tasks,
which wait in the broker until a worker takes them. Failing it would let a
load balancer or orchestrator take every web process out of service because
of a worker problem; workers are watched by their own health check (see
``docker-compose.yml``). A stale ``beat`` is reported the same way, for the
same reason: restarting web processes would not bring beat back.

The database and Celery probes each run in a daemon thread of their own,
started together, and the request waits for each a bounded time: the
database's ``HEALTH_CHECK_TIMEOUT`` (waiting for a pooled connection would
otherwise take ``DB_POOL_TIMEOUT``, connecting ``DB_CONNECT_TIMEOUT``),
Celery's twice that (to connect, then to hear the workers), so a hung broker
or database is reported ``unreachable`` instead of holding the request. A
probe still running then is waited on by the next request rather than
started again. The Celery probe talks to the broker on a connection of its
own whose every socket operation gives up after ``HEALTH_CHECK_TIMEOUT``, so
that it ends even when the broker never answers.

A 503 is the probe's answer, not a server error: it is not logged per request
(Django would log each as ``ERROR django.request``). A process logs one
warning when its verdict changes (which dependency failed, and why: for the
database, the last error connecting to it) and one when it is ``ok`` again.
Passwords in those reasons are redacted.
"""

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from drf_spectacular.utils import extend_schema, inline_serializer
from kombu import Connection
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.celery import BEAT_HEARTBEAT_KEY
from config.celery import app as celery_app
from config.logs import redact
from config.postgresql.base import last_connect_error

logger = logging.getLogger(__name__)

OK = "ok"
UNREACHABLE = "unreachable"
NOT_CONFIGURED = "not configured"
EAGER = "eager"
NO_WORKERS = "no workers"
NO_WORKER_ON_QUEUE = "no worker on queue"
STALE = "stale"

#: Beat is ``stale`` once this many heartbeat intervals passed without one: a
#: heartbeat may wait behind other tasks, or be dropped by its expiry.
BEAT_STALE_AFTER = 3

#: What each part may say and keep the status ``ok``. ``beat`` is not here: it
#: is reported and never fails the check (the module's docstring).
HEALTHY = {
    "database": {OK},
    "redis": {OK, NOT_CONFIGURED},
    "celery": {OK, EAGER, NO_WORKERS, NO_WORKER_ON_QUEUE},
}

#: How many ``HEALTH_CHECK_TIMEOUT``s the request waits for the Celery probe:
#: one to reach the broker, one for the workers' answers.
CELERY_WAIT = 2


#: Why each unreachable dependency was last found so, for the log line.
_reasons: dict[str, str] = {}


def _reason(exc: BaseException) -> str:
    """``exc`` for the log line, on one line, with any password redacted
    (a connection error may quote a URL or a connection string)."""
    return redact(repr(exc))


_probes: dict[str, Future[str]] = {}
_probes_lock = threading.Lock()


def _probe(name: str, check: Callable[[], str]) -> Future[str]:
    """``check`` running in a daemon thread (one stuck on a dead server never
    delays the process's exit), or the one still running for ``name``."""
    with _probes_lock:
        probe = _probes.get(name)
        if probe is None or probe.done():
            probe = _probes[name] = Future()
            threading.Thread(
                target=_probe_run,
                args=(name, check, probe),
                name=f"healthz-{name}",
                daemon=True,
            ).start()
    return probe


def _probe_run(name: str, check: Callable[[], str], probe: Future[str]) -> None:
    try:
        status = check()
    except Exception as exc:
        _reasons[name] = _reason(exc)
        status = UNREACHABLE
    probe.set_result(status)


def _probe_answer(probe: Future[str], wait: float) -> str | None:
    """The probe's status, or None if it has not answered within ``wait``."""
    try:
        return probe.result(timeout=max(wait, 0.0))
    except TimeoutError:
        return None


def database_status(
    probe: Future[str] | None = None, started: float | None = None
) -> str:
    """Run ``SELECT 1`` on the default database (or take ``probe``, one
    already started at ``started``), and wait for it until
    ``HEALTH_CHECK_TIMEOUT`` after it started."""
    timeout = settings.HEALTH_CHECK_TIMEOUT
    if probe is None or started is None:
        started, probe = time.monotonic(), _probe("database", _database_check)
    status = _probe_answer(probe, started + timeout - time.monotonic())
    if status is not None:
        return status
    reason = f"no answer within {timeout:g}s"
    error = last_connect_error(connection)
    if error is not None:
        reason += f"; last connection error: {_reason(error)}"
    _reasons["database"] = reason
    return UNREACHABLE


def _database_check() -> str:
    """``SELECT 1`` on a connection of this thread's own, closed (given back
    to the pool) afterwards.

    When no pooled connection came in time, the pool's own last error
    connecting says why, rather than the wait's.
    """
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        error = last_connect_error(connection) or exc
        _reasons["database"] = _reason(error)
        return UNREACHABLE
    finally:
        with contextlib.suppress(Exception):  # a broken one is dropped anyway
            connection.close()
    return OK


def redis_status() -> str:
    """PING the Redis server at ``REDIS_URL``, if one is configured."""
    return _redis_check(heartbeat=False)[0]


def _redis_check(heartbeat: bool) -> tuple[str, bytes | None]:
    """``redis_status``, and with ``heartbeat`` beat's last heartbeat as
    stored (``None`` if there is none), read on the same connection."""
    if not settings.REDIS_URL:
        return NOT_CONFIGURED, None
    timeout = settings.HEALTH_CHECK_TIMEOUT
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=timeout, socket_timeout=timeout
    )
    try:
        client.ping()
        # A sync client: bytes or None (redis-py's stubs allow an awaitable).
        last: Any = (
            client.get(cache.make_key(BEAT_HEARTBEAT_KEY)) if heartbeat else None
        )
    except (redis.RedisError, OSError) as exc:
        _reasons["redis"] = _reason(exc)
        return UNREACHABLE, None
    finally:
        client.close()
    return OK, last


def beat_status(redis_answer: str, heartbeat: bytes | None) -> str:
    """Beat's part, from Redis's answer and the last heartbeat read there."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return EAGER
    if redis_answer != OK:
        return redis_answer  # not configured, or unreachable
    if heartbeat is None:
        return f"{STALE} (no heartbeat recorded)"
    try:
        age = max(0, int(time.time()) - int(heartbeat))
    except ValueError:
        return f"{STALE} (no heartbeat recorded)"
    if age <= BEAT_STALE_AFTER * settings.BEAT_HEARTBEAT_SECONDS:
        return OK
    return f"{STALE} (last heartbeat {age}s ago)"


def celery_status(
    probe: Future[str] | None = None, started: float | None = None
) -> str:
    """Ask the workers which queues they consume, through the broker (or
    take ``probe``, one already started at ``started``); wait for the
    answer until ``CELERY_WAIT`` timeouts after it started."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return EAGER
    timeout = settings.HEALTH_CHECK_TIMEOUT
    if probe is None or started is None:
        started, probe = time.monotonic(), _probe("celery", _celery_check)
    status = _probe_answer(probe, started + CELERY_WAIT * timeout - time.monotonic())
    if status is not None:
        return status
    _reasons["celery"] = f"no answer within {CELERY_WAIT * timeout:g}s"
    return UNREACHABLE


def _celery_check() -> str:
    """Whether a worker consumes the queue tasks are sent to.

    ``active_queues`` is the question Celery's ``inspect()`` asks, and the
    first worker that names the queue ends the wait for answers. It is asked
    here through the control mailbox bound to a connection of the probe's own,
    whose sockets give up after ``HEALTH_CHECK_TIMEOUT``: ``inspect()`` would
    send it through the app's producer pool, whose connections wait for the
    broker without a limit, so a broker that accepts connections and never
    answers would keep the probe (and every later one) forever.
    """
    timeout = settings.HEALTH_CHECK_TIMEOUT
    queue = celery_app.conf.task_default_queue
    with celery_app.connection_for_write(
        transport_options={
            "socket_connect_timeout": timeout,
            "socket_timeout": timeout,
        }
    ) as conn:
        # One quick attempt: a probe must answer fast, not retry for minutes.
        conn.ensure_connection(max_retries=1, interval_start=0, timeout=timeout)
        consumers = _queue_consumers(conn, queue, timeout)
    if consumers.found:
        return OK
    if consumers.others:
        _reasons["celery"] = (
            f"no worker consumes {queue!r}; "
            + ", ".join(sorted(consumers.others))
            + " answered"
        )
        return NO_WORKER_ON_QUEUE
    return NO_WORKERS


class _Consumers:
    """Who answered ``active_queues``: whether one consumes the queue, and
    the others' names."""

    def __init__(self, queue: str) -> None:
        self.queue = queue
        self.found = False
        self.others: set[str] = set()

    def heard(self, reply: dict[str, Any]) -> None:
        for node, queues in reply.items():
            names = {q.get("name") for q in queues if isinstance(q, dict)}
            if self.queue in names:
                self.found = True
                raise _Found
            self.others.add(node)


class _Found(Exception):
    """Ends the wait for answers at the first worker that consumes the queue."""


def _queue_consumers(conn: Connection, queue: str, timeout: float) -> _Consumers:
    """Broadcast ``active_queues`` on ``conn`` and listen for answers until
    one worker consumes ``queue`` or none has answered for ``timeout``."""
    mailbox = celery_app.control.mailbox(conn)
    # Sent on ``conn`` itself, not through the app's producer pool (the
    # docstring above): the bound copy is this probe's alone.
    mailbox._producer_pool = None
    mailbox.__dict__.pop("producer_pool", None)
    consumers = _Consumers(queue)
    with contextlib.suppress(_Found):
        mailbox.multi_call(
            "active_queues", {}, timeout=timeout, callback=consumers.heard
        )
    return consumers


def health_report() -> dict[str, str]:
    """Every dependency's status and the overall verdict.

    The database and Celery probes start first, so that they run while
    Redis is pinged, and the answer takes about the longest probe's time,
    not their sum.
    """
    started = time.monotonic()
    database = _probe("database", _database_check)
    celery = (
        None if settings.CELERY_TASK_ALWAYS_EAGER else _probe("celery", _celery_check)
    )
    redis_answer, heartbeat = _redis_check(
        heartbeat=not settings.CELERY_TASK_ALWAYS_EAGER
    )
    report = {
        "database": database_status(database, started),
        "redis": redis_answer,
        "celery": celery_status(celery, started),
        "beat": beat_status(redis_answer, heartbeat),
    }
    healthy = all(report[name] in allowed for name, allowed in HEALTHY.items())
    return {"status": OK if healthy else "degraded", **report}


_last_failing: tuple[str, ...] = ()
_verdict_lock = threading.Lock()


def verdict_log(report: dict[str, str]) -> None:
    """Log a warning when the set of failing dependencies changes (one when
    the first fails, one when all are back), never per request."""
    global _last_failing
    failing = tuple(
        name for name, allowed in HEALTHY.items() if report[name] not in allowed
    )
    with _verdict_lock:
        if failing == _last_failing:
            return
        _last_failing = failing
    if failing:
        logger.warning(
            "Health check degraded: %s. Logged again only when this changes.",
            "; ".join(
                f"{name} {report[name]} ({_reasons.get(name, 'no detail')})"
                for name in failing
            ),
        )
    else:
        logger.warning("Health check ok again.")


HEALTH_SCHEMA = inline_serializer(
    "Health",
    {
        name: serializers.CharField()
        for name in ("status", "database", "redis", "celery", "beat")
    },
)


class HealthView(APIView):
    """Report reachability of the database, Redis and Celery workers, and
    whether Celery beat's heartbeat is recent.

    Open to anyone, never throttled (probes poll it), and always JSON.
    """

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes: list[Any] = []
    renderer_classes = [JSONRenderer]

    @extend_schema(
        responses={200: HEALTH_SCHEMA, 503: HEALTH_SCHEMA},
        description="200 when every configured dependency is reachable, else 503.",
    )
    def get(self, request: Request) -> Response:
        report = health_report()
        verdict_log(report)
        status_code = 200 if report["status"] == OK else 503
        response = Response(
            report, status=status_code, headers={"Cache-Control": "no-store"}
        )
        # A 503 here is the answer, not an error: ``verdict_log`` said it
        # once; Django's handler would log every one as ERROR.
        response._has_been_logged = True  # type: ignore[attr-defined]
        return response
