"""``/healthz`` reports what this process can reach, on every stack.

In-process tests run on the test stack (PostgreSQL, Redis). Cases that need a
different stack (embedded, a dead database or broker, a broker without workers)
run in a fresh process, because the Celery app reads its broker once.
"""

import time
from pathlib import Path

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from config import health
from config.celery import app as celery_app
from config.health import celery_status
from tests.celery_worker import Worker
from tests.helpers import celery_pools_reset, clean_env, run_django_json

# A port nothing listens on: connections are refused at once.
DEAD_REDIS = "redis://127.0.0.1:1/0"
# A Redis database no test runs a Celery worker on, so "no workers" is certain.
IDLE_REDIS = "redis://127.0.0.1:6379/13"
# What the Celery probe says of a reachable broker, whoever's workers are on it
# (other checkouts' tests run theirs on this machine's Redis).
ANSWERED = {"ok", "no workers", "no worker on queue"}

GET_HEALTHZ = """
import json, time
from django.test import Client
from django.urls import get_resolver
client = Client()
# What a process's first request also pays for, the URLconf's imports (every
# app's views) and the middleware, up to half a second on a busy machine, is
# not the probe's time: done before the clock starts.
get_resolver().url_patterns
client.handler.load_middleware()
started = time.monotonic()
response = client.get("/healthz", HTTP_HOST="localhost")
took = time.monotonic() - started
print(json.dumps({"status_code": response.status_code, "body": response.json(),
                  "took": took}))
"""


def healthz_in_subprocess(tmp_path: Path, **env: str) -> dict[str, object]:
    """GET /healthz with local settings and ``env``, SQLite unless overridden:
    the status code and body."""
    return healthz_timed(tmp_path, **env)[0]


def healthz_timed(tmp_path: Path, **env: str) -> tuple[dict[str, object], float]:
    """``healthz_in_subprocess``, and how long the request took in seconds
    (the process's start, Django's set-up and the first request's imports
    not counted: on a loaded machine they alone can take longer than any
    probe)."""
    answer: dict[str, object] = run_django_json(
        GET_HEALTHZ,
        clean_env(
            DJANGO_SETTINGS_MODULE="config.settings.local",
            CARDROOM_VAR_DIR=str(tmp_path),
            **env,
        ),
    )
    took = answer.pop("took")
    assert isinstance(took, float)
    return answer, took


@pytest.mark.django_db
def test_ok_on_postgres_and_redis(api_client: APIClient) -> None:
    response = api_client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "redis": "ok",
        "celery": "eager",
        "beat": "eager",
    }
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_degraded_when_redis_is_unreachable(api_client: APIClient) -> None:
    with override_settings(REDIS_URL=DEAD_REDIS):
        response = api_client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "redis": "unreachable",
        "celery": "eager",
        "beat": "eager",
    }


def test_rejects_other_methods_in_the_error_shape(api_client: APIClient) -> None:
    response = api_client.post("/healthz")

    assert response.status_code == 405
    assert response.json() == {
        "code": "method_not_allowed",
        "message": 'Method "POST" not allowed.',
    }


def celery_status_hearing(worker: Worker, expected: str) -> tuple[str, float]:
    """The Celery probe's answer once it hears ``worker``, and how long that
    probe took: asked until it says ``expected`` with the worker up, for at
    most a minute. Until the worker answers control commands (a moment after
    it says it is ready) the probe says ``no workers``, or ``no worker on
    queue`` when another checkout's test worker shares the broker."""
    deadline = time.monotonic() + 60
    celery_pools_reset()  # no pool an earlier test in this process closed
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        while True:
            assert worker.process.poll() is None, worker.log_text()
            started = time.monotonic()
            status = celery_status()
            took = time.monotonic() - started
            # "ok" is this worker's answer (the queue is its own); a warning
            # is this worker's once the reason names it.
            heard = status == "ok" or worker.hostname in health._reasons.get(
                "celery", ""
            )
            if (status == expected and heard) or time.monotonic() > deadline:
                return status, took
            time.sleep(0.5)


@pytest.mark.timeout(90)
def test_ok_when_a_worker_consumes_the_tasks_queue(
    celery_worker_process: Worker, caplog: pytest.LogCaptureFixture
) -> None:
    """The first worker naming the queue ends the wait: the answer comes
    well before the probe's timeout, which it waits out when none does."""
    with override_settings(
        CELERY_TASK_DEFAULT_QUEUE=celery_worker_process.queue,
        HEALTH_CHECK_TIMEOUT=5.0,
    ):
        status, took = celery_status_hearing(celery_worker_process, "ok")

    assert status == "ok", caplog.text  # why the broker was unreachable
    assert took < 2.5, f"the probe took {took:.1f}s"


