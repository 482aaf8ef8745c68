"""``accounts.User``: the custom user model, present from the first migration."""

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import CreateModel

from accounts.models import BotLevel, User


def test_user_model_is_the_custom_one() -> None:
    assert get_user_model() is User


def test_first_accounts_migration_creates_the_user_model() -> None:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    first = loader.graph.root_nodes("accounts")

    assert first == [("accounts", "0001_initial")]
    migration = loader.graph.nodes[("accounts", "0001_initial")]
    created = [op.name for op in migration.operations if isinstance(op, CreateModel)]
    assert created == ["User"]


@pytest.mark.django_db
def test_a_bot_carries_its_level() -> None:
    bot = User.objects.create_user(
        username="bot-x", is_bot=True, bot_level=BotLevel.BASIC
    )

    bot.refresh_from_db()
    assert (bot.is_bot, bot.bot_level) == (True, "basic")


@pytest.mark.django_db
def test_a_person_has_no_bot_level() -> None:
    person = User.objects.create_user(username="ada", password="pw-ada-123")
    assert (person.is_bot, person.bot_level) == (False, None)

    with pytest.raises(IntegrityError, match="accounts_user_bot_level_only_for_bots"):
        User.objects.create_user(username="eve", bot_level=BotLevel.STRONG)
