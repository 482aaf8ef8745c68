"""The ASGI app ``bench/ws_load.py`` serves: Cardroom plus a bare relay.

``ws/bench/relay/<group>/`` is the floor of the live-play benchmark: a bare
Channels consumer that joins a group and forwards each group message to its
socket unchanged, with no database and no game. Served by the same server
process as Cardroom's own routes, on the same channel layer, so the two are
measured under the same conditions. Not part of the product.
"""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.urls import path

from config.asgi import application as cardroom


class Relay(AsyncWebsocketConsumer):  # type: ignore[misc]
    async def connect(self) -> None:
        self.group = f"bench-relay-{self.scope['url_route']['kwargs']['group']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def relay(self, message: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"t": message["t"], "n": message["n"]}))


relay = URLRouter([path("ws/bench/relay/<int:group>/", Relay.as_asgi())])


async def application(scope: Any, receive: Any, send: Any) -> Any:
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/bench/"):
        return await relay(scope, receive, send)
    return await cardroom(scope, receive, send)
