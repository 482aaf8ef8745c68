"""The players' API: list, detail, register and withdraw, with their errors."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from tests.accounts.factories import BotFactory, UserFactory, token_for
from tests.tournaments.factories import TournamentFactory, enter
from tournaments import services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def client_for(user: User | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def published(**kwargs: Any) -> Tournament:
    tournament = TournamentFactory(**kwargs)
    services.registration_open(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def register(user: User, tournament: Tournament, **data: Any) -> Any:
    return client_for(user).post(
        f"/api/tournaments/{tournament.pk}/register/", data, format="json"
    )


def withdraw(user: User, tournament: Tournament) -> Any:
    return client_for(user).post(f"/api/tournaments/{tournament.pk}/withdraw/")


# --- list and detail --------------------------------------------------------


def test_list_hides_drafts_and_filters() -> None:
    TournamentFactory(name="Draft")
    alager = published(name="Alager open")
    allegra = published(name="Allegra cup", game="allegra")
    response = client_for().get("/api/tournaments/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    assert [t["name"] for t in body["results"]] == ["Allegra cup", "Alager open"]
    assert body["results"][1] == {
        "id": alager.pk,
        "name": "Alager open",
        "game": "alager",
        "options": alager.options,
        "table_size": 3,
        "format": "swiss",
        "round_count": 3,
        "time_control": None,
        "rated": False,
        "bot_level": "basic",
        "fill_policy": "bots",
        "team_event": False,
        "status": "registration",
        "entries_count": 0,
        "max_entries": None,
        "created_at": body["results"][1]["created_at"],
        "started_at": None,
        "finished_at": None,
    }
    by_game = client_for().get("/api/tournaments/", {"game": "allegra"}).json()
    assert [t["id"] for t in by_game["results"]] == [allegra.pk]
    by_status = client_for().get("/api/tournaments/", {"status": "running"}).json()
    assert by_status["results"] == []


def test_list_refuses_an_unknown_filter_value() -> None:
    response = client_for().get("/api/tournaments/", {"status": "draft"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["message"] == 'status: "draft" is not a valid choice.'


def test_detail_of_a_draft_or_missing_tournament_is_404() -> None:
    draft = TournamentFactory()
    for pk in (draft.pk, draft.pk + 1000):
        response = client_for().get(f"/api/tournaments/{pk}/")
        assert response.status_code == 404
        assert response.json() == {
            "code": "not_found",
            "message": f"Tournament {pk} does not exist.",
        }


def test_detail_shows_rounds_tables_seats_and_standings() -> None:
    organiser = UserFactory(is_staff=True)
    tournament = published(
        name="Duels", game="alkort", table_size=2, options={"target": 1}
    )
    entries = enter(tournament, 3)  # one bot fills the second table
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    services.standings_recompute(tournament_id=tournament.pk)
    body = client_for().get(f"/api/tournaments/{tournament.pk}/").json()
    assert body["status"] == "running"
    assert [e["username"] for e in body["entries"]] == [
        e.player.username for e in entries
    ]
    assert [e["number"] for e in body["entries"]] == [1, 2, 3]
    (rnd,) = body["rounds"]
    assert rnd["number"] == 1 and rnd["status"] == "running" and rnd["byes"] == []
    tables = tournament.round_set.get().tables.order_by("number")
    assert [t["table"] for t in rnd["tables"]] == [t.table_id for t in tables]
    assert all(t["status"] == "playing" and t["outcome"] is None for t in rnd["tables"])
    seats = [s for t in rnd["tables"] for s in t["seats"]]
    assert sorted(s["username"] for s in seats if not s["is_bot"]) == sorted(
        e.player.username for e in entries
    )
    assert [s for s in seats if s["is_bot"]] == [
        {"seat": 0, "username": None, "is_bot": True, "bot_level": "basic"}
    ]
    assert [(s["rank"], s["points"], s["played"]) for s in body["standings"]] == [
        (1, 0.0, 0)
    ] * 3
    # Nothing of a table in play beyond its seats and status.
    for table in tables:
        assert table.table.seed not in str(body)
    assert "view" not in body and "state" not in str(body)


# --- register and withdraw --------------------------------------------------


def test_register_and_withdraw() -> None:
    tournament = published(name="Open")
    user = UserFactory()
    response = register(user, tournament)
    assert response.status_code == 200
    assert [e["username"] for e in response.json()["entries"]] == [user.username]
    assert response.json()["entries_count"] == 1
    response = withdraw(user, tournament)
    assert response.status_code == 200
    assert response.json()["entries"][0]["withdrawn"] is True
    assert response.json()["entries_count"] == 0
    # Registering again while registration is open brings the entry back.
    assert register(user, tournament).status_code == 200
    assert Entry.objects.get(player=user).withdrawn is False


@pytest.mark.parametrize("path", ["register", "withdraw"])
def test_anonymous_requests_are_401(path: str) -> None:
    tournament = published()
    response = client_for().post(f"/api/tournaments/{tournament.pk}/{path}/")
    assert response.status_code == 401
    assert response.json() == {
        "code": "not_authenticated",
        "message": "Authentication credentials were not provided.",
    }


def test_a_bot_cannot_register() -> None:
    tournament = published()
    client = APIClient()
    client.force_authenticate(BotFactory())
    response = client.post(f"/api/tournaments/{tournament.pk}/register/")
    assert response.status_code == 403
    assert response.json() == {
        "code": "bot_account",
        "message": "Bot accounts cannot enter tournaments.",
    }
    assert not Entry.objects.exists()


@pytest.mark.parametrize("path", ["register", "withdraw"])
def test_missing_and_draft_tournaments_are_404(path: str) -> None:
    draft = TournamentFactory()
    user = UserFactory()
    for pk in (draft.pk, draft.pk + 1000):
        response = client_for(user).post(f"/api/tournaments/{pk}/{path}/")
        assert response.status_code == 404
        assert response.json() == {
            "code": "not_found",
            "message": f"Tournament {pk} does not exist.",
        }


def test_registering_twice_is_409() -> None:
    tournament = published(name="Open")
    user = UserFactory()
    register(user, tournament)
    response = register(user, tournament)
    assert response.status_code == 409
    assert response.json() == {
        "code": "already_registered",
        "message": "You are already registered for 'Open'.",
    }
    assert Entry.objects.count() == 1


def test_withdrawing_without_an_entry_is_409() -> None:
    tournament = published(name="Open")
    response = withdraw(UserFactory(), tournament)
    assert response.status_code == 409
    assert response.json() == {
        "code": "not_registered",
        "message": "You are not registered for 'Open'.",
    }


def test_register_and_withdraw_after_the_start_are_409() -> None:
    tournament = published(name="Open", game="alkort", table_size=2)
    entries = enter(tournament, 2)
    services.round_seat(tournament_id=tournament.pk)
    closed = {
        "code": "registration_closed",
        "message": "Registration for 'Open' is closed: the tournament is running.",
    }
    response = register(UserFactory(), tournament)
    assert (response.status_code, response.json()) == (409, closed)
    # A player who cannot go on is told who can withdraw them now (the
    # registration's message read as if they had tried to register).
    response = withdraw(entries[0].player, tournament)
    assert (response.status_code, response.json()) == (
        409,
        {
            "code": "registration_closed",
            "message": "You can no longer withdraw from 'Open' yourself: the "
            "tournament is running. Ask its organiser to withdraw you (a bot then "
            "plays your seat in a match in play).",
        },
    )
    assert Entry.objects.filter(withdrawn=True).count() == 0
    assert Entry.objects.count() == 2


def test_a_team_events_tied_teams_are_listed_pair_by_pair() -> None:
    """Before any table ends every team shares 1st: the standings list each
    team's players together, though their starting numbers alternate."""
    tournament = published(
        name="Pairs",
        game="alkort",
        table_size=4,
        team_event=True,
        options={"target": 1},
    )
    for team in ("Ravens", "Owls", "Ravens", "Owls"):
        enter(tournament, 1, team=team)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=UserFactory(is_staff=True))
    services.standings_recompute(tournament_id=tournament.pk)
    body = client_for().get(f"/api/tournaments/{tournament.pk}/").json()
    assert [e["team"] for e in body["entries"]] == ["Ravens", "Owls"] * 2
    assert [(s["rank"], s["team"]) for s in body["standings"]] == [
        (1, "Ravens"), (1, "Ravens"), (1, "Owls"), (1, "Owls"),
    ]  # fmt: skip


