"""The reconciliation (``stats.services.reconcile``): a safety net for tables
the queue missed and progress rows the markers left behind.

A process of the previous release finishes a table without queueing it (the
sweep reads the queue only, so were its task lost nothing would count it),
or counts one without moving its game's progress row. The reconciliation
queues the first and repairs the second, under each game's writer lock, so
that a count, a recount, the sweep or the rebuild at the same moment never
leaves a table counted twice, a queue row beside a marker, or a row that
disagrees with the markers.
"""

from __future__ import annotations

import logging
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

import rules
from games.models import Table, TableStatus
from stats import locks
from stats.models import CountedTable, GameProgress, GameStat, PendingTable
from stats.services import stats_rebuild, stats_reconcile, table_record, table_recount
from stats.tasks import stats_reconcile as stats_reconcile_task
from stats.tasks import stats_sweep
from tests.helpers import tables_finished_unqueued
from tests.races import holding, in_background, run_together, wait_for_lock_waiters
from tests.stats.sites import QUICK, mixed_site
from tests.stats.test_progress import _same_as_before

pytestmark = pytest.mark.django_db


def _unqueue(table_id: int) -> None:
    """What a process of the previous release leaves: the table finished,
    no queue row."""
    PendingTable.objects.filter(table_id=table_id).delete()


