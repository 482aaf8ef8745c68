"""DRF's request throttles, in one Redis round trip per request or fewer.

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

**Leases.** A client sending many requests a second does not need a round
trip for each. When a rate allows more than one request per
``LEASE_SECONDS``, the script records up to that many (at most
``LEASE_MAX``) in one go, and this process spends them on the client's next
requests for up to ``LEASE_SECONDS``; slots left unspent are taken out of the
log with the client's next round trip. The log holds, at any moment, the
requests allowed plus at most one lease's unspent slots per process, and a
slot spent up to ``LEASE_SECONDS`` after it was recorded leaves the window
that much earlier: the limit holds to within one lease per process. A rate of
less than two requests per ``LEASE_SECONDS`` (every test rate, the
anonymous default's 120 a minute) leases one slot: DRF's rules exactly. The
default 600 requests a minute per person leases ten: a client playing moves
at full speed asks Redis once in ten requests, a person clicking now and
then once per request (docs/performance.md).

**A Redis that does not answer lets requests through.** A move commits to
PostgreSQL whatever Redis does, so a throttle that cannot reach Redis (refused,
timed out after ``REDIS_TIMEOUT``, or any other Redis error) allows the
request rather than failing it. The first failure is logged as one warning,
and the first round trip that works again as one more; in between, a process
asks Redis again at most once per ``RETRY_SECONDS`` and lets the other
requests through without trying, so an outage costs them no wait.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from dataclasses import dataclass
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache import cache as default_cache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, RedisError, ResponseError
from rest_framework import throttling

from config.outages import Outage

logger = logging.getLogger(__name__)

#: What a Redis that cannot do the request's round trip raises.
REDIS_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)
#: Seconds the throttle waits to connect to Redis, and for a reply, unless the
#: cache's own options say otherwise.
REDIS_TIMEOUT = 1.0
#: While Redis fails, how often a process asks it again (seconds).
RETRY_SECONDS = 1.0

#: KEYS[1] the log; ARGV now, window (s), limit, slots wanted, the slots'
#: member prefix, then members to take out first (a lease's unspent slots).
#: Returns {granted, "0"} when allowed (that many slots recorded, named
#: prefix..1 to prefix..granted), {0, wait} when not; the wait is a string
#: since Redis turns Lua numbers into integers.
_SLIDING_LOG = """
local key = KEYS[1]
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local want, prefix = tonumber(ARGV[4]), ARGV[5]
for i = 6, #ARGV do
    redis.call('ZREM', key, ARGV[i])
end
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count < limit then
    local granted = math.min(want, limit - count)
    for i = 1, granted do
        redis.call('ZADD', key, now, prefix .. i)
    end
    redis.call('PEXPIRE', key, math.ceil(window * 1000))
    return {granted, '0'}
end
local oldest = tonumber(redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2])
return {0, tostring(window - (now - oldest))}
"""

#: The name Redis knows the script by (``EVALSHA``).
_SHA = hashlib.sha1(_SLIDING_LOG.encode(), usedforsecurity=False).hexdigest()


class _SlidingLog:
    """``_SLIDING_LOG`` run on a connection of the calling thread's own, made
    with the cache pool's settings (and ``REDIS_TIMEOUT`` where they set no
    timeout: a Redis that does not answer must not hold a request thread).

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
        self.outage = _Outage()

    def _connection(self) -> Any:
        conn = getattr(self.local, "conn", None)
        if conn is None or conn.pid != os.getpid():
            kwargs = dict(self.pool.connection_kwargs)
            for name in ("socket_connect_timeout", "socket_timeout"):
                if kwargs.get(name) is None:
                    kwargs[name] = REDIS_TIMEOUT
            conn = self.pool.connection_class(**kwargs)
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


class _Outage(Outage):
    """The throttle's Redis failing (``config.outages``), and how often a
    process asks it again meanwhile."""

    def __init__(self) -> None:
        super().__init__(
            logger,
            "Throttling is off: Redis does not answer (%r). Requests are "
            "allowed without counting until it does. Logged once until it "
            "works again.",
            "Throttling works again: Redis answers.",
        )
        self.next_try = 0.0

    def skip(self) -> bool:
        """True while Redis fails and another request asked it less than
        ``RETRY_SECONDS`` ago: let this one through without a round trip.
        Otherwise this request is the one that asks (the next is due in
        ``RETRY_SECONDS``)."""
        if not self.failing:
            return False
        now = time.monotonic()
        with self._lock:
            if now < self.next_try:
                return True
            self.next_try = now + RETRY_SECONDS
            return False

    def failed(self, error: BaseException, *args: Any) -> None:
        self.next_try = time.monotonic() + RETRY_SECONDS
        super().failed(error, *args)


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