def test_team_events_need_a_team_of_at_most_two() -> None:
    tournament = published(name="Pairs", game="alkort", table_size=4, team_event=True)
    user = UserFactory()
    response = register(user, tournament)
    assert response.status_code == 400
    assert response.json() == {
        "code": "team_required",
        "message": "This is a team event: name your team to register.",
    }
    assert register(user, tournament, team="Ravens").status_code == 200
    assert register(UserFactory(), tournament, team="Ravens").status_code == 200
    response = register(UserFactory(), tournament, team="Ravens")
    assert response.status_code == 409
    assert response.json() == {
        "code": "team_full",
        "message": "Team 'Ravens' already has two players.",
    }
    assert Entry.objects.filter(team="Ravens").count() == 2


@pytest.mark.parametrize(
    "team",
    [
        "Ra\u200bvens",  # a zero-width space: looks like "Ravens", another team
        "Ravens\u202e",  # a right-to-left override: turns the line around it
        "Ra\u2066vens",
        "Ravens\nand more",
        "Ra\x07vens",
        "Ra\u2028vens",
    ],
)
def test_a_team_name_holds_no_control_or_invisible_characters(team: str) -> None:
    tournament = published(name="Pairs", game="alkort", table_size=4, team_event=True)
    assert register(UserFactory(), tournament, team="Ravens").status_code == 200

    response = register(UserFactory(), tournament, team=team)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_team"
    assert list(tournament.entries.values_list("team", flat=True)) == ["Ravens"]


