"""Names starting with ``bot-`` (any case) are the house bots' on every path.

Sign-up refuses them (tests/accounts/test_apis.py); so do the user manager
(``create_user``, ``create_superuser``), ``manage.py createsuperuser`` and the
admin's add and change forms (``User.clean``). Bot accounts may hold them, and
a person who held one before the rule keeps it.
"""

from io import StringIO
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from accounts.models import BOT_NAME_RESERVED_MESSAGE, BotLevel, User
from tests.accounts.factories import BotFactory, UserFactory
from tests.accounts.prompts import createsuperuser_at_the_prompt

pytestmark = pytest.mark.django_db

RESERVED = ["bot-admin", "BOT-Admin", "Bot-x", "ＢＯＴ-wide"]


@pytest.mark.parametrize("name", RESERVED)
def test_the_manager_refuses_a_person_a_bot_name(name: str) -> None:
    with pytest.raises(ValidationError, match="are reserved"):
        User.objects.create_user(username=name, password="Xk9-q2v!zz7w")
    with pytest.raises(ValidationError, match="are reserved"):
        User.objects.create_superuser(username=name, password="Xk9-q2v!zz7w")

    assert not User.objects.exists()


def test_the_manager_still_makes_a_bot_with_a_bot_name() -> None:
    bot = User.objects.create_user(
        username="bot-extra", is_bot=True, bot_level=BotLevel.BASIC
    )

    assert bot.is_bot and bot.username == "bot-extra"


@pytest.mark.parametrize("name", RESERVED)
def test_createsuperuser_refuses_a_bot_name(name: str) -> None:
    with pytest.raises(CommandError, match=BOT_NAME_RESERVED_MESSAGE):
        call_command(
            "createsuperuser",
            interactive=False,
            username=name,
            email="a@example.com",
            stdout=StringIO(),
            stderr=StringIO(),
        )

    assert not User.objects.exists()


def test_createsuperuser_from_the_environment_refuses_a_bot_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DJANGO_SUPERUSER_USERNAME", "Bot-Root")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "correct-horse-battery-7")
    monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "a@example.com")

    with pytest.raises(CommandError, match=BOT_NAME_RESERVED_MESSAGE):
        call_command("createsuperuser", interactive=False, stdout=StringIO())

    assert not User.objects.exists()


def test_createsuperuser_at_the_prompt_asks_again_after_a_bot_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    err = createsuperuser_at_the_prompt(
        monkeypatch, ["BOT-root", "carol", "c@example.com"]
    )

    assert BOT_NAME_RESERVED_MESSAGE in err
    assert list(User.objects.values_list("username", flat=True)) == ["carol"]


def test_the_admin_add_form_refuses_a_bot_name(admin_client: Any) -> None:
    response = admin_client.post(
        "/admin/accounts/user/add/",
        {
            "username": "Bot-Sneaky",
            "usable_password": "true",
            "password1": "Xk9-q2v!zz7w",
            "password2": "Xk9-q2v!zz7w",
        },
    )

    assert response.status_code == 200  # the form again, with the error
    errors = response.context["adminform"].form.errors
    assert errors["username"] == [BOT_NAME_RESERVED_MESSAGE]
    assert not User.objects.filter(username_folded="bot-sneaky").exists()


def _change_data(admin_client: Any, user: User, **changes: Any) -> dict[str, Any]:
    page = admin_client.get(f"/admin/accounts/user/{user.pk}/change/")
    form = page.context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None
        and name not in {"password", "groups", "last_login", "date_joined"}
        and value is not False
    }
    data.update(
        last_login_0="",
        last_login_1="",
        date_joined_0="2026-01-01",
        date_joined_1="00:00:00",
        **changes,
    )
    return data


def test_the_admin_refuses_renaming_a_person_to_a_bot_name(admin_client: Any) -> None:
    bob = UserFactory(username="bob")

    response = admin_client.post(
        f"/admin/accounts/user/{bob.pk}/change/",
        _change_data(admin_client, bob, username="BOT-Bob"),
    )

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["username"] == [BOT_NAME_RESERVED_MESSAGE]
    bob.refresh_from_db()
    assert bob.username == "bob"


def test_a_bot_and_a_person_from_before_the_rule_keep_their_names() -> None:
    bot = BotFactory(username="bot-house")
    legacy = UserFactory(username="Bot-Old")  # a bare row, as before the rule
    legacy.email = "old@example.com"

    bot.full_clean()
    legacy.full_clean()  # not renamed: nothing to refuse
