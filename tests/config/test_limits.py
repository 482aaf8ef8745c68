"""Oversized, over-many and over-nested bodies: a 4xx with a reason, never a 500.

Each case goes through the API (a DRF view) and a plain Django view, over the
WSGI test client and over Django's ASGI handler (``AsyncClient``, the path
daphne serves), and the log must hold no traceback for any of them.
"""

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient, Client
from rest_framework.test import APIClient

from tests.accounts.factories import UserFactory

pytestmark = [pytest.mark.urls("tests.config.urls"), pytest.mark.django_db]

LIMIT = 2_621_440  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE
TOO_LARGE = {
    "code": "request_too_large",
    "message": f"The request body is larger than the limit of {LIMIT} bytes.",
}
TOO_DEEP = {
    "code": "too_deeply_nested",
    "message": "The JSON body is nested deeper than 32 levels.",
}
TOO_MANY = {
    "code": "too_many_fields",
    "message": "The request has more than 1000 fields.",
}

BIG_JSON = json.dumps({"name": "a" * 3_000_000})
DEEP_JSON = '{"name": ' + "[" * 1000 + "]" * 1000 + "}"
ONE_DEEPER = '{"name": ' + "[" * 32 + "]" * 32 + "}"
JUST_DEEP_ENOUGH = '{"name": ' + "[" * 31 + "]" * 31 + "}"
MANY_FIELDS = "&".join(f"f{i}=1" for i in range(1100))
FORM = "application/x-www-form-urlencoded"

CASES = [
    ("/api/tables/", BIG_JSON, "application/json", 413, TOO_LARGE),
    ("/api/tables/", DEEP_JSON, "application/json", 400, TOO_DEEP),
    ("/api/tables/", ONE_DEEPER, "application/json", 400, TOO_DEEP),
    ("/api/tables/", MANY_FIELDS, FORM, 400, TOO_MANY),
    ("/test-django/json/", BIG_JSON, "application/json", 413, TOO_LARGE),
    ("/test-django/json/", DEEP_JSON, "application/json", 400, TOO_DEEP),
    ("/test-django/form/", MANY_FIELDS, FORM, 400, TOO_MANY),
]


def _no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    tracebacks = [r.getMessage() for r in caplog.records if r.exc_info or r.exc_text]
    assert tracebacks == []
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


@pytest.mark.parametrize(("path", "body", "content_type", "status", "error"), CASES)
def test_wsgi(
    caplog: pytest.LogCaptureFixture,
    path: str,
    body: str,
    content_type: str,
    status: int,
    error: dict[str, Any],
) -> None:
    client = APIClient()
    client.force_authenticate(UserFactory())

    response = client.post(path, body, content_type=content_type)

    assert (response.status_code, response.json()) == (status, error)
    _no_traceback(caplog)


@pytest.mark.parametrize(("path", "body", "content_type", "status", "error"), CASES)
def test_asgi(
    caplog: pytest.LogCaptureFixture,
    path: str,
    body: str,
    content_type: str,
    status: int,
    error: dict[str, Any],
) -> None:
    client = AsyncClient()
    client.force_login(UserFactory())

    # async_to_sync from this thread: the handler's database work runs here,
    # inside the test's transaction.
    response = async_to_sync(client.post)(path, body, content_type=content_type)

    assert (response.status_code, response.json()) == (status, error)
    _no_traceback(caplog)


def test_the_csrf_check_reading_a_huge_form_is_a_400(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = Client(enforce_csrf_checks=True)
    client.cookies["csrftoken"] = "a" * 32  # so the check goes on to read the form

    response = client.post("/", MANY_FIELDS, content_type=FORM)

    assert (response.status_code, response.json()) == (400, TOO_MANY)
    _no_traceback(caplog)


def test_nesting_within_the_limit_is_accepted() -> None:
    response = Client().post(
        "/test-django/json/", JUST_DEEP_ENOUGH, content_type="application/json"
    )
    api = APIClient().post(
        "/test-api/echo/", JUST_DEEP_ENOUGH, content_type="application/json"
    )

    assert response.json() == {"keys": ["name"]}
    assert api.status_code == 400  # parsed; then the name is not a string
    assert api.json()["code"] == "invalid"
