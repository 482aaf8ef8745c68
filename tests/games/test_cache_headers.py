"""Table answers are never stored by a cache on the way (docs/security.md).

Every table URL answers each requester with what they may see (seat 1's view
holds seat 1's hand), so a proxy or a browser's disk cache that kept one
answer could hand a seat's cards to the next person asking the same URL.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import rules
from tests.accounts.factories import UserFactory
from tests.games.conftest import Player
from tests.games.tables import seat_users, table_started

pytestmark = pytest.mark.django_db

GAME = rules.get_game("alkort")


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables/{id}/",
        "/api/tables/{id}/events/",
        "/api/tables/{id}/export/",
        "/api/tables/{id}/verify/",
        "/api/tables/",
    ],
)
def test_table_reads_are_private_and_not_stored(
    player: Callable[..., Player], path: str
) -> None:
    table = table_started(game="alkort", seating=[UserFactory(), UserFactory()])
    for who in (player(seat_users(table)[1]), player(anonymous=True)):
        response = who.get(path.format(id=table.pk))
        assert response.status_code in (200, 409)
        assert response["Cache-Control"] == "private, no-store"


def test_a_moves_answer_is_private_and_not_stored(
    player: Callable[..., Player],
) -> None:
    table = table_started(game="alkort", seating=[UserFactory(), UserFactory()])
    seat_one = player(seat_users(table)[1])
    action = GAME.legal_actions(GAME.load_state(table.state), 1)[0]
    response = seat_one.post(f"/api/tables/{table.pk}/actions/", {"action": action})
    assert response.status_code == 200
    assert response.json()["view"]["hand"]
    assert response["Cache-Control"] == "private, no-store"
