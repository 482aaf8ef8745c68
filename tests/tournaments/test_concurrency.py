"""Two organisers (or two clicks) racing: the tournament row lock lets one through.

These tests commit for real (``transaction=True``): each thread has its own
database connection, as two web processes would.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from games.errors import TableError
from games.models import Table
from tests.accounts.factories import UserFactory
from tests.tournaments.factories import TournamentFactory, enter, organiser_user
from tournaments import services
from tournaments.models import Entry, Round, RoundTable

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` at once, one thread (and connection) each; their outcomes."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            calls[i]()
            results[i] = "ok"
        except TableError as exc:
            results[i] = (exc.status, exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def duel() -> Any:
    tournament = TournamentFactory(game="alkort", table_size=2, options={"target": 1})
    services.registration_open(tournament_id=tournament.pk)
    enter(tournament, 4)
    return tournament


def test_seating_twice_at_once_seats_one_round() -> None:
    tournament = duel()
    results = race([lambda: services.round_seat(tournament_id=tournament.pk)] * 2)
    assert sorted(results, key=str) == [(409, "round_already_seated"), "ok"]
    assert Round.objects.count() == 1
    assert RoundTable.objects.count() == 2


def test_starting_twice_at_once_opens_the_tables_once() -> None:
    tournament = duel()
    services.round_seat(tournament_id=tournament.pk)
    organiser = organiser_user()
    results = race(
        [lambda: services.round_start(tournament_id=tournament.pk, user=organiser)] * 2
    )
    assert sorted(results, key=str) == [(409, "no_seated_round"), "ok"]
    assert Table.objects.count() == 2


def test_registering_twice_at_once_makes_one_entry() -> None:
    tournament = TournamentFactory()
    services.registration_open(tournament_id=tournament.pk)
    user = UserFactory()
    results = race(
        [lambda: services.entry_register(tournament_id=tournament.pk, user=user)] * 2
    )
    assert sorted(results, key=str) == [(409, "already_registered"), "ok"]
    assert Entry.objects.filter(player=user).count() == 1


def test_two_players_after_the_last_place_get_one_place() -> None:
    tournament = TournamentFactory(name="Capped", max_entries=3)
    services.registration_open(tournament_id=tournament.pk)
    enter(tournament, 2)
    first, second = UserFactory(), UserFactory()
    results = race(
        [
            lambda: services.entry_register(tournament_id=tournament.pk, user=first),
            lambda: services.entry_register(tournament_id=tournament.pk, user=second),
        ]
    )
    assert sorted(results, key=str) == [(409, "tournament_full"), "ok"]
    assert tournament.entries.filter(withdrawn=False).count() == 3
