"""Entries added or edited by hand in the admin follow the API's registration
rules (``docs/tournaments.md``): a team in a team event, at most two players
a team, one entry per player, and the seed rating the API stores."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from stats.models import Rating
from tests.accounts.factories import UserFactory
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.test_admin import CHANGELIST, change_form_data
from tournaments import ratings, services
from tournaments.models import Entry, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def pairs(*teams: str) -> Tournament:
    """An open Alkort team event; one registered player per team named."""
    tournament = TournamentFactory(
        name="Pairs", game="alkort", table_size=4, team_event=True
    )
    services.registration_open(tournament_id=tournament.pk)
    for team in teams:
        services.entry_register(
            tournament_id=tournament.pk, user=UserFactory(), team=team
        )
    tournament.refresh_from_db()
    return tournament


def url_of(tournament: Tournament) -> str:
    return f"{CHANGELIST}{tournament.pk}/change/"


def add_rows(
    client: Client, tournament: Tournament, *rows: dict[str, Any]
) -> tuple[Any, list[Any]]:
    """Post the change page with ``rows`` added as new entries; the response
    and the posted rows' forms (when the page comes back with errors)."""
    url = url_of(tournament)
    data = change_form_data(client, url)
    first = int(data["entries-TOTAL_FORMS"])
    for offset, row in enumerate(rows):
        prefix = f"entries-{first + offset}"
        data[f"{prefix}-tournament"] = tournament.pk
        for name, value in row.items():
            data[f"{prefix}-{name}"] = value
    data["entries-TOTAL_FORMS"] = first + len(rows)
    response = client.post(url, data)
    forms = []
    if response.status_code == 200:
        formset = response.context["inline_admin_formsets"][0].formset
        forms = formset.forms[first:]
    return response, forms


def rate(user: User, game: str, mu: float = 30.0, sigma: float = 2.0) -> None:
    Rating.objects.create(user=user, game=game, mu=mu, sigma=sigma, matches=12)


def test_a_blank_team_in_a_team_event_is_refused(staff: Client) -> None:
    tournament = pairs("Ravens")
    newcomer = UserFactory()
    response, forms = add_rows(staff, tournament, {"player": newcomer.pk, "team": "  "})
    assert response.status_code == 200  # the form again, with the error
    assert forms[0].errors["team"] == [
        f"{newcomer}: This is a team event: name your team to register."
    ]
    assert not Entry.objects.filter(player=newcomer).exists()


def test_a_third_player_in_a_team_of_two_is_refused(staff: Client) -> None:
    tournament = pairs("Ravens", "Ravens")
    newcomer = UserFactory()
    response, forms = add_rows(
        staff, tournament, {"player": newcomer.pk, "team": "Ravens"}
    )
    assert response.status_code == 200
    assert forms[0].errors["team"] == [
        f"{newcomer}: Team 'Ravens' already has two players."
    ]
    assert tournament.entries.filter(team="Ravens").count() == 2


def test_two_rows_cannot_fill_a_team_past_two(staff: Client) -> None:
    tournament = pairs("Owls")
    first, second = UserFactory(), UserFactory()
    response, forms = add_rows(
        staff,
        tournament,
        {"player": first.pk, "team": "Owls"},
        {"player": second.pk, "team": "Owls"},
    )
    assert response.status_code == 200
    assert not forms[0].errors
    assert forms[1].errors["team"] == [
        f"{second}: Team 'Owls' already has two players."
    ]
    assert tournament.entries.count() == 1  # nothing saved


def test_a_withdrawn_player_does_not_hold_a_team_place(staff: Client) -> None:
    tournament = pairs("Owls", "Owls")
    gone = tournament.entries.order_by("pk").first()
    assert gone is not None
    services.entry_withdraw(tournament_id=tournament.pk, user=gone.player)
    newcomer = UserFactory()
    response, _ = add_rows(staff, tournament, {"player": newcomer.pk, "team": " Owls "})
    assert response.status_code == 302
    entry = Entry.objects.get(player=newcomer)
    assert entry.team == "Owls"  # stripped, as the API does


