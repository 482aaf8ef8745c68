"""Authentication backends: people log in, bots never do."""

from typing import Any

from django.contrib.auth.backends import ModelBackend


class PeopleOnlyBackend(ModelBackend):
    """Django's username/password backend, refusing bot accounts.

    Bots have unusable passwords already; this also holds if someone gives a
    bot a password in the admin, and it drops a bot's existing session (Django
    asks the backend again on every request).
    """

    def user_can_authenticate(self, user: Any) -> bool:
        return super().user_can_authenticate(user) and not getattr(
            user, "is_bot", False
        )
