"""The Django admin manages users, bots included."""

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import User
from accounts.services import token_get_or_create
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


def test_only_superusers_list_tokens_and_only_by_prefix(
    admin_client: Client, client: Client
) -> None:
    key = token_get_or_create(user=UserFactory(username="ada"))
    staff = UserFactory(username="viewer", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    client.force_login(staff)

    as_staff = client.get("/admin/authtoken/tokenproxy/")
    as_root = admin_client.get("/admin/authtoken/tokenproxy/")
    index = client.get("/admin/").content.decode()

    assert as_staff.status_code == 403
    assert "tokenproxy" not in index
    assert as_root.status_code == 200
    page = as_root.content.decode()
    assert f"{key[:6]}…" in page and key not in page and ">ada<" in page


def test_deleting_a_person_lists_their_token_by_prefix_only(
    admin_client: Client,
) -> None:
    """The confirmation page names each object the deletion takes with it by
    its ``str()``; a token's is its whole key."""
    ada = UserFactory(username="ada")
    key = token_get_or_create(user=ada)

    single = admin_client.get(f"/admin/accounts/user/{ada.pk}/delete/")
    bulk = admin_client.post(
        "/admin/accounts/user/",
        {"action": "delete_selected", "_selected_action": [ada.pk]},
    )

    for response in (single, bulk):
        assert response.status_code == 200
        page = response.content.decode()
        assert key not in page
        assert f"{key[:6]}…" in page
        assert f'href="/admin/accounts/user/{ada.pk}/change/"' in page  # links kept


def test_saving_a_persons_page_keeps_a_password_changed_meanwhile(
    admin_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The change page's save wrote the whole row as it read it: a password
    changed between that read and the save was set back, and the old one
    worked again. Only the fields changed on the page are written now."""
    from accounts.admin import UserAdmin

    ada = UserFactory(username="ada", email="ada@example.com")
    ada.set_password("the old one")
    ada.save()
    read = UserAdmin.get_object

    def read_then_changed_elsewhere(self: Any, *args: Any, **kwargs: Any) -> Any:
        obj = read(self, *args, **kwargs)
        fresh = User.objects.get(pk=ada.pk)
        fresh.set_password("the new one")  # the person, in another request
        fresh.save(update_fields=["password"])
        return obj

    page = admin_client.get(f"/admin/accounts/user/{ada.pk}/change/")
    form = page.context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if name in form.fields and value is not None and name != "password"
    }
    data.update(
        email="ada@cardroom.example",
        groups=[],
        user_permissions=[],
        date_joined_0=ada.date_joined.strftime("%Y-%m-%d"),
        date_joined_1=ada.date_joined.strftime("%H:%M:%S"),
    )
    data.pop("date_joined", None)
    data.pop("last_login", None)
    monkeypatch.setattr(UserAdmin, "get_object", read_then_changed_elsewhere)

    response = admin_client.post(f"/admin/accounts/user/{ada.pk}/change/", data)

    assert response.status_code == 302, response.content.decode()[:2000]
    saved = User.objects.get(pk=ada.pk)
    assert saved.email == "ada@cardroom.example"
    assert saved.check_password("the new one")
