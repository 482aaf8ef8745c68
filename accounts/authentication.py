"""API token authentication that refuses bot accounts."""

from typing import Any

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

BOT_API_MESSAGE = "Bot accounts are played by the server and cannot use the API."


class PeopleTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>``, except for bot accounts."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        user, token = super().authenticate_credentials(key)
        if user.is_bot:
            raise exceptions.AuthenticationFailed(BOT_API_MESSAGE, code="bot_account")
        return user, token
