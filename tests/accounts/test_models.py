"""``accounts.User``: the custom user model, present from the first migration."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import CreateModel

from accounts.models import BotLevel, User
from tests.helpers import clean_env, run_django_json


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


@pytest.mark.django_db
def test_the_database_refuses_names_that_differ_only_in_case() -> None:
    User.objects.create_user(username="Émile", password="x")

    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="émile", password="x")

    assert User.objects.get().username_folded == "émile"


@pytest.mark.django_db
def test_renaming_keeps_the_folded_name() -> None:
    user = User.objects.create_user(username="Ada", password="x")
    user.username = "Ádám"
    user.save(update_fields=["username"])

    assert User.objects.get(pk=user.pk).username_folded == "ádám"


@pytest.mark.django_db
def test_the_admin_refuses_a_name_taken_in_another_case(admin_client: Any) -> None:
    User.objects.create_user(username="émile", password="x")

    response = admin_client.post(
        "/admin/accounts/user/add/",
        {
            "username": "Émile",
            "password1": "correct-horse-battery-7",
            "password2": "correct-horse-battery-7",
            "usable_password": "true",
        },
    )

    assert response.status_code == 200  # the form again, with the error
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.filter(username_folded="émile").count() == 1


@pytest.mark.timeout(120)
def test_case_folding_holds_on_sqlite_too(tmp_path: Any) -> None:
    """The embedded default (SQLite folds only ASCII) refuses "Émile" after "émile"."""
    code = """
import json
from django.core.management import call_command
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from accounts.models import User
from accounts.services import user_register
call_command("migrate", verbosity=0)
user_register(username="émile", password="correct-horse-battery-7")
try:
    user_register(username="Émile", password="correct-horse-battery-7")
    service = "accepted"
except ValidationError as exc:
    service = exc.message_dict["username"][0]
try:
    with transaction.atomic():
        User.objects.create_user(username="ÉMILE", password="x")
    database = "accepted"
except IntegrityError:
    database = "refused"
print(json.dumps([connection.vendor, service, database]))
"""
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path / "var"),
    )

    result = run_django_json(code, env)

    assert result == [
        "sqlite",
        "A user with that username already exists.",
        "refused",
    ]
