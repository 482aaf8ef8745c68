"""``/healthz``: can this process reach what it depends on?

The answer names each dependency::

    {"status": "ok", "database": "ok", "redis": "ok", "celery": "ok"}

* ``database``: ``ok`` or ``unreachable`` (a ``SELECT 1`` on the default database).
* ``redis``: ``ok``, ``unreachable``, or ``not configured`` (no ``REDIS_URL``:
  the embedded default).
* ``celery``: ``eager`` (tasks run in-process; there is no broker), ``ok`` (a
  worker answered a ping through the broker), ``no workers`` (the broker is
  reachable but no worker answered in time), or ``unreachable`` (the broker is
  down).

The status is 200 ``ok`` unless a configured dependency is unreachable, then
503 ``degraded``. ``no workers`` is reported but does not fail the check: this
web process still serves pages and queues tasks, which wait in the broker until
a worker takes them. Failing it would let a load balancer or orchestrator take
every web process out of service because of a worker problem; workers are
watched by their own health check (see ``docker-compose.yml``).

Each probe takes at most ``HEALTH_CHECK_TIMEOUT`` seconds. The database's runs
in a thread of its own and is reported ``unreachable`` once that time is up
(waiting for a pooled connection would otherwise take ``DB_POOL_TIMEOUT``,
connecting ``DB_CONNECT_TIMEOUT``); a probe still running then is waited on by
the next request rather than started again.

A 503 is the probe's answer, not a server error: it is not logged per request
(Django would log each as ``ERROR django.request``). A process logs one
warning when its verdict changes (which dependency failed, and why) and one
when it is ``ok`` again.
"""

import contextlib
import logging
import threading
from concurrent.futures import Future
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.celery import app as celery_app

logger = logging.getLogger(__name__)

OK = "ok"
UNREACHABLE = "unreachable"
NOT_CONFIGURED = "not configured"
EAGER = "eager"
NO_WORKERS = "no workers"

HEALTHY = {
    "database": {OK},
    "redis": {OK, NOT_CONFIGURED},
    "celery": {OK, EAGER, NO_WORKERS},
}


#: Why each unreachable dependency was last found so, for the log line.
_reasons: dict[str, str] = {}

_db_probe: Future[str] | None = None
_db_lock = threading.Lock()


def database_status() -> str:
    """Run ``SELECT 1`` on the default database, within
    ``HEALTH_CHECK_TIMEOUT`` (the module's doc)."""
    global _db_probe
    with _db_lock:
        if _db_probe is None or _db_probe.done():
            _db_probe = Future()
            # A daemon thread: one stuck on a dead server never delays exit.
            threading.Thread(
                target=_database_probe,
                args=(_db_probe,),
                name="healthz-db",
                daemon=True,
            ).start()
        probe = _db_probe
    try:
        return probe.result(timeout=settings.HEALTH_CHECK_TIMEOUT)
    except TimeoutError:
        _reasons["database"] = f"no answer within {settings.HEALTH_CHECK_TIMEOUT:g}s"
        return UNREACHABLE


def _database_probe(probe: Future[str]) -> None:
    """``SELECT 1`` on a connection of this thread's own, closed (given back
    to the pool) afterwards; the answer goes to ``probe``."""
    status = OK
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        _reasons["database"] = repr(exc)
        status = UNREACHABLE
    probe.set_result(status)
    with contextlib.suppress(Exception):  # a broken one is dropped anyway
        connection.close()


def redis_status() -> str:
    """PING the Redis server at ``REDIS_URL``, if one is configured."""
    if not settings.REDIS_URL:
        return NOT_CONFIGURED
    timeout = settings.HEALTH_CHECK_TIMEOUT
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=timeout, socket_timeout=timeout
    )
    try:
        client.ping()
    except (redis.RedisError, OSError) as exc:
        _reasons["redis"] = repr(exc)
        return UNREACHABLE
    finally:
        client.close()
    return OK


def celery_status() -> str:
    """Ping Celery workers through the broker; the first reply is enough."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return EAGER
    timeout = settings.HEALTH_CHECK_TIMEOUT
    try:
        with celery_app.connection_for_write() as conn:
            # One quick attempt: a probe must answer fast, not retry for minutes.
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=timeout)
        replies = celery_app.control.ping(timeout=timeout, limit=1)
    except Exception as exc:
        # Which failure it was, for whoever reads the logs behind the probe
        # (logged with the verdict, once per change: ``verdict_log``).
        _reasons["celery"] = repr(exc)
        return UNREACHABLE
    return OK if replies else NO_WORKERS


def health_report() -> dict[str, str]:
    """Every dependency's status and the overall verdict."""
    report = {
        "database": database_status(),
        "redis": redis_status(),
        "celery": celery_status(),
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
        for name in ("status", "database", "redis", "celery")
    },
)


class HealthView(APIView):
    """Report reachability of the database, Redis and Celery workers.

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
