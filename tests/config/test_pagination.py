"""Every paginated list reads ``page`` and ``page_size`` the same way: a value
that is no whole number of at least 1 (a size: from 1 to the list's maximum)
is a 400 that says so, a page past the last one a 404 (``config.pagination``),
and the schema lists both."""

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
#: Each list's largest page.
MAX_PAGE_SIZE = {
    "/api/tables/": 100,
    "/api/tournaments/": 100,
    "/api/stats/leaderboards/alkort/": 500,
    "/api/stats/players/{user}/ratings/alkort/": 500,
}


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
def test_a_page_size_outside_one_to_the_maximum_is_a_400(
    api_client: APIClient, user: Any, path: str
) -> None:
    """Not quietly the default or the maximum: the client asked for another."""
    most = MAX_PAGE_SIZE[path]
    path = path.format(user=user.username)
    answers = {
        size: api_client.get(path, {"page_size": size})
        for size in ("0", "-3", str(most + 1), "abc")
    }

    assert {
        size: (a.status_code, a.json()["message"]) for size, a in answers.items()
    } == {
        "0": (400, "page_size: Ensure this value is greater than or equal to 1."),
        "-3": (400, "page_size: Ensure this value is greater than or equal to 1."),
        str(most + 1): (
            400,
            f"page_size: Ensure this value is less than or equal to {most}.",
        ),
        "abc": (400, "page_size: A valid integer is required."),
    }
    for size in ("1", str(most), ""):
        assert api_client.get(path, {"page_size": size}).status_code == 200, size


def test_the_schema_bounds_every_page_size(api_client: APIClient) -> None:
    paths = api_client.get("/api/schema/", {"format": "json"}).json()["paths"]

    for path, most in MAX_PAGE_SIZE.items():
        path = path.replace("{user}", "{username}").replace("alkort", "{game}")
        [size] = [
            p for p in paths[path]["get"]["parameters"] if p["name"] == "page_size"
        ]
        # Or an empty string (the default): config.schema allows every query
        # parameter empty.
        [number] = [s for s in size["schema"]["anyOf"] if s["type"] == "integer"]
        assert (number["minimum"], number["maximum"]) == (1, most), path


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
