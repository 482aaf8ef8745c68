"""The Django admin manages users, bots included."""

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import User
from accounts.services import token_get_or_create
from tests.accounts.factories import (
    PASSWORD,
    BotFactory,
    UserFactory,
    user_change_form_data,
)

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


# --- staff who are not superusers cannot raise anyone's rights ---------------


def _people_manager(client: Client) -> User:
    """A staff account with every permission on people, and no more."""
    staff = UserFactory(username="manager", is_staff=True)
    staff.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="accounts", codename__endswith="_user"
        )
    )
    client.force_login(staff)
    return staff


def test_staff_cannot_make_themselves_superuser_or_grant_permissions(
    client: Client,
) -> None:
    staff = _people_manager(client)
    every = list(Permission.objects.values_list("pk", flat=True))
    data = user_change_form_data(client, staff)
    data.update(is_superuser="on", user_permissions=every, email="m@example.com")

    response = client.post(f"/admin/accounts/user/{staff.pk}/change/", data)

    assert response.status_code == 302, response.content.decode()[:2000]
    saved = User.objects.get(pk=staff.pk)
    assert saved.email == "m@example.com"  # the rest of the page still saves
    assert not saved.is_superuser
    assert saved.user_permissions.count() < len(every)


def test_staff_cannot_raise_another_person(client: Client) -> None:
    _people_manager(client)
    ada = UserFactory(username="ada")
    data = user_change_form_data(client, ada)
    data.update(is_superuser="on", is_staff="on")

    client.post(f"/admin/accounts/user/{ada.pk}/change/", data)

    saved = User.objects.get(pk=ada.pk)
    assert not saved.is_superuser and not saved.is_staff


def test_staff_cannot_take_over_a_superuser_or_other_staff(
    client: Client, admin_user: User
) -> None:
    _people_manager(client)
    other = UserFactory(username="organiser", is_staff=True)

    for target in (admin_user, other):
        change = client.get(f"/admin/accounts/user/{target.pk}/change/")
        password = client.post(
            f"/admin/accounts/user/{target.pk}/password/",
            {"password1": "a brand new secret", "password2": "a brand new secret"},
        )
        delete = client.post(
            f"/admin/accounts/user/{target.pk}/delete/", {"post": "yes"}
        )

        assert change.status_code == 200  # seen, read only
        assert 'name="email"' not in change.content.decode()
        assert password.status_code == 403
        assert delete.status_code == 403
        saved = User.objects.get(pk=target.pk)
        assert not saved.check_password("a brand new secret")


def test_staff_cannot_give_a_group_more_permissions(client: Client) -> None:
    from django.contrib.auth.models import Group

    staff = UserFactory(username="manager", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(codename__endswith="_group"))
    group = Group.objects.create(name="organisers")
    staff.groups.add(group)
    client.force_login(staff)
    every = list(Permission.objects.values_list("pk", flat=True))

    response = client.post(
        f"/admin/auth/group/{group.pk}/change/",
        {"name": "organisers", "permissions": every},
    )

    assert response.status_code == 403
    assert group.permissions.count() == 0


def test_superusers_still_manage_rights(admin_client: Client) -> None:
    ada = UserFactory(username="ada")
    data = user_change_form_data(admin_client, ada)
    data.update(is_staff="on")

    response = admin_client.post(f"/admin/accounts/user/{ada.pk}/change/", data)

    assert response.status_code == 302
    assert User.objects.get(pk=ada.pk).is_staff


# --- only a superuser sets another person's password -------------------------

NEW_SECRET = "a brand new secret 42"
PASSWORD_PAGE_LINK = 'href="../password/"'
OWN_PASSWORD_LINK = 'href="/admin/password_change/"'


def test_staff_cannot_set_or_remove_a_players_password(client: Client) -> None:
    """Staff who may change people set a player's password, then logged in
    as them and played their seats."""
    _people_manager(client)
    ada = UserFactory(username="ada")

    page = client.get(f"/admin/accounts/user/{ada.pk}/password/")
    set_ = client.post(
        f"/admin/accounts/user/{ada.pk}/password/",
        {"password1": NEW_SECRET, "password2": NEW_SECRET, "usable_password": "true"},
    )
    unset = client.post(
        f"/admin/accounts/user/{ada.pk}/password/",
        {"usable_password": "false", "unset-password": "1"},
    )

    for response in (page, set_, unset):
        assert response.status_code == 403
        assert "permission" in response.content.decode().lower()
    saved = User.objects.get(pk=ada.pk)
    assert saved.has_usable_password()
    assert not saved.check_password(NEW_SECRET)
    assert not Client().login(username="ada", password=NEW_SECRET)


def test_staff_asking_for_a_missing_persons_password_page_get_a_404(
    client: Client,
) -> None:
    _people_manager(client)

    response = client.get("/admin/accounts/user/987654/password/")

    assert response.status_code == 404


