"""``config.throttling`` when Redis does not answer: requests go through.

A move commits to PostgreSQL whatever Redis does, so the throttle fails open:
the request is allowed, the outage is logged once (and once more when Redis
answers again), and while it lasts a process asks Redis at most once per
``RETRY_SECONDS``. Redis is made unreachable by pointing the cache at a port
nothing listens on, at one that accepts and never answers, or by stopping a
``redis-server`` of the test's own.
"""

from __future__ import annotations

import shutil
import time
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient

from config import throttling
from config.cache import SharedPoolRedisCache
from tests.config.test_throttling import NOW, ThreePerMinute, _request
from tests.helpers import OwnRedis, free_port

FAILING = "Throttling is off: Redis does not answer"
BACK = "Throttling works again: Redis answers."

pytestmark = pytest.mark.skipif(
    not settings.REDIS_URL, reason="the throttle asks Redis only on the full stack"
)


def _messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "config.throttling"]


def _allowed(throttle: type[ThreePerMinute] = ThreePerMinute) -> tuple[bool, Any]:
    checker = throttle()
    return checker.allow_request(_request(), view=None), checker.wait()


def _script_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The round trips the throttle attempts from now on."""
    calls: list[str] = []
    real = throttling._SlidingLog.__call__

    def counting(self: Any, key: str, args: list[Any]) -> Any:
        calls.append(key)
        return real(self, key, args)

    monkeypatch.setattr(throttling._SlidingLog, "__call__", counting)
    return calls


@pytest.mark.django_db
def test_api_requests_are_answered_while_the_caches_redis_is_down(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The audit's case: every API request answered 500 with a traceback."""
    monkeypatch.setattr(throttling, "RETRY_SECONDS", 60.0)
    calls = _script_calls(monkeypatch)
    dead = {
        "default": {
            **settings.CACHES["default"],
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
        }
    }
    client = APIClient()
    with override_settings(CACHES=dead):
        statuses = [client.get("/api/games/").status_code for _ in range(5)]

    assert statuses == [200] * 5
    # The first request found Redis down; the next ones did not try again
    # within RETRY_SECONDS (each request runs two throttles: anon and user).
    assert len(calls) == 1
    messages = _messages(caplog)
    assert len(messages) == 1, messages
    assert messages[0].startswith(f"{FAILING} (ConnectionError(")
    assert not [r for r in caplog.records if r.levelname in {"ERROR", "CRITICAL"}]


@pytest.mark.django_db
def test_a_redis_that_never_answers_holds_a_request_for_the_timeout_only(
    silent_port: int,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(throttling, "REDIS_TIMEOUT", 0.3)
    hung = SharedPoolRedisCache(
        f"redis://127.0.0.1:{silent_port}/0", {"KEY_PREFIX": "hung"}
    )
    monkeypatch.setattr(ThreePerMinute, "cache", hung)
    NOW[0] = 11_000_000.0

    started = time.monotonic()
    answer = _allowed()
    took = time.monotonic() - started

    assert answer == (True, None)
    assert took < 2.0, f"a hung Redis held the request {took:.1f}s"
    messages = _messages(caplog)
    assert len(messages) == 1
    assert messages[0].startswith(f"{FAILING} (TimeoutError(")


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
@pytest.mark.timeout(60)
@pytest.mark.django_db
def test_the_outage_is_logged_once_and_the_recovery_once_and_counting_resumes(
    own_redis: OwnRedis,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(throttling, "RETRY_SECONDS", 0.0)  # ask Redis each time
    own = SharedPoolRedisCache(own_redis.url, {"KEY_PREFIX": "own"})
    monkeypatch.setattr(ThreePerMinute, "cache", own)
    NOW[0] = 12_000_000.0
    assert _allowed() == (True, None)  # connected and counted once

    own_redis.stop()
    during = [_allowed() for _ in range(5)]  # over the rate: not counted
    own_redis.start()  # empty: the count starts afresh
    after = [_allowed()[0] for _ in range(4)]

    assert during == [(True, None)] * 5
    assert after == [True, True, True, False]  # the rate holds again
    messages = _messages(caplog)
    assert len(messages) == 2, messages
    assert messages[0].startswith(FAILING)
    assert messages[1] == BACK


@pytest.mark.django_db
def test_while_redis_fails_a_process_asks_it_once_per_retry_interval(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(throttling, "RETRY_SECONDS", 0.2)
    calls = _script_calls(monkeypatch)
    dead = SharedPoolRedisCache(
        f"redis://127.0.0.1:{free_port()}/0", {"KEY_PREFIX": "dead"}
    )
    monkeypatch.setattr(ThreePerMinute, "cache", dead)

    assert [_allowed()[0] for _ in range(3)] == [True] * 3
    assert len(calls) == 1
    time.sleep(0.25)
    assert [_allowed()[0] for _ in range(3)] == [True] * 3
    assert len(calls) == 2
