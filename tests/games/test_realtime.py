"""``games.realtime``: the one place that talks to the channel layer."""

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from channels.layers import get_channel_layer

from games import realtime


def test_each_table_has_its_group() -> None:
    assert realtime.table_group(42) == "table-42"


def _heard(group: str, publish: Callable[[], Any]) -> Any:
    """What a member of ``group`` on a loop of its own receives once
    ``publish`` has run in a thread."""
    layer = get_channel_layer()

    async def go() -> Any:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        try:
            await asyncio.get_running_loop().run_in_executor(None, publish)
            return await asyncio.wait_for(layer.receive(channel), 5)
        finally:
            await layer.group_discard(group, channel)

    return asyncio.run(go())


def test_table_changed_reaches_the_tables_group() -> None:
    # A member on a loop of this process: published through the background
    # loop, received here.
    message = _heard("table-7", lambda: realtime.table_changed(7, 12))
    assert message == {"type": "table.changed", "seq": 12}


def test_a_broken_channel_layer_is_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    class Broken:
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            raise ConnectionError("redis is down")

    monkeypatch.setattr(realtime.OUTAGE, "failing", False)
    monkeypatch.setattr(realtime, "get_channel_layer", lambda: Broken())

    realtime.table_changed(7, 12)
    realtime.table_changed(7, 13)
    realtime.flush()

    failures = [r for r in caplog.records if r.name == "games.realtime"]
    assert [r.getMessage() for r in failures] == [
        "Live notifications are failing (first: table.changed to table-7): "
        "ConnectionError('redis is down'). Moves still commit; clients resync "
        "when the channel layer is back. Logged once until it recovers."
    ]


