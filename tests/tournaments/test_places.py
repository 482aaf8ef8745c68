"""A tournament's places (``max_entries``): set by the organiser, checked on
every path that enters a player (the API's registration, the admin's Entries
rows), and shown as "N of M places"."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from accounts.models import User
from games.errors import TableError
from tests.accounts.factories import UserFactory
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.test_admin import CHANGELIST, change_form_data
from tests.tournaments.test_apis import client_for, register, withdraw
from tournaments import services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def capped(places: int, entered: int = 0, **kwargs: Any) -> Tournament:
    """An open tournament of ``places`` places, ``entered`` players in."""
    tournament = TournamentFactory(name="Capped", max_entries=places, **kwargs)
    services.registration_open(tournament_id=tournament.pk)
    for _ in range(entered):
        services.entry_register(tournament_id=tournament.pk, user=UserFactory())
    tournament.refresh_from_db()
    return tournament


def refusal(call: Any) -> tuple[int, str, str]:
    with pytest.raises(TableError) as caught:
        call()
    return caught.value.status, caught.value.code, caught.value.message


# --- the set-up ---------------------------------------------------------------


def test_places_are_optional_and_at_least_two() -> None:
    assert TournamentFactory().max_entries is None
    with pytest.raises(ValidationError) as caught:
        TournamentFactory(max_entries=1)
    assert caught.value.message_dict == {
        "max_entries": ["Give at least 2 places, or leave it empty."]
    }


@pytest.mark.parametrize("places", ["10001", "99999999999"])
def test_places_beyond_the_most_are_refused_in_the_products_words(
    staff: Client, places: str
) -> None:
    """A huge number of places is refused with the limit and what to do,
    however huge: past the column's range the form's own check said "Ensure
    this value is less than or equal to 2147483647." """
    tournament = capped(4)
    data = change_form_data(staff, url_of(tournament))
    data["max_entries"] = places
    response = staff.post(url_of(tournament), data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "max_entries": ["Give at most 10,000 places, or leave it empty."]
    }
    tournament.refresh_from_db()
    assert tournament.max_entries == 4


def test_a_team_event_has_an_even_number_of_places() -> None:
    with pytest.raises(ValidationError) as caught:
        TournamentFactory(game="alkort", table_size=4, team_event=True, max_entries=9)
    assert caught.value.message_dict == {
        "max_entries": [
            "In a team event players enter in pairs: give an even number of places."
        ]
    }
    assert (
        TournamentFactory(
            game="alkort", table_size=4, team_event=True, max_entries=8
        ).max_entries
        == 8
    )


def test_places_cannot_drop_below_the_players_entered() -> None:
    tournament = capped(6, entered=4)
    tournament.max_entries = 3
    with pytest.raises(ValidationError) as caught:
        tournament.full_clean()
    assert caught.value.message_dict == {
        "max_entries": [
            "4 players are entered: give at least 4 places, or withdraw players first."
        ]
    }
    tournament.max_entries = 4
    tournament.full_clean()


