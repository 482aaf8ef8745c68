"""The standings path through a real broker and a real Celery worker.

The test commits for real (``transaction=True``) so that a worker process,
connected to this test database, sees the tables. The worker consumes a queue
of its own (named per checkout and xdist worker), and this process sends the
tournament tasks there instead of running them inline.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.celery_worker import Worker, celery_worker, tasks_to
from tests.helpers import database_url
from tests.tournaments.factories import (
    TournamentFactory,
    enter,
    organiser_user,
    play_people,
    round_tables,
)
from tournaments import services
from tournaments.models import Round, Standing, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[Worker]:
    """A Celery worker (solo pool) on this test database and its own queue,
    to which this process sends its tasks (``tests.celery_worker``)."""
    log = tmp_path / "celery-worker.log"
    with (
        celery_worker("tournaments", log, database_url=database_url()) as started,
        tasks_to(started),
    ):
        yield started


def wait_for(tournament: Tournament, counted: int, worker: Worker) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        worker.assert_running()
        tournament.refresh_from_db()
        if tournament.standings_counted == counted and tournament.standings.exists():
            return
        time.sleep(0.25)
    raise AssertionError(
        f"standings count {tournament.standings_counted}, not {counted}; "
        f"the worker's log:\n{worker.log_text()}"
    )


def test_a_finished_table_reaches_the_standings_through_the_worker(
    worker: Worker,
) -> None:
    organiser = organiser_user()
    tournament = TournamentFactory(game="alkort", table_size=2, options={"target": 1})
    services.registration_open(tournament_id=tournament.pk)
    enter(tournament, 2)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    wait_for(tournament, 0, worker)  # the task queued on start: no table counted yet
    (table,) = round_tables(Round.objects.get())
    play_people(table, random.Random(11), contextlib.nullcontext)
    wait_for(tournament, 1, worker)
    table.refresh_from_db()
    places = table.outcome["places"]
    by_place = {1: "1.0", 2: "0.0"} if sorted(places) == [1, 2] else {1: "0.5"}
    expected = {s.user.username: by_place[places[s.index]] for s in table.seats.all()}
    assert {
        s.entry.player.username: str(s.points) for s in Standing.objects.all()
    } == expected
