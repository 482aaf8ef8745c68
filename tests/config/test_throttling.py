"""``config.throttling``: DRF's throttles in one Redis round trip."""

from types import SimpleNamespace
from typing import Any

import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache

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
