"""The channel layer of the full stack: Redis pub/sub, local delivery first.

Built on ``channels_redis.pubsub`` (docs/live-protocol.md, "Fan-out"). Each
server process holds one subscription per group its sockets joined, so a
message published once reaches every process that has a member, and each
process hands it to its own members: Redis work per message does not grow
with the number of sockets (channels-redis's list-based layer pops every
message of every socket separately, four round trips each).

Three additions to the stock layer:

* **Local delivery first.** A message sent from a process reaches that
  process's own members at once, without a round trip through Redis; the copy
  Redis echoes back is recognised by its origin tag and dropped. A move made
  over a socket therefore reaches the other sockets of the same process
  without waiting for Redis.
* **Several groups in one round trip** (``group_send_many``): a move's frames
  for every audience of a table go out in one pipeline.
* **Publishing without a loop.** A thread that has no event loop and no
  local member to serve first (a Celery worker, a management command, a
  server process with no socket yet) publishes through ``sync_publisher``:
  redis-py's blocking client on the calling thread. Handing every move to a
  background loop instead cost the mover more than the round trip itself: the
  two threads took turns at the GIL at every step (docs/performance.md).
* **A lost Redis is announced.** When the subscription's connection breaks,
  every local channel receives ``{"type": "layer.failed"}`` (the table socket
  closes with 4503, so its client reconnects and resyncs), and the layer
  starts afresh: subscriptions made once Redis is back work again. Pub/sub
  keeps nothing for a process that was away, which is why every consumer
  checks seqs and reads what a lost message would have carried.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import uuid
from typing import Any

import redis
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import (
    _close_redis,
    _consistent_hash,
    _wrap_close,
    decode_hosts,
)
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

#: The message every local channel gets when the layer lost Redis.
LAYER_FAILED = "layer.failed"

#: Errors of a broken connection to Redis.
CONNECTION_ERRORS = (RedisError, OSError)

#: Seconds a blocking publish may wait to connect or for an answer.
SYNC_TIMEOUT = 2.0


class _Shard(RedisSingleShardConnection):  # type: ignore[misc]
    """One Redis connection for publishing and one subscription."""

    channel_layer: LocalFirstLoopLayer
    _redis: Any
    _pubsub: Any

    async def publish_many(self, items: list[tuple[str, bytes]]) -> None:
        async with self._lock:
            self._ensure_redis()
            async with self._redis.pipeline(transaction=False) as pipe:
                for channel, data in items:
                    pipe.publish(channel, data)
                await pipe.execute()

    async def listened(self, channels: list[str]) -> list[str]:
        """The ``channels`` that someone besides this connection subscribes
        to (``PUBSUB NUMSUB``)."""
        async with self._lock:
            self._ensure_redis()
            counts = await self._redis.pubsub_numsub(*channels)
        heard = []
        for name, count in counts:
            name = name.decode() if isinstance(name, bytes) else name
            if count > (1 if name in self._subscribed_to else 0):
                heard.append(name)
        return heard

    async def _do_receiving(self) -> None:
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0.1
                    )
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except CONNECTION_ERRORS as exc:
                await self._lost(exc)
                return
            except BaseException:
                logger.exception("Unexpected exception in receive task")
                await asyncio.sleep(1)

    def _receive_message(self, message: Any) -> None:
        if message is None:
            return
        data, origin = message["data"], self.channel_layer.origin
        if data[: len(origin)] == origin:
            return  # our own message: delivered locally already
        super()._receive_message({**message, "data": data[len(origin) :]})

    async def _lost(self, error: BaseException) -> None:
        """Redis went away: forget the connection, tell every local channel."""
        redis, self._redis, self._pubsub = self._redis, None, None
        self._subscribed_to: set[str] = set()
        self._receive_task = None
        if redis is not None:
            try:
                await _close_redis(redis)
            except Exception:  # already broken; nothing more to do
                logger.debug("Closing the lost Redis connection failed", exc_info=True)
        self.channel_layer.deliver_everywhere(
            {"type": LAYER_FAILED, "error": repr(error)}
        )


class LocalFirstLoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]
    """The layer of one event loop (channels-redis keeps one per loop)."""

    _shards: list[Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Per loop layer, not per process: two loops of one process (the
        # server's and a background publisher's) must hear each other.
        self.origin = uuid.uuid4().bytes
        stock: list[Any] = self._shards
        self._shards = [_Shard(shard.host, self) for shard in stock]

    def _local(self, name: str, message: dict[str, Any]) -> bool:
        """Queue ``message`` for the local channel or group ``name``.

        The message itself, not a serialized copy: members only read what
        they receive, so one dict serves them all (``deserialize`` lets it
        through). True when ``name`` is a channel of this loop.
        """
        queue = self.channels.get(name)
        if queue is not None:
            queue.put_nowait(message)
            return True
        for channel in self.groups.get(name, ()):
            member = self.channels.get(channel)
            if member is not None:
                member.put_nowait(message)
        return False

    async def new_channel(self, prefix: str = "specific.") -> str:
        """The stock ``new_channel``, leaving no queue behind when Redis
        refuses the subscription (a socket opened during an outage, which
        the consumer closes with 4503)."""
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        try:
            await self._subscribe_to_channel(channel)
        except BaseException:
            self.channels.pop(channel, None)
            raise
        return channel

    def deliver_everywhere(self, message: dict[str, Any]) -> None:
        for queue in self.channels.values():
            queue.put_nowait(message)

    def groups_with_local_members(self, groups: list[str]) -> list[str]:
        """The ``groups`` that have a member on this loop."""
        return [g for g in groups if self.groups.get(self._get_group_channel_name(g))]

    async def groups_listened(self, groups: list[str]) -> list[str]:
        """The ``groups`` another process (or loop) subscribes to.

        One ``PUBSUB NUMSUB`` round trip a shard; this loop's own
        subscription does not count (its members are served locally). A
        process that subscribes just after this answer has its members read
        the store once they joined, which already holds what is being sent.
        """
        names: dict[int, dict[str, str]] = {}
        for group in groups:
            name = self._get_group_channel_name(group)
            names.setdefault(id(self._get_shard(name)), {})[name] = group
        heard = []
        for shard in self._shards:
            batch = names.get(id(shard))
            if batch:
                heard += [batch[n] for n in await shard.listened(list(batch))]
        return heard

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        if self._local(channel, message):
            return  # a channel of this loop: nobody else has it
        data = self.channel_layer.serialize(message)
        await self._get_shard(channel).publish(channel, self.origin + data)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.group_send_many([(group, message)])

    def deliver_local(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        """Queue each ``(group, message)`` for this loop's members only."""
        for group, message in items:
            self._local(self._get_group_channel_name(group), message)

    async def group_send_many(
        self, items: list[tuple[str, dict[str, Any]]], *, local: bool = True
    ) -> None:
        """Send each ``(group, message)``: to this loop's members at once
        (unless ``local`` is false: ``deliver_local`` did it), then to Redis
        in one pipeline per shard."""
        if local:
            self.deliver_local(items)
        by_shard: dict[int, list[tuple[str, bytes]]] = {}
        for group, message in items:
            name = self._get_group_channel_name(group)
            data = self.origin + self.channel_layer.serialize(message)
            by_shard.setdefault(id(self._get_shard(name)), []).append((name, data))
        for shard in self._shards:
            batch = by_shard.get(id(shard))
            if batch:
                await shard.publish_many(batch)


