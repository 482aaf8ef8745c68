"""Organisers racing each other (or the tables) in the admin, on the real
PostgreSQL: each request runs in a thread of its own, with its own database
connection, as in two web processes (``tests.races``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import TableStatus
from games.services.locking import table_lock
from tests.accounts.factories import UserFactory
from tests.games.tables import play_to_end
from tests.races import holding, in_background, wait_for_lock_waiters
from tests.tournaments.factories import TournamentFactory, enter, organiser_user
from tests.tournaments.test_admin import CHANGELIST, change_form_data
from tournaments import services
from tournaments.models import Entry, Round, RoundStatus, Tournament, TournamentStatus
from tournaments.services.registration import tournament_lock

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def duel(entries: int = 4, **kwargs: Any) -> Tournament:
    """A quick 2-player Alkort event, open for registration."""
    tournament = TournamentFactory(
        name="Duels", game="alkort", table_size=2, options={"target": 1}, **kwargs
    )
    services.registration_open(tournament_id=tournament.pk)
    enter(tournament, entries)
    tournament.refresh_from_db()
    return tournament


def staff_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_change_form_saved_while_a_round_is_seated_keeps_the_seating() -> None:
    """The change page read the tournament open for registration; a seating
    committed before it saved. The save must not write the old status back
    (a running tournament marked open again, its round 1 seated): the page
    locks the tournament before reading it for a POST."""
    tournament = duel()
    client = staff_client(organiser_user())
    url = f"{CHANGELIST}{tournament.pk}/change/"
    data = change_form_data(client, url)

    with holding(
        lambda: tournament_lock(tournament.pk),
        then=lambda: services.round_seat(tournament_id=tournament.pk),
    ) as seating:
        save = in_background(lambda: client.post(url, data))
        wait_for_lock_waiters(1)
    assert seating.outcome.ok, seating.outcome.error
    response = save.wait().get()

    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    assert tournament.started_at is not None
    assert Round.objects.get(tournament=tournament).status == RoundStatus.SEATED


def test_finishing_a_round_waits_for_its_last_table_to_end() -> None:
    """*Finish round* pressed while the round's last match is ending (its
    final move holding the table): the action waits for that move, then
    finishes the round with the table's result counted, instead of reading
    the table as it was before the move."""
    tournament = duel(entries=2, rounds=1)
    organiser = organiser_user()
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    rnd = Round.objects.get(tournament=tournament)
    table = rnd.tables.get().table
    assert table is not None

    with holding(lambda: table_lock(table.pk), then=lambda: play_to_end(table)):
        finish = in_background(
            lambda: services.round_finish(tournament_id=tournament.pk)
        )
        wait_for_lock_waiters(1, unless=finish.done)
    finish.wait().get()

    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.FINISHED
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert tournament.standings_counted == 1
    assert sorted(tournament.standings.values_list("played", flat=True)) == [1, 1]


def test_withdrawing_a_player_whose_match_is_ending_leaves_the_table_alone() -> None:
    """A player is withdrawn while the last move of their match is being
    stored: their table is waited for, found ended, and skipped, neither
    refused nor handed to a bot after the end."""
    tournament = duel(entries=2, rounds=2)
    organiser = organiser_user()
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    table = Round.objects.get(tournament=tournament).tables.get().table
    assert table is not None
    entry = tournament.entries.select_related("player").first()
    assert entry is not None
    Entry.objects.filter(pk=entry.pk).update(withdrawn=True)
    entry.refresh_from_db()

    with holding(lambda: table_lock(table.pk), then=lambda: play_to_end(table)):
        leave = in_background(lambda: services.entry_tables_leave(entry=entry))
        wait_for_lock_waiters(1, unless=leave.done)
    left = leave.wait().get()

    assert left == []
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    seat = table.seats.get(user=entry.player)
    assert (seat.bot_level, seat.replaced_user_id) == (None, None)


def test_a_player_registering_for_the_last_place_beats_an_admin_row() -> None:
    """A player registers for the last place while an organiser saves a row
    entering someone else. The save waits for the registration (the
    tournament's row lock), then counts the places again and refuses its
    row: the event never has more players than places."""
    tournament = duel(entries=3, max_entries=4)
    client = staff_client(organiser_user())
    url = f"{CHANGELIST}{tournament.pk}/change/"
    data = change_form_data(client, url)
    newcomer, player = UserFactory(), UserFactory()
    data.update(
        {
            "entries-TOTAL_FORMS": 4,
            "entries-3-player": newcomer.pk,
            "entries-3-tournament": tournament.pk,
        }
    )

    with holding(
        lambda: tournament_lock(tournament.pk),
        then=lambda: services.entry_register(tournament_id=tournament.pk, user=player),
    ) as registering:
        save = in_background(lambda: client.post(url, data))
        wait_for_lock_waiters(1)
    assert registering.outcome.ok, registering.outcome.error
    response = save.wait().get()

    assert response.status_code == 200  # the form again, with the error
    (row,) = response.context["inline_admin_formsets"][0].formset.forms[3:]
    assert row.errors == {
        "player": [f"{newcomer}: 'Duels' is full: all its 4 places are taken."]
    }
    assert Entry.objects.filter(tournament=tournament, withdrawn=False).count() == 4
    assert not Entry.objects.filter(player=newcomer).exists()