def test_a_team_name_may_be_in_any_alphabet() -> None:
    tournament = published(name="Pairs", game="alkort", table_size=4, team_event=True)

    response = register(UserFactory(), tournament, team="Les Corbeaux – 烏 (2)")

    assert response.status_code == 200


def test_a_team_name_is_matched_whatever_its_case() -> None:
    """Partners who type 'Ravens' and ' ravens' are one team: as two, each
    was incomplete and the first round could not be seated."""
    tournament = published(name="Pairs", game="alkort", table_size=4, team_event=True)
    assert register(UserFactory(), tournament, team="Ravens").status_code == 200
    assert register(UserFactory(), tournament, team=" ravens").status_code == 200
    assert list(tournament.entries.values_list("team", flat=True)) == [
        "Ravens",
        "Ravens",
    ]
    response = register(UserFactory(), tournament, team="RAVENS")
    assert response.status_code == 409
    assert response.json() == {
        "code": "team_full",
        "message": "Team 'Ravens' already has two players.",
    }


def test_teams_are_refused_in_individual_events() -> None:
    tournament = published()
    response = register(UserFactory(), tournament, team="Ravens")
    assert response.status_code == 400
    assert response.json() == {
        "code": "team_not_allowed",
        "message": "Teams are only for team events; register alone.",
    }


def test_the_schema_lists_the_tournament_paths() -> None:
    schema = client_for().get("/api/schema/", {"format": "json"}).json()
    for path in (
        "/api/tournaments/",
        "/api/tournaments/{tournament_id}/",
        "/api/tournaments/{tournament_id}/register/",
        "/api/tournaments/{tournament_id}/withdraw/",
    ):
        assert path in schema["paths"]


def test_a_round_robin_shows_the_rounds_its_players_make_before_round_1() -> None:
    """Before round 1 fixes them, a round robin plays one round fewer than its
    players when they are even, as many when odd: not the form's number."""
    tournament = published(
        game="alkort", table_size=2, options={"target": 1}, format="round_robin"
    )
    assert tournament.rounds == 3  # the form's default, unused by a round robin
    counts = []
    for _ in range(3):
        enter(tournament, 2 if not counts else 1)
        body = client_for().get(f"/api/tournaments/{tournament.pk}/").json()
        listed = client_for().get("/api/tournaments/").json()["results"][0]
        assert listed["round_count"] == body["round_count"]
        counts.append((body["entries_count"], body["round_count"]))
    assert counts == [(2, 1), (3, 3), (4, 3)]
