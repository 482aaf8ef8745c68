"""The queue of tables waiting for their count (``stats.PendingTable``).

A table joins it in the transaction that finishes it, whichever path made
the last move (a person, a bot, a turn timer), and leaves it in the
transaction that writes its ``CountedTable`` marker (a count, a recount, the
rebuild). So "still to count" is read from the queue, which holds only what
is still to count, instead of every finished table of the site.
"""

from __future__ import annotations

import importlib
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps as global_apps
from django.db import transaction
from django.db.models import CASCADE, ProtectedError
from django.utils import timezone

import rules
from games import services
from games.models import Seat, Table, TableStatus
from stats.models import CountedTable, PendingTable
from stats.selectors import (
    computed_through_get,
)
from stats.services import stats_rebuild, table_record, table_recount
from stats.tasks import stats_sweep
from tests.accounts.factories import UserFactory
from tests.games.tables import seat_users, table_started
from tests.helpers import tables_finished_unqueued
from tests.stats.sites import mixed_site

pytestmark = pytest.mark.django_db

ALKORT = rules.get_game("alkort")
QUICK = {"target": 1}


def _finishes(table: Table, seat: int, action: dict[str, Any]) -> bool:
    """Whether ``action`` from ``seat`` ends the match at ``table``."""
    state = ALKORT.load_state(table.state)
    for event in ALKORT.decide(state, seat, action):
        state = ALKORT.evolve(state, event)
    return ALKORT.outcome(state) is not None


def _queued(table: Table) -> PendingTable:
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    row = PendingTable.objects.get(table_id=table.pk)
    assert (row.game, row.finished_at) == (table.game, table.finished_at)
    assert tables_finished_unqueued() == []
    return row


def test_a_persons_last_move_queues_the_table() -> None:
    table = table_started(seating=[UserFactory(), UserFactory()], options=QUICK)
    users = seat_users(table)
    while table.status == TableStatus.PLAYING:
        assert not PendingTable.objects.exists()  # not before the end
        state = ALKORT.load_state(table.state)
        [seat] = ALKORT.to_act(state)
        action = ALKORT.legal_actions(state, seat)[0]
        services.action_submit(table_id=table.pk, user=users[seat], action=action)
        table.refresh_from_db()

    _queued(table)


def test_a_bots_last_move_queues_the_table() -> None:
    table = table_started(
        seating=["random", "basic"], options=QUICK, creator=UserFactory()
    )
    while table.status == TableStatus.PLAYING:
        assert services.bot_turn_play(table_id=table.pk, seq=table.seq) is not None
        table.refresh_from_db()

    _queued(table)


def test_a_turn_timers_last_move_queues_the_table() -> None:
    """Every move, the last one included, is made by the turn timer."""
    table = table_started(seating=[UserFactory(), UserFactory()], options=QUICK)
    while table.status == TableStatus.PLAYING:
        Table.objects.filter(pk=table.pk).update(
            time_control=5, updated_at=timezone.now() - timedelta(seconds=5)
        )
        Seat.objects.filter(table=table).update(timeouts=0, away=False)
        assert services.turn_timer_expire(table_id=table.pk, seq=table.seq)
        table.refresh_from_db()

    _queued(table)


def test_the_queue_row_is_rolled_back_with_the_finishing_move() -> None:
    table = table_started(seating=[UserFactory(), UserFactory()], options=QUICK)
    users = seat_users(table)
    while True:
        state = ALKORT.load_state(table.state)
        [seat] = ALKORT.to_act(state)
        action = ALKORT.legal_actions(state, seat)[0]
        if _finishes(table, seat, action):
            break
        services.action_submit(table_id=table.pk, user=users[seat], action=action)
        table.refresh_from_db()

    class Abandoned(Exception):
        pass

    with pytest.raises(Abandoned), transaction.atomic():
        services.action_submit(table_id=table.pk, user=users[seat], action=action)
        assert PendingTable.objects.filter(table_id=table.pk).exists()
        raise Abandoned

    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING
    assert not PendingTable.objects.exists()
    services.action_submit(table_id=table.pk, user=users[seat], action=action)
    _queued(table)