@pytest.mark.timeout(90)
def test_a_worker_on_other_queues_only_is_a_warning(
    celery_worker_process: Worker,
) -> None:
    """Workers answer, but tasks go to a queue none of them consumes: they
    would wait there. Reported, and named in the reason, but not a failure
    (a web process still serves)."""
    queue = f"{celery_worker_process.queue}-unconsumed"
    with override_settings(CELERY_TASK_DEFAULT_QUEUE=queue):
        status, _ = celery_status_hearing(celery_worker_process, "no worker on queue")

    assert status == "no worker on queue"
    assert "no worker on queue" in health.HEALTHY["celery"]
    reason = health._reasons["celery"]
    assert reason.startswith(f"no worker consumes {queue!r}; "), reason
    assert celery_worker_process.hostname in reason


def test_a_pools_reset_leaves_the_probe_no_closed_pool() -> None:
    """The control mailbox caches its producer pool once an in-process worker
    has replied to a broadcast; a reset that closed that pool but left the
    cache made every later probe in the process report ``unreachable``."""
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        assert celery_status() in ANSWERED
        # Cached on the mailbox itself, as an in-process worker's reply does.
        assert celery_app.control.mailbox.producer_pool is not None
        celery_pools_reset()

        assert celery_status() in ANSWERED


def test_ok_on_the_embedded_default(tmp_path: Path) -> None:
    """No DATABASE_URL / REDIS_URL: SQLite, no Redis, tasks run in-process."""
    assert healthz_in_subprocess(tmp_path) == {
        "status_code": 200,
        "body": {
            "status": "ok",
            "database": "ok",
            "redis": "not configured",
            "celery": "eager",
            "beat": "eager",
        },
    }


def test_no_workers_is_reported_but_not_a_failure(tmp_path: Path) -> None:
    """A reachable broker with no worker: web still serves and queues tasks."""
    assert healthz_in_subprocess(tmp_path, REDIS_URL=IDLE_REDIS) == {
        "status_code": 200,
        "body": {
            "status": "ok",
            "database": "ok",
            "redis": "ok",
            "celery": "no workers",
            "beat": "stale (no heartbeat recorded)",
        },
    }


def test_degraded_when_the_broker_is_unreachable(tmp_path: Path) -> None:
    answer, took = healthz_timed(
        tmp_path, REDIS_URL=IDLE_REDIS, CELERY_BROKER_URL=DEAD_REDIS
    )

    assert answer == {
        "status_code": 503,
        "body": {
            "status": "degraded",
            "database": "ok",
            "redis": "ok",
            "celery": "unreachable",
            "beat": "stale (no heartbeat recorded)",
        },
    }
    assert took < 10, f"a dead broker took {took:.1f}s to report"


@pytest.mark.timeout(60)
def test_a_broker_that_never_answers_is_unreachable_within_the_timeout(
    tmp_path: Path, silent_port: int
) -> None:
    """A broker that accepts connections and never answers (hung, or a
    firewall's black hole) held the request forever: the probe now gives up
    after HEALTH_CHECK_TIMEOUT on each socket, and the request waits for it
    at most twice that."""
    answer, took = healthz_timed(
        tmp_path,
        HEALTH_CHECK_TIMEOUT="0.5",
        REDIS_URL=IDLE_REDIS,
        CELERY_BROKER_URL=f"redis://127.0.0.1:{silent_port}/0",
    )

    assert answer == {
        "status_code": 503,
        "body": {
            "status": "degraded",
            "database": "ok",
            "redis": "ok",
            "celery": "unreachable",
            "beat": "stale (no heartbeat recorded)",
        },
    }
    assert took < 1.5, f"/healthz took {took:.1f}s"


def test_degraded_when_the_database_is_unreachable(tmp_path: Path) -> None:
    answer = healthz_in_subprocess(
        tmp_path, DATABASE_URL="postgres://root@127.0.0.1:1/cardroom"
    )

    assert answer == {
        "status_code": 503,
        "body": {
            "status": "degraded",
            "database": "unreachable",
            "redis": "not configured",
            "celery": "eager",
            "beat": "eager",
        },
    }
