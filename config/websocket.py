"""Origin checking for WebSocket handshakes.

Browsers attach the session cookie to a WebSocket handshake from any page, so
without a check a foreign site could play with its visitor's account
(cross-site WebSocket hijacking). Browsers always send ``Origin`` on these
handshakes; we accept it only for our own host names. A handshake without
``Origin`` is not from a browser: such clients authenticate with ``?token=``
(or an ``Authorization: Token`` header) and carry no ambient credentials, so they are let through (Channels' own
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


#: Why a ``?token=`` was refused: ``(code, message)``, as HTTP answers the
#: same key in ``Authorization: Token`` (``accounts.authentication``). The
#: message is also the close frame's reason, which must fit in 123 bytes.
TOKEN_EMPTY = (
    "authentication_failed",
    "The token parameter is empty. Send ?token=<key>, or no token to watch.",
)
TOKEN_REPEATED = ("authentication_failed", "Send one token parameter, not several.")
TOKEN_HEADER_BAD = (
    "authentication_failed",
    "Invalid token header. Send Authorization: Token <key>, or no token to watch.",
)
TOKEN_TWO_WAYS = (
    "authentication_failed",
    "A token in the header and another in ?token=: send one.",
)
TOKEN_INVALID = ("authentication_failed", "Invalid token.")
TOKEN_INACTIVE = ("authentication_failed", "User inactive or deleted.")
TOKEN_OF_A_BOT = (
    "bot_account",
    "Bot accounts are played by the server and cannot use the API.",
)


class TokenAuthMiddleware:
    """``?token=<key>`` on the WebSocket URL, or an ``Authorization: Token
    <key>`` header on the handshake, authenticates an API client.

    Runs inside ``AuthMiddlewareStack``: a valid token replaces the session's
    user. A ``token`` parameter or header that names nobody (empty, given
    twice or both ways, unknown, a bot's or an inactive person's) leaves the connection anonymous
    and sets ``scope["auth_error"]`` to ``(code, message)``: the consumer then
    closes with 4401 (docs/live-protocol.md). A client that sent a token meant
    to play, so it is never let in as a spectator instead. Without either
    the session (or anonymity) stands; a header of another scheme (``Bearer``)
    is not ours and counts as none. A valid key stays in the
    scope (``auth_token``): each move the socket makes has it checked again
    under the move's transaction.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        given = _token_given(scope)
        if given is not None:
            key, error = given
            user = None
            if error is None:
                user, error = await _token_user(key)
            scope = dict(scope, user=user or AnonymousUser())
            if user is None:
                scope["auth_error"] = error
            else:
                scope["auth_by_token"] = True  # closed if the token is revoked
                # Checked again with each move (``games.consumers``); never
                # logged or sent anywhere.
                scope["auth_token"] = key
        return await self.inner(scope, receive, send)


def _token_given(scope: Any) -> tuple[str, tuple[str, str] | None] | None:
    """The key the handshake sends, in ``?token=`` or in an ``Authorization:
    Token <key>`` header (a client library that sets headers, as for HTTP),
    or why it names nobody; None when it sends neither."""
    query = parse_qs(
        scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True
    )
    keys = query.get("token")
    header = None
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            words = value.decode("latin-1").split()
            if words and words[0].lower() == "token":  # another scheme: not ours
                header = words[1] if len(words) == 2 else ""
    if keys is None and header is None:
        return None
    if keys is not None and len(keys) > 1:
        return "", TOKEN_REPEATED
    if keys is not None and header is not None and keys[0] != header:
        return "", TOKEN_TWO_WAYS
    if keys is not None:
        return keys[0], (None if keys[0] else TOKEN_EMPTY)
    assert header is not None
    return header, (None if header else TOKEN_HEADER_BAD)


@database_sync_to_async
def _token_user(key: str) -> tuple[Any, tuple[str, str] | None]:
    """The token's person, or None and why (``TOKEN_*``)."""
    # Imported here: this module is imported by tests before the app
    # registry is ready, and models need it.
    from rest_framework.authtoken.models import Token

    if "\x00" in key:  # no token holds one, and PostgreSQL refuses it
        return None, TOKEN_INVALID
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None:
        return None, TOKEN_INVALID
    if not token.user.is_active:
        return None, TOKEN_INACTIVE
    if token.user.is_bot:
        return None, TOKEN_OF_A_BOT
    return token.user, None
