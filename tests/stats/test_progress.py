"""How far the statistics have got, read from each game's progress row
(``stats.GameProgress``) instead of every ``CountedTable`` marker.

``computed_through`` (in every statistics answer) and ``Last-Modified``
once counted the markers, took their newest ``counted_at`` and looked for the
last of them in finish order on every request, so their cost grew with every
table the site counted. The answers must be exactly what those aggregates gave.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.models import Count, Max
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import rules
from games.models import Table, TableStatus
from stats.models import CountedTable, GameProgress, PendingTable
from stats.selectors import computed_through_get, last_modified
from stats.services import stats_rebuild, table_record, table_recount
from tests.races import run_together
from tests.stats.sites import QUICK, counted_many

pytestmark = pytest.mark.django_db


def _as_before(game: str | None) -> dict[str, Any]:
    """``computed_through`` (without ``pending``) and ``Last-Modified`` as the
    aggregate over every marker gave them."""
    counted = CountedTable.objects.all()
    if game is not None:
        counted = counted.filter(game=game)
    last = (
        counted.order_by("-finished_at", "-table_id")
        .values("table_id", "finished_at")
        .first()
    )
    agg = counted.aggregate(n=Count("pk"), at=Max("counted_at"))
    return {
        "table": last["table_id"] if last else None,
        "finished_at": last["finished_at"] if last else None,
        "tables": agg["n"],
        "counted_at": agg["at"],
        "last_modified": agg["at"],
    }


def _now(game: str | None) -> dict[str, Any]:
    got = computed_through_get(game=game)
    del got["pending"]
    got["last_modified"] = last_modified(game=game)
    return got


def _same_as_before() -> None:
    for game in (None, *rules.GAMES):
        assert _now(game) == _as_before(game), game


def _finish_at(table_id: int, at: Any) -> None:
    Table.objects.filter(pk=table_id).update(finished_at=at)
    PendingTable.objects.filter(table_id=table_id).update(finished_at=at)


def test_the_answers_are_what_every_marker_gave(people, bot, finished_table) -> None:
    """Nothing counted, counts of every game, a late table, a recount, a
    recount that finds the table no longer countable, and a rebuild: after
    each step every scope answers what the aggregate over the markers gave."""
    ada, bob, cy = people(3)
    basic = bot("basic")
    _same_as_before()
    assert _now(None) == {
        "table": None,
        "finished_at": None,
        "tables": 0,
        "counted_at": None,
        "last_modified": None,
    }
    ids = [
        finished_table("alkort", [ada, bob], seed="p-1", options=QUICK),
        finished_table("alager", [basic, ada, bob], seed="p-2"),
        finished_table("allegra", [bob, basic, cy], seed="p-3"),
        finished_table("alkort", [basic, cy], seed="p-4", options=QUICK),
        finished_table("alkort", [cy, ada], seed="p-5", options=QUICK),
        finished_table("alager", [ada, bob, cy], seed="p-6"),
    ]
    at = timezone.now() - timedelta(hours=1)
    for i, table_id in enumerate(ids):
        _finish_at(table_id, at + timedelta(minutes=i))
    # ids[3] and ids[4] finish at the same moment: the table id decides.
    _finish_at(ids[4], at + timedelta(minutes=3))

    for table_id in (ids[0], ids[1], ids[2], ids[4]):
        assert table_record(table_id=table_id)
        _same_as_before()
    assert _now("alkort")["table"] == ids[4]

    # A late table: finished before the last one counted, counted after it.
    assert table_record(table_id=ids[3])
    _same_as_before()
    assert _now("alkort")["table"] == ids[4]
    assert _now(None)["tables"] == 5

    # Counting it again changes nothing.
    before = _now(None)
    assert not table_record(table_id=ids[3])
    assert _now(None) == before

    # A recount: the count stays, counted_at moves on.
    assert table_recount(table_id=ids[0])
    _same_as_before()
    assert _now(None)["tables"] == 5
    assert _now(None)["counted_at"] > before["counted_at"]

    # A recount of a table not counted yet counts it.
    assert table_recount(table_id=ids[5])
    _same_as_before()
    assert _now("alager")["table"] == ids[5]

    # A recount that finds the table no longer finished takes it out.
    Table.objects.filter(pk=ids[4]).update(status=TableStatus.ABORTED)
    assert not table_recount(table_id=ids[4])
    _same_as_before()
    assert _now("alkort")["table"] == ids[3]
    assert _now(None)["tables"] == 5

    # The only table of a game taken out: that game has nothing counted.
    Table.objects.filter(pk=ids[2]).update(status=TableStatus.ABORTED)
    assert not table_recount(table_id=ids[2])
    _same_as_before()
    assert _now("allegra")["tables"] == 0
    assert not GameProgress.objects.filter(game="allegra").exists()

    Table.objects.filter(pk__in=[ids[2], ids[4]]).update(status=TableStatus.FINISHED)
    assert stats_rebuild() == 6
    _same_as_before()
    assert _now(None)["tables"] == 6
    assert _now(None)["table"] == ids[5]

    # Counting after the rebuild goes on from there.
    late = finished_table("allegra", [cy, bob, ada], seed="p-7")
    _finish_at(late, at - timedelta(days=1))
    assert table_record(table_id=late)
    _same_as_before()


def _counted_queries() -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        for game in (None, *rules.GAMES):
            computed_through_get(game=game)
            last_modified(game=game)
    return [q["sql"] for q in captured.captured_queries]


def _explained(sql: str) -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}")
        [[plan]] = cursor.fetchall()
    return plan[0]["Plan"]  # type: ignore[no-any-return]


def _relations(plan: dict[str, Any]) -> set[str]:
    found = {plan["Relation Name"]} if "Relation Name" in plan else set()
    for child in plan.get("Plans", []):
        found |= _relations(child)
    return found


def test_the_read_touches_the_progress_rows_only(people, finished_table) -> None:
    """With 3,000 more markers, ``computed_through`` and ``Last-Modified``
    run the same queries, none of them reads ``stats_countedtable`` (in its
    SQL or in PostgreSQL's plan), and the counted part reads at most one row
    a game."""
    ada, bob = people(2)
    table_record(
        table_id=finished_table("alkort", [ada, bob], seed="b-1", options=QUICK)
    )
    first = _counted_queries()

    counted_many(ada)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE stats_countedtable, stats_gameprogress")

    queries = _counted_queries()
    assert queries == first
    # Each of the four scopes: its progress rows, the queue, the newest count.
    assert len(queries) == 12
    for sql in queries:
        assert '"stats_countedtable"' not in sql, sql
        plan = _explained(sql)
        assert "stats_countedtable" not in _relations(plan), json.dumps(plan)
        if "stats_gameprogress" in _relations(plan):
            assert plan["Actual Rows"] <= len(rules.GAMES), json.dumps(plan)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_counts_at_once_lose_no_progress(people, finished_table) -> None:
    """Real PostgreSQL, one connection per writer: six tables of one game and
    two of another counted at once, a recount and a second count among them,
    leave each game's row where its markers are (the game's writer lock
    serialises the writers of one game; another game's do not wait)."""
    ada, bob, cy = people(3)
    ids = [
        finished_table("alkort", [ada, bob], seed=f"r-{i}", options=QUICK)
        for i in range(6)
    ]
    others = [finished_table("alager", [ada, bob, cy], seed=f"r-a{i}") for i in (0, 1)]
    table_record(table_id=ids[0])
    calls = [lambda t=t: table_record(table_id=t) for t in ids[1:] + others]
    calls += [
        lambda: table_recount(table_id=ids[0]),
        lambda: table_record(table_id=ids[0]),
    ]

    outcomes = run_together(*calls)

    assert [o.get() for o in outcomes] == [True] * 7 + [True, False]
    _same_as_before()
    assert _now("alkort")["tables"] == 6
    assert _now("alager")["tables"] == 2
    assert _now(None)["tables"] == 8