def test_bringing_back_a_withdrawn_player_into_a_full_team_is_refused(
    staff: Client,
) -> None:
    tournament = pairs("Owls", "Owls")
    gone = tournament.entries.order_by("pk").first()
    assert gone is not None
    services.entry_withdraw(tournament_id=tournament.pk, user=gone.player)
    services.entry_register(
        tournament_id=tournament.pk, user=UserFactory(), team="Owls"
    )
    url = url_of(tournament)
    data = change_form_data(staff, url)
    row = next(
        key[: -len("-id")]
        for key, value in data.items()
        if key.endswith("-id") and value == gone.pk
    )
    data.pop(f"{row}-withdrawn")
    response = staff.post(url, data)
    assert response.status_code == 200
    formset = response.context["inline_admin_formsets"][0].formset
    errors = [f.errors for f in formset.forms if f.instance.pk == gone.pk]
    assert errors[0]["team"] == [f"{gone.player}: Team 'Owls' already has two players."]
    gone.refresh_from_db()
    assert gone.withdrawn


def test_the_same_player_twice_is_refused(staff: Client) -> None:
    tournament = pairs()
    player = UserFactory()
    response, forms = add_rows(
        staff,
        tournament,
        {"player": player.pk, "team": "Owls"},
        {"player": player.pk, "team": "Larks"},
    )
    assert response.status_code == 200
    message = (
        f"{player} already has an entry in 'Pairs': a player enters once (to bring "
        "back a withdrawn player, untick withdrawn on their entry)."
    )
    assert forms[0].errors["player"] == [message]
    assert forms[1].errors["player"] == [message]
    assert not tournament.entries.exists()


def test_a_team_in_an_individual_event_is_not_stored(staff: Client) -> None:
    tournament = TournamentFactory(name="Solo")
    services.registration_open(tournament_id=tournament.pk)
    player = UserFactory()
    # The team column is not shown in an individual event: a posted team is ignored.
    response, _ = add_rows(staff, tournament, {"player": player.pk, "team": "Owls"})
    assert response.status_code == 302
    assert Entry.objects.get(player=player).team == ""


def test_a_hand_added_rated_player_gets_the_apis_seed_rating(staff: Client) -> None:
    tournament = TournamentFactory(name="Rated", game="alager", table_size=3)
    services.registration_open(tournament_id=tournament.pk)
    by_hand, by_api = UserFactory(), UserFactory()
    rate(by_hand, "alager")
    rate(by_api, "alager")
    rate(by_hand, "alkort", mu=10.0)  # another game's rating is not the seed
    services.entry_register(tournament_id=tournament.pk, user=by_api)
    unrated = UserFactory()
    response, _ = add_rows(
        staff, tournament, {"player": by_hand.pk}, {"player": unrated.pk}
    )
    assert response.status_code == 302, response.context and response.context["errors"]
    seed = Entry.objects.get(player=by_hand).seed_rating
    assert seed is not None
    assert seed == ratings.rating_get(user=by_hand, game="alager")
    assert seed == Entry.objects.get(player=by_api).seed_rating
    assert Entry.objects.get(player=unrated).seed_rating is None


def test_entries_added_to_a_draft_get_their_seed(staff: Client) -> None:
    tournament = TournamentFactory(name="Draft", game="alager", table_size=3)
    player = UserFactory()
    rate(player, "alager")
    response, _ = add_rows(staff, tournament, {"player": player.pk})
    assert response.status_code == 302
    assert Entry.objects.get(player=player).seed_rating == ratings.rating_get(
        user=player, game="alager"
    )


def test_editing_an_entry_without_registering_keeps_its_seed(staff: Client) -> None:
    tournament = pairs("Owls")
    entry = tournament.entries.get()
    Entry.objects.filter(pk=entry.pk).update(seed_rating=12.5)
    rate(entry.player, "alkort")  # rated since: an unchanged row is not re-read
    url = url_of(tournament)
    response = staff.post(url, change_form_data(staff, url))
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.seed_rating == 12.5


def test_a_hand_added_partner_joins_the_team_whatever_its_case(staff: Client) -> None:
    tournament = pairs("Ravens")
    newcomer = UserFactory()
    response, _ = add_rows(
        staff, tournament, {"player": newcomer.pk, "team": "ravens "}
    )
    assert response.status_code == 302
    assert tournament.entries.get(player=newcomer).team == "Ravens"
    third = UserFactory()
    response, forms = add_rows(
        staff, tournament, {"player": third.pk, "team": "RAVENS"}
    )
    assert response.status_code == 200
    assert forms[0].errors["team"] == [
        f"{third}: Team 'Ravens' already has two players."
    ]


