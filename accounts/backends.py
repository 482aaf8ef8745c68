"""Authentication backends: people log in, bots never do."""

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts.login_limit import login_failed, login_wait
from accounts.models import User
from accounts.selectors import user_find


class PeopleOnlyBackend(ModelBackend):
    """Django's username/password backend, refusing bot accounts.

    Bots have unusable passwords already; this also holds if someone gives a
    bot a password in the admin, and it drops a bot's existing session (Django
    asks the backend again on every request).

    Wrong passwords are counted per name and address, and after a few the
    address is refused for that name for a while (``accounts.login_limit``).

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
        if login_wait(username=username, request=request) is not None:
            # Too many wrong passwords for this name from this address
            # (accounts.login_limit): not even checked. Django's authenticate
            # stops at PermissionDenied and answers no one.
            raise PermissionDenied
        user = user_find(username=username)
        if user is None:
            # Hash the password anyway, so a missing name takes as long to
            # refuse as a wrong password (Django's defence against probing).
            User().set_password(password)
        elif user.check_password(password) and self.user_can_authenticate(user):
            return user
        login_failed(username=username, request=request)
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
