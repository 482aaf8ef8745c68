"""``/healthz`` reports whether Celery beat is alive, by its heartbeat.

Beat sends ``config.celery.beat_heartbeat`` every ``BEAT_HEARTBEAT_SECONDS``
and a worker records its time in the cache; the check reads it on its Redis
connection. A stale beat is reported and keeps the status ``ok``, as ``no
workers`` does (docs/operations.md, "/healthz").
"""

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from config import health
from config.celery import BEAT_HEARTBEAT_KEY, beat_heartbeat
from tests.celery_worker import celery_beat, celery_worker
from tests.config.test_health import DEAD_REDIS

#: Beat's settings in the real-process test: a heartbeat every second, the
#: sweeps not within the test.
HEARTBEAT_EVERY_SECOND = {
    "BEAT_HEARTBEAT_SECONDS": "1",
    "STATS_SWEEP_SECONDS": "3600",
    "TOURNAMENTS_SWEEP_SECONDS": "3600",
}


@pytest.fixture
def no_heartbeat() -> Iterator[None]:
    """No heartbeat recorded under this test process's cache prefix, before
    and after (the test Redis keeps them between runs)."""
    cache.delete(BEAT_HEARTBEAT_KEY)
    yield
    cache.delete(BEAT_HEARTBEAT_KEY)


def beat_now() -> str:
    """Beat's part as ``/healthz`` computes it, on the full stack."""
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        redis_answer, heartbeat = health._redis_check(heartbeat=True)
        return health.beat_status(redis_answer, heartbeat)


def test_the_beat_schedule_sends_the_heartbeat() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["beat-heartbeat"]
    assert entry["task"] == beat_heartbeat.name == "config.celery.beat_heartbeat"
    assert entry["schedule"] == settings.BEAT_HEARTBEAT_SECONDS == 30.0
    # One no worker took in time is dropped, not run late in a pile.
    assert entry["options"] == {"expires": settings.BEAT_HEARTBEAT_SECONDS}


def test_eager_when_tasks_run_in_process() -> None:
    """The embedded default: no broker, no beat (its scheduler thread runs
    the schedule), like ``celery: eager``."""
    assert health.beat_status(health.NOT_CONFIGURED, None) == "eager"


def test_ok_after_a_heartbeat(no_heartbeat: None) -> None:
    """What the task stores through the cache, the check reads with a plain
    GET on its own Redis connection."""
    beat_heartbeat()

    assert beat_now() == "ok"


def test_ok_within_three_intervals(no_heartbeat: None) -> None:
    cache.set(BEAT_HEARTBEAT_KEY, int(time.time()) - 85, timeout=None)

    assert beat_now() == "ok"


def test_stale_says_how_long_since_the_last_heartbeat(no_heartbeat: None) -> None:
    cache.set(BEAT_HEARTBEAT_KEY, int(time.time()) - 1000, timeout=None)

    status = beat_now()

    assert status in {f"stale (last heartbeat {n}s ago)" for n in (1000, 1001)}


def test_stale_after_the_configured_interval(no_heartbeat: None) -> None:
    cache.set(BEAT_HEARTBEAT_KEY, int(time.time()) - 10, timeout=None)

    with override_settings(BEAT_HEARTBEAT_SECONDS=2.0):
        assert beat_now().startswith("stale (last heartbeat ")


def test_stale_when_none_was_ever_recorded(no_heartbeat: None) -> None:
    assert beat_now() == "stale (no heartbeat recorded)"


def test_an_unreadable_heartbeat_counts_as_none(no_heartbeat: None) -> None:
    """Not a number (pickled by the cache): stale, not a server error."""
    cache.set(BEAT_HEARTBEAT_KEY, "yesterday", timeout=None)

    assert beat_now() == "stale (no heartbeat recorded)"


def test_unreachable_or_not_configured_with_redis() -> None:
    with override_settings(REDIS_URL=DEAD_REDIS):
        assert beat_now() == "unreachable"
    with override_settings(REDIS_URL=""):
        assert beat_now() == "not configured"


@pytest.mark.django_db
def test_a_stale_beat_is_reported_but_not_a_failure(
    no_heartbeat: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As ``no workers``: the web process still serves, and taking it out of
    service would not bring beat back."""
    monkeypatch.setattr(health, "_celery_check", lambda: health.OK)
    monkeypatch.setattr(health, "_probes", {})

    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        response = APIClient().get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "redis": "ok",
        "celery": "ok",
        "beat": "stale (no heartbeat recorded)",
    }


def beat_becomes(expected: str, within: float, log: Path) -> str:
    """Beat's part once it starts with ``expected``, or at ``within`` s."""
    deadline = time.monotonic() + within
    while True:
        status = beat_now()
        if status.startswith(expected) or time.monotonic() > deadline:
            return status
        time.sleep(0.2)


@pytest.mark.timeout(60)
def test_a_real_beat_and_worker_keep_it_ok_until_beat_stops(
    tmp_path: Path, no_heartbeat: None
) -> None:
    """Beat sends the heartbeat, a worker records it: ``ok``. Beat stopped,
    the worker still up: ``stale`` after three intervals."""
    with (
        celery_worker(
            "beat",
            tmp_path / "worker.log",
            # The cache prefix of this test process's xdist worker.
            settings_env={"PYTEST_XDIST_WORKER": settings.TEST_WORKER},
        ) as worker,
        override_settings(BEAT_HEARTBEAT_SECONDS=1.0),
    ):
        beat_log = tmp_path / "beat.log"
        with celery_beat(worker, beat_log, HEARTBEAT_EVERY_SECOND):
            status = beat_becomes("ok", 30, beat_log)
            assert status == "ok", worker.log_text() + beat_log.read_text()

        status = beat_becomes("stale", 10, beat_log)
        worker.assert_running()

    assert status.startswith("stale (last heartbeat "), status
    assert "config.celery.beat_heartbeat" in beat_log.read_text()
