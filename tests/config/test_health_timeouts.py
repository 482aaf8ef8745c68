"""``/healthz`` answers within ``HEALTH_CHECK_TIMEOUT`` and is not an error.

The database probe waited for a pooled connection (``DB_POOL_TIMEOUT``, 10 s)
or to connect (``DB_CONNECT_TIMEOUT``, 5 s) when PostgreSQL was down; it is
now bounded by ``HEALTH_CHECK_TIMEOUT``. Every 503 was logged as ``ERROR
django.request: Service Unavailable: /healthz``; now a process logs one
warning when its verdict changes, and one when it is ``ok`` again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from config import health
from tests.config.test_health import DEAD_REDIS, healthz_timed
from tests.helpers import free_port


@pytest.mark.timeout(60)
def test_a_refused_database_is_reported_within_the_timeout_not_the_pools(
    tmp_path: Path,
) -> None:
    """The audit's case: the pool (on by default) waited DB_POOL_TIMEOUT."""
    answer, took = healthz_timed(
        tmp_path,
        HEALTH_CHECK_TIMEOUT="0.5",
        DATABASE_URL=f"postgres://root@127.0.0.1:{free_port()}/cardroom",
        DB_POOL_TIMEOUT="10",
    )

    assert answer["status_code"] == 503
    assert answer["body"] == {
        "status": "degraded",
        "database": "unreachable",
        "redis": "not configured",
        "celery": "eager",
        "beat": "eager",
    }
    assert took < 1.5, f"/healthz took {took:.1f}s"


@pytest.mark.timeout(60)
def test_a_database_that_never_answers_is_reported_within_the_timeout(
    tmp_path: Path, silent_port: int
) -> None:
    """No pool: connecting would wait DB_CONNECT_TIMEOUT (5 s)."""
    answer, took = healthz_timed(
        tmp_path,
        HEALTH_CHECK_TIMEOUT="0.5",
        DATABASE_URL=f"postgres://root@127.0.0.1:{silent_port}/cardroom",
        DB_POOL="false",
    )

    assert answer["status_code"] == 503
    assert isinstance(answer["body"], dict)
    assert answer["body"]["database"] == "unreachable"
    assert took < 1.5, f"/healthz took {took:.1f}s"


def test_a_probe_still_running_is_waited_on_not_started_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    release = threading.Event()
    started: list[int] = []

    def stuck() -> str:
        started.append(1)
        release.wait(10)
        return health.OK

    monkeypatch.setattr(health, "_database_check", stuck)
    monkeypatch.setattr(health, "_probes", {})
    with override_settings(HEALTH_CHECK_TIMEOUT=0.1):
        assert health.database_status() == health.UNREACHABLE
        assert health.database_status() == health.UNREACHABLE
        assert started == [1]
        release.set()
        assert health.database_status() == health.OK  # the same probe's answer
    assert started == [1]


@pytest.fixture
def request_log() -> Iterator[list[logging.LogRecord]]:
    """What ``django.request`` logs (it does not propagate to pytest's
    handler: the settings give ``django`` its own)."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(logging.DEBUG)
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        yield records
    finally:
        logger.removeHandler(handler)


@pytest.mark.django_db
def test_a_503_is_logged_once_per_change_as_a_warning_never_as_an_error(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    request_log: list[logging.LogRecord],
) -> None:
    monkeypatch.setattr(health, "_last_failing", ())
    client = APIClient()

    with override_settings(REDIS_URL=DEAD_REDIS):
        down = [client.get("/healthz").status_code for _ in range(3)]
    up = [client.get("/healthz").status_code for _ in range(2)]

    assert down == [503] * 3
    assert up == [200] * 2
    assert request_log == []  # no "ERROR django.request: Service Unavailable"
    said = [
        (r.levelname, r.getMessage())
        for r in caplog.records
        if r.name == "config.health"
    ]
    assert len(said) == 2, said
    assert said[0][0] == "WARNING"
    assert said[0][1].startswith(
        "Health check degraded: redis unreachable (ConnectionError("
    )
    assert said[1] == ("WARNING", "Health check ok again.")
