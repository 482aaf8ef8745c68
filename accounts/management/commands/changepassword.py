"""``manage.py changepassword <username>``, the name in any case.

Django's command looks the account up by the exact spelling (``get(username=…)``,
not ``get_by_natural_key``), so "ADA" would be "user does not exist" for the
account "Ada". This one resolves the name as the site does
(``User.objects.get_by_natural_key``) and hands Django's command the account's own
spelling. It wins over Django's because ``accounts`` comes before
``django.contrib.auth`` in ``INSTALLED_APPS``.

Once the password is changed, what the old one opened ends, as when it is
changed through the API or the admin (docs/security.md): the API token, the
person's other browser sessions and their open live sockets
(``accounts.services.credentials_revoke``). An operator resetting a leaked
password from the shell would otherwise leave a stolen token playing.
"""

import contextlib
import getpass
from typing import Any

from django.contrib.auth.management.commands import changepassword
from django.core.management.base import CommandError

from accounts.models import User
from accounts.services import credentials_revoke


class Command(changepassword.Command):
    def handle(self, *args: Any, **options: Any) -> Any:
        username = options.get("username") or getpass.getuser()
        manager = User.objects.db_manager(options.get("database"))
        # Nobody by that name: Django's command says the user does not exist.
        with contextlib.suppress(User.DoesNotExist):
            options["username"] = manager.get_by_natural_key(username).username
        try:
            done = super().handle(*args, **options)
        except EOFError:
            # getpass read an empty stdin: no terminal (``docker compose run
            # -T``, cron) and nothing piped in. Django's command ends in its
            # traceback. A new line first, after the unanswered prompt.
            self.stderr.write("")
            raise CommandError(
                "No password given: standard input ended before one was read "
                "(run the command in a terminal). Nothing was changed."
            ) from None
        credentials_revoke(user=manager.get_by_natural_key(options["username"]))
        return done
