"""The accounts API: sign-up, tokens, ``me``, browser sessions, bots refused."""

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIClient

from accounts.models import User
from tests.accounts.factories import PASSWORD, BotFactory, UserFactory, token_for

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "a-long-unusual-passphrase-42"


def test_register_creates_an_account_and_returns_a_working_token(
    api_client: APIClient,
) -> None:
    response = api_client.post(
        "/api/accounts/register/",
        {"username": "ada", "password": GOOD_PASSWORD},
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    user = User.objects.get(username="ada")
    assert body == {
        "id": user.pk,
        "username": "ada",
        "token": Token.objects.get(user=user).key,
    }
    assert user.check_password(GOOD_PASSWORD)
    assert not user.is_bot
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = api_client.get("/api/accounts/me/")
    assert me.json() == {"id": user.pk, "username": "ada", "is_bot": False}


@pytest.mark.parametrize(
    ("password", "message"),
    [
        (
            "abc",
            "password: This password is too short. It must contain at least "
            "8 characters.",
        ),
        ("password", "password: This password is too common."),
        ("adalovelace1", "password: The password is too similar to the username."),
    ],
)
def test_register_applies_the_password_validators(
    api_client: APIClient, password: str, message: str
) -> None:
    response = api_client.post(
        "/api/accounts/register/",
        {"username": "adalovelace", "password": password},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["message"] == message
    assert not User.objects.exists()


def test_register_refuses_a_taken_name_whatever_its_case(
    api_client: APIClient,
) -> None:
    UserFactory(username="Ada")

    response = api_client.post(
        "/api/accounts/register/",
        {"username": "ada", "password": GOOD_PASSWORD},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["message"] == (
        "username: A user with that username already exists."
    )


BAD_USERNAME = (
    "username: Enter a valid username. This value may contain only letters, "
    "numbers, and @/./+/-/_ characters."
)


@pytest.mark.parametrize(
    "username",
    ["<script>alert(1)</script>", "a/b", "two words", "ace\U0001f0a1", "a\tb"],
)
def test_register_applies_the_username_characters(
    api_client: APIClient, username: str
) -> None:
    response = api_client.post(
        "/api/accounts/register/",
        {"username": username, "password": GOOD_PASSWORD},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["message"] == BAD_USERNAME
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("first", "second"), [("émile", "Émile"), ("straße", "STRASSE")]
)
def test_register_folds_case_beyond_ascii(
    api_client: APIClient, first: str, second: str
) -> None:
    created = api_client.post(
        "/api/accounts/register/",
        {"username": first, "password": GOOD_PASSWORD},
        format="json",
    )
    refused = api_client.post(
        "/api/accounts/register/",
        {"username": second, "password": GOOD_PASSWORD},
        format="json",
    )

    assert created.status_code == 201
    assert refused.status_code == 400
    assert refused.json()["message"] == (
        "username: A user with that username already exists."
    )
    assert list(User.objects.values_list("username", flat=True)) == [first]


def test_register_keeps_the_bot_namespace_for_house_bots(
    api_client: APIClient,
) -> None:
    response = api_client.post(
        "/api/accounts/register/",
        {"username": "Bot-Strong2", "password": GOOD_PASSWORD},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["message"] == (
        "username: Usernames starting with 'bot-' are reserved."
    )


def test_register_with_malformed_json_is_a_400(api_client: APIClient) -> None:
    response = api_client.post(
        "/api/accounts/register/",
        '{"username": "ada",',
        content_type="application/json",
    )

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert response.json()["message"].startswith("JSON parse error")


def test_register_without_a_password_names_the_field(api_client: APIClient) -> None:
    response = api_client.post(
        "/api/accounts/register/", {"username": "ada"}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["message"] == "password: This field is required."


def test_token_returns_the_accounts_token(api_client: APIClient) -> None:
    user = UserFactory(username="grace")

    response = api_client.post(
        "/api/accounts/token/",
        {"username": "grace", "password": PASSWORD},
        format="json",
    )

    assert response.status_code == 200
    assert response.json() == {"token": token_for(user)}


def test_token_with_a_wrong_password_is_refused(api_client: APIClient) -> None:
    UserFactory(username="grace")

    response = api_client.post(
        "/api/accounts/token/",
        {"username": "grace", "password": "not-it-at-all"},
        format="json",
    )

    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_credentials",
        "message": "Unable to log in with the provided credentials.",
    }


def test_bots_get_no_token_even_with_a_password(api_client: APIClient) -> None:
    bot = BotFactory(username="bot-house")
    bot.set_password(PASSWORD)  # e.g. set by mistake in the admin
    bot.save()

    response = api_client.post(
        "/api/accounts/token/",
        {"username": "bot-house", "password": PASSWORD},
        format="json",
    )

    assert response.status_code == 403
    assert response.json() == {
        "code": "bot_account",
        "message": "Bot accounts are played by the server and cannot log in.",
    }
    assert not Token.objects.filter(user=bot).exists()


def test_a_bots_token_does_not_authenticate(api_client: APIClient) -> None:
    bot = BotFactory()
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(bot)}")

    response = api_client.get("/api/accounts/me/")

    assert response.status_code == 401
    assert response.json() == {
        "code": "bot_account",
        "message": "Bot accounts are played by the server and cannot use the API.",
    }


@pytest.mark.parametrize("prepared", [True, False])
def test_a_token_authenticates_as_its_user_exactly(
    api_client: APIClient, prepared: bool, settings: Any
) -> None:
    """The token lookup is one plain query (prepared on PostgreSQL unless the
    settings say not to): the user it builds is the user the ORM would load,
    field for field, and the token is the stored one."""
    from rest_framework.test import APIRequestFactory

    from accounts.authentication import PeopleTokenAuthentication

    settings.DB_PREPARED_STATEMENTS = prepared
    person = UserFactory()
    key = token_for(person)
    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {key}")

    user, token = PeopleTokenAuthentication().authenticate(request)

    stored = User.objects.get(pk=person.pk)
    fields = [f.attname for f in User._meta.concrete_fields]
    assert [getattr(user, f) for f in fields] == [getattr(stored, f) for f in fields]
    assert (token.key, token.user_id, token.created) == (
        key,
        person.pk,
        Token.objects.get(key=key).created,
    )
    assert token.user is user


def test_the_token_query_is_prepared_once_per_connection() -> None:
    """Planned once per connection, not on every request (config.db)."""
    from rest_framework.test import APIRequestFactory

    from accounts.authentication import PeopleTokenAuthentication

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    keys = [token_for(UserFactory()) for _ in range(3)]
    for key in keys:
        request = APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {key}")
        assert PeopleTokenAuthentication().authenticate(request) is not None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements "
            "WHERE name = 'cardroom_token_user'"
        )
        assert cursor.fetchone() == (1,)


def test_a_token_with_a_nul_character_is_refused_as_unknown(
    api_client: APIClient,
) -> None:
    from rest_framework.test import APIRequestFactory

    from accounts.authentication import PeopleTokenAuthentication

    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION="Token ab\x00cd")
    with pytest.raises(AuthenticationFailed, match="Invalid token."):
        PeopleTokenAuthentication().authenticate(request)


def test_unknown_and_inactive_tokens_are_refused(api_client: APIClient) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    unknown = api_client.get("/api/accounts/me/")
    person = UserFactory()
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(person)}")
    User.objects.filter(pk=person.pk).update(is_active=False)
    inactive = api_client.get("/api/accounts/me/")

    assert (unknown.status_code, unknown.json()["message"]) == (401, "Invalid token.")
    assert (inactive.status_code, inactive.json()["message"]) == (
        401,
        "User inactive or deleted.",
    )


