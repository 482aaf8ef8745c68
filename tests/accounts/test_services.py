"""Account services: the house bots, the demo admin, sign-up and credentials."""

import pytest
from django.core.exceptions import ValidationError

from accounts.models import User
from accounts.services import (
    DEMO_ADMIN_PASSWORD,
    LoginRefused,
    bot_account_get,
    bot_accounts_ensure,
    demo_admin_ensure,
    token_get_or_create,
    user_authenticate,
    user_register,
)

pytestmark = pytest.mark.django_db


def test_bot_accounts_ensure_creates_one_bot_per_level() -> None:
    results = bot_accounts_ensure()

    assert [(bot.username, bot.bot_level, created) for bot, created in results] == [
        ("bot-random", "random", True),
        ("bot-basic", "basic", True),
        ("bot-strong", "strong", True),
    ]
    for bot in User.objects.filter(username__startswith="bot-"):
        assert bot.is_bot
        assert not bot.has_usable_password()


def test_bot_accounts_ensure_is_idempotent() -> None:
    bot_accounts_ensure()

    again = bot_accounts_ensure()

    assert [created for _, created in again] == [False, False, False]
    assert User.objects.filter(is_bot=True).count() == 3


def test_bot_accounts_ensure_never_turns_a_person_into_a_bot() -> None:
    # Made before the bot- names were reserved on every path (create_user now
    # refuses it), so written as a bare row.
    User.objects.create(username="bot-basic")

    with pytest.raises(
        ValueError, match="'bot-basic' exists and is not a bot account."
    ):
        bot_accounts_ensure()

    assert not User.objects.get(username="bot-basic").is_bot
    assert not User.objects.filter(is_bot=True).exists()  # rolled back as one


def test_demo_admin_ensure_creates_a_superuser() -> None:
    admin, created = demo_admin_ensure()

    assert created
    assert (admin.username, admin.is_superuser, admin.is_staff) == ("admin", True, True)
    assert admin.check_password(DEMO_ADMIN_PASSWORD)


def test_demo_admin_ensure_leaves_an_existing_admin_alone() -> None:
    admin, _ = demo_admin_ensure()
    admin.set_password("changed-by-the-owner")
    admin.save()

    again, created = demo_admin_ensure()

    assert not created
    assert again.pk == admin.pk
    assert again.check_password("changed-by-the-owner")


# --- people: sign-up, credentials, tokens, house bots ------------------------


def test_user_register_stores_a_hashed_password() -> None:
    user = user_register(username="ada", password="a-long-unusual-passphrase-42")

    assert user.password != "a-long-unusual-passphrase-42"
    assert user.check_password("a-long-unusual-passphrase-42")


def test_user_register_reports_every_failed_password_rule() -> None:
    with pytest.raises(ValidationError) as caught:
        user_register(username="ada", password="123")

    assert caught.value.message_dict == {
        "password": [
            "This password is too short. It must contain at least 8 characters.",
            "This password is too common.",
            "This password is entirely numeric.",
        ]
    }


def test_user_authenticate_names_the_reason() -> None:
    bot_accounts_ensure()
    user_register(username="ada", password="a-long-unusual-passphrase-42")

    assert (
        user_authenticate(username="ada", password="a-long-unusual-passphrase-42")
    ).username == "ada"
    with pytest.raises(LoginRefused) as bot:
        user_authenticate(username="bot-basic", password="")
    with pytest.raises(LoginRefused) as wrong:
        user_authenticate(username="ada", password="nope-nope-nope")
    assert (bot.value.code, wrong.value.code) == ("bot_account", "invalid_credentials")


def test_token_get_or_create_is_stable_and_refuses_bots() -> None:
    user = user_register(username="ada", password="a-long-unusual-passphrase-42")
    bot = bot_account_get(level="strong")

    assert token_get_or_create(user=user) == token_get_or_create(user=user)
    with pytest.raises(LoginRefused, match="cannot log in"):
        token_get_or_create(user=bot)


def test_bot_account_get_creates_the_house_bot_once() -> None:
    first = bot_account_get(level="basic")
    again = bot_account_get(level="basic")

    assert first.pk == again.pk
    assert (first.username, first.is_bot, first.bot_level) == (
        "bot-basic",
        True,
        "basic",
    )
    with pytest.raises(ValueError, match="'expert' is not a valid BotLevel"):
        bot_account_get(level="expert")