def test_a_saved_rows_player_lists_only_that_player(staff: Client) -> None:
    """Each saved row listed every account: a 60-player event on a big site
    was a page of hundreds of thousands of options."""
    tournament = pairs("Ravens", "Owls")
    bystanders = [UserFactory() for _ in range(5)]
    page = staff.get(url_of(tournament))
    rows = page.context["inline_admin_formsets"][0].formset.forms
    assert len(rows) == 2
    for row in rows:
        html = str(row["player"])
        assert f'value="{row.instance.player_id}" selected' in html
        assert not any(f'value="{b.pk}"' in html for b in bystanders)
    # A new row still offers everyone active.
    empty = str(page.context["inline_admin_formsets"][0].formset.empty_form["player"])
    assert all(f'value="{b.pk}"' in empty for b in bystanders)


def test_an_entrys_player_has_no_links_that_change_the_account(client: Client) -> None:
    """For an organiser who may also edit accounts, the red ✕ beside an
    entry's player deleted the person's account, not the entry."""
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    tournament = pairs("Ravens")
    page = client.get(url_of(tournament)).content.decode()
    entries = page[page.index('id="entries-group"') :]
    assert "view-related" in entries
    for link in ("delete-related", "change-related", "add-related"):
        assert link not in entries, link


# --- once entries are closed: what the page offers -----------------------------