def test_the_count_takes_the_table_off_the_queue(people, finished_table) -> None:
    a, b = people(2)
    first = finished_table("alkort", [a, b], seed="q-1", options=QUICK)
    second = finished_table("alkort", [b, a], seed="q-2", options=QUICK)
    assert set(PendingTable.objects.values_list("table_id", flat=True)) == {
        first,
        second,
    }

    assert table_record(table_id=first) is True
    assert list(PendingTable.objects.values_list("table_id", flat=True)) == [second]
    # A repeat count finds the marker, changes nothing and raises nothing.
    assert table_record(table_id=first) is False
    assert list(PendingTable.objects.values_list("table_id", flat=True)) == [second]
    # The admin's recount leaves the queue as it was.
    assert table_recount(table_id=first) is True
    assert list(PendingTable.objects.values_list("table_id", flat=True)) == [second]
    assert tables_finished_unqueued() == []


def test_a_counted_table_left_in_the_queue_leaves_it_with_the_next_count(
    people, finished_table, settings
) -> None:
    """During a release, a worker still running the previous code counts a
    table that the new code queued, and leaves its row: the table would be
    pending, listed as uncounted beside its count and swept every five
    minutes, for ever. The next count of it (the sweep's) finds the marker
    and takes the row off."""
    a, b = people(2)
    table_id = finished_table("alkort", [a, b], options=QUICK)
    table_record(table_id=table_id)
    PendingTable.objects.create(
        table_id=table_id,
        game="alkort",
        finished_at=Table.objects.get(pk=table_id).finished_at,
    )
    assert computed_through_get()["pending"] == 1
    settings.STATS_SWEEP_GRACE_SECONDS = 0

    assert stats_sweep.apply().get() == 1  # the inline task counts it again

    assert not PendingTable.objects.exists()
    assert computed_through_get()["pending"] == 0
    assert CountedTable.objects.count() == 1


def test_the_rebuild_empties_the_queue(people, finished_table) -> None:
    a, b, c = people(3)
    ids = [
        finished_table("alkort", [a, b], seed="r-1", options=QUICK),
        finished_table("alager", [a, b, c], seed="r-2"),
        finished_table("allegra", [c, b, a], seed="r-3"),
    ]
    table_record(table_id=ids[0])
    assert PendingTable.objects.count() == 2

    assert stats_rebuild(batch=2) == 3

    assert not PendingTable.objects.exists()
    assert CountedTable.objects.count() == 3
    assert computed_through_get()["pending"] == 0


def test_a_queued_table_is_kept_by_its_events_and_cascades(
    people, finished_table
) -> None:
    """A finished table cannot be deleted (its event log protects it), so no
    queue row is left without its table; were one deleted, its row would go
    with it."""
    a, b = people(2)
    table_id = finished_table("alkort", [a, b], options=QUICK)

    with pytest.raises(ProtectedError):
        Table.objects.filter(pk=table_id).delete()

    assert PendingTable.objects.filter(table_id=table_id).exists()
    field = PendingTable._meta.get_field("table")
    assert field.remote_field.on_delete is CASCADE


def test_the_migration_queues_the_finished_uncounted_tables(
    people, bot, finished_table
) -> None:
    site = mixed_site(people, bot, finished_table)
    expected = sorted(
        PendingTable.objects.values_list("table_id", "game", "finished_at")
    )
    assert [row[0] for row in expected] == sorted(
        set(site["ids"]) - set(site["ids"][::3])
    )
    PendingTable.objects.all().delete()

    migration = importlib.import_module("stats.migrations.0004_pendingtable")
    migration.pending_fill(global_apps, None)

    assert (
        sorted(PendingTable.objects.values_list("table_id", "game", "finished_at"))
        == expected
    )