def test_recovery_is_logged_once_too(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(realtime.OUTAGE, "failing", True)

    realtime.table_changed(7, 14)
    realtime.table_changed(7, 15)
    realtime.flush()

    messages = [r.getMessage() for r in caplog.records if r.name == "games.realtime"]
    assert messages == ["Live notifications work again."]


def _pushed(seat: int | None) -> Any:
    from games.frames import Pushed

    return Pushed(seat=seat, holder=None, after=4, frame={"seq": 5, "seat": seat})


def test_frames_nobody_listens_to_are_never_built() -> None:
    """A move at a table no socket watches costs no frame."""
    asked: list[list[Any]] = []

    def build(only: list[Any]) -> list[Any]:
        asked.append(only)
        return [_pushed(seat) for seat in only]

    realtime.frames_push(987_001, [0, 1, None], build)
    realtime.flush()
    assert [only for only in asked if only] == []


def test_frames_are_built_for_the_audiences_another_process_listens_to() -> None:
    """A listener on another loop (another server process) gets its frame; the
    audiences nobody listens to are not built."""
    layer = get_channel_layer()
    asked: list[list[Any]] = []

    def build(only: list[Any]) -> list[Any]:
        asked.append(only)
        return [_pushed(seat) for seat in only]

    async def go() -> Any:
        channel = await layer.new_channel()
        group = realtime.audience_group(987_002, 1)
        await layer.group_add(group, channel)
        try:
            # Published from this process's background loop, not this one.
            realtime.frames_push(987_002, [0, 1, None], build)
            return await asyncio.wait_for(layer.receive(channel), 5)
        finally:
            await layer.group_discard(group, channel)

    message = asyncio.run(go())
    assert message == {
        "type": "table.frame",
        "after": 4,
        "user": None,
        "frame": {"seq": 5, "seat": 1},
    }
    assert [only for only in asked if only] == [[1]]


def test_a_frame_watched_only_in_this_process_is_not_published() -> None:
    """The publishing loop's own members get the frame without Redis; nothing
    is published for a group no other process subscribes to."""
    import redis as redis_py
    from django.conf import settings

    layer = get_channel_layer()
    loop = realtime._background_loop()
    group = realtime.audience_group(987_003, 0)
    spy = redis_py.Redis.from_url(settings.CHANNEL_LAYER_URL).pubsub()
    spy.psubscribe(f"*__group__{group}")
    _confirmed(spy)

    async def join() -> str:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        return channel

    channel = _on(loop, join())
    try:
        realtime.frames_push(
            987_003, [0, None], lambda only: [_pushed(s) for s in only]
        )
        realtime.flush()
        got = _on(loop, asyncio.wait_for(layer.receive(channel), 5))
        published = spy.get_message(timeout=0.5)
    finally:
        _on(loop, layer.group_discard(group, channel))
        spy.close()
    assert got["frame"] == {"seq": 5, "seat": 0}
    assert published is None


def _on(loop: asyncio.AbstractEventLoop, coro: Any) -> Any:
    """Run ``coro`` on ``loop`` (this process's publishing loop) and wait."""
    return asyncio.run_coroutine_threadsafe(coro, loop).result(6)


def _spy(group: str) -> Any:
    """A plain Redis subscriber to ``group``'s channel: another process."""
    import redis as redis_py
    from django.conf import settings

    spy = redis_py.Redis.from_url(settings.CHANNEL_LAYER_URL).pubsub()
    spy.subscribe(get_channel_layer().sync_publisher().channel_name(group))
    _confirmed(spy)
    return spy


def _confirmed(spy: Any) -> None:
    """Wait for the spy's (p)subscribe confirmation, so that its next message
    is what was published: a slow confirmation would be read in its place."""
    message = spy.get_message(timeout=10)
    assert message is not None and message["type"] in ("subscribe", "psubscribe")


def test_a_process_without_sockets_publishes_from_the_calling_thread() -> None:
    """A Celery worker or a command publishes itself, blocking: by the time
    ``frames_push`` returns, the listener's frame is in Redis, and nothing was
    handed to a background loop. Only the listened audience is built."""
    layer = get_channel_layer()
    assert not layer.has_local_members()
    asked: list[list[Any]] = []

    def build(only: list[Any]) -> list[Any]:
        asked.append(only)
        return [_pushed(seat) for seat in only]

    spy = _spy(realtime.audience_group(987_004, 1))
    try:
        realtime.frames_push(987_004, [0, 1, None], build)
        assert not realtime._pending
        published = spy.get_message(timeout=5)
    finally:
        spy.close()
    # What the sync publisher sends is what a loop's layer sends: a 16-byte
    # origin tag, then the layer's serialization.
    assert layer.deserialize(published["data"][16:]) == {
        "type": "table.frame",
        "after": 4,
        "user": None,
        "frame": {"seq": 5, "seat": 1},
    }
    assert asked == [[1]]


def test_the_sync_publisher_reaches_a_loops_members() -> None:
    """A server process's socket receives what a worker published."""
    publisher = get_channel_layer().sync_publisher()
    message = _heard(
        "table-987005",
        lambda: publisher.group_send_many(
            [("table-987005", {"type": "table.changed", "seq": 3})]
        ),
    )
    assert message == {"type": "table.changed", "seq": 3}


def test_a_dead_redis_fails_the_sync_publisher_once_in_the_log(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from config.channel_layer import LocalFirstPubSubLayer
    from tests.helpers import free_port

    dead = LocalFirstPubSubLayer(hosts=[f"redis://127.0.0.1:{free_port()}/0"])
    monkeypatch.setattr(realtime.OUTAGE, "failing", False)
    monkeypatch.setattr(realtime, "get_channel_layer", lambda: dead)

    realtime.table_changed(7, 12)
    realtime.frames_push(7, [0, None], lambda only: [_pushed(s) for s in only])

    failures = [r.getMessage() for r in caplog.records if r.name == "games.realtime"]
    assert len(failures) == 1
    assert failures[0].startswith(
        "Live notifications are failing (first: table.changed to table-7): "
        "ConnectionError("
    )


def test_a_loops_own_thread_never_blocks_on_redis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Called from a running loop, a publish is handed to the publishing loop
    rather than made there and then."""
    layer = get_channel_layer()
    blocking: list[str] = []
    monkeypatch.setattr(layer, "sync_publisher", lambda: blocking.append("!"))

    async def go() -> None:
        realtime.table_changed(987_006, 1)

    asyncio.run(go())
    realtime.flush()
    assert blocking == []
    realtime.table_changed(987_006, 2)  # from a plain thread: blocking is fine
    assert blocking == ["!"]


def test_registered_listeners_decide_what_goes_through_redis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the move's registered listeners known, a server process serves
    its own sockets itself and publishes only the audiences another process
    holds, without asking Redis who subscribes."""
    layer = get_channel_layer()
    loop = realtime._background_loop()
    table = 987_007
    here, there = realtime.audience_group(table, 0), realtime.audience_group(table, 1)
    spy = _spy(there)
    quiet = _spy(here)

    async def numsub(groups: Any) -> Any:
        raise AssertionError("asked Redis who listens")

    async def join() -> tuple[str, str]:
        monkeypatch.setattr(layer._get_layer(), "groups_listened", numsub)
        channel = await layer.new_channel()
        await layer.group_add(here, channel)
        return channel, realtime.listener_id()

    channel, me = _on(loop, join())
    try:
        realtime.frames_push(
            table,
            [0, 1, None],
            lambda only: [_pushed(s) for s in only],
            listening={(0, me), (1, "another-process")},
        )
        realtime.flush()
        got = _on(loop, asyncio.wait_for(layer.receive(channel), 5))
        published = spy.get_message(timeout=5)
        not_published = quiet.get_message(timeout=0.3)
    finally:
        _on(loop, layer.group_discard(here, channel))
        spy.close()
        quiet.close()
    assert got["frame"] == {"seq": 5, "seat": 0}
    assert layer.deserialize(published["data"][16:])["frame"] == {"seq": 5, "seat": 1}
    assert not_published is None
