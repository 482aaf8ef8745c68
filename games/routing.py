"""WebSocket routes, mounted by ``config.asgi``: ``ws/tables/<id>/``.

Every other path ends at ``NoSuchSocketConsumer`` (closed with 4404), never at
the router's "no route" error, which the server answers with a 500.
"""

from typing import Any

from django.urls import path, re_path

from games.consumers import NoSuchSocketConsumer, TableConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    re_path(r"", NoSuchSocketConsumer.as_asgi()),
]
