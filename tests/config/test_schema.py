"""The OpenAPI schema tells the truth about the API, checked by schemathesis.

Every operation of ``/api/schema/`` is called in-process (Django's WSGI
handler, inside the test's transaction) with generated requests, as an
anonymous visitor, as a player with a token and a table in play, and as staff,
and every response is checked against the schema: no 5xx, every status
documented, every body and header as documented, invalid requests refused and
valid ones accepted. The budget is ``MAX_EXAMPLES`` requests per operation and
role, about a minute in all on an idle machine.
"""

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.throttling import SimpleRateThrottle

from accounts.services import token_get_or_create
from tests.accounts.factories import UserFactory
from tests.games.tables import table_started

# Operations where a schema-valid body may rightly be refused with 400, because
# what is valid depends on more than a schema can say: the password rules and
# the names already taken, whether the credentials (or the current password)
# are right, each game's player counts and options, whether a move is legal
# now, whether the two players of a head to head are two different people,
# whether a leaderboard's table size is one its game allows.
DEPENDS_ON_MORE_THAN_THE_SCHEMA = {
    ("POST", "/api/accounts/register/"),
    ("POST", "/api/accounts/token/"),
    ("POST", "/api/accounts/login/"),
    ("POST", "/api/accounts/password/"),
    ("POST", "/api/tables/"),
    ("POST", "/api/tables/{table_id}/actions/"),
    ("GET", "/api/stats/head-to-head/"),
    ("GET", "/api/stats/leaderboards/{game}/"),
}

MAX_EXAMPLES = 10

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture(autouse=True)
def _in_process(db: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # The WSGI handler, unlike the test client, closes "old" connections at
    # each request, and in a test transaction every connection looks old.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": None, "user": None}
    )
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture(params=["anonymous", "player", "staff"])
def headers(request: pytest.FixtureRequest, db: Any) -> dict[str, str]:
    """The role's credentials; a player and staff each sit at a table in play."""
    if request.param == "anonymous":
        return {}
    user = UserFactory(is_staff=request.param == "staff")
    table_started(seating=[user, UserFactory()])
    return {"Authorization": f"Token {token_get_or_create(user=user)}"}


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_answers_as_its_schema_says(case: Any, headers: dict[str, str]) -> None:
    excluded = []
    if (case.method, case.path) in DEPENDS_ON_MORE_THAN_THE_SCHEMA:
        excluded.append(schemathesis.checks.positive_data_acceptance)
    case.call_and_validate(headers=headers, excluded_checks=excluded)
