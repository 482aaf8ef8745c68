"""``config.throttling``: DRF's throttles in one Redis round trip."""

from types import SimpleNamespace
from typing import Any

import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache

from config import throttling
from config.throttling import AnonRateThrottle

NOW = [1_000_000.0]


class ThreePerMinute(AnonRateThrottle):
    scope = "test-three"
    rate = "3/minute"
    timer = staticmethod(lambda: NOW[0])


def _request(address: str = "10.1.2.3") -> Any:
    return SimpleNamespace(
        user=AnonymousUser(), META={"REMOTE_ADDR": address}, headers={}
    )


def _allowed(address: str = "10.1.2.3") -> tuple[bool, float | None]:
    throttle = ThreePerMinute()
    allowed = throttle.allow_request(_request(address), view=None)
    return allowed, throttle.wait()


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The commands sent to Redis from now on, by name."""
    commands: list[str] = []
    real = redis.connection.AbstractConnection.send_packed_command

    def counting(self: Any, command: Any, *args: Any, **kwargs: Any) -> Any:
        packed = b"".join(command) if isinstance(command, list) else command
        commands.append(packed.split(b"\r\n")[2].decode())  # *n, $len, name
        return real(self, command, *args, **kwargs)

    monkeypatch.setattr(
        redis.connection.AbstractConnection, "send_packed_command", counting
    )
    return commands


@pytest.fixture
def on_redis(db: None) -> None:
    if not settings.REDIS_URL:
        pytest.skip("the sliding log in one round trip is Redis's")


def test_the_rate_holds_over_a_sliding_window(on_redis: None) -> None:
    NOW[0] = 1_000_000.0
    assert [_allowed()[0] for _ in range(3)] == [True, True, True]
    NOW[0] += 20
    assert _allowed() == (False, pytest.approx(40.0))
    assert _allowed("10.9.9.9")[0]  # another client has its own log
    NOW[0] += 40.5  # the first three left the window
    assert [_allowed()[0] for _ in range(4)] == [True, True, True, False]


def test_a_refused_request_is_not_counted(on_redis: None) -> None:
    NOW[0] = 2_000_000.0
    for _ in range(3):
        _allowed()
    for _ in range(5):
        NOW[0] += 1
        assert not _allowed()[0]
    NOW[0] = 2_000_000.0 + 60.1  # had the refusals counted, still throttled
    assert _allowed()[0]


def test_one_round_trip_per_request_under_the_caches_prefix(
    on_redis: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    NOW[0] = 3_000_000.0
    _allowed()  # loads the script
    commands = _counting(monkeypatch)
    _allowed()
    monkeypatch.undo()
    assert commands == ["EVALSHA"]
    client = redis.Redis.from_url(settings.REDIS_URL)
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    assert list(client.scan_iter(match=f"{prefix}:*throttle-log_test-three_*"))
    assert 0 < client.pttl(cache.make_key("throttle-log_test-three_10.1.2.3")) <= 60_000


def test_any_other_cache_keeps_drfs_own_log(monkeypatch: pytest.MonkeyPatch) -> None:
    local = LocMemCache("throttle-test", {})
    monkeypatch.setattr(ThreePerMinute, "cache", local)
    NOW[0] = 4_000_000.0
    assert [_allowed()[0] for _ in range(4)] == [True, True, True, False]
    assert local.get("throttle-log_test-three_10.1.2.3") == [NOW[0]] * 3


def _log() -> Any:
    from config.throttling import _script

    return _script(cache, "any")


def test_a_script_the_server_forgot_is_loaded_again(
    on_redis: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    NOW[0] = 5_000_000.0
    _allowed()
    redis.Redis.from_url(settings.REDIS_URL).script_flush()  # as a restart does
    commands = _counting(monkeypatch)

    assert _allowed() == (True, None)
    assert commands == ["EVALSHA", "SCRIPT", "EVALSHA"]


def test_a_connection_the_server_closed_is_opened_again(on_redis: None) -> None:
    NOW[0] = 6_000_000.0
    _allowed()
    conn = _log()._connection()
    conn.send_command("CLIENT", "ID")
    client_id = conn.read_response()
    redis.Redis.from_url(settings.REDIS_URL).client_kill_filter(_id=client_id)

    assert _allowed() == (True, None)
    assert [_allowed()[0] for _ in range(2)] == [True, False]  # counted once


def test_each_thread_has_a_connection_of_its_own(on_redis: None) -> None:
    import threading

    seen: list[Any] = []

    def grab() -> None:
        seen.append(_log()._connection())

    threads = [threading.Thread(target=grab) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    grab()

    assert len({id(conn) for conn in seen}) == 3


class SixHundredPerMinute(AnonRateThrottle):
    """The default per-person rate: leases of ten slots."""

    scope = "test-lease"
    rate = "600/minute"
    timer = staticmethod(lambda: NOW[0])


class TwelvePerMinuteInFives(AnonRateThrottle):
    scope = "test-fives"
    rate = "12/minute"
    timer = staticmethod(lambda: NOW[0])

    def lease_slots(self) -> int:
        return 5


def _log_size(throttle: type, address: str) -> int:
    client = redis.Redis.from_url(settings.REDIS_URL)
    key = cache.make_key(
        throttle.cache_format % {"scope": throttle.scope, "ident": address}
    )
    return int(client.zcard(key))


def _fresh(throttle: type, address: str) -> None:
    cache.delete(throttle.cache_format % {"scope": throttle.scope, "ident": address})
    throttling._leases.by_key.clear()


def test_a_burst_asks_redis_once_a_lease(
    on_redis: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    NOW[0] = 9_000_000.0
    _fresh(SixHundredPerMinute, "10.5.5.5")
    assert SixHundredPerMinute().lease_slots() == 10
    commands = _counting(monkeypatch)

    answers = [
        SixHundredPerMinute().allow_request(_request("10.5.5.5"), None)
        for _ in range(11)
    ]

    assert answers == [True] * 11
    assert commands == ["EVALSHA", "EVALSHA"]  # the 1st and the 11th
    assert _log_size(SixHundredPerMinute, "10.5.5.5") == 20  # two leases


def test_a_leased_slot_is_spent_before_the_script_is_looked_up(
    on_redis: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The usual request of a busy client asks nothing of the cache's
    client: the lease is looked up first (docs/performance.md)."""
    NOW[0] = 9_500_000.0
    _fresh(SixHundredPerMinute, "10.5.5.6")
    assert SixHundredPerMinute().allow_request(_request("10.5.5.6"), None)

    def looked_up(*args: object) -> None:
        raise AssertionError("the script was looked up with a lease live")

    monkeypatch.setattr(throttling, "_script", looked_up)
    throttle = SixHundredPerMinute()
    assert throttle.allow_request(_request("10.5.5.6"), None)
    assert throttle.wait() is None