def test_staff_see_no_way_to_another_persons_password_page(
    client: Client, admin_user: User
) -> None:
    """The password's summary on a person's page ends with a button to the
    page that sets it: only on their own page for staff who are not
    superusers."""
    staff = _people_manager(client)
    ada = UserFactory(username="ada")
    bot = BotFactory()  # no usable password: the button says "Set password"

    for target in (ada, bot, admin_user):
        page = client.get(f"/admin/accounts/user/{target.pk}/change/")
        assert page.status_code == 200
        text = page.content.decode()
        assert PASSWORD_PAGE_LINK not in text
        assert "/password/" not in text.replace("/admin/password_change/", "")
        if target is not admin_user:  # a read-only page shows no help texts
            assert "Only a superuser may set another person" in text
    own = client.get(f"/admin/accounts/user/{staff.pk}/change/").content.decode()
    assert OWN_PASSWORD_LINK in own and PASSWORD_PAGE_LINK not in own


def test_superusers_still_set_a_players_password(admin_client: Client) -> None:
    ada = UserFactory(username="ada")

    page = admin_client.get(f"/admin/accounts/user/{ada.pk}/change/")
    response = admin_client.post(
        f"/admin/accounts/user/{ada.pk}/password/",
        {"password1": NEW_SECRET, "password2": NEW_SECRET, "usable_password": "true"},
    )

    assert PASSWORD_PAGE_LINK in page.content.decode()
    assert response.status_code == 302
    assert User.objects.get(pk=ada.pk).check_password(NEW_SECRET)


def test_the_add_form_cannot_reach_an_existing_account(client: Client) -> None:
    """Adding makes a new account; it never sets the password of one that
    exists, whatever the name's case or a made-up id."""
    _people_manager(client)
    ada = UserFactory(username="ada")

    for name in ("ada", "ADA"):
        response = client.post(
            "/admin/accounts/user/add/",
            {
                "id": ada.pk,
                "username": name,
                "usable_password": "true",
                "password1": NEW_SECRET,
                "password2": NEW_SECRET,
            },
        )
        assert response.status_code == 200  # the form again, with the error
        assert "already" in response.content.decode()

    assert User.objects.count() == 2  # ada and the manager
    assert not User.objects.get(pk=ada.pk).check_password(NEW_SECRET)


def test_no_action_on_people_sets_a_password(client: Client) -> None:
    """The people list's only action is deleting (for those who may)."""
    _people_manager(client)
    UserFactory(username="ada")

    response = client.get("/admin/accounts/user/")

    choices = response.context["action_form"].fields["action"].choices
    assert [name for name, _ in choices if name] == ["delete_selected"]


def test_the_token_list_stays_closed_to_staff_with_every_token_permission(
    client: Client,
) -> None:
    staff = _people_manager(client)
    staff.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="authtoken")
    )
    ada = UserFactory(username="ada")
    key = token_get_or_create(user=ada)

    pages = [
        client.get("/admin/authtoken/tokenproxy/"),
        client.get("/admin/authtoken/tokenproxy/add/"),
        client.post("/admin/authtoken/tokenproxy/add/", {"user": ada.pk}),
        client.get(f"/admin/authtoken/tokenproxy/{key}/change/"),
    ]

    for page in pages:
        assert page.status_code in (403, 404)
        assert key not in page.content.decode()


def test_the_accounts_api_acts_on_the_caller_only(client: Client) -> None:
    """Staff rights count for nothing on /api/accounts/: the password change
    is the caller's own, and a token needs the account's password."""
    staff = _people_manager(client)
    staff.set_password(PASSWORD)
    staff.save()
    client.force_login(staff)
    ada = UserFactory(username="ada")

    changed = client.post(
        "/api/accounts/password/",
        {
            "username": "ada",
            "user": ada.pk,
            "old_password": PASSWORD,
            "new_password": NEW_SECRET,
        },
        content_type="application/json",
    )
    token = client.post(
        "/api/accounts/token/",
        {"username": "ada", "password": ""},
        content_type="application/json",
    )

    assert changed.status_code == 204
    assert User.objects.get(pk=staff.pk).check_password(NEW_SECRET)
    assert User.objects.get(pk=ada.pk).check_password(PASSWORD)
    assert token.status_code == 400
    assert "token" not in token.json()


# --- only a superuser turns a person into a bot, or a bot into a person ------


