"""Writes on accounts: the house bots and the demo admin."""

from django.db import transaction

from accounts.models import BotLevel, User

DEMO_ADMIN_USERNAME = "admin"
# Published in README.md on purpose: only ever created with DEBUG on.
DEMO_ADMIN_PASSWORD = "cardroom-admin"


def bot_username(level: BotLevel) -> str:
    """The house bot's username for ``level``, e.g. ``bot-strong``."""
    return f"bot-{level.value}"


@transaction.atomic
def bot_accounts_ensure() -> list[tuple[User, bool]]:
    """Make sure one house bot per level exists; return ``(bot, created)`` pairs.

    New bots get an unusable password: nobody logs in as a bot. An existing
    account with a bot's name that is not a bot is an error, never converted.
    """
    results = []
    for level in BotLevel:
        bot, created = User.objects.get_or_create(
            username=bot_username(level),
            defaults={"is_bot": True, "bot_level": level.value},
        )
        if created:
            bot.set_unusable_password()
            bot.save(update_fields=["password"])
        elif not bot.is_bot:
            raise ValueError(f"{bot.username!r} exists and is not a bot account.")
        results.append((bot, created))
    return results


def demo_admin_ensure(
    *, username: str = DEMO_ADMIN_USERNAME, password: str = DEMO_ADMIN_PASSWORD
) -> tuple[User, bool]:
    """Create the demo superuser unless ``username`` exists; return ``(user, created)``.

    An existing account is left as it is, its password included.
    """
    existing = User.objects.filter(username=username).first()
    if existing is not None:
        return existing, False
    admin = User.objects.create_superuser(
        username=username, email=f"{username}@example.com", password=password
    )
    return admin, True
