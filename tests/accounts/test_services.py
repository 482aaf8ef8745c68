"""The house bots and the demo admin are created once and left alone after."""

import pytest

from accounts.models import User
from accounts.services import (
    DEMO_ADMIN_PASSWORD,
    bot_accounts_ensure,
    demo_admin_ensure,
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
    User.objects.create_user(username="bot-basic", password="pw-basic-123")

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
