"""The tables API, happy paths: catalogue, lobby, detail, events, export, verify."""

from collections.abc import Callable
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

import rules
from games import event_store
from games.models import Table
from tests.accounts.factories import UserFactory
from tests.games.conftest import Player
from tests.games.tables import SEED, play_to_end, seat_users, table_started

pytestmark = pytest.mark.django_db

ALKORT = rules.get_game("alkort")


def test_the_catalogue_lists_every_game_with_its_options(
    player: Callable[..., Player],
) -> None:
    response = player(anonymous=True).get("/api/games/")

    assert response.status_code == 200
    # The static per-game extras (player counts, bot levels, card names) are
    # checked in tests/games/test_apis_games.py.
    assert [
        {
            key: game[key]
            for key in ("name", "title", "min_players", "max_players", "options")
        }
        for game in response.json()
    ] == [
        {
            "name": name,
            "title": rules.get_game(name).title,
            "min_players": rules.get_game(name).min_players,
            "max_players": rules.get_game(name).max_players,
            "options": rules.get_game(name).options_schema(),
        }
        for name in ("alager", "alkort", "allegra")
    ]


def test_create_answers_201_with_the_table(player: Callable[..., Player]) -> None:
    ada = player(UserFactory(username="ada"))

    response = ada.post(
        "/api/tables/",
        {"game": "alkort", "players": 4, "options": {"target": 3}, "rated": True},
    )

    assert response.status_code == 201
    body = response.json()
    table = Table.objects.get()
    # A table just opened was last active when it was opened.
    assert body["active_at"] >= body["created_at"]
    assert {k: body[k] for k in body if k not in ("created_at", "active_at")} == {
        "id": table.pk,
        "game": "alkort",
        "title": "Alkort",
        "status": "lobby",
        "players": 4,
        "options": {**ALKORT.default_options(), "target": 3},
        "rated": True,
        "created_by": "ada",
        "seats": [
            {"seat": 0, "username": "ada", "is_bot": False, "bot_level": None},
            *(
                {"seat": i, "username": None, "is_bot": False, "bot_level": None}
                for i in (1, 2, 3)
            ),
        ],
        "seq": 0,
        "seed_sha256": None,
        "seed": None,
        "outcome": None,
        "started_at": None,
        "finished_at": None,
        "seat": 0,
        "view": None,
        "legal_actions": [],
        "time_control": None,
        "deadline": None,
        "idle": False,
    }


def test_lobby_to_play_over_http(player: Callable[..., Player]) -> None:
    ada, bo = player(UserFactory(username="ada")), player(UserFactory(username="bo"))
    table_id = ada.post("/api/tables/", {"game": "alkort", "players": 4}).json()["id"]
    base = f"/api/tables/{table_id}"

    joined = bo.post(f"{base}/join/", {"seat": 2})
    bot = ada.post(f"{base}/bots/", {"level": "random"})
    ada.post(f"{base}/bots/", {})
    started = ada.post(f"{base}/start/")

    assert (joined.status_code, joined.json()["seat"]) == (200, 2)
    assert bot.json()["seats"][1] == {
        "seat": 1,
        "username": "bot-random",
        "is_bot": True,
        "bot_level": "random",
    }
    assert started.status_code == 200
    assert (started.json()["status"], started.json()["seq"]) == ("playing", 2)
    # Seat 1 (a bot) is forehand: it played on commit, before ada looks again.
    body = ada.get(f"{base}/").json()
    table = Table.objects.get(pk=table_id)
    assert table.seq > 2
    assert (body["status"], body["seat"], body["seq"]) == ("playing", 0, table.seq)
    assert body["seed_sha256"] == table.seed_sha256 and body["seed"] is None
    state = ALKORT.load_state(table.state)
    assert body["view"] == ALKORT.view(state, 0)
    expected_legal = ALKORT.legal_actions(state, 0) if 0 in ALKORT.to_act(state) else []
    assert body["legal_actions"] == expected_legal


def test_spectators_see_the_spectator_view(player: Callable[..., Player]) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])
    state = ALKORT.load_state(table.state)

    for who in (player(anonymous=True), player()):
        body = who.get(f"/api/tables/{table.pk}/").json()
        assert (body["seat"], body["legal_actions"]) == (None, [])
        assert body["view"] == ALKORT.view(state, None)