def duel_seated(**kwargs: Any) -> Tournament:
    """A 2-player Alkort event of four players, round 1 seated (running)."""
    tournament = TournamentFactory(
        name="Duels", game="alkort", table_size=2, options={"target": 1}, **kwargs
    )
    services.registration_open(tournament_id=tournament.pk)
    for _ in range(4):
        services.entry_register(tournament_id=tournament.pk, user=UserFactory())
    services.round_seat(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def entries_inline(page: Any) -> Any:
    (inline,) = page.context["inline_admin_formsets"]
    return inline


def offers_a_new_row(page: Any) -> bool:
    """Whether the page lets the organiser add a row: the add-row template
    (``entries-empty``) that Django's inlines.js clones behind "Add another
    Entry", which it shows only while ``MAX_NUM_FORMS`` exceeds the rows."""
    html = page.content.decode()
    inline = entries_inline(page)
    return (
        inline.has_add_permission
        and 'id="entries-empty"' in html
        and inline.formset.max_num > inline.formset.total_form_count()
    )


def test_the_page_offers_a_new_entry_while_entries_are_open(staff: Client) -> None:
    tournament = TournamentFactory(name="Open night")
    page = staff.get(url_of(tournament))
    assert offers_a_new_row(page)
    assert 'id="entries-note"' not in page.content.decode()
    services.registration_open(tournament_id=tournament.pk)
    page = staff.get(url_of(tournament))
    assert offers_a_new_row(page)


def test_a_running_event_offers_no_new_entry_and_says_why(staff: Client) -> None:
    """Once round 1 is seated a new row is refused on save: the page no longer
    offers one ("Add another Entry"), says why, and still lets each row be
    withdrawn (the team, fixed, is shown read-only)."""
    tournament = duel_seated()
    page = staff.get(url_of(tournament))
    assert not offers_a_new_row(page)
    html = page.content.decode()
    assert 'id="entries-note"' in html
    assert "Round 1 has been seated: no more players can be entered" in html
    assert 'name="entries-MAX_NUM_FORMS" value="0"' in html
    inline = entries_inline(page)
    assert len(inline.formset.forms) == 4
    assert all("withdrawn" in form.fields for form in inline.formset.forms)
    # Withdrawing from this page still works.
    data = change_form_data(staff, url_of(tournament))
    data["entries-0-withdrawn"] = "on"
    response = staff.post(url_of(tournament), data)
    assert response.status_code == 302
    assert tournament.entries.filter(withdrawn=True).count() == 1


def test_a_running_team_events_teams_are_read_only(staff: Client) -> None:
    tournament = pairs("Ravens", "Ravens", "Owls", "Owls")
    services.round_seat(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    page = staff.get(url_of(tournament))
    assert not offers_a_new_row(page)
    forms = entries_inline(page).formset.forms
    assert all("team" not in form.fields for form in forms)
    assert all("withdrawn" in form.fields for form in forms)
    assert "Ravens" in page.content.decode()  # shown, as text


def test_a_team_renamed_on_a_page_of_before_the_seating_is_refused(
    staff: Client,
) -> None:
    """The page was loaded while registration was open; round 1 was seated
    before it was saved. Its renamed team was dropped unsaid while the rest
    saved: the save is refused, naming the entry, and nothing is saved."""
    tournament = pairs("Ravens", "Ravens", "Owls", "Owls")
    data = change_form_data(staff, url_of(tournament))
    services.round_seat(tournament_id=tournament.pk)
    first = tournament.entries.order_by("pk").first()
    assert first is not None
    index = next(
        k.split("-")[1] for k, v in data.items() if k.endswith("-id") and v == first.pk
    )
    data[f"entries-{index}-team"] = "Crows"
    data["name"] = "Pairs renamed"
    response = staff.post(url_of(tournament), data)
    assert response.status_code == 200
    assert entries_inline(response).formset.non_form_errors() == [
        "This page was loaded before the tournament was running: the team of "
        f"{first.player} can no longer change, so nothing was saved. Reload the "
        "page to see the entries as they are now."
    ]
    tournament.refresh_from_db()
    assert tournament.name == "Pairs"
    assert sorted(tournament.entries.values_list("team", flat=True)) == [
        "Owls",
        "Owls",
        "Ravens",
        "Ravens",
    ]


def test_a_new_row_from_a_page_of_before_the_start_is_still_refused(
    staff: Client,
) -> None:
    """The page was loaded while registration was open; round 1 was seated
    before it was saved. Its new row is refused with the reason, not dropped
    without a word."""
    tournament = TournamentFactory(
        name="Duels", game="alkort", table_size=2, options={"target": 1}
    )
    services.registration_open(tournament_id=tournament.pk)
    for _ in range(4):
        services.entry_register(tournament_id=tournament.pk, user=UserFactory())
    data = change_form_data(staff, url_of(tournament))
    services.round_seat(tournament_id=tournament.pk)
    newcomer = UserFactory()
    data.update(
        {
            "entries-TOTAL_FORMS": 5,
            "entries-4-player": newcomer.pk,
            "entries-4-tournament": tournament.pk,
        }
    )
    response = staff.post(url_of(tournament), data)
    assert response.status_code == 200
    assert entries_inline(response).formset.non_form_errors() == [
        "'Duels' has started: players can no longer be registered."
    ]
    assert not Entry.objects.filter(player=newcomer).exists()


def test_a_finished_events_entries_are_read_only(staff: Client) -> None:
    tournament = duel_seated()
    gone = tournament.entries.order_by("pk").first()
    assert gone is not None
    Entry.objects.filter(pk=gone.pk).update(withdrawn=True)
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)
    page = staff.get(url_of(tournament))
    assert not offers_a_new_row(page)
    html = page.content.decode()
    assert "The tournament has finished: its entries are the record" in html
    forms = entries_inline(page).formset.forms
    assert all(not set(form.fields) & {"player", "withdrawn"} for form in forms)
    # The page saves (a name corrected) without touching the entries, even
    # though no withdrawn box was posted for the withdrawn entry.
    data = change_form_data(staff, url_of(tournament))
    data["name"] = "Duels (final)"
    response = staff.post(url_of(tournament), data)
    assert response.status_code == 302
    assert list(
        tournament.entries.order_by("pk").values_list("withdrawn", flat=True)
    ) == [True, False, False, False]


def test_a_withdrawal_on_a_page_of_before_the_finish_is_refused(
    staff: Client,
) -> None:
    """The page was loaded while the event ran; it finished before the save.
    The withdrawal ticked on it is refused, not dropped unsaid."""
    tournament = duel_seated()
    data = change_form_data(staff, url_of(tournament))
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)
    first = tournament.entries.order_by("pk").first()
    assert first is not None
    index = next(
        k.split("-")[1] for k, v in data.items() if k.endswith("-id") and v == first.pk
    )
    data[f"entries-{index}-withdrawn"] = "on"
    response = staff.post(url_of(tournament), data)
    assert response.status_code == 200
    assert entries_inline(response).formset.non_form_errors() == [
        "This page was loaded before the tournament was finished: the "
        f"withdrawal of {first.player} can no longer change, so nothing was "
        "saved. Reload the page to see the entries as they are now."
    ]
    assert not tournament.entries.filter(withdrawn=True).exists()
