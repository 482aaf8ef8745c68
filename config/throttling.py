"""DRF's request throttles, in one Redis round trip per request.

DRF keeps each client's recent request times as a pickled list in the cache:
a ``GET`` and a ``SET`` per throttled request, both on the request's path
(docs/performance.md). With the Redis cache the same sliding log lives in a
sorted set instead, and one Lua script prunes it, counts it, records the
request if it is allowed, and otherwise says how long to wait: one round trip,
atomic across processes, nothing pickled. The rules are DRF's: ``rate``
requests per window, a refused request is not recorded, and the wait is the
time until the oldest recorded request leaves the window. Keys go through the
cache's own ``make_key``, so they carry its prefix, and are named apart from
DRF's. Any other cache (the embedded default's local memory) keeps DRF's own
implementation.
"""

from __future__ import annotations

import hashlib
import os
import threading
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache import cache as default_cache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from rest_framework import throttling

#: KEYS[1] the log; ARGV now, window (s), limit, a unique member.
#: Returns {1, "0"} when allowed (and recorded), {0, wait} when not; the wait
#: is a string since Redis turns Lua numbers into integers.
_SLIDING_LOG = """
local key = KEYS[1]
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) < limit then
    redis.call('ZADD', key, now, ARGV[4])
    redis.call('PEXPIRE', key, math.ceil(window * 1000))
    return {1, '0'}
end
local oldest = tonumber(redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2])
return {0, tostring(window - (now - oldest))}
"""

#: The name Redis knows the script by (``EVALSHA``).
_SHA = hashlib.sha1(_SLIDING_LOG.encode(), usedforsecurity=False).hexdigest()


class _SlidingLog:
    """``_SLIDING_LOG`` run on a connection of the calling thread's own, made
    with the cache pool's settings.

    Through the pool, redis-py would take a connection under a lock, check
    its socket for unread data (three system calls) and hand it back: about
    half the CPU of the request's one round trip (docs/performance.md). Each
    request thread keeps one connection instead (a forked child makes its
    own). A connection the server closed fails on use and is opened again
    for one more try, as the pool would have opened it before use; any other
    failure closes it, so no reply is ever left half read. A script the
    server has forgotten (a restart, ``SCRIPT FLUSH``) is loaded again, as
    redis-py's ``Script`` does.
    """

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.local = threading.local()

    def _connection(self) -> Any:
        conn = getattr(self.local, "conn", None)
        if conn is None or conn.pid != os.getpid():
            conn = self.pool.connection_class(**self.pool.connection_kwargs)
            self.local.conn = conn
        return conn

    def __call__(self, key: str, args: list[Any]) -> Any:
        conn = self._connection()
        command = conn.pack_command("EVALSHA", _SHA, 1, key, *args)
        try:
            return self._run(conn, command)
        except RedisConnectionError:
            conn.disconnect()  # closed by the server: once more, reconnected
            try:
                return self._run(conn, command)
            except BaseException:
                conn.disconnect()  # never leave a reply half read
                raise
        except ResponseError:
            raise  # the server's error, its reply read in full
        except BaseException:
            conn.disconnect()
            raise

    @staticmethod
    def _run(conn: Any, command: Any) -> Any:
        try:
            conn.send_packed_command(command, check_health=False)
            return conn.read_response()
        except NoScriptError:
            conn.send_command("SCRIPT", "LOAD", _SLIDING_LOG, check_health=False)
            conn.read_response()
            conn.send_packed_command(command, check_health=False)
            return conn.read_response()


_logs: dict[int, _SlidingLog] = {}
_lock = threading.Lock()


def _script(cache: Any, key: str) -> _SlidingLog | None:
    """The sliding-log script on ``cache``'s Redis server, or None when the
    cache is not Redis."""
    if cache is default_cache:  # a proxy to this context's cache object
        cache = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(cache, RedisCache):
        return None
    redis_cache: Any = cache  # its client is Django's private attribute
    pool = redis_cache._cache.get_client(key, write=True).connection_pool
    log = _logs.get(id(pool))
    if log is None:
        with _lock:
            log = _logs.setdefault(id(pool), _SlidingLog(pool))
    return log


class SlidingLogMixin:
    """``allow_request`` and ``wait`` of a ``SimpleRateThrottle`` through
    ``_SLIDING_LOG`` when the cache is Redis."""

    # Not DRF's keys (which hold pickled lists): a server still running DRF's
    # throttle during a rolling deploy never meets a sorted set, nor this one
    # a list.
    cache_format = "throttle-log_%(scope)s_%(ident)s"

    cache: Any
    rate: str | None
    num_requests: int
    duration: int
    key: str | None
    now: float
    _logged_in_redis = False
    _wait: float | None = None

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)  # type: ignore[attr-defined]
        if key is None:
            return True
        cache_key = self.cache.make_key(key)
        script = _script(self.cache, cache_key)
        if script is None:
            return bool(super().allow_request(request, view))  # type: ignore[misc]
        self._logged_in_redis = True
        self.key, self.now = key, self.timer()  # type: ignore[attr-defined]
        member = f"{self.now!r}:{os.urandom(6).hex()}"
        allowed, wait = script(
            cache_key, [self.now, self.duration, self.num_requests, member]
        )
        self._wait = None if allowed else max(0.0, float(wait))
        return bool(allowed)

    def wait(self) -> float | None:
        if self._logged_in_redis:
            return self._wait
        return super().wait()  # type: ignore[misc, no-any-return]


class AnonRateThrottle(SlidingLogMixin, throttling.AnonRateThrottle):
    """DRF's ``AnonRateThrottle`` (scope ``anon``), in one round trip."""


class UserRateThrottle(SlidingLogMixin, throttling.UserRateThrottle):
    """DRF's ``UserRateThrottle`` (scope ``user``), in one round trip."""
