"""Django's Redis cache with one connection pool per process, not per request.

Django keeps a cache object per async context, so under an ASGI server every
request builds a new ``RedisCache``, a new pool and a new TCP connection to
Redis (the API's throttle reads the cache on every request). This backend
shares the pools between all of them, and one client object per pool:
redis-py's pools and clients are thread-safe and re-created after a fork, and
building a client (its table of reply callbacks) cost more than the command it
was built for (two per throttled request, docs/performance.md).
"""

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_pools: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}
_clients: dict[int, Any] = {}
_lock = threading.Lock()


class SharedPoolClient(RedisCacheClient):  # type: ignore[misc]
    def _get_connection_pool(self, write: bool) -> Any:
        me: Any = self  # Django's private attributes, unknown to its stubs
        index = me._get_connection_pool_index(write)
        key = (me._servers[index], tuple(sorted(me._pool_options.items())))
        pool = _pools.get(key)
        if pool is None:
            with _lock:
                pool = _pools.get(key)
                if pool is None:
                    pool = me._pool_class.from_url(
                        me._servers[index], **me._pool_options
                    )
                    _pools[key] = pool
        return pool

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = _clients.get(id(pool))
        if client is None:
            with _lock:
                client = _clients.setdefault(
                    id(pool),
                    self._client(connection_pool=pool),  # type: ignore[attr-defined]
                )
        return client


class SharedPoolRedisCache(RedisCache):  # type: ignore[misc]
    """``django.core.cache.backends.redis.RedisCache`` with shared pools."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedPoolClient
