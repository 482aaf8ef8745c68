"""Every error reaches the client as ``{"code": ..., "message": ...}``."""

import logging
from typing import Any

import pytest
from django.test import Client, RequestFactory
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.test import APIClient

from accounts.models import User
from config.logs import RedactSecrets
from config.pagination import CheckedPageNumberPagination

pytestmark = pytest.mark.urls("tests.config.urls")


def test_unknown_api_path_is_a_json_404(api_client: APIClient) -> None:
    response = api_client.get("/api/no-such-thing/")

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": "Not found."}


def test_unknown_api_path_with_any_method_is_a_404_not_a_csrf_403() -> None:
    response = Client(enforce_csrf_checks=True).post("/api/no-such-thing/")

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": "Not found."}


def test_api_path_missing_its_slash_names_the_right_one(api_client: APIClient) -> None:
    response = api_client.get("/api/schema")

    assert response.status_code == 404
    assert response.json() == {
        "code": "not_found",
        "message": "Not found. Did you mean /api/schema/ ?",
    }


def test_unknown_page_is_a_json_404(client: Client) -> None:
    response = client.get("/no/such/page/")

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": "Not found."}


def test_wrong_method(api_client: APIClient) -> None:
    response = api_client.delete("/api/schema/", HTTP_ACCEPT="application/json")

    assert response.status_code == 405
    assert response.json() == {
        "code": "method_not_allowed",
        "message": 'Method "DELETE" not allowed.',
    }


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("post", "/api/schema/", 405, "method_not_allowed"),
        ("get", "/api/schema/?format=xml", 404, "not_found"),
        ("delete", "/api/docs/", 405, "method_not_allowed"),
        ("get", "/api/docs/?format=xml", 404, "not_found"),
    ],
)
def test_the_schema_and_its_docs_answer_errors_in_json(
    api_client: APIClient, method: str, path: str, status: int, code: str
) -> None:
    """The schema itself is YAML (or JSON) and its docs a page, but their
    errors are JSON like every other ``/api/`` error, whatever the client
    accepts."""
    for accept in ("*/*", "text/html", "application/vnd.oai.openapi"):
        response = getattr(api_client, method)(path, HTTP_ACCEPT=accept)

        assert response.status_code == status
        assert response["Content-Type"] == "application/json"
        assert response.json()["code"] == code


def test_unparsable_body(api_client: APIClient) -> None:
    response = api_client.post(
        "/test-api/echo/", data="{not json", content_type="application/json"
    )

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "parse_error"
    assert body["message"].startswith("JSON parse error - ")
    assert set(body) == {"code", "message"}


def test_unsupported_media_type(api_client: APIClient) -> None:
    response = api_client.post("/test-api/echo/", data="x", content_type="text/csv")

    assert response.status_code == 415
    assert response.json() == {
        "code": "unsupported_media_type",
        "message": 'Unsupported media type "text/csv" in request.',
    }


def test_invalid_fields_name_the_first_and_list_all(api_client: APIClient) -> None:
    response = api_client.post("/test-api/echo/", {"name": "far too long"})

    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid",
        "message": "name: Ensure this field has no more than 5 characters.",
        "errors": {"name": ["Ensure this field has no more than 5 characters."]},
    }


def test_validation_error_keeps_its_own_code(api_client: APIClient) -> None:
    response = api_client.post("/test-api/seat/", {})

    assert response.status_code == 400
    assert response.json() == {"code": "seat_taken", "message": "Seat 2 is taken."}


@pytest.mark.django_db
def test_missing_credentials(api_client: APIClient) -> None:
    response = api_client.get("/test-api/private/")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json() == {
        "code": "not_authenticated",
        "message": "Authentication credentials were not provided.",
    }


@pytest.mark.django_db
def test_bad_token(api_client: APIClient) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    response = api_client.get("/test-api/private/")

    assert response.status_code == 401
    assert response.json() == {
        "code": "authentication_failed",
        "message": "Invalid token.",
    }


@pytest.mark.django_db
def test_good_token_gets_through(api_client: APIClient) -> None:
    user = User.objects.create_user(username="ada", password="pw-ada-123")
    token = Token.objects.create(user=user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")

    response = api_client.get("/test-api/private/")

    assert response.status_code == 200


def test_throttled(api_client: APIClient) -> None:
    assert api_client.get("/test-api/throttled/").status_code == 200

    response = api_client.get("/test-api/throttled/")

    assert response.status_code == 429
    assert response["Retry-After"] == "60"
    assert response.json() == {
        "code": "throttled",
        "message": "Request was throttled. Expected available in 60 seconds.",
    }


def test_a_made_up_forwarded_for_does_not_reset_the_anonymous_limit(
    api_client: APIClient,
) -> None:
    first = api_client.get("/test-api/throttled/", HTTP_X_FORWARDED_FOR="10.0.0.1")

    second = api_client.get("/test-api/throttled/", HTTP_X_FORWARDED_FOR="10.0.0.2")

    assert (first.status_code, second.status_code) == (200, 429)


def test_behind_a_configured_proxy_each_client_has_its_own_limit(
    api_client: APIClient, settings: Any
) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    # The proxy appends the address it saw; a client's own prefix is ignored.
    ada = "6.6.6.6, 10.0.0.1"
    bob = "6.6.6.6, 10.0.0.2"

    first = api_client.get("/test-api/throttled/", HTTP_X_FORWARDED_FOR=ada)
    other = api_client.get("/test-api/throttled/", HTTP_X_FORWARDED_FOR=bob)
    again = api_client.get(
        "/test-api/throttled/", HTTP_X_FORWARDED_FOR="7.7.7.7, 10.0.0.1"
    )

    assert (first.status_code, other.status_code, again.status_code) == (200, 200, 429)


def test_django_404_inside_an_api_view_hides_its_message(
    api_client: APIClient,
) -> None:
    response = api_client.get("/test-api/django/missing/")

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": "Not found."}


def test_django_permission_denied_inside_an_api_view(api_client: APIClient) -> None:
    response = api_client.get("/test-api/django/forbidden/")

    assert response.status_code == 403
    assert response.json() == {
        "code": "permission_denied",
        "message": "You do not have permission to perform this action.",
    }


def test_django_validation_error_on_a_field(api_client: APIClient) -> None:
    response = api_client.get("/test-api/django/invalid-field/")

    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid",
        "message": "seat: Seat 9 does not exist.",
        "errors": {"seat": ["Seat 9 does not exist."]},
    }


