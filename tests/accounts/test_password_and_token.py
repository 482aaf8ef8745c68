"""Changing the password and revoking the API token (``/api/accounts/password/``,
``DELETE /api/accounts/token/``): what a person does after a leak."""

from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from tests.accounts.factories import PASSWORD, UserFactory, token_for

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-new-unusual-passphrase-43"


def browser(user: User) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/")  # the CSRF cookie, as every page sets it
    return client


def post(client: Client, path: str, body: dict[str, Any]) -> Any:
    return client.post(
        path,
        body,
        content_type="application/json",
        headers={"X-CSRFToken": client.cookies["csrftoken"].value},
    )


def test_a_changed_password_logs_other_browsers_out_and_revokes_the_token() -> None:
    ada = UserFactory()
    token = token_for(ada)
    here, elsewhere = browser(ada), browser(ada)

    answer = post(
        here,
        "/api/accounts/password/",
        {"old_password": PASSWORD, "new_password": NEW_PASSWORD},
    )

    assert answer.status_code == 204
    ada.refresh_from_db()
    assert ada.check_password(NEW_PASSWORD)
    assert here.get("/api/accounts/me/").json()["username"] == ada.username
    assert elsewhere.get("/api/accounts/me/").status_code in (401, 403)
    assert not Token.objects.filter(key=token).exists()
    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert program.get("/api/accounts/me/").status_code == 401
    fresh = APIClient().post(
        "/api/accounts/token/",
        {"username": ada.username, "password": NEW_PASSWORD},
        format="json",
    )
    assert fresh.status_code == 200 and fresh.json()["token"] != token


def test_a_program_may_change_the_password_with_its_token(
    api_client: APIClient,
) -> None:
    ada = UserFactory()
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(ada)}")

    answer = api_client.post(
        "/api/accounts/password/",
        {"old_password": PASSWORD, "new_password": NEW_PASSWORD},
        format="json",
    )

    assert answer.status_code == 204
    assert api_client.get("/api/accounts/me/").status_code == 401  # revoked


@pytest.mark.parametrize(
    ("body", "status", "code", "message"),
    [
        (
            {"old_password": "not-it-at-all", "new_password": NEW_PASSWORD},
            400,
            "invalid_credentials",
            "Your current password is not right.",
        ),
        (
            {"old_password": PASSWORD, "new_password": "abc"},
            400,
            "invalid",
            "new_password: This password is too short. It must contain at least "
            "8 characters.",
        ),
        (
            {"old_password": PASSWORD, "new_password": "password"},
            400,
            "invalid",
            "new_password: This password is too common.",
        ),
        (
            {"new_password": NEW_PASSWORD},
            400,
            "invalid",
            "old_password: This field is required.",
        ),
        (
            {"old_password": PASSWORD, "new_password": 123456789012},
            400,
            "invalid",
            "new_password: Not a valid string.",
        ),
    ],
)
def test_a_refused_password_change_changes_nothing(
    body: dict[str, Any], status: int, code: str, message: str
) -> None:
    ada = UserFactory()
    token = token_for(ada)
    here = browser(ada)

    answer = post(here, "/api/accounts/password/", body)

    assert answer.status_code == status
    assert (answer.json()["code"], answer.json()["message"]) == (code, message)
    ada.refresh_from_db()
    assert ada.check_password(PASSWORD)
    assert Token.objects.filter(key=token).exists()
    assert here.get("/api/accounts/me/").status_code == 200


def test_a_password_change_needs_a_login_and_the_csrf_token(
    api_client: APIClient,
) -> None:
    ada = UserFactory()
    anonymous = api_client.post(
        "/api/accounts/password/",
        {"old_password": PASSWORD, "new_password": NEW_PASSWORD},
        format="json",
    )
    here = browser(ada)
    forged = here.post(  # another site's form: no X-CSRFToken
        "/api/accounts/password/",
        {"old_password": PASSWORD, "new_password": NEW_PASSWORD},
        content_type="application/json",
    )

    assert anonymous.status_code == 401
    assert forged.status_code == 403
    ada.refresh_from_db()
    assert ada.check_password(PASSWORD)


def test_revoking_the_token_refuses_it_and_keeps_the_session() -> None:
    ada = UserFactory()
    token = token_for(ada)
    here = browser(ada)
    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert program.get("/api/accounts/me/").status_code == 200

    revoked = here.delete(
        "/api/accounts/token/", headers={"X-CSRFToken": here.cookies["csrftoken"].value}
    )
    again = here.delete(
        "/api/accounts/token/", headers={"X-CSRFToken": here.cookies["csrftoken"].value}
    )

    assert (revoked.status_code, again.status_code) == (204, 204)
    assert program.get("/api/accounts/me/").status_code == 401
    assert here.get("/api/accounts/me/").status_code == 200


def test_a_program_revokes_its_own_token(api_client: APIClient) -> None:
    token = token_for(UserFactory())
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    assert api_client.delete("/api/accounts/token/").status_code == 204
    assert api_client.delete("/api/accounts/token/").status_code == 401
    assert not Token.objects.filter(key=token).exists()


def test_revoking_needs_a_login(api_client: APIClient) -> None:
    answer = api_client.delete("/api/accounts/token/")

    assert answer.status_code == 401
    assert answer.json()["code"] == "not_authenticated"