def test_a_seated_player_sees_their_view_and_moves(
    player: Callable[..., Player],
) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])
    people = seat_users(table)
    state = ALKORT.load_state(table.state)

    waiting = player(people[0]).get(f"/api/tables/{table.pk}/").json()
    acting = player(people[1]).get(f"/api/tables/{table.pk}/").json()

    assert (waiting["seat"], waiting["view"], waiting["legal_actions"]) == (
        0,
        ALKORT.view(state, 0),
        [],
    )
    assert (acting["seat"], acting["view"], acting["legal_actions"]) == (
        1,
        ALKORT.view(state, 1),
        ALKORT.legal_actions(state, 1),
    )


def test_an_action_answers_seq_view_and_moves(player: Callable[..., Player]) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])
    bo = player(seat_users(table)[1])
    action = ALKORT.legal_actions(ALKORT.load_state(table.state), 1)[0]

    response = bo.post(
        f"/api/tables/{table.pk}/actions/",
        {"action": action, "expected_seq": table.seq, "command_id": "move-1"},
    )

    assert response.status_code == 200
    table.refresh_from_db()
    state = ALKORT.load_state(table.state)
    assert response.json() == {
        "seq": table.seq,
        "status": "playing",
        "view": ALKORT.view(state, 1),
        "legal_actions": ALKORT.legal_actions(state, 1),
    }
    retry = bo.post(
        f"/api/tables/{table.pk}/actions/",
        {"action": action, "expected_seq": 2, "command_id": "move-1"},
    )
    assert retry.json() == response.json()
    assert Table.objects.get(pk=table.pk).seq == table.seq


def test_leave_in_play_hands_over_to_a_bot(player: Callable[..., Player]) -> None:
    table = table_started(seating=[UserFactory(), UserFactory(username="bo")])
    bo = player(seat_users(table)[1])

    response = bo.post(f"/api/tables/{table.pk}/leave/")

    assert response.status_code == 200
    body = response.json()
    assert body["seat"] is None
    assert body["seats"][1] == {
        "seat": 1,
        "username": "bot-basic",
        "is_bot": True,
        "bot_level": "basic",
    }
    # Seat 1 was to act: its bot played on commit.
    assert bo.get(f"/api/tables/{table.pk}/").json()["seq"] > table.seq


def test_events_are_redacted_for_the_requesters_seat(
    player: Callable[..., Player],
) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])
    people = seat_users(table)
    events = event_store.load_events(table)

    for seat, who in ((0, player(people[0])), (None, player(anonymous=True))):
        response = who.get(f"/api/tables/{table.pk}/events/")
        assert response.status_code == 200
        assert response.json() == [
            {"seq": i, **ALKORT.redact(e, seat).to_json(), "seat": None}
            for i, e in enumerate(events, start=1)
        ]
    after = player(people[0]).get(f"/api/tables/{table.pk}/events/", after=1).json()
    assert [e["seq"] for e in after] == [2]
    assert "hands" in after[0]["payload"] and after[0]["payload"]["hands"][1] is None


def test_a_finished_match_reveals_everything(player: Callable[..., Player]) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()], options={"target": 1})
    play_to_end(table)
    events = event_store.load_events(table)
    watcher = player(anonymous=True)

    detail = watcher.get(f"/api/tables/{table.pk}/").json()
    listed = watcher.get(f"/api/tables/{table.pk}/events/").json()
    export = watcher.get(f"/api/tables/{table.pk}/export/").json()
    verify = watcher.get(f"/api/tables/{table.pk}/verify/")

    assert (detail["status"], detail["seed"], detail["outcome"]) == (
        "finished",
        SEED,
        events[-1].payload["outcome"],
    )
    assert [e["payload"] for e in listed] == [e.payload for e in events]
    assert listed[0]["payload"]["seed"] == SEED
    assert export["events"] == listed
    assert export["table"]["seed"] == SEED and export["table"]["seat"] is None
    assert verify.status_code == 200
    assert verify.json() == {
        "table": table.pk,
        "seed": SEED,
        "seed_sha256": table.seed_sha256,
        **ALKORT.verify(events),
    }
    assert verify.json()["ok"] is True and verify.json()["checked"] >= 1


