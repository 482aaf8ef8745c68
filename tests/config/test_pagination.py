"""Every paginated list reads ``page`` and ``page_size`` the same way: a value
that is no whole number of at least 1 is a 400 that says so, a page past the
last one a 404 (``config.pagination``), and the schema lists both."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

LISTS = [
    "/api/tables/",
    "/api/tournaments/",
    "/api/stats/leaderboards/alkort/",
    "/api/stats/players/{user}/ratings/alkort/",
]


@pytest.fixture
def user() -> Any:
    return UserFactory()


@pytest.mark.parametrize("path", LISTS)
@pytest.mark.parametrize(
    ("page", "message"),
    [
        ("abc", "page: A valid integer is required."),
        ("²", "page: A valid integer is required."),
        ("last", "page: A valid integer is required."),
        ("0", "page: Ensure this value is greater than or equal to 1."),
        ("-1", "page: Ensure this value is greater than or equal to 1."),
    ],
)
def test_a_page_that_is_no_page_number_is_a_400(
    api_client: APIClient, user: Any, path: str, page: str, message: str
) -> None:
    response = api_client.get(path.format(user=user.username), {"page": page})

    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert response.json()["message"] == message


@pytest.mark.parametrize("path", LISTS)
def test_a_page_past_the_last_is_a_404_and_page_one_always_exists(
    api_client: APIClient, user: Any, path: str
) -> None:
    path = path.format(user=user.username)

    assert api_client.get(path, {"page": "1"}).status_code == 200
    past = api_client.get(path, {"page": "99"})

    assert past.status_code == 404
    assert past.json() == {"code": "not_found", "message": "Invalid page."}


def test_the_schema_lists_the_pages_and_the_registration_conflicts(
    api_client: APIClient,
) -> None:
    paths = api_client.get("/api/schema/", {"format": "json"}).json()["paths"]

    tournaments = paths["/api/tournaments/"]["get"]
    names = {p["name"] for p in tournaments["parameters"]}
    assert {"page", "page_size"} <= names
    assert "404" in tournaments["responses"]
    for action in ("register", "withdraw"):
        operation = paths[f"/api/tournaments/{{tournament_id}}/{action}/"]["post"]
        assert "409" in operation["responses"], action
