"""``/healthz`` reports what this process can reach, on every stack.

In-process tests run on the test stack (PostgreSQL, Redis). Cases that need a
different stack (embedded, a dead database or broker, a broker without workers)
run in a fresh process, because the Celery app reads its broker once.
"""

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from config.celery import app as celery_app
from config.health import celery_status
from tests.helpers import REPO, celery_pools_reset, clean_env, run_django_json

# A port nothing listens on: connections are refused at once.
DEAD_REDIS = "redis://127.0.0.1:1/0"
# A Redis database no test runs a Celery worker on, so "no workers" is certain.
IDLE_REDIS = "redis://127.0.0.1:6379/13"

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
    }


def test_rejects_other_methods_in_the_error_shape(api_client: APIClient) -> None:
    response = api_client.post("/healthz")

    assert response.status_code == 405
    assert response.json() == {
        "code": "method_not_allowed",
        "message": 'Method "POST" not allowed.',
    }


@pytest.fixture
def celery_worker_process() -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker (solo pool) on the test broker.

    It consumes only a queue of its own, so it answers pings but never takes a
    task that another test queues.
    """
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--queues=healthz-test",
            "--hostname=healthz-test@%h",
            "--loglevel=WARNING",
        ],
        cwd=REPO,
        env=clean_env(
            DJANGO_SETTINGS_MODULE="config.settings.test",
            CELERY_TASK_ALWAYS_EAGER="false",
        ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield worker
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


@pytest.mark.timeout(90)
def test_ok_when_a_worker_answers(
    celery_worker_process: subprocess.Popen[bytes], caplog: pytest.LogCaptureFixture
) -> None:
    status = "not checked"
    deadline = time.monotonic() + 45
    celery_pools_reset()  # no pool an earlier test in this process closed
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        while time.monotonic() < deadline:
            assert celery_worker_process.poll() is None, "the worker exited"
            status = celery_status()
            if status == "ok":
                break
            time.sleep(0.5)

    assert status == "ok", caplog.text  # why the broker was unreachable


def test_a_pools_reset_leaves_the_probe_no_closed_pool() -> None:
    """The control mailbox caches its producer pool once an in-process worker
    has replied to a broadcast; a reset that closed that pool but left the
    cache made every later probe in the process report ``unreachable``."""
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        assert celery_status() in {"ok", "no workers"}
        # Cached on the mailbox itself, as an in-process worker's reply does.
        assert celery_app.control.mailbox.producer_pool is not None
        celery_pools_reset()

        assert celery_status() in {"ok", "no workers"}


def test_ok_on_the_embedded_default(tmp_path: Path) -> None:
    """No DATABASE_URL / REDIS_URL: SQLite, no Redis, tasks run in-process."""
    assert healthz_in_subprocess(tmp_path) == {
        "status_code": 200,
        "body": {
            "status": "ok",
            "database": "ok",
            "redis": "not configured",
            "celery": "eager",
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
        },
    }
    assert took < 10, f"a dead broker took {took:.1f}s to report"


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
        },
    }
