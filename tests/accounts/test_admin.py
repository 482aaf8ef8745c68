"""The Django admin manages users, bots included."""

import pytest
from django.test import Client

from accounts.models import User
from tests.accounts.factories import BotFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_staff_see_people_and_bots_in_the_user_admin(admin_client: Client) -> None:
    UserFactory(username="ada")
    BotFactory(username="bot-house")

    response = admin_client.get("/admin/accounts/user/?is_bot__exact=1")

    assert response.status_code == 200
    page = response.content.decode()
    assert "bot-house" in page and ">ada<" not in page


def test_the_user_change_page_shows_the_bot_fields(admin_client: Client) -> None:
    bot = BotFactory()

    response = admin_client.get(f"/admin/accounts/user/{bot.pk}/change/")

    assert response.status_code == 200
    assert 'name="is_bot"' in response.content.decode()
    assert User.objects.get(pk=bot.pk).is_bot
