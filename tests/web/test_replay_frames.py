"""Replay frames: the view after every event, once the match is over."""

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Table, TableStatus
from tests.accounts.factories import UserFactory
from tests.games.tables import play_to_end, table_started

pytestmark = pytest.mark.django_db


def _finished(game: str, players: int, options: dict) -> tuple[Table, list[User]]:
    people = [UserFactory() for _ in range(players)]
    table = table_started(game=game, seating=people, options=options)
    table = play_to_end(table)
    assert table.status == TableStatus.FINISHED
    return table, people


def test_frames_follow_every_event_from_one_seat(client: Client) -> None:
    table, _ = _finished("alkort", 2, {"target": 1})

    response = client.get(f"/tables/{table.pk}/replay/frames/?seat=1")

    body = response.json()
    assert response.status_code == 200
    seqs = [frame["seq"] for frame in body["frames"]]
    assert seqs == list(range(seqs[0], table.seq + 1))
    assert all(frame["view"]["seat"] == 1 for frame in body["frames"])
    assert body["frames"][-1]["view"]["outcome"] == table.outcome


def test_all_open_frames_show_every_hand(client: Client) -> None:
    table, _ = _finished("alager", 3, {"penalty_limit": 1})

    body = client.get(f"/tables/{table.pk}/replay/frames/").json()

    dealt = next(
        f for f in body["frames"] if f["event"]["type"] == "alager.deal_started"
    )
    assert body["seat"] is None
    assert dealt["view"]["hands"] == dealt["event"]["payload"]["hands"]


def test_all_open_allegra_frames_turn_every_cell_face_up(client: Client) -> None:
    table, _ = _finished("allegra", 2, {"rounds": 1})

    body = client.get(f"/tables/{table.pk}/replay/frames/?seat=all").json()

    first = body["frames"][0]["view"]
    assert first["phase"] == "initial_reveal"
    cells = [cell for grid in first["grids"] for row in grid for cell in row]
    assert "down" not in cells and all(isinstance(c, int) for c in cells)
    # ...and it still says which cells nobody could see then: all 24 at first.
    assert len(first["face_down"]) == 24
    assert first["face_down"][:2] == ["0-0-0", "0-0-1"]


def test_a_match_in_play_is_not_replayed(client: Client) -> None:
    table = table_started(game="alkort", seating=[UserFactory(), UserFactory()])

    response = client.get(f"/tables/{table.pk}/replay/frames/?seat=0")

    assert response.status_code == 409
    assert response.json() == {
        "code": "not_finished",
        "message": f"Table {table.pk} can be replayed once its match has ended.",
    }


@pytest.mark.parametrize("seat", ["2", "-1", "x", "%C2%B2"])  # "²": a digit, not ASCII
def test_a_seat_outside_the_table_is_refused(client: Client, seat: str) -> None:
    table, _ = _finished("alkort", 2, {"target": 1})

    response = client.get(f"/tables/{table.pk}/replay/frames/?seat={seat}")

    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_seat",
        "message": "seat must be all or 0 to 1.",
    }


@pytest.mark.parametrize("debug", [False, True])
def test_a_missing_table_is_a_json_404_that_names_it(
    client: Client, settings: Any, debug: bool
) -> None:
    """With DEBUG on, Django's own 404 page was HTML; with it off, JSON
    without the table's message."""
    settings.DEBUG = debug

    response = client.get("/tables/987654/replay/frames/")

    assert response.status_code == 404
    assert response.json() == {
        "code": "not_found",
        "message": "Table 987654 does not exist.",
    }
