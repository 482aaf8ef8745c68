"""The request path under an ASGI server: no thread hops or Redis connects that
a request does not need (docs/performance.md, "The event store and the HTTP API")."""

import logging
import threading

import pytest
from asgiref.sync import async_to_sync
from django.core.cache.backends.redis import RedisCacheClient
from django.core.handlers.asgi import ASGIHandler
from django.test import AsyncClient

from config.cache import SharedPoolRedisCache

REDIS = "redis://127.0.0.1:6379/0"


def test_no_middleware_makes_django_adapt_the_async_chain(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Every middleware is async-capable: a sync-only one would cost each
    request two thread hops and a new event loop."""
    with caplog.at_level(logging.DEBUG, logger="django.request"):
        ASGIHandler()
    adapted = [r.getMessage() for r in caplog.records if "adapted" in r.getMessage()]
    assert adapted == []


@pytest.mark.django_db
def test_static_files_and_api_answer_through_the_async_chain() -> None:
    client = AsyncClient()
    games = async_to_sync(client.get)("/api/games/")
    assert games.status_code == 200
    missing = async_to_sync(client.get)("/static/no-such-file.css")
    assert missing.status_code == 404


def test_the_redis_cache_shares_one_pool_between_cache_objects() -> None:
    """Django builds a cache object per request context; they share a pool."""
    params = {"KEY_PREFIX": "cardroom-test-pool"}
    first = SharedPoolRedisCache(REDIS, params)
    seen: list[object] = []

    def other_thread() -> None:
        second = SharedPoolRedisCache(REDIS, params)
        second.set("k", "v", 5)
        seen.append(second._cache._get_connection_pool(True))

    first.set("k", "v", 5)
    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert seen == [first._cache._get_connection_pool(True)]
    assert first.get("k") == "v"
    # Django's own client builds a pool per object: what this backend avoids.
    plain = RedisCacheClient([REDIS])
    assert plain._get_connection_pool(True) is not seen[0]
