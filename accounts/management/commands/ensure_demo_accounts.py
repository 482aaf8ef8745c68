"""``manage.py ensure_demo_accounts``: what ``make run`` needs to be playable."""

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.services import (
    DEMO_ADMIN_PASSWORD,
    DEMO_ADMIN_USERNAME,
    bot_accounts_ensure,
    demo_admin_ensure,
    demo_admin_lock,
)
from config.commands import migrations_applied_or_stop


class Command(BaseCommand):
    help = (
        "Create the house bot accounts and, with DEBUG on, the demo admin "
        f"({DEMO_ADMIN_USERNAME} / {DEMO_ADMIN_PASSWORD}) if they are missing. "
        "With DEBUG off, a demo admin left from a DEBUG run loses that "
        "published password."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--bots-only",
            action="store_true",
            help="Only the bot accounts (safe in production: they cannot log in).",
        )

    def handle(self, *args: Any, bots_only: bool = False, **options: Any) -> None:
        # Refuse before writing anything: a superuser with a published password
        # must never appear on a deployment.
        if not bots_only and not settings.DEBUG:
            raise CommandError(
                "Refusing to create the demo admin while DEBUG is off (its "
                "password is public). Use --bots-only."
            )
        migrations_applied_or_stop()
        for bot, created in bot_accounts_ensure():
            state = "created" if created else "exists"
            self.stdout.write(f"Bot account {bot.username} ({bot.bot_level}): {state}")
        if not settings.DEBUG:
            locked = demo_admin_lock()
            if locked is not None:
                self.stdout.write(
                    self.style.WARNING(
                        f"Demo admin {locked.username!r} still had its published "
                        "password: it no longer logs in, since DEBUG is off. Give "
                        "it one of your own with: manage.py changepassword "
                        f"{locked.username}"
                    )
                )
        if bots_only:
            return
        admin, created = demo_admin_ensure()
        if created:
            line = (
                f"Demo admin: username {admin.username!r}, "
                f"password {DEMO_ADMIN_PASSWORD!r} (created)"
            )
        elif admin.check_password(DEMO_ADMIN_PASSWORD):
            line = (
                f"Demo admin: username {admin.username!r}, "
                f"password {DEMO_ADMIN_PASSWORD!r} "
                "(already existed; its password was left unchanged)"
            )
        else:
            # Printing the published password here would be a lie: the
            # account keeps whatever password it was given.
            line = (
                f"Demo admin: username {admin.username!r} already existed and "
                f"keeps its own password (not {DEMO_ADMIN_PASSWORD!r}); "
                f"change it with: manage.py changepassword {admin.username}"
            )
        self.stdout.write(self.style.SUCCESS(line))