def test_a_lapsed_leases_unspent_slots_leave_the_log(on_redis: None) -> None:
    NOW[0] = 10_000_000.0
    _fresh(SixHundredPerMinute, "10.6.6.6")
    for _ in range(3):
        SixHundredPerMinute().allow_request(_request("10.6.6.6"), None)
    assert _log_size(SixHundredPerMinute, "10.6.6.6") == 10  # 3 spent, 7 not

    NOW[0] += throttling.LEASE_SECONDS + 0.5  # the lease lapses
    assert SixHundredPerMinute().allow_request(_request("10.6.6.6"), None)

    assert _log_size(SixHundredPerMinute, "10.6.6.6") == 3 + 10


def test_leases_keep_the_limit(on_redis: None) -> None:
    NOW[0] = 11_000_000.0
    _fresh(TwelvePerMinuteInFives, "10.8.8.8")
    answers = []
    for _ in range(14):
        throttle = TwelvePerMinuteInFives()
        answers.append((throttle.allow_request(_request("10.8.8.8"), None), throttle))
        NOW[0] += 0.1

    assert [allowed for allowed, _ in answers] == [True] * 12 + [False] * 2
    assert answers[-1][1].wait() == pytest.approx(60 - 1.3)  # the first leaves
    assert _log_size(TwelvePerMinuteInFives, "10.8.8.8") == 12


def test_threads_spend_each_slot_once(on_redis: None) -> None:
    import threading

    NOW[0] = 12_000_000.0
    _fresh(TwelvePerMinuteInFives, "10.9.0.1")
    allowed: list[bool] = []

    def burst() -> None:
        for _ in range(6):
            allowed.append(
                TwelvePerMinuteInFives().allow_request(_request("10.9.0.1"), None)
            )

    threads = [threading.Thread(target=burst) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    unspent = sum(len(lease.slots) for lease in throttling._leases.by_key.values())
    assert allowed.count(True) + unspent == 12  # each slot spent once, or kept
    assert _log_size(TwelvePerMinuteInFives, "10.9.0.1") == 12


def test_a_forked_child_does_not_spend_its_parents_slots(
    on_redis: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    NOW[0] = 13_000_000.0
    _fresh(SixHundredPerMinute, "10.9.0.2")
    SixHundredPerMinute().allow_request(_request("10.9.0.2"), None)
    monkeypatch.setattr(throttling._leases, "pid", -1)  # as in a child
    commands = _counting(monkeypatch)

    assert SixHundredPerMinute().allow_request(_request("10.9.0.2"), None)
    assert commands == ["EVALSHA"]


def test_a_full_lease_table_drops_only_lapsed_leases(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    leases = throttling._Leases()
    monkeypatch.setattr(throttling, "_LEASES_MAX", 2)
    leases.keep("old", ["o2"], now=100.0)
    leases.keep("live", ["l2"], now=101.5)
    leases.keep("new", ["n2"], now=102.0)  # "old" lapsed at 101: dropped
    assert set(leases.by_key) == {"live", "new"}
    leases.keep("more", ["m2"], now=102.1)  # both live: this one is not kept
    assert set(leases.by_key) == {"live", "new"}
    assert leases.spend("live", 102.2) == (True, [])
