"""Fixtures shared by the whole suite.

Tests run on real PostgreSQL and Redis (``config.settings.test``). Each xdist
worker has its own test database (pytest-django) and its own Redis key prefix
(the settings), so workers never share state.

The pure ``rules`` tests need no framework: Django, DRF and Redis are imported
inside the fixtures that use them, never here, so ``pytest tests/rules -p
no:django`` runs without Django configured.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path

    from rest_framework.test import APIClient

    from tests.helpers import OwnRedis


def pytest_addoption(
    parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager
) -> None:
    """Without pytest-django (``-p no:django``), keep its ini key known.

    pyproject.toml names the settings module for pytest-django; with the plugin
    off, pytest would warn that the key is unknown on every run.
    """
    if not pluginmanager.has_plugin("django"):
        parser.addini("DJANGO_SETTINGS_MODULE", "Used by pytest-django only.")


# Fixtures that mean a test goes through Django's request or database stack.
_DJANGO_FIXTURES = {
    "client",
    "async_client",
    "admin_client",
    "api_client",
    "live_server",
    "db",
    "transactional_db",
}


@pytest.fixture(autouse=True)
def _fresh_cache(request: pytest.FixtureRequest) -> Iterator[None]:
    """Start every Django-backed test with an empty cache.

    The cache holds throttling counters; left over, one test's requests would
    throttle the next. Only this worker's keys are deleted (not FLUSHDB), so a
    parallel worker's test keeps its own. Tests that touch neither requests nor
    the database (the pure ``rules`` tests) skip this and need no Redis.
    """
    uses_django = request.node.get_closest_marker("django_db") or (
        _DJANGO_FIXTURES & set(request.fixturenames)
    )
    if uses_django:
        _clear_cache()
        from games import history_cache

        # A rolled-back test may leave a table id to be used again.
        history_cache.clear()
    yield


def _clear_cache() -> None:
    import redis
    from django.conf import settings
    from django.core.cache import cache

    if settings.REDIS_URL:
        prefix = settings.CACHES["default"]["KEY_PREFIX"]
        client = redis.Redis.from_url(settings.REDIS_URL)
        try:
            keys = list(client.scan_iter(match=f"{prefix}:*", count=500))
            if keys:
                client.delete(*keys)
        finally:
            client.close()
    else:
        cache.clear()


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers (a hung server)."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield server.getsockname()[1]


@pytest.fixture
def api_client() -> APIClient:
    """DRF's test client: JSON requests, token or forced authentication."""
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def finishing() -> Iterator[set[int]]:
    """The tables the test finished, as ``games.signals.table_finishing``
    announced them (``tests.helpers.tables_finished_unqueued``)."""
    from tests.helpers import tables_finishing_seen

    with tables_finishing_seen() as seen:
        yield seen


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """A ``redis-server`` of the test's own (``tests.helpers.OwnRedis``)."""
    from tests.helpers import OwnRedis

    server = OwnRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()
