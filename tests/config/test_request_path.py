"""The request path under an ASGI server: no thread hops or Redis connects that
a request does not need (docs/performance.md, "The event store and the HTTP API")."""

import logging
import threading
from typing import Any

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
    request two thread hops and a new event loop (were the chain async)."""
    with caplog.at_level(logging.DEBUG, logger="django.request"):
        ASGIHandler()
    adapted = [r.getMessage() for r in caplog.records if "adapted" in r.getMessage()]
    assert adapted == []


@pytest.mark.django_db
def test_a_request_runs_its_middleware_and_view_in_one_thread_hop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Django's own handler calls every hook of every middleware through
    ``sync_to_async`` (about sixteen hops a request); ours, one."""
    import asyncio

    import asgiref.sync

    from config.asgi import django_asgi_app
    from config.handlers import OneHopASGIHandler

    assert isinstance(django_asgi_app, OneHopASGIHandler)
    hops: list[str] = []
    real = asgiref.sync.SyncToAsync.__call__

    async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        hops.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(asgiref.sync.SyncToAsync, "__call__", counted)
    sent: list[dict[str, Any]] = []
    body = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        if body:
            return body.pop()
        await asyncio.Event().wait()  # the client stays connected
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/api/games/",
        "raw_path": b"/api/games/",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    asyncio.run(django_asgi_app(scope, receive, send))

    assert sent[0]["status"] == 200
    assert [h for h in hops if "get_response" in h] == ["BaseHandler.get_response"]
    assert not any("process_request" in h or "process_response" in h for h in hops)
    assert "View.as_view.<locals>.view" not in hops


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
