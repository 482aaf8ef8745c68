"""``manage.py createsuperuser``, refusing names in the house bots' namespace.

Django's command checks a name with the username field's validators and
``get_by_natural_key`` (taken in any case); a person's name starting with
``bot-`` (in any case) is reserved for the house bots, so it is refused here
too: at the prompt it asks again, with ``--username`` or
``DJANGO_SUPERUSER_USERNAME`` it stops with the message. (The manager refuses
it as well, whoever calls ``create_superuser``.) It wins over Django's because
``accounts`` comes before ``django.contrib.auth`` in ``INSTALLED_APPS``.
"""

from typing import Any

from django.contrib.auth.management.commands import createsuperuser

from accounts.models import BOT_NAME_RESERVED_MESSAGE, username_reserved


class Command(createsuperuser.Command):
    def _validate_username(
        self, username: Any, verbose_field_name: str, database: str
    ) -> str | None:
        error: str | None = super()._validate_username(  # type: ignore[misc]
            username, verbose_field_name, database
        )
        if error is None and isinstance(username, str) and username_reserved(username):
            return f"Error: {BOT_NAME_RESERVED_MESSAGE}"
        return error
