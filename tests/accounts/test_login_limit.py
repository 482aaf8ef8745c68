"""Guessing a password: a name takes a few wrong passwords from one address,
then that address is refused for that name for a while, on every way in (the
token and login APIs, the admin's log-in), whether the name exists or not."""

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts import login_limit
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough secret"


def _token(client: APIClient, username: str, password: str, address: str) -> Any:
    return client.post(
        "/api/accounts/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
    )


def _guess_away(client: APIClient, username: str, address: str) -> None:
    for n in range(login_limit.FAILURES_ALLOWED):
        answer = _token(client, username, f"wrong guess {n}", address)
        assert answer.status_code == 400, answer.json()


def test_after_the_allowed_wrong_guesses_even_the_right_password_waits(
    api_client: APIClient,
) -> None:
    ada = UserFactory(username="ada")
    ada.set_password(PASSWORD)
    ada.save()

    _guess_away(api_client, "ada", "203.0.113.7")
    refused = _token(api_client, "ADA", PASSWORD, "203.0.113.7")
    elsewhere = _token(api_client, "ada", PASSWORD, "198.51.100.2")

    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0
    assert elsewhere.status_code == 200  # the person, from their own address


def test_a_missing_name_is_refused_alike(api_client: APIClient) -> None:
    """No telling a name that exists from one that does not."""
    _guess_away(api_client, "nobody-here", "203.0.113.7")

    refused = _token(api_client, "nobody-here", PASSWORD, "203.0.113.7")

    assert refused.status_code == 429


def test_the_browser_login_is_limited_too(api_client: APIClient) -> None:
    ada = UserFactory(username="ada")
    ada.set_password(PASSWORD)
    ada.save()
    _guess_away(api_client, "ada", "127.0.0.1")

    refused = api_client.post(
        "/api/accounts/login/", {"username": "ada", "password": PASSWORD}, format="json"
    )

    assert refused.status_code == 429
    assert "sessionid" not in refused.cookies


def test_the_admin_login_counts_and_is_limited(admin_user: Any) -> None:
    admin_user.set_password(PASSWORD)
    admin_user.save()
    browser = Client()
    for n in range(login_limit.FAILURES_ALLOWED):
        browser.post(
            "/admin/login/",
            {"username": admin_user.username, "password": f"wrong guess {n}"},
        )

    right = browser.post(
        "/admin/login/", {"username": admin_user.username, "password": PASSWORD}
    )

    assert right.status_code == 200  # the form again, with its error
    assert "_auth_user_id" not in browser.session
    api = APIClient()
    assert _token(api, admin_user.username, PASSWORD, "127.0.0.1").status_code == 429


def test_fewer_wrong_guesses_leave_the_right_password_working(
    api_client: APIClient,
) -> None:
    ada = UserFactory(username="ada")
    ada.set_password(PASSWORD)
    ada.save()
    for n in range(login_limit.FAILURES_ALLOWED - 1):
        _token(api_client, "ada", f"wrong guess {n}", "203.0.113.7")

    assert _token(api_client, "ada", PASSWORD, "203.0.113.7").status_code == 200


def test_a_cache_that_does_not_answer_lets_the_password_be_checked(
    api_client: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core.cache import cache

    def down(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("no cache")

    ada = UserFactory(username="ada")
    ada.set_password(PASSWORD)
    ada.save()
    for name in ("get_many", "add", "set", "incr"):
        monkeypatch.setattr(cache, name, down)

    wrong = _token(api_client, "ada", "wrong", "203.0.113.7")
    right = _token(api_client, "ada", PASSWORD, "203.0.113.7")

    assert wrong.status_code == 400
    assert right.status_code == 200


def test_guessing_the_current_password_on_a_password_change_is_limited() -> None:
    """A session or token left behind is no way to find the password out."""
    from accounts.models import User

    ada = UserFactory(username="ada")
    ada.set_password(PASSWORD)
    ada.save()
    found = APIClient()
    found.force_authenticate(ada)

    def change(old: str) -> Any:
        return found.post(
            "/api/accounts/password/",
            {"old_password": old, "new_password": "another long secret 77"},
            format="json",
        )

    for n in range(login_limit.FAILURES_ALLOWED):
        assert change(f"wrong guess {n}").status_code == 400
    refused = change(PASSWORD)

    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert User.objects.get(pk=ada.pk).check_password(PASSWORD)


def test_guessing_the_current_password_on_the_admins_change_page_is_limited(
    client: Client,
) -> None:
    """The admin's "Change password" page asks for the current password as
    the API does, and counts wrong ones the same."""
    from accounts.models import User

    staff = UserFactory(username="organiser", is_staff=True)
    staff.set_password(PASSWORD)
    staff.save()
    client.force_login(staff)

    def change(old: str) -> Any:
        return client.post(
            "/admin/password_change/",
            {
                "old_password": old,
                "new_password1": "another long secret 77",
                "new_password2": "another long secret 77",
            },
        )

    for n in range(login_limit.FAILURES_ALLOWED):
        assert change(f"wrong guess {n}").status_code == 200
    refused = change(PASSWORD)

    assert refused.status_code == 200  # the form again, with the refusal
    assert "Too many wrong passwords" in refused.content.decode()
    assert User.objects.get(pk=staff.pk).check_password(PASSWORD)
