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


def _serve(path: str, root_path: str = "") -> list[dict[str, Any]]:
    """What the server's own handler (``config.asgi``) sends for a GET."""
    import asyncio

    from config.asgi import django_asgi_app

    sent: list[dict[str, Any]] = []
    body = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        if body:
            return body.pop()
        await asyncio.Event().wait()  # the client stays connected
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(django_asgi_app(_scope(path, root_path), receive, send))
    return sent


def _scope(path: str, root_path: str = "") -> dict[str, Any]:
    """An ASGI scope of a GET of ``path``, served under ``root_path``."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": root_path + path,
        "raw_path": (root_path + path).encode(),
        "query_string": b"",
        "root_path": root_path,
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


@pytest.mark.django_db
def test_a_request_runs_its_middleware_and_view_in_one_thread_hop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Django's own handler calls every hook of every middleware through
    ``sync_to_async`` (about sixteen hops a request), and the signals around
    it in hops of their own; ours makes one, into its own threads."""
    import asgiref.sync

    from config.asgi import django_asgi_app
    from config.handlers import OneHopASGIHandler

    assert isinstance(django_asgi_app, OneHopASGIHandler)
    hops: list[str] = []
    real_hop = OneHopASGIHandler._hop
    real_sync_to_async = asgiref.sync.SyncToAsync.__call__

    def name(func: Any) -> str:
        func = getattr(func, "func", func)  # a partial's function
        return str(getattr(func, "__qualname__", repr(func)))

    async def hop(self: Any, fn: Any) -> Any:
        hops.append(name(fn))
        return await real_hop(self, fn)

    async def sync_to_async(self: Any, *args: Any, **kwargs: Any) -> Any:
        hops.append("sync_to_async: " + name(self.func))
        return await real_sync_to_async(self, *args, **kwargs)

    monkeypatch.setattr(OneHopASGIHandler, "_hop", hop)
    monkeypatch.setattr(asgiref.sync.SyncToAsync, "__call__", sync_to_async)
    sent = _serve("/api/games/")

    assert sent[0]["status"] == 200
    # request_started, the middleware chain and view, request_finished: one hop.
    assert hops == ["OneHopASGIHandler._respond"]


@pytest.mark.django_db
def test_an_answer_built_in_memory_is_sent_without_listening_for_a_disconnect() -> None:
    """A sync view cannot be cancelled, so nothing listens for the client
    going away while it runs: the request body is the only thing received."""
    import asyncio

    from config.asgi import django_asgi_app

    received: list[str] = []
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        received.append("receive")
        if len(received) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(django_asgi_app(_scope("/api/games/"), receive, send))

    assert received == ["receive"]
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["status"] == 200


@pytest.mark.urls("tests.config.urls")
def test_a_streamed_answer_stops_when_the_client_goes_away() -> None:
    import asyncio

    from django.core.signals import request_finished

    from config.asgi import django_asgi_app

    sent: list[dict[str, Any]] = []
    finished: list[bool] = []
    gone = asyncio.Event()

    async def receive() -> dict[str, Any]:
        if not sent:
            return {"type": "http.request", "body": b"", "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if len(sent) >= 5:
            gone.set()
        await asyncio.sleep(0)

    def on_finished(**kwargs: Any) -> None:
        finished.append(True)

    request_finished.connect(on_finished)
    try:

        async def serve() -> None:
            await asyncio.wait_for(
                django_asgi_app(_scope("/test-api/endless/"), receive, send), timeout=10
            )

        asyncio.run(serve())
    finally:
        request_finished.disconnect(on_finished)

    assert sent[0]["type"] == "http.response.start"
    assert 5 <= len(sent) < 100  # stopped soon after the client went away
    assert finished == [True]  # the response closed, in a hop


@pytest.mark.django_db
def test_requests_reuse_the_handlers_threads_and_return_their_connections() -> None:
    """No thread per request: requests run on the handler's pool of threads,
    and each ends with its thread's database connection closed (back to the
    pool), as ``request_finished`` does under Django's own handler."""
    from django.core.signals import request_started
    from django.db import connections

    from config.handlers import http_executor

    ran_on: list[tuple[str, int]] = []

    def started(**kwargs: Any) -> None:
        ran_on.append((threading.current_thread().name, threading.get_ident()))

    request_started.connect(started)
    try:
        for _ in range(20):
            assert _serve("/api/games/")[0]["status"] == 200
    finally:
        request_started.disconnect(started)
    # All on the handler's threads (Django's own handler would have made
    # twenty, ThreadPoolExecutor-<n>_0), one request at a time on few of them.
    names = {name for name, _ in ran_on}
    assert all(name.startswith("http_") for name in names)
    assert len(names) <= 3

    def holds_a_connection() -> bool:
        return connections["default"].connection is not None

    pool = http_executor()
    assert not any(pool.submit(holds_a_connection).result() for _ in range(16))
    # A static file is streamed: it is closed after it was sent.
    missing = _serve("/static/no-such-file.css")
    assert missing[0]["status"] == 404


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


@pytest.mark.django_db
def test_messages_are_stored_for_a_request_that_adds_one_and_built_for_no_other() -> (
    None
):
    """``LazyMessageMiddleware``: Django's message storage, made on first use."""
    from django.contrib import messages
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django.contrib.sessions.middleware import SessionMiddleware
    from django.http import HttpResponse
    from django.test import RequestFactory
    from django.utils.functional import empty

    from config.middleware import LazyMessageMiddleware

    def view(add: bool) -> Any:
        def respond(request: Any) -> HttpResponse:
            if add:
                messages.success(request, "Saved.")
            return HttpResponse("ok")

        return SessionMiddleware(LazyMessageMiddleware(respond))

    quiet_request = RequestFactory().get("/")
    quiet = view(False)(quiet_request)
    adding_request = RequestFactory().get("/")
    adding = view(True)(adding_request)

    assert quiet_request._messages._wrapped is empty  # never built
    assert "messages" not in quiet.cookies
    assert isinstance(adding_request._messages._wrapped, FallbackStorage)
    later = RequestFactory().get(
        "/", HTTP_COOKIE=f"messages={adding.cookies['messages'].value}"
    )
    SessionMiddleware(lambda r: HttpResponse())(later)
    later._messages = FallbackStorage(later)
    assert [m.message for m in later._messages] == ["Saved."]


@pytest.mark.urls("tests.config.urls")
def test_a_service_under_a_root_path_links_under_it() -> None:
    """The script prefix Django takes from the ASGI ``root_path`` reaches the
    request's thread, so URLs reversed there carry it."""
    import json

    sent = _serve("/test-api/where/", root_path="/cardroom")

    assert sent[0]["status"] == 200
    assert json.loads(sent[1]["body"]) == {"healthz": "/cardroom/healthz"}
