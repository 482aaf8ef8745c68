"""People log in with a password; bot accounts never do, whatever their password."""

import pytest
from django.contrib.auth import authenticate
from django.test import Client

from tests.accounts.factories import PASSWORD, BotFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_person_authenticates() -> None:
    user = UserFactory()

    assert authenticate(username=user.username, password=PASSWORD) == user


def test_a_bot_with_a_password_does_not_authenticate() -> None:
    bot = BotFactory()
    bot.set_password(PASSWORD)
    bot.save()

    assert authenticate(username=bot.username, password=PASSWORD) is None


def test_a_bot_cannot_log_into_the_admin_even_as_staff() -> None:
    bot = BotFactory(is_staff=True, is_superuser=True)
    bot.set_password(PASSWORD)
    bot.save()
    client = Client()

    assert not client.login(username=bot.username, password=PASSWORD)
    client.force_login(bot)  # a session somehow opened for the bot ...
    response = client.get("/admin/")
    assert response.status_code == 302  # ... is not honoured: back to login