def test_export_in_play_is_redacted_like_the_event_list(
    player: Callable[..., Player],
) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])
    ada = player(seat_users(table)[0])

    export = ada.get(f"/api/tables/{table.pk}/export/").json()

    assert export["events"] == ada.get(f"/api/tables/{table.pk}/events/").json()
    assert export["table"]["seat"] == 0 and export["table"]["seed"] is None
    assert SEED not in str(export)


def test_the_list_is_paginated_and_filtered(player: Callable[..., Player]) -> None:
    ada = player(UserFactory(username="ada"))
    mine = [
        ada.post("/api/tables/", {"game": game, "players": 2}).json()["id"]
        for game in ("alkort", "allegra", "alkort")
    ]
    other = table_started(seating=[UserFactory(), UserFactory()])

    everything = ada.get("/api/tables/").json()
    alkort = ada.get("/api/tables/", game="alkort").json()
    playing = ada.get("/api/tables/", status="playing").json()
    own = ada.get("/api/tables/", mine="true").json()
    paged = ada.get("/api/tables/", page_size=2, page=2).json()

    assert everything["count"] == 4
    assert [t["id"] for t in everything["results"]] == [other.pk, *reversed(mine)]
    assert [t["id"] for t in alkort["results"]] == [other.pk, mine[2], mine[0]]
    assert [t["id"] for t in playing["results"]] == [other.pk]
    assert [t["id"] for t in own["results"]] == list(reversed(mine))
    assert [t["id"] for t in paged["results"]] == [mine[1], mine[0]]
    assert paged["previous"] is not None and paged["next"] is None
    assert "view" not in everything["results"][0]
    assert player(anonymous=True).get("/api/tables/", mine="true").json()["count"] == 0


def test_the_schema_documents_every_table_path(player: Callable[..., Player]) -> None:
    schema = player(anonymous=True).client.get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )

    paths = schema.json()["paths"]
    for path in (
        "/api/accounts/register/",
        "/api/accounts/token/",
        "/api/accounts/me/",
        "/api/games/",
        "/api/tables/",
        "/api/tables/{table_id}/",
        "/api/tables/{table_id}/join/",
        "/api/tables/{table_id}/leave/",
        "/api/tables/{table_id}/bots/",
        "/api/tables/{table_id}/start/",
        "/api/tables/{table_id}/actions/",
        "/api/tables/{table_id}/events/",
        "/api/tables/{table_id}/export/",
        "/api/tables/{table_id}/verify/",
    ):
        assert path in paths, path
    action = paths["/api/tables/{table_id}/actions/"]["post"]
    assert "200" in action["responses"]
    assert action["requestBody"]["content"]["application/json"]["schema"]["$ref"]


def test_the_schema_generates_without_warnings(tmp_path: Path) -> None:
    """Unique component names, typed fields: a schema clients can generate from."""
    call_command(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(tmp_path / "schema.yml"),
        stderr=StringIO(),
    )

    assert "TableCreateInput" in (tmp_path / "schema.yml").read_text()


def test_a_timed_table_shows_its_deadline_and_refuses_a_bad_time_control(
    player: Callable[..., Player],
) -> None:
    ada, bo = player(UserFactory()), player(UserFactory())
    refused = ada.post(
        "/api/tables/", {"game": "alkort", "players": 2, "time_control": 0}
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid"
    assert refused.json()["message"] == (
        "time_control: Ensure this value is greater than or equal to 1."
    )

    created = ada.post(
        "/api/tables/", {"game": "alkort", "players": 2, "time_control": 30}
    )
    table_id = created.json()["id"]
    assert (created.json()["time_control"], created.json()["deadline"]) == (30, None)
    bo.post(f"/api/tables/{table_id}/join/")
    started = ada.post(f"/api/tables/{table_id}/start/").json()

    table = Table.objects.get(pk=table_id)
    expected = table.updated_at + timedelta(seconds=30)
    assert started["deadline"] == expected.isoformat().replace("+00:00", "Z")
