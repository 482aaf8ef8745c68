"""Standings follow finished tables: the signal's task, and the sweep behind it."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.conf import settings

from accounts.models import User
from games.signals import table_finished
from tests.tournaments.factories import (
    TournamentFactory,
    enter,
    play_people,
    round_tables,
)
from tournaments import services
from tournaments.models import Round, Standing, Tournament
from tournaments.tasks import tournament_standings_update, tournaments_sweep

pytestmark = pytest.mark.django_db

Commit = Callable[[], AbstractContextManager[Any]]


def started_duel(organiser: User) -> Tournament:
    tournament = TournamentFactory(game="alkort", table_size=2, options={"target": 1})
    services.registration_open(tournament_id=tournament.pk)
    enter(tournament, 2)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    return tournament


def test_tasks_have_stable_names_and_the_sweep_is_scheduled() -> None:
    assert (
        tournament_standings_update.name
        == "tournaments.tasks.tournament_standings_update"
    )
    assert tournaments_sweep.name == "tournaments.tasks.tournaments_sweep"
    entry = settings.CELERY_BEAT_SCHEDULE["tournaments-sweep"]
    assert entry["task"] == "tournaments.tasks.tournaments_sweep"


def test_a_finished_table_updates_the_standings(
    organiser: User, on_commit: Commit
) -> None:
    tournament = started_duel(organiser)
    (table,) = round_tables(Round.objects.get())
    play_people(table, random.Random(3), on_commit)
    tournament.refresh_from_db()
    assert tournament.standings_counted == 1
    table.refresh_from_db()
    by_seat = (
        {1: "1.0", 2: "0.0"}
        if sorted(table.outcome["places"]) == [1, 2]
        else {1: "0.5"}
    )
    expected = {
        s.user.username: by_seat[table.outcome["places"][s.index]]
        for s in table.seats.all()
    }
    assert {
        s.entry.player.username: str(s.points) for s in Standing.objects.all()
    } == expected


def test_the_task_is_idempotent(organiser: User, on_commit: Commit) -> None:
    tournament = started_duel(organiser)
    (table,) = round_tables(Round.objects.get())
    play_people(table, random.Random(4), on_commit)
    rows = list(Standing.objects.values_list("entry", "rank", "points", "buchholz"))
    assert tournament_standings_update.apply(args=(tournament.pk,)).get() == 1
    assert tournament_standings_update.apply(args=(tournament.pk,)).get() == 1
    assert (
        list(Standing.objects.values_list("entry", "rank", "points", "buchholz"))
        == rows
    )


def test_the_task_ignores_a_missing_tournament() -> None:
    assert tournament_standings_update.apply(args=(987654,)).get() == 0


def test_the_sweep_catches_a_lost_task(organiser: User, on_commit: Commit) -> None:
    tournament = started_duel(organiser)
    (table,) = round_tables(Round.objects.get())
    # The signal's receiver is away: its task is lost.
    table_finished.disconnect(dispatch_uid="tournaments.table_finished")
    try:
        play_people(table, random.Random(5), on_commit)
    finally:
        from tournaments.receivers import table_finished_receiver

        table_finished.connect(
            table_finished_receiver, dispatch_uid="tournaments.table_finished"
        )
    tournament.refresh_from_db()
    assert tournament.standings_counted == 0
    assert tournaments_sweep.apply().get() == 1
    tournament.refresh_from_db()
    assert tournament.standings_counted == 1
    assert Standing.objects.filter(tournament=tournament).count() == 2
    assert tournaments_sweep.apply().get() == 0


def test_tables_outside_tournaments_are_ignored(on_commit: Commit) -> None:
    with on_commit() as callbacks:
        table_finished.send(sender=None, table_id=123456)
    assert callbacks == []
