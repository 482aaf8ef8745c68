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
from urllib.parse import ParseResult

from channels.security.websocket import OriginValidator
from django.conf import settings


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