def test_staff_cannot_make_a_person_a_bot_or_a_bot_a_person(client: Client) -> None:
    """A person made a bot has their seats played by the server and their
    log-ins refused; a bot made a person is no longer found by the tables."""
    _people_manager(client)
    ada = UserFactory(username="ada")
    bot = BotFactory(bot_level="strong")

    page = client.get(f"/admin/accounts/user/{ada.pk}/change/")
    to_bot = user_change_form_data(client, ada)
    to_bot.update(is_bot="on", bot_level="basic", email="ada@example.com")
    answer = client.post(f"/admin/accounts/user/{ada.pk}/change/", to_bot)
    to_person = user_change_form_data(client, bot)
    to_person.pop("is_bot", None)
    to_person.update(bot_level="", email="bot@example.com")
    other_answer = client.post(f"/admin/accounts/user/{bot.pk}/change/", to_person)

    assert (answer.status_code, other_answer.status_code) == (302, 302)
    ada.refresh_from_db()
    bot.refresh_from_db()
    assert ada.email == "ada@example.com"  # the rest of the page still saves
    assert (ada.is_bot, ada.bot_level) == (False, None)
    assert (bot.is_bot, bot.bot_level) == (True, "strong")
    assert 'name="is_bot"' not in page.content.decode()  # shown read only
    assert 'name="bot_level"' not in page.content.decode()


def test_superusers_still_make_a_bot(admin_client: Client) -> None:
    ada = UserFactory(username="ada")
    data = user_change_form_data(admin_client, ada)
    data.update(is_bot="on", bot_level="basic")

    response = admin_client.post(f"/admin/accounts/user/{ada.pk}/change/", data)

    assert response.status_code == 302
    ada.refresh_from_db()
    assert (ada.is_bot, ada.bot_level) == (True, "basic")


# --- a password set in the admin ends what the old one opened -----------------


@pytest.mark.parametrize(
    "body",
    [
        {"password1": NEW_SECRET, "password2": NEW_SECRET, "usable_password": "true"},
        {"usable_password": "false", "unset-password": "1"},
    ],
    ids=["set", "removed"],
)
def test_a_password_set_in_the_admin_revokes_the_token_and_sessions(
    admin_client: Client, body: dict[str, str]
) -> None:
    """As the API's password change does (docs/security.md): a superuser
    setting a password after a leak must lock the leaked token out too."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    ada = UserFactory(username="ada")
    token = token_get_or_create(user=ada)
    browser = Client()
    browser.force_login(ada)

    response = admin_client.post(f"/admin/accounts/user/{ada.pk}/password/", body)

    assert response.status_code == 302
    assert not Token.objects.filter(user=ada).exists()
    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert program.get("/api/accounts/me/").status_code == 401
    assert browser.get("/api/accounts/me/").status_code in (401, 403)
    assert admin_client.get("/admin/").status_code == 200  # the superuser's stands


# --- one's own password is changed with the current one -----------------------


@pytest.mark.parametrize("superuser", [False, True], ids=["staff", "superuser"])
def test_ones_own_password_page_asks_for_the_current_password(
    client: Client, superuser: bool
) -> None:
    """The person page's password page sets a password without the current
    one: for one's own account, a session left open (a shared machine, a
    stolen cookie) would be enough to take the account for good. It sends
    everyone to the admin's "Change password" page, which asks for it."""
    staff = _people_manager(client)
    staff.set_password(PASSWORD)
    staff.is_superuser = superuser
    staff.save()
    client.force_login(staff)

    page = client.get(f"/admin/accounts/user/{staff.pk}/password/")
    posted = client.post(
        f"/admin/accounts/user/{staff.pk}/password/",
        {"password1": NEW_SECRET, "password2": NEW_SECRET, "usable_password": "true"},
    )
    removed = client.post(
        f"/admin/accounts/user/{staff.pk}/password/",
        {"usable_password": "false", "unset-password": "1"},
    )
    own = client.get(f"/admin/accounts/user/{staff.pk}/change/").content.decode()

    for response in (page, posted, removed):
        assert response.status_code == 302
        assert response["Location"] == "/admin/password_change/"
    assert User.objects.get(pk=staff.pk).check_password(PASSWORD)
    assert OWN_PASSWORD_LINK in own and PASSWORD_PAGE_LINK not in own


def test_staff_change_their_own_password_with_the_current_one(client: Client) -> None:
    from rest_framework.authtoken.models import Token

    staff = _people_manager(client)
    staff.set_password(PASSWORD)
    staff.save()
    client.force_login(staff)
    token_get_or_create(user=staff)
    elsewhere = Client()
    elsewhere.force_login(staff)

    def change(old: str) -> Any:
        return client.post(
            "/admin/password_change/",
            {
                "old_password": old,
                "new_password1": NEW_SECRET,
                "new_password2": NEW_SECRET,
            },
        )

    wrong = change("not the current one")
    assert wrong.status_code == 200  # the form again
    assert User.objects.get(pk=staff.pk).check_password(PASSWORD)
    assert Token.objects.filter(user=staff).exists()

    right = change(PASSWORD)

    assert right.status_code == 302
    assert User.objects.get(pk=staff.pk).check_password(NEW_SECRET)
    # As the API's password change: the token and other sessions end, this
    # session stands.
    assert not Token.objects.filter(user=staff).exists()
    assert elsewhere.get("/api/accounts/me/").status_code in (401, 403)
    assert client.get("/admin/").status_code == 200