def test_me_needs_authentication(api_client: APIClient) -> None:
    response = api_client.get("/api/accounts/me/")

    assert response.status_code == 401
    assert response.json() == {
        "code": "not_authenticated",
        "message": "Authentication credentials were not provided.",
    }


def test_session_login_me_and_logout() -> None:
    user = UserFactory(username="linus")
    browser = APIClient(enforce_csrf_checks=True)
    token = browser.get("/api/accounts/login/").json()["csrf_token"]

    login = browser.post(
        "/api/accounts/login/",
        {"username": "linus", "password": PASSWORD},
        format="json",
        HTTP_X_CSRFTOKEN=token,
    )

    assert login.status_code == 200
    assert login.json() == {"id": user.pk, "username": "linus", "is_bot": False}
    assert "sessionid" in login.cookies and "csrftoken" in login.cookies
    assert browser.get("/api/accounts/me/").json()["username"] == "linus"

    # A session-authenticated write needs the CSRF token.
    refused = browser.post("/api/accounts/logout/")
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert refused.json()["message"].startswith("CSRF Failed")

    csrf = browser.cookies["csrftoken"].value
    logout = browser.post("/api/accounts/logout/", HTTP_X_CSRFTOKEN=csrf)
    assert logout.status_code == 204
    assert browser.get("/api/accounts/me/").status_code == 401