def test_places_are_frozen_once_round_one_is_seated() -> None:
    tournament = capped(4, entered=4, game="alkort", table_size=2)
    tournament.max_entries = 6
    tournament.full_clean()  # while registration is open, they may change
    tournament.refresh_from_db()
    services.round_seat(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    tournament.max_entries = 6
    with pytest.raises(ValidationError) as caught:
        tournament.save()
    assert caught.value.message_dict == {
        "max_entries": ["The tournament is running: its places can no longer change."]
    }


# --- the service and the API --------------------------------------------------


def test_registering_for_a_full_tournament_is_refused() -> None:
    tournament = capped(2, entered=2)
    late = UserFactory()
    assert refusal(
        lambda: services.entry_register(tournament_id=tournament.pk, user=late)
    ) == (409, "tournament_full", "'Capped' is full: all its 2 places are taken.")
    assert not Entry.objects.filter(player=late).exists()


def test_a_withdrawn_player_frees_their_place_and_needs_one_to_come_back() -> None:
    tournament = capped(2, entered=2)
    gone = tournament.entries.order_by("pk").first()
    assert gone is not None
    services.entry_withdraw(tournament_id=tournament.pk, user=gone.player)
    newcomer = UserFactory()
    services.entry_register(tournament_id=tournament.pk, user=newcomer)
    assert (
        refusal(
            lambda: services.entry_register(
                tournament_id=tournament.pk, user=gone.player
            )
        )[1]
        == "tournament_full"
    )
    gone.refresh_from_db()
    assert gone.withdrawn


def test_an_entered_player_is_told_they_are_registered_not_that_it_is_full() -> None:
    tournament = capped(2, entered=2)
    entered = tournament.entries.first()
    assert entered is not None
    assert (
        refusal(
            lambda: services.entry_register(
                tournament_id=tournament.pk, user=entered.player
            )
        )[1]
        == "already_registered"
    )


def test_the_api_refuses_a_full_tournament_with_409_and_shows_its_places() -> None:
    tournament = capped(2, entered=1)
    body = client_for().get(f"/api/tournaments/{tournament.pk}/").json()
    assert (body["entries_count"], body["max_entries"]) == (1, 2)
    listed = client_for().get("/api/tournaments/").json()["results"][0]
    assert (listed["entries_count"], listed["max_entries"]) == (1, 2)
    first, second = UserFactory(), UserFactory()
    assert register(first, tournament).status_code == 200
    response = register(second, tournament)
    assert response.status_code == 409
    assert response.json() == {
        "code": "tournament_full",
        "message": "'Capped' is full: all its 2 places are taken.",
    }
    # Withdrawing frees the place.
    assert withdraw(first, tournament).status_code == 200
    response = register(second, tournament)
    assert response.status_code == 200
    assert response.json()["entries_count"] == 2


# --- the admin ------------------------------------------------------------------


def url_of(tournament: Tournament) -> str:
    return f"{CHANGELIST}{tournament.pk}/change/"


def with_new_rows(
    client: Client, tournament: Tournament, *players: User
) -> dict[str, Any]:
    """The change page's data with a new row for each of ``players``."""
    data = change_form_data(client, url_of(tournament))
    first = int(data["entries-TOTAL_FORMS"])
    for offset, player in enumerate(players):
        data[f"entries-{first + offset}-tournament"] = tournament.pk
        data[f"entries-{first + offset}-player"] = player.pk
    data["entries-TOTAL_FORMS"] = first + len(players)
    return data


def test_the_admin_refuses_a_row_past_the_places(staff: Client) -> None:
    tournament = capped(3, entered=2)
    fits, extra = UserFactory(), UserFactory()
    response = staff.post(
        url_of(tournament), with_new_rows(staff, tournament, fits, extra)
    )
    assert response.status_code == 200  # the form again, with the error
    forms = response.context["inline_admin_formsets"][0].formset.forms
    assert not forms[2].errors
    assert forms[3].errors == {
        "player": [f"{extra}: 'Capped' is full: all its 3 places are taken."]
    }
    assert tournament.entries.count() == 2  # nothing saved
    # One row fits.
    response = staff.post(url_of(tournament), with_new_rows(staff, tournament, fits))
    assert response.status_code == 302
    assert tournament.entries.count() == 3


def test_the_admin_enters_a_player_in_a_place_freed_or_added_in_the_same_save(
    staff: Client,
) -> None:
    tournament = capped(2, entered=2)
    newcomer = UserFactory()
    data = with_new_rows(staff, tournament, newcomer)
    data["entries-0-withdrawn"] = "on"  # frees a place
    response = staff.post(url_of(tournament), data)
    assert response.status_code == 302
    assert tournament.entries.filter(withdrawn=False).count() == 2
    assert Entry.objects.filter(player=newcomer, withdrawn=False).exists()
    # Raising the places lets one more in, in the same save.
    another = UserFactory()
    data = with_new_rows(staff, tournament, another)
    data["max_entries"] = 3
    response = staff.post(url_of(tournament), data)
    assert response.status_code == 302
    assert tournament.entries.filter(withdrawn=False).count() == 3


def test_the_admin_brings_back_a_withdrawn_player_only_into_a_free_place(
    staff: Client,
) -> None:
    tournament = capped(2, entered=2)
    gone = tournament.entries.order_by("pk").first()
    assert gone is not None
    services.entry_withdraw(tournament_id=tournament.pk, user=gone.player)
    services.entry_register(tournament_id=tournament.pk, user=UserFactory())
    data = change_form_data(staff, url_of(tournament))
    assert data["entries-0-withdrawn"] is True
    del data["entries-0-withdrawn"]
    response = staff.post(url_of(tournament), data)
    assert response.status_code == 200
    assert response.context["inline_admin_formsets"][0].formset.forms[0].errors == {
        "player": [f"{gone.player}: 'Capped' is full: all its 2 places are taken."]
    }
    gone.refresh_from_db()
    assert gone.withdrawn


def test_a_full_event_still_saves_and_changes_teams(staff: Client) -> None:
    """Rows already in the event hold their places: saving the page of a full
    tournament (a team renamed) is not refused as full."""
    tournament = capped(2, game="alkort", table_size=4, team_event=True)
    for _ in range(2):
        services.entry_register(
            tournament_id=tournament.pk, user=UserFactory(), team="Ravens"
        )
    data = change_form_data(staff, url_of(tournament))
    data["entries-0-team"] = "Crows"
    response = staff.post(url_of(tournament), data)
    assert response.status_code == 302, response.context and response.context["errors"]
    assert sorted(tournament.entries.values_list("team", flat=True)) == [
        "Crows",
        "Ravens",
    ]


def test_the_admin_shows_the_places_taken(staff: Client) -> None:
    tournament = capped(3, entered=2)
    html = staff.get(url_of(tournament)).content.decode()
    assert "2 of 3 places are taken." in html
    services.entry_register(tournament_id=tournament.pk, user=UserFactory())
    html = staff.get(url_of(tournament)).content.decode()
    assert "3 of 3 places are taken. The tournament is full" in html
    listing = staff.get(CHANGELIST).content.decode()
    assert "3 of 3" in listing