#: How long a lease of slots lasts, and its most slots (the module's doc).
LEASE_SECONDS = 1.0
LEASE_MAX = 16
#: The leases a process keeps at most; beyond, the lapsed ones are dropped
#: (their slots leave the log with the window).
_LEASES_MAX = 10_000


@dataclass
class _Lease:
    slots: list[str]  # the members of the slots recorded and not yet spent
    until: float


class _Leases:
    """This process's leases, by log key (a forked child starts with none:
    the parent's slots are the parent's to spend)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.by_key: dict[str, _Lease] = {}
        self.pid = os.getpid()

    def spend(self, key: str, now: float) -> tuple[bool, list[str]]:
        """``(True, [])`` when a slot of the key's live lease was spent;
        else ``(False, slots)``, the unspent slots of a lapsed lease, which
        the next round trip takes out of the log."""
        with self.lock:
            self._own()
            lease = self.by_key.get(key)
            if lease is None:
                return False, []
            if now < lease.until and lease.slots:
                lease.slots.pop()
                return True, []
            del self.by_key[key]
            return False, lease.slots

    def keep(self, key: str, slots: list[str], now: float) -> None:
        """Keep ``slots`` to spend for ``LEASE_SECONDS`` from ``now`` (with
        the slots another thread leased for the same key meanwhile). With
        ``_LEASES_MAX`` leases live, they are not kept: they leave the log
        with the window."""
        if not slots:
            return
        until = now + LEASE_SECONDS
        with self.lock:
            self._own()
            lease = self.by_key.get(key)
            if lease is not None:
                lease.slots.extend(slots)
                lease.until = min(lease.until, until)
                return
            if len(self.by_key) >= _LEASES_MAX:
                self.by_key = {
                    k: held for k, held in self.by_key.items() if held.until > now
                }
                if len(self.by_key) >= _LEASES_MAX:
                    return
            self.by_key[key] = _Lease(slots, until)

    def _own(self) -> None:
        if self.pid != os.getpid():
            self.by_key, self.pid = {}, os.getpid()


_leases = _Leases()


class SlidingLogMixin:
    """``allow_request`` and ``wait`` of a ``SimpleRateThrottle`` through
    ``_SLIDING_LOG`` when the cache is Redis, with leases (the module's doc)."""

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
        cache = self.cache
        if cache is default_cache:  # a proxy: each attribute looks it up again
            cache = caches[DEFAULT_CACHE_ALIAS]
        cache_key = cache.make_key(key)
        now = self.timer()  # type: ignore[attr-defined]
        # A live lease (only ever taken from Redis) is spent before anything
        # else: the usual request of a busy client ends here.
        spent, lapsed = _leases.spend(cache_key, now)
        script = None
        if not spent:
            script = _script(cache, cache_key)
            if script is None:  # not Redis: DRF's own
                return bool(super().allow_request(request, view))  # type: ignore[misc]
        self._logged_in_redis = True
        self.key, self.now, self._wait = key, now, None
        if script is None:
            return True
        if script.outage.skip():
            return True  # Redis fails: allowed, nothing to count it in
        prefix = f"{self.now!r}:{os.urandom(6).hex()}:"
        try:
            granted, wait = script(
                cache_key,
                [
                    self.now,
                    self.duration,
                    self.num_requests,
                    self.lease_slots(),
                    prefix,
                    *lapsed,
                ],
            )
        except REDIS_ERRORS as error:
            script.outage.failed(error)
            return True
        script.outage.worked()
        if not granted:
            self._wait = max(0.0, float(wait))
            return False
        # This request spends the first slot; the others wait for the next.
        slots = [f"{prefix}{i}" for i in range(2, int(granted) + 1)]
        _leases.keep(cache_key, slots, self.now)
        return True

    def lease_slots(self) -> int:
        """How many slots to record at once: as many requests as the rate
        allows in ``LEASE_SECONDS``, at least one, at most ``LEASE_MAX``."""
        per_lease = int(self.num_requests * LEASE_SECONDS / self.duration)
        return max(1, min(LEASE_MAX, per_lease))

    def wait(self) -> float | None:
        if self._logged_in_redis:
            return self._wait
        return super().wait()  # type: ignore[misc, no-any-return]


class AnonRateThrottle(SlidingLogMixin, throttling.AnonRateThrottle):
    """DRF's ``AnonRateThrottle`` (scope ``anon``), in one round trip or fewer."""


class UserRateThrottle(SlidingLogMixin, throttling.UserRateThrottle):
    """DRF's ``UserRateThrottle`` (scope ``user``), in one round trip or fewer."""
