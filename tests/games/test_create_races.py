"""Opening a table twice by accident (a double click, a retry after a lost
answer): with the same ``request_id`` the repeat gets the first table, also
when both arrive at once, on the real PostgreSQL (``tests.races``)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from games import services
from games.models import Seat, Table
from tests.accounts.factories import UserFactory, token_for
from tests.races import holding, in_background, run_together, wait_for_lock_waiters

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

BODY = {"game": "alkort", "players": 2, "request_id": "3f2c9a-create-1"}


def client_for(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def create(client: APIClient, body: dict[str, Any] = BODY) -> Any:
    return client.post("/api/tables/", body, format="json")


def test_a_repeated_create_returns_the_first_table() -> None:
    ada = UserFactory()
    client = client_for(ada)

    first, again = create(client), create(client)

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json()["id"] == first.json()["id"]
    assert again.json()["seat"] == 0
    assert Table.objects.count() == 1
    assert list(Seat.objects.values_list("user_id", flat=True)) == [ada.pk]
    # The id is the person's own: someone else's same id opens their table.
    other = create(client_for(UserFactory()))
    assert other.status_code == 201 and other.json()["id"] != first.json()["id"]


def test_repeats_sent_at_once_open_one_table() -> None:
    client = client_for(UserFactory())

    answers = [o.get() for o in run_together(*[partial(create, client)] * 3)]

    assert [a.status_code for a in answers] == [201, 201, 201]
    assert len({a.json()["id"] for a in answers}) == 1
    assert Table.objects.count() == 1


def test_a_repeat_waits_for_the_first_to_commit_then_gets_its_table() -> None:
    """The first create has written its table but not committed: the repeat
    waits on the request's unique key, then answers with that table."""
    ada = UserFactory()
    client = client_for(ada)
    fields = {k: v for k, v in BODY.items() if k != "request_id"}

    with holding(
        lambda: services.table_create(user=ada, request_id=BODY["request_id"], **fields)
    ) as first:
        repeat = in_background(partial(create, client))
        wait_for_lock_waiters(1, unless=repeat.done)
    assert first.outcome.ok, first.outcome.error
    table = first.locked
    answer = repeat.wait().get()

    assert answer.status_code == 201
    assert answer.json()["id"] == table.pk
    assert Table.objects.count() == 1


def test_the_same_request_id_for_other_settings_is_refused() -> None:
    client = client_for(UserFactory())
    first = create(client)

    other = create(client, {**BODY, "players": 4})

    assert other.status_code == 409
    assert other.json() == {
        "code": "request_reused",
        "message": f"Request {BODY['request_id']!r} already opened table "
        f"{first.json()['id']} with other settings; use a new request_id for "
        "another table.",
    }
    assert Table.objects.count() == 1
