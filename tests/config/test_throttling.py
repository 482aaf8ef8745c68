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
    commands: list[str] = []
    real = redis.Redis.execute_command

    def counting(self: Any, *args: Any, **options: Any) -> Any:
        commands.append(str(args[0]))
        return real(self, *args, **options)

    _allowed()  # loads the script
    monkeypatch.setattr(redis.Redis, "execute_command", counting)
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
