"""The ASGI entry point: HTTP goes to Django, WebSockets to Channels.

``make run`` serves it with daphne; ``make up`` and the containers with
uvicorn (``scripts/web.sh``, see docs/performance.md for why).
WebSocket routes come from ``games.routing``; the session cookie authenticates
browsers (``AuthMiddlewareStack``) and the origin check keeps foreign pages out.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

# Set Django up before anything imports models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.websocket import browser_origin_validator  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": browser_origin_validator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
