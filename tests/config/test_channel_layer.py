"""``config.channel_layer``: Redis pub/sub with local delivery first.

Against real Redis servers: the machine's, and one of the test's own that it
stops to see the layer announce the loss and work again once Redis is back.
"""

from __future__ import annotations

import asyncio
import shutil
import threading
import uuid
from typing import Any

import pytest
import redis

from config.channel_layer import LAYER_FAILED, LocalFirstPubSubLayer
from tests.helpers import OwnRedis

REDIS = "redis://127.0.0.1:6379/0"


def layer_on(url: str = REDIS) -> LocalFirstPubSubLayer:
    return LocalFirstPubSubLayer(hosts=[url], prefix=f"test-{uuid.uuid4().hex[:8]}")


async def drain(layer: Any, channel: str, seconds: float = 0.3) -> list[Any]:
    got = []
    while True:
        try:
            got.append(await asyncio.wait_for(layer.receive(channel), seconds))
        except TimeoutError:
            return got


def test_a_group_message_reaches_local_members_once() -> None:
    """Delivered locally at once; Redis's echo of it is recognised and dropped."""
    layer = layer_on()

    async def go() -> tuple[list[Any], list[Any]]:
        a, b = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("g", a)
        await layer.group_add("g", b)
        await layer.group_send("g", {"type": "hello", "n": 1})
        return await drain(layer, a), await drain(layer, b)

    got_a, got_b = asyncio.run(go())
    assert got_a == got_b == [{"type": "hello", "n": 1}]


def test_another_loop_or_process_hears_it_through_redis() -> None:
    """A publisher elsewhere (a Celery worker, a second server, the background
    loop of this process) reaches the members through Redis, once each."""
    layer, publisher = layer_on(), None

    async def go() -> list[Any]:
        nonlocal publisher
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        publisher = LocalFirstPubSubLayer(hosts=[REDIS], prefix=layer._kwargs["prefix"])

        def elsewhere() -> None:
            async def send() -> None:
                await publisher.group_send_many(
                    [("g", {"type": "m", "n": 1}), ("other", {"type": "m", "n": 2})]
                )
                await publisher.flush()

            asyncio.run(send())

        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join()
        return await drain(layer, channel, 1.0)

    assert asyncio.run(go()) == [{"type": "m", "n": 1}]


def test_group_send_many_sends_each_group_its_own_message() -> None:
    layer = layer_on()

    async def go() -> dict[str, list[Any]]:
        channels = {g: await layer.new_channel() for g in ("seat-0", "seat-1", "watch")}
        for group, channel in channels.items():
            await layer.group_add(group, channel)
        await layer.group_send_many(
            [(group, {"type": "frame", "for": group}) for group in channels]
        )
        return {g: await drain(layer, c) for g, c in channels.items()}

    got = asyncio.run(go())
    assert got == {g: [{"type": "frame", "for": g}] for g in got}


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
@pytest.mark.timeout(60)
def test_a_lost_redis_is_announced_and_the_layer_works_again_after(
    own_redis: OwnRedis,
) -> None:
    layer = layer_on(own_redis.url)

    async def go() -> tuple[Any, Any, list[Any]]:
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        own_redis.stop()
        failed = await asyncio.wait_for(layer.receive(channel), 10)
        with pytest.raises((redis.RedisError, OSError)):
            await layer.group_add("g2", await layer.new_channel())
        own_redis.start()
        # A socket opened now (a client reconnecting) subscribes afresh.
        fresh = await layer.new_channel()
        await layer.group_add("g", fresh)
        sender = LocalFirstPubSubLayer(
            hosts=[own_redis.url], prefix=layer._kwargs["prefix"]
        )
        await sender.group_send("g", {"type": "again"})
        again = await asyncio.wait_for(layer.receive(fresh), 10)
        await sender.flush()
        return failed, again, await drain(layer, fresh)

    failed, again, rest = asyncio.run(go())
    assert failed["type"] == LAYER_FAILED
    assert again == {"type": "again"}
    assert rest == []