class SyncPublisher:
    """Publishing from a thread, blocking, through redis-py's own client.

    Sends exactly what ``LocalFirstLoopLayer.group_send_many`` sends (same
    channel names, shards, serializer and origin tag), so subscribers cannot
    tell the two apart. It subscribes to nothing, so every subscriber it
    finds is a listener. One connection pool per shard and process; redis-py
    opens a fresh pool in a forked child.
    """

    def __init__(self, layer: LocalFirstPubSubLayer) -> None:
        hosts = decode_hosts(layer._kwargs.get("hosts"))
        self._prefix: str = layer._kwargs.get("prefix", "asgi")
        self._serialize = layer.serialize
        self._origin = uuid.uuid4().bytes
        self._shards = [redis.Redis(connection_pool=_sync_pool(h)) for h in hosts]

    def channel_name(self, group: str) -> str:
        """The Redis channel of ``group``."""
        return f"{self._prefix}__group__{group}"

    def _by_shard(self, names: list[str]) -> dict[int, list[str]]:
        shards: dict[int, list[str]] = {}
        for name in names:
            shards.setdefault(_consistent_hash(name, len(self._shards)), []).append(
                name
            )
        return shards

    def groups_listened(self, groups: list[str]) -> list[str]:
        """The ``groups`` some process subscribes to (``PUBSUB NUMSUB``)."""
        by_name = {self.channel_name(g): g for g in groups}
        heard = []
        for shard, names in self._by_shard(list(by_name)).items():
            # redis-py types its commands for both clients; this one blocks.
            counts: Any = self._shards[shard].pubsub_numsub(*names)
            for name, count in counts:
                if count:
                    heard.append(by_name[name.decode()])
        return heard

    def group_send_many(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        """Publish each ``(group, message)``: one pipeline per shard."""
        data = {
            self.channel_name(g): self._origin + self._serialize(m) for g, m in items
        }
        for shard, names in self._by_shard(list(data)).items():
            with self._shards[shard].pipeline(transaction=False) as pipe:
                for name in names:
                    pipe.publish(name, data[name])
                pipe.execute()


def _sync_pool(host: dict[str, Any]) -> redis.ConnectionPool:
    """A blocking connection pool for one of the layer's ``hosts`` entries."""
    host = {
        "socket_connect_timeout": SYNC_TIMEOUT,
        "socket_timeout": SYNC_TIMEOUT,
        **host,
    }
    if "master_name" in host:
        raise ValueError("sync_publisher does not support Redis Sentinel hosts")
    address = host.pop("address", None)
    if address is not None:
        return redis.ConnectionPool.from_url(address, **host)
    return redis.ConnectionPool(**host)


class LocalFirstPubSubLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """``channels_redis.pubsub.RedisPubSubChannelLayer``, local delivery first."""

    _publisher: tuple[int, SyncPublisher] | None = None
    _publisher_lock = threading.Lock()

    def has_local_members(self) -> bool:
        """Whether a group has a member on any loop of this process (then a
        message goes through that loop, to reach it at once)."""
        return any(layer.groups for layer in list(self._layers.values()))

    def listener_id(self) -> str:
        """The id of the running loop's layer (its origin tag, in hex): the
        sockets it serves are registered with it (``SeatConnection.process``),
        so a publisher on the same loop knows which listeners it serves
        itself."""
        return self._get_layer().origin.hex()

    def sync_publisher(self) -> SyncPublisher:
        """This process's blocking publisher (``SyncPublisher``)."""
        with self._publisher_lock:
            if self._publisher is None or self._publisher[0] != os.getpid():
                self._publisher = (os.getpid(), SyncPublisher(self))
            return self._publisher[1]

    def deserialize(self, message: Any) -> Any:
        """Messages of this loop arrive as they were sent (``_local``)."""
        if isinstance(message, dict):
            return message
        return super().deserialize(message)

    def _get_layer(self) -> LocalFirstLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = LocalFirstLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer
