"""Origin checking for WebSocket handshakes.

Browsers attach the session cookie to a WebSocket handshake from any page, so
without a check a foreign site could play with its visitor's account
(cross-site WebSocket hijacking). Browsers always send ``Origin`` on these
handshakes; we accept it only for our own host names. A handshake without
``Origin`` is not from a browser: such clients authenticate with ``?token=``
and carry no ambient credentials, so they are let through (Channels' own
``AllowedHostsOriginValidator`` would refuse them).
"""

from typing import Any
from urllib.parse import ParseResult, parse_qs

from channels.db import database_sync_to_async
from channels.security.websocket import OriginValidator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser


class BrowserOriginValidator(OriginValidator):
    """Refuse handshakes whose ``Origin`` is not one of our hosts."""

    def valid_origin(self, parsed_origin: ParseResult | None) -> bool:
        if parsed_origin is None:
            return True
        return bool(super().valid_origin(parsed_origin))


def browser_origin_validator(application: Any) -> BrowserOriginValidator:
    """Wrap ``application`` so browsers may connect only from ALLOWED_HOSTS."""
    allowed_hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed_hosts:
        allowed_hosts = ["localhost", "127.0.0.1", "[::1]"]
    return BrowserOriginValidator(application, allowed_hosts)


class TokenAuthMiddleware:
    """``?token=<key>`` on the WebSocket URL authenticates an API client.

    Runs inside ``AuthMiddlewareStack``: a valid token replaces the session's
    user; an unknown token, or one of a bot account, leaves the connection
    anonymous and sets ``scope["auth_error"]`` (the consumer then closes with
    4401, see docs/live-protocol.md). Without the parameter the session (or
    anonymity) stands.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        keys = query.get("token")
        if keys:
            user = await _token_user(keys[0])
            scope = dict(scope, user=user or AnonymousUser())
            if user is None:
                scope["auth_error"] = "invalid_token"
            else:
                scope["auth_by_token"] = True  # closed if the token is revoked
        return await self.inner(scope, receive, send)


@database_sync_to_async
def _token_user(key: str) -> Any:
    # Imported here: this module is imported by tests before the app
    # registry is ready, and models need it.
    from rest_framework.authtoken.models import Token

    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active or token.user.is_bot:
        return None
    return token.user
