"""The table socket when the channel layer fails, and when its client goes.

Through the assembled ASGI app with ``WebsocketCommunicator``, as
``test_consumers`` does. A channel layer pointed at a port nothing listens on
stands for Redis being down: the handshake is still accepted, and the socket
then closes with 4503 (docs/live-protocol.md, "Close codes"), never refused
with a bare HTTP 403. A client that went away while the server sent to it
(uvicorn raises ``ClientDisconnected``, an ``OSError``) is a socket ending,
not an outage: nothing is logged and its registration is removed.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import override_settings
from uvicorn.protocols.utils import ClientDisconnected

from config import channel_layer
from config.asgi import application
from games import realtime
from games.consumers import CLOSE_FEED_LOST
from games.models import SeatConnection
from tests.accounts.factories import UserFactory
from tests.games.tables import table_started
from tests.helpers import free_port

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

FAILING = "Live notifications are failing"


def _dead_layer() -> dict[str, Any]:
    return {
        "default": {
            "BACKEND": "config.channel_layer.LocalFirstPubSubLayer",
            "CONFIG": {
                "hosts": [f"redis://127.0.0.1:{free_port()}/0"],
                "prefix": "cardroom-test-dead",
            },
        }
    }


def _failures(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "games.realtime"]


def test_a_handshake_while_redis_is_down_is_accepted_then_closed_with_4503(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(realtime.OUTAGE, "failing", False)

    async def go() -> list[Any]:
        answers = []
        layer = get_channel_layer()
        for path in ("/ws/tables/1/", "/ws/tables/1/?after=7"):  # a reconnect
            comm = WebsocketCommunicator(application, path)
            connected, _ = await comm.connect(timeout=10)
            answers.append((connected, await comm.receive_output(timeout=10)))
            await comm.wait(timeout=10)
        # No queue is left behind for a channel Redis never subscribed.
        answers.append(layer._get_layer().channels)
        return answers

    with override_settings(CHANNEL_LAYERS=_dead_layer()):
        first, again, leftover = asyncio.run(go())

    closed = {"type": "websocket.close", "code": CLOSE_FEED_LOST}
    assert first == again == (True, closed)
    assert leftover == {}
    failures = _failures(caplog)
    assert len(failures) == 1  # once per outage, not per socket
    assert failures[0].startswith(
        f"{FAILING} (first: a table socket's feed): ConnectionError("
    )


def test_a_failed_group_subscription_closes_with_4503_and_leaves_no_member(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis fails after the handshake (the table's group): the socket closes
    with 4503 and the layer keeps no local member for it, which would make
    every later move publish to a socket that is gone."""
    table = table_started(seating=[UserFactory(), UserFactory()])
    monkeypatch.setattr(realtime.OUTAGE, "failing", False)
    real = channel_layer._Shard.subscribe

    async def subscribe(self: Any, channel: str) -> None:
        if "__group__" in channel:
            raise ConnectionError("Redis went away")
        await real(self, channel)

    monkeypatch.setattr(channel_layer._Shard, "subscribe", subscribe)

    async def go() -> tuple[Any, Any, Any]:
        comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/")
        connected, _ = await comm.connect(timeout=10)
        closed = await comm.receive_output(timeout=10)
        await comm.wait(timeout=10)
        loop_layer = get_channel_layer()._get_layer()
        return connected, closed, (loop_layer.groups, loop_layer.channels)

    connected, closed, (groups, channels) = asyncio.run(go())

    assert connected
    assert closed == {"type": "websocket.close", "code": CLOSE_FEED_LOST}
    assert groups == {}
    assert channels == {}
    assert len(_failures(caplog)) == 1


def test_a_client_gone_while_sent_to_is_a_disconnect_not_an_outage(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """uvicorn raises ``ClientDisconnected`` (an ``OSError``) when the server
    sends to a client that has gone: that was logged as a channel-layer
    outage ("Live notifications are failing … ClientDisconnected()")."""
    table = table_started(seating=[UserFactory(), UserFactory()])
    monkeypatch.setattr(realtime.OUTAGE, "failing", False)
    gone = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> Any:
        async def send_or_gone(message: dict[str, Any]) -> None:
            if gone.is_set():
                raise ClientDisconnected()
            await send(message)

        return await application(scope, receive, send_or_gone)

    async def go() -> tuple[int, int]:
        comm = WebsocketCommunicator(app, f"/ws/tables/{table.pk}/")
        connected, _ = await comm.connect(timeout=10)
        assert connected
        assert (await comm.receive_json_from(timeout=10))["type"] == "state"
        assert (await comm.receive_json_from(timeout=10))["type"] == "presence"
        registered = await _connections(table.pk)
        gone.set()
        await comm.send_json_to({"type": "ping"})  # its pong finds no client
        await comm.wait(timeout=10)  # the consumer ended, and raised nothing
        return registered, await _connections(table.pk)

    with caplog.at_level(logging.DEBUG):
        registered, left = asyncio.run(go())

    assert (registered, left) == (1, 0)  # the registration is removed
    assert _failures(caplog) == []
    assert realtime.OUTAGE.failing is False
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@database_sync_to_async
def _connections(table_id: int) -> int:
    return SeatConnection.objects.filter(table_id=table_id).count()