def _count_as_before(table_id: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Count ``table_id`` as a worker of the previous release did: marker,
    statistics and queue as usual, the game's progress row left as it was."""
    with monkeypatch.context() as patched:
        patched.setattr("stats.services.record.progress_counted", lambda **kw: None)
        assert table_record(table_id=table_id)


def _summary() -> str:
    out = StringIO()
    call_command("stats_reconcile", stdout=out)
    return out.getvalue().strip()


def test_a_finished_table_nothing_queued_is_queued_then_counted(
    people, bot, finished_table, settings, caplog
) -> None:
    """Of a site with every kind of table (counted, queued, in play, aborted
    in the lobby), only the finished tables with neither a marker nor a queue
    row are queued; the sweep then counts each of them once."""
    site = mixed_site(people, bot, finished_table)
    ids = site["ids"]
    lost = [ids[1], ids[2]]  # alager, allegra: finished, not counted
    for table_id in lost:
        _unqueue(table_id)
    assert tables_finished_unqueued() == sorted(lost)
    queued_before = set(PendingTable.objects.values_list("table_id", flat=True))

    with caplog.at_level(logging.WARNING, logger="stats.services.reconcile"):
        done = stats_reconcile()

    assert done.queued == {"alager": [ids[1]], "allegra": [ids[2]]}
    assert done.progress == {}
    assert tables_finished_unqueued() == []
    assert set(PendingTable.objects.values_list("table_id", flat=True)) == (
        queued_before | set(lost)
    )
    row = PendingTable.objects.get(table_id=ids[1])
    table = Table.objects.get(pk=ids[1])
    assert (row.game, row.finished_at) == (table.game, table.finished_at)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2
    assert "queued 1 finished alager table(s)" in warnings[0]
    assert warnings[0].endswith(f": {ids[1]}")
    # Nothing left to do: a second run repairs nothing and logs nothing.
    caplog.clear()
    assert stats_reconcile().queued == {}
    assert not caplog.records

    settings.STATS_SWEEP_GRACE_SECONDS = 0
    stats_sweep.apply().get()
    assert set(CountedTable.objects.values_list("table_id", flat=True)) == set(ids)
    assert not PendingTable.objects.exists()
    assert sum(GameStat.objects.values_list("counters__matches", flat=True)) == 7
    _same_as_before()


def test_progress_rows_that_disagree_with_the_markers_are_repaired(
    people, bot, finished_table, monkeypatch, caplog
) -> None:
    """A worker of the previous release counted tables without moving the
    progress rows (one game's row behind, another game's missing), and a row
    stands for a game whose markers are gone: each is written again from the
    markers, as the aggregate over them gave."""
    ada, bob, cy = people(3)
    basic = bot("basic")
    kort = [
        finished_table("alkort", [ada, bob], seed=f"g-{i}", options=QUICK)
        for i in range(3)
    ]
    alager = finished_table("alager", [basic, ada, bob], seed="g-a")
    table_record(table_id=kort[0])
    _count_as_before(kort[1], monkeypatch)
    _count_as_before(kort[2], monkeypatch)
    _count_as_before(alager, monkeypatch)
    GameProgress.objects.create(
        game="allegra",
        tables=4,
        last_table=kort[0],
        last_finished_at=Table.objects.get(pk=kort[0]).finished_at,
        counted_at=CountedTable.objects.get(table_id=kort[0]).counted_at,
    )
    assert GameProgress.objects.get(game="alkort").tables == 1
    assert not GameProgress.objects.filter(game="alager").exists()

    with caplog.at_level(logging.WARNING, logger="stats.services.reconcile"):
        done = stats_reconcile()

    assert done.queued == {}
    assert sorted(done.progress) == ["alager", "alkort", "allegra"]
    assert done.progress["alager"][0] is None
    assert done.progress["allegra"][1] is None
    assert done.progress["alkort"][0]["tables"] == 1  # type: ignore[index]
    assert done.progress["alkort"][1]["tables"] == 3  # type: ignore[index]
    _same_as_before()
    assert not GameProgress.objects.filter(game="allegra").exists()
    messages = " ".join(r.getMessage() for r in caplog.records)
    assert "alkort's progress disagreed" in messages
    assert all(r.levelno == logging.WARNING for r in caplog.records)
    assert stats_reconcile().progress == {}


def test_a_late_counted_at_alone_is_drift(people, finished_table) -> None:
    """A row that agrees on the count and the last table but not on the
    newest count (``Last-Modified``) is repaired too."""
    ada, bob = people(2)
    table_record(table_id=finished_table("alkort", [ada, bob], options=QUICK))
    GameProgress.objects.filter(game="alkort").update(
        counted_at=CountedTable.objects.get().counted_at.replace(year=2020)
    )

    assert list(stats_reconcile().progress) == ["alkort"]
    _same_as_before()


def test_the_command_says_what_it_found_in_one_line(
    people, finished_table, monkeypatch
) -> None:
    assert _summary() == (
        "Nothing to reconcile: every finished table is counted or queued, and "
        "every game's progress agrees with its counted tables."
    )
    ada, bob, cy = people(3)
    lost = finished_table("alkort", [ada, bob], seed="c-1", options=QUICK)
    _unqueue(lost)
    _count_as_before(finished_table("alager", [ada, bob, cy], seed="c-2"), monkeypatch)

    assert _summary() == (
        f"Reconciled: queued 1 finished table that was neither counted nor queued "
        f"({lost}: the statistics sweep counts it from its next run); repaired "
        "the progress of 1 game (alager)."
    )
    assert _summary().startswith("Nothing to reconcile")


def test_the_beat_schedule_runs_it_daily(settings) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["stats-reconcile"]
    assert entry["task"] == stats_reconcile_task.name == "stats.tasks.stats_reconcile"
    assert entry["schedule"] == 86400.0


def test_the_task_returns_what_it_repaired(people, finished_table) -> None:
    ada, bob = people(2)
    _unqueue(finished_table("alkort", [ada, bob], options=QUICK))
    GameProgress.objects.create(
        game="alager",
        tables=1,
        last_table=1,
        last_finished_at=Table.objects.get().finished_at,
        counted_at=Table.objects.get().finished_at,
    )

    assert stats_reconcile_task.apply().get() == 2
    assert stats_reconcile_task.apply().get() == 0


def test_an_unfinished_table_is_never_queued(people, finished_table) -> None:
    """A table in play, or aborted in the lobby, has no queue row and no
    marker, and stays so."""
    from games import services
    from tests.games.tables import table_started

    ada, bob = people(2)
    table_started(seating=[ada, bob], options=QUICK, seed="u-1")
    lobby = services.table_create(user=ada, game="alkort", players=2, options=QUICK)
    Table.objects.filter(pk=lobby.pk).update(status=TableStatus.ABORTED)

    assert stats_reconcile().queued == {}
    assert not PendingTable.objects.exists()


def test_many_unqueued_tables_are_read_again_in_batches(
    people, finished_table, monkeypatch
) -> None:
    """Tables are read again under the lock a batch at a time (a query's
    parameters are bounded: SQLite's at 32,766), every one of them queued."""
    monkeypatch.setattr("stats.services.reconcile.BATCH", 2)
    ada, bob = people(2)
    ids = [
        finished_table("alkort", [ada, bob], seed=f"b-{i}", options=QUICK)
        for i in range(5)
    ]
    for table_id in ids:
        _unqueue(table_id)

    assert stats_reconcile().queued == {"alkort": ids}
    assert sorted(PendingTable.objects.values_list("table_id", flat=True)) == ids


def _writer_lock_take(game: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, %s)",
            [locks.LOCK_NAMESPACE, rules.GAMES.index(game)],
        )


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_a_table_counted_while_it_waits_for_the_lock_is_not_queued(
    people, finished_table
) -> None:
    """The reconciliation finds an unqueued table without the lock, then
    waits for the game's writer lock, which a count of that very table holds:
    once the count commits, it reads again and queues nothing (a queue row
    beside the marker would show the table as still to count)."""
    ada, bob = people(2)
    table_id = finished_table("alkort", [ada, bob], options=QUICK)
    _unqueue(table_id)

    with holding(
        lambda: _writer_lock_take("alkort"),
        then=lambda: table_record(table_id=table_id),
    ) as holder:
        running = in_background(stats_reconcile)
        assert wait_for_lock_waiters(1, unless=running.done)
    assert holder.outcome.get() is True
    done = running.wait().get()

    assert done.queued == {}
    assert done.progress == {}
    assert not PendingTable.objects.exists()
    assert CountedTable.objects.filter(table_id=table_id).count() == 1
    _same_as_before()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_at_once_with_counts_recounts_the_sweep_and_the_rebuild(
    people, finished_table, settings
) -> None:
    """Real PostgreSQL, one connection per caller: reconciliations, counts of
    unqueued tables, a recount, the sweep and a rebuild all at once. Every
    finished table ends up counted exactly once, nothing queued beside a
    marker, and every progress row where its markers are."""
    settings.STATS_SWEEP_GRACE_SECONDS = 0
    ada, bob, cy = people(3)
    kort = [
        finished_table("alkort", [ada, bob], seed=f"x-{i}", options=QUICK)
        for i in range(4)
    ]
    alager = [finished_table("alager", [ada, bob, cy], seed=f"x-a{i}") for i in (0, 1)]
    table_record(table_id=kort[0])
    for table_id in kort[1:] + alager:
        _unqueue(table_id)

    outcomes = run_together(
        stats_reconcile,
        stats_reconcile,
        lambda: table_record(table_id=kort[1]),
        lambda: table_record(table_id=alager[0]),
        lambda: table_recount(table_id=kort[0]),
        lambda: stats_sweep.apply().get(),
        stats_rebuild,
        stats_reconcile,
    )
    for outcome in outcomes:
        outcome.get()
    # Whatever was queued meanwhile is counted by the sweep's next run.
    stats_sweep.apply().get()

    finished = set(
        Table.objects.filter(status=TableStatus.FINISHED).values_list("id", flat=True)
    )
    assert set(CountedTable.objects.values_list("table_id", flat=True)) == finished
    assert not PendingTable.objects.exists()
    assert tables_finished_unqueued() == []
    matches = dict(GameStat.objects.values_list("game", "counters__matches"))
    assert matches == {"alkort": 4, "alager": 2}
    _same_as_before()
    assert stats_reconcile().progress == {}


def test_prepare_reconciles_before_the_service_starts(
    people, finished_table, monkeypatch, tmp_path
) -> None:
    """``manage.py prepare`` (``make run``, ``make up``) reconciles after
    migrating, so a start after a deploy repairs what the previous release's
    processes left; with nothing to repair it says nothing about it."""
    from tests.config.test_up_prepare import _prepare

    source = tmp_path / "source"
    source.mkdir()
    (source / "qa.css").write_text("body {}\n")
    assert "reconcile" not in _prepare(source, tmp_path / "root").lower()
    ada, bob = people(2)
    lost = finished_table("alkort", [ada, bob], options=QUICK)
    _unqueue(lost)

    said = _prepare(source, tmp_path / "root")

    assert (
        f"Reconciled: queued 1 finished table that was neither counted nor queued "
        f"({lost}: the statistics sweep counts it from its next run)." in said
    )
    assert tables_finished_unqueued() == []
