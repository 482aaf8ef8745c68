""" "Play against bots" racing a person who joins, on the real PostgreSQL.

The web lobby opens a table, fills its empty seats with bots in one request
(``POST /api/tables/{id}/bots/`` with ``"fill": true``) and starts it. A
person may join between those steps: they get their seat and play, or they
get a clear 409; never a seat both theirs and a bot's, never a match left
unstarted. Each client runs in a thread (and connection) of its own
(``tests.races``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from games.models import Seat, Table, TableStatus
from games.services.locking import table_lock
from tests.accounts.factories import UserFactory, token_for
from tests.races import holding, in_background, run_together, wait_for_lock_waiters

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

PLAYERS = 4  # Alager at four: the creator, and three seats to fill


def client_for(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def open_table(creator: APIClient) -> int:
    answer = creator.post(
        "/api/tables/",
        {"game": "alager", "players": PLAYERS, "rated": False},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    return int(answer.json()["id"])


def play_bots(creator: APIClient, table_id: int) -> list[Any]:
    """The lobby's "play against bots" after opening the table."""
    filled = creator.post(
        f"/api/tables/{table_id}/bots/", {"fill": True, "level": "basic"}, format="json"
    )
    started = creator.post(f"/api/tables/{table_id}/start/")
    return [filled, started]


def join(person: APIClient, table_id: int) -> Any:
    return person.post(f"/api/tables/{table_id}/join/", {}, format="json")


def seats(table_id: int) -> list[tuple[int, int, str | None]]:
    return list(
        Seat.objects.filter(table_id=table_id)
        .order_by("index")
        .values_list("index", "user_id", "bot_level")
    )


def test_a_person_who_joins_first_keeps_the_seat_and_plays() -> None:
    ada, bo = UserFactory(), UserFactory()
    creator, person = client_for(ada), client_for(bo)
    table_id = open_table(creator)

    with holding(lambda: table_lock(table_id)):
        joining = in_background(lambda: join(person, table_id))
        wait_for_lock_waiters(1)
        filling = in_background(lambda: play_bots(creator, table_id))
        wait_for_lock_waiters(2)  # in line behind the join
    joined = joining.wait().get()
    filled, started = filling.wait().get()

    assert joined.status_code == 200, joined.json()
    assert filled.status_code == 200, filled.json()
    assert started.status_code == 200, started.json()
    assert Table.objects.get(pk=table_id).status == TableStatus.PLAYING
    assert seats(table_id)[:2] == [(0, ada.pk, None), (1, bo.pk, None)]
    assert [level for _, _, level in seats(table_id)[2:]] == ["basic", "basic"]


def test_a_person_who_joins_after_the_bots_gets_a_409() -> None:
    ada, bo = UserFactory(), UserFactory()
    creator, person = client_for(ada), client_for(bo)
    table_id = open_table(creator)

    with holding(lambda: table_lock(table_id)):
        filling = in_background(lambda: play_bots(creator, table_id))
        wait_for_lock_waiters(1)
        joining = in_background(lambda: join(person, table_id))
        wait_for_lock_waiters(2)  # in line behind the bots
    filled, started = filling.wait().get()
    joined = joining.wait().get()

    assert (filled.status_code, started.status_code) == (200, 200)
    assert joined.status_code == 409
    assert joined.json()["code"] in ("table_full", "already_started")
    assert Table.objects.get(pk=table_id).status == TableStatus.PLAYING
    assert [user for _, user, _ in seats(table_id)].count(bo.pk) == 0
    assert len(seats(table_id)) == PLAYERS


def test_joining_and_filling_at_once_never_share_or_lose_a_seat() -> None:
    for _ in range(4):
        ada, bo = UserFactory(), UserFactory()
        creator, person = client_for(ada), client_for(bo)
        table_id = open_table(creator)

        filling, joining = run_together(
            partial(play_bots, creator, table_id), partial(join, person, table_id)
        )

        filled, started = filling.get()
        joined = joining.get()
        assert (filled.status_code, started.status_code) == (200, 200)
        assert Table.objects.get(pk=table_id).status == TableStatus.PLAYING
        taken = seats(table_id)
        assert [index for index, _, _ in taken] == list(range(PLAYERS))
        people = [user for _, user, level in taken if level is None]
        if joined.status_code == 200:
            assert sorted(people) == sorted([ada.pk, bo.pk])
        else:
            assert joined.status_code == 409, joined.json()
            assert people == [ada.pk]


def test_fill_and_a_seat_together_are_refused() -> None:
    creator = client_for(UserFactory())
    table_id = open_table(creator)

    answer = creator.post(
        f"/api/tables/{table_id}/bots/", {"fill": True, "seat": 2}, format="json"
    )

    assert answer.status_code == 400
    assert answer.json() == {
        "code": "invalid_seat",
        "message": "Give a seat or fill, not both: fill seats every empty seat.",
    }
    assert len(seats(table_id)) == 1