def test_a_login_without_the_csrf_token_is_refused() -> None:
    """A cross-site form cannot log the visitor into someone else's account."""
    UserFactory(username="mallory")
    browser = Client(enforce_csrf_checks=True)
    browser.get("/api/accounts/login/")  # even with the cookie, the token must come

    forged = browser.post(
        "/api/accounts/login/",
        {"username": "mallory", "password": PASSWORD},
        HTTP_ORIGIN="https://evil.example",
    )
    no_cookie = Client(enforce_csrf_checks=True).post(
        "/api/accounts/login/", {"username": "mallory", "password": PASSWORD}
    )

    assert forged.status_code == 403
    assert forged.json() == {
        "code": "permission_denied",
        "message": "CSRF Failed: Origin checking failed - https://evil.example "
        "does not match any trusted origins.",
    }
    assert no_cookie.status_code == 403
    assert no_cookie.json()["message"] == "CSRF Failed: CSRF cookie not set."
    assert "sessionid" not in forged.cookies and "sessionid" not in no_cookie.cookies


def test_a_login_from_a_form_of_our_own_pages_works() -> None:
    UserFactory(username="linus")
    browser = Client(enforce_csrf_checks=True)
    browser.get("/api/accounts/login/")

    login = browser.post(
        "/api/accounts/login/",
        {
            "username": "linus",
            "password": PASSWORD,
            "csrfmiddlewaretoken": browser.cookies["csrftoken"].value,
        },
    )

    assert login.status_code == 200
    assert "sessionid" in login.cookies


def test_session_login_refuses_bots_and_wrong_passwords(api_client: APIClient) -> None:
    BotFactory(username="bot-house")
    UserFactory(username="linus")

    bot = api_client.post(
        "/api/accounts/login/",
        {"username": "bot-house", "password": "whatever-it-is"},
        format="json",
    )
    wrong = api_client.post(
        "/api/accounts/login/",
        {"username": "linus", "password": "whatever-it-is"},
        format="json",
    )

    assert (bot.status_code, bot.json()["code"]) == (403, "bot_account")
    assert (wrong.status_code, wrong.json()["code"]) == (400, "invalid_credentials")
    assert "sessionid" not in wrong.cookies


@pytest.mark.parametrize(
    "body",
    [
        {"username": 2.1418541414476932e16, "password": GOOD_PASSWORD},
        {"username": "adalovelace", "password": 12345678901234},
        {"username": True, "password": GOOD_PASSWORD},
    ],
)
def test_register_takes_names_and_passwords_as_strings_only(
    api_client: APIClient, body: dict[str, object]
) -> None:
    """The schema says string; DRF's CharField would store a number's text
    (found by the schema test: a user named "2.1418541414476932e+16")."""
    response = api_client.post("/api/accounts/register/", body, format="json")

    assert response.status_code == 400
    assert response.json()["message"].endswith("Not a valid string.")
    assert not User.objects.exists()


@pytest.mark.parametrize("path", ["/api/accounts/token/", "/api/accounts/login/"])
def test_credentials_take_the_name_in_any_case(
    api_client: APIClient, path: str
) -> None:
    user = UserFactory(username="Grace")

    response = api_client.post(
        path, {"username": "gRACE", "password": PASSWORD}, format="json"
    )
    wrong_case_password = api_client.post(
        path, {"username": "grace", "password": PASSWORD.upper()}, format="json"
    )

    assert response.status_code == 200
    if path == "/api/accounts/token/":
        assert response.json() == {"token": token_for(user)}
    else:
        assert response.json()["username"] == "Grace"
    assert wrong_case_password.status_code == 400


def test_a_bot_is_refused_by_name_in_any_case(api_client: APIClient) -> None:
    BotFactory(username="bot-house")

    response = api_client.post(
        "/api/accounts/token/",
        {"username": "BOT-House", "password": "whatever-it-is"},
        format="json",
    )

    assert (response.status_code, response.json()["code"]) == (403, "bot_account")


def test_answers_that_name_the_requester_are_not_stored_by_caches(
    api_client: APIClient,
) -> None:
    """Who is logged in, their API token and a visitor's CSRF token are each
    answered at one URL for everyone: no proxy or browser's disk cache may
    keep one and hand it to the next person asking (docs/security.md)."""
    user = UserFactory()
    answers = {
        "login form": api_client.get("/api/accounts/login/"),
        "sign-up": api_client.post(
            "/api/accounts/register/",
            {"username": "ada", "password": GOOD_PASSWORD},
            format="json",
        ),
        "token": api_client.post(
            "/api/accounts/token/",
            {"username": user.username, "password": PASSWORD},
            format="json",
        ),
    }
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    answers["me"] = api_client.get("/api/accounts/me/")
    for name, response in answers.items():
        assert response.status_code in (200, 201), name
        assert response["Cache-Control"] == "private, no-store", name