def test_django_validation_error_keeps_its_own_code(api_client: APIClient) -> None:
    response = api_client.get("/test-api/django/invalid/")

    assert response.status_code == 400
    assert response.json() == {"code": "table_full", "message": "The table is full."}


def test_unexpected_api_error_is_logged_and_reveals_nothing(
    api_client: APIClient, caplog: pytest.LogCaptureFixture
) -> None:
    # The filter every handler of ours carries (LOGGING in the settings, and
    # tests/config/test_logs.py runs that configuration for real); on the
    # capturing handler too, which may see the record before they do.
    caplog.handler.addFilter(RedactSecrets())
    with caplog.at_level(logging.ERROR, logger="cardroom.api"):
        response = api_client.get("/test-api/broken/")

    assert response.status_code == 500
    assert response.json() == {
        "code": "server_error",
        "message": "Internal server error.",
    }
    assert "hunter2" not in response.content.decode()
    # The operator still sees the cause, but not a secret parameter's value
    # (config.logs.RedactSecrets cleans the traceback too).
    assert "RuntimeError: secret internals: password=[redacted]" in caplog.text
    assert "hunter2" not in caplog.text


def test_unexpected_page_error_reveals_nothing() -> None:
    client = Client(raise_request_exception=False)

    response = client.get("/test-django/broken/")

    assert response.status_code == 500
    assert response.json() == {
        "code": "server_error",
        "message": "Internal server error.",
    }


@pytest.mark.django_db
def test_csrf_failure_is_in_the_error_shape() -> None:
    response = Client(enforce_csrf_checks=True).post(
        "/admin/login/", {"username": "a", "password": "b"}
    )

    assert response.status_code == 403
    assert response.json() == {
        "code": "csrf_failed",
        "message": "CSRF verification failed. CSRF cookie not set.",
    }


@pytest.mark.parametrize("host", ["evil.example", "%00", ""])
def test_disallowed_host_is_a_json_400_logged_in_one_line(
    client: Client, caplog: pytest.LogCaptureFixture, host: str
) -> None:
    """A scanner's Host header is the client's mistake: a clear 400, and one
    WARNING line in the log, not an ERROR with a traceback."""
    response = client.get("/healthz", HTTP_HOST=host)

    assert response.status_code == 400
    assert response.json() == {
        "code": "bad_request",
        "message": "The Host header names no host this server answers to "
        "(ALLOWED_HOSTS).",
    }
    [record] = [r for r in caplog.records if r.name.startswith("django.security")]
    assert (record.levelname, record.exc_info, record.exc_text) == (
        "WARNING",
        None,
        None,
    )


@pytest.mark.parametrize(
    ("kind", "status", "code", "message"),
    [
        ("conflict", 409, "table_full", "The table is full."),
        ("forbidden", 403, "not_creator", "Only the creator may start."),
        ("not-found", 404, "not_found", "No table 7."),
        ("bot-login", 403, "bot_account", "Bots cannot log in."),
        ("bad-login", 400, "invalid_credentials", "Wrong password."),
        ("illegal", 400, "not_your_turn", "It is seat 1's turn."),
        ("options", 400, "invalid_options", "target: must be at least 1."),
    ],
)
def test_application_errors_map_in_the_global_handler(
    api_client: APIClient, kind: str, status: int, code: str, message: str
) -> None:
    """A plain APIView that lets a service error rise gets its status and shape."""
    response = api_client.get(f"/test-api/app/{kind}/")

    assert response.status_code == status
    assert response.json() == {"code": code, "message": message}


def test_a_page_size_that_is_no_number_from_1_to_the_maximum_is_a_400() -> None:
    class Pages(CheckedPageNumberPagination):
        page_size = 20
        page_size_query_param = "page_size"
        max_page_size = 100

    def size(query: str) -> int | None:
        return Pages().get_page_size(Request(RequestFactory().get(f"/x/?{query}")))

    with pytest.raises(ValidationError) as refused:
        size("page_size=abc")

    assert refused.value.detail == {"page_size": ["A valid integer is required."]}
    assert [size(""), size("page_size="), size("page_size=7")] == [20, 20, 7]
    assert [size("page_size=1"), size("page_size=100")] == [1, 100]
    for query, message in [
        ("page_size=0", "Ensure this value is greater than or equal to 1."),
        ("page_size=1000", "Ensure this value is less than or equal to 100."),
    ]:
        with pytest.raises(ValidationError) as refused:
            size(query)
        assert refused.value.detail == {"page_size": [message]}, query
