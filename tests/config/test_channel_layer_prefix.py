"""``CHANNEL_LAYER_PREFIX``: deployments sharing a Redis server never share
channels.

Redis pub/sub ignores the database number, so two deployments on one Redis
server (``/0`` and ``/1``) heard each other's frames, hidden cards included,
under the one fixed prefix ``cardroom-asgi``. The default prefix now names
the deployment's database and the layer's Redis database. Settings are read
once per process, so each case loads them in a fresh interpreter.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers import clean_env, run_django_json

PREFIX = """
import json
from channels.layers import BaseChannelLayer
from django.conf import settings as s
prefix = s.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
# Channels checks every channel name; a socket's is the prefix, "specific."
# and 32 hex digits.
BaseChannelLayer().require_valid_channel_name(f"{prefix}specific.{'0' * 32}")
print(json.dumps({"prefix": prefix, "cache_prefix": s.CACHES["default"]["KEY_PREFIX"]}))
"""


def loaded(tmp_path: Path, settings: str = "local", **env: str) -> dict[str, str]:
    answer: dict[str, str] = run_django_json(
        PREFIX,
        clean_env(
            DJANGO_SETTINGS_MODULE=f"config.settings.{settings}",
            CARDROOM_VAR_DIR=str(tmp_path / "var"),
            **env,
        ),
    )
    return answer


def prefix(tmp_path: Path, **env: str) -> str:
    return loaded(tmp_path, **env)["prefix"]


def test_two_databases_on_one_redis_never_share_a_prefix(tmp_path: Path) -> None:
    redis = "redis://127.0.0.1:6379/0"
    one = prefix(
        tmp_path, DATABASE_URL="postgres://root@db:5432/cardroom", REDIS_URL=redis
    )
    two = prefix(
        tmp_path, DATABASE_URL="postgres://root@db:5432/staging", REDIS_URL=redis
    )

    assert one == "cardroom-cardroom-0"
    assert two == "cardroom-staging-0"


def test_the_redis_database_number_is_part_of_it(tmp_path: Path) -> None:
    db = "postgres://root@db:5432/cardroom"
    assert prefix(tmp_path, DATABASE_URL=db, REDIS_URL="redis://r:6379/1") == (
        "cardroom-cardroom-1"
    )
    assert prefix(tmp_path, DATABASE_URL=db, REDIS_URL="redis://r:6379?db=4") == (
        "cardroom-cardroom-4"
    )
    assert prefix(tmp_path, DATABASE_URL=db, REDIS_URL="redis://r:6379") == (
        "cardroom-cardroom-0"
    )
    # The channel layer's own Redis, when it has one, is the one that counts.
    assert (
        prefix(
            tmp_path,
            DATABASE_URL=db,
            REDIS_URL="redis://r:6379/1",
            CHANNEL_LAYER_URL="redis://other:6379/7",
        )
        == "cardroom-cardroom-7"
    )


def test_a_database_name_unfit_for_a_channel_name_is_hashed(tmp_path: Path) -> None:
    redis = "redis://127.0.0.1:6379/2"
    odd = prefix(
        tmp_path, DATABASE_URL="postgres://root@db/card%20room", REDIS_URL=redis
    )
    long = prefix(
        tmp_path, DATABASE_URL=f"postgres://root@db/{'x' * 60}", REDIS_URL=redis
    )
    # No DATABASE_URL: the SQLite file, a path.
    sqlite_one = prefix(tmp_path / "a", REDIS_URL=redis)
    sqlite_two = prefix(tmp_path / "b", REDIS_URL=redis)

    for name in (odd, long, sqlite_one, sqlite_two):
        assert name.startswith("cardroom-") and name.endswith("-2")
        assert len(name) == len("cardroom-") + 12 + len("-2")
    assert len({odd, long, sqlite_one, sqlite_two}) == 4


def test_the_environment_sets_it_and_the_cache_keeps_its_prefix(
    tmp_path: Path,
) -> None:
    """The cache's keys live in the Redis database its URL names (unlike
    pub/sub channels), so deployments on different numbers never share them."""
    answer = loaded(
        tmp_path,
        DATABASE_URL="postgres://root@db:5432/cardroom",
        REDIS_URL="redis://127.0.0.1:6379/0",
        CHANNEL_LAYER_PREFIX="cardroom-asgi",
    )

    assert answer == {"prefix": "cardroom-asgi", "cache_prefix": "cardroom"}


def test_the_test_settings_keep_their_per_checkout_prefix(tmp_path: Path) -> None:
    answer = loaded(
        tmp_path,
        settings="test",
        DATABASE_URL="postgres://root@127.0.0.1:5432/cardroom",
        REDIS_URL="redis://127.0.0.1:6379/15",
        PYTEST_XDIST_WORKER="gw3",
        CHANNEL_LAYER_PREFIX="ignored-by-tests",
    )

    assert answer["prefix"].startswith("cardroom-test-")
    assert answer["prefix"].endswith("-gw3")
    assert answer["cache_prefix"] == answer["prefix"]
