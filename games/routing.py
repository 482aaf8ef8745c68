"""WebSocket routes, mounted by ``config.asgi`` (``ws/tables/<id>/`` joins here)."""

from typing import Any

websocket_urlpatterns: list[Any] = []
