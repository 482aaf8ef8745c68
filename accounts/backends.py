"""Authentication backends: people log in, bots never do."""

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest

from accounts.models import User
from accounts.selectors import user_find


class PeopleOnlyBackend(ModelBackend):
    """Django's username/password backend, refusing bot accounts.

    Bots have unusable passwords already; this also holds if someone gives a
    bot a password in the admin, and it drops a bot's existing session (Django
    asks the backend again on every request).

    The name is looked up as everywhere else (``accounts.selectors.user_find``):
    "ADA" logs in to the account "Ada" with Ada's password. The password's
    case counts, as always.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = user_find(username=username)
        if user is None:
            # Hash the password anyway, so a missing name takes as long to
            # refuse as a wrong password (Django's defence against probing).
            User().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None

    async def aauthenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        return await sync_to_async(self.authenticate)(
            request, username, password, **kwargs
        )

    def user_can_authenticate(self, user: Any) -> bool:
        return super().user_can_authenticate(user) and not getattr(
            user, "is_bot", False
        )
