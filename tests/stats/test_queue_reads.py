""" "Still to count" read from the queue (``stats.PendingTable``): the same
answers as the anti-join of every finished table with the markers gave, for
the price of the queued tables only.

``computed_through``'s ``pending``, a player's ``uncounted`` and the sweep
once looked through every finished table of the site for those without a
``CountedTable`` marker, on every request (a house bot's profile read most
of the site's finished tables).
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.models import Exists, F, OuterRef, Q
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import rules
from accounts.models import User
from games.models import Seat, Table, TableStatus
from stats.models import CountedTable
from stats.selectors import (
    computed_through_get,
    player_tables_uncounted,
    table_list_uncounted,
)
from tests.stats.sites import counted_many, mixed_site

pytestmark = pytest.mark.django_db


def _pending_as_before(game: str | None) -> int:
    finished = Table.objects.filter(status=TableStatus.FINISHED)
    if game is not None:
        finished = finished.filter(game=game)
    return finished.filter(stats_counted__isnull=True).count()


def _uncounted_as_before(user: User, game: str | None) -> list[tuple[Any, ...]]:
    mine = Q(replaced_user=user) | Q(user=user, replaced_user__isnull=True)
    tables = Table.objects.filter(
        pk__in=Seat.objects.filter(mine).values("table_id"),
        status=TableStatus.FINISHED,
    ).exclude(Exists(CountedTable.objects.filter(table_id=OuterRef("pk"))))
    if game is not None:
        tables = tables.filter(game=game)
    found = tables.order_by(F("finished_at").desc(nulls_last=True), "-id")[:10]
    return [
        (t.pk, t.game, t.finished_at, t.players, s.index, t.outcome["places"][s.index])
        for t in found
        for s in Seat.objects.filter(mine, table=t).order_by("index")
    ]


def _sweep_as_before(grace: float) -> list[int]:
    cutoff = timezone.now() - timedelta(seconds=grace)
    return list(
        Table.objects.filter(status=TableStatus.FINISHED, stats_counted__isnull=True)
        .filter(Q(finished_at__lte=cutoff) | Q(finished_at__isnull=True))
        .order_by("finished_at", "id")
        .values_list("id", flat=True)
    )


def test_the_answers_are_what_the_finished_tables_gave(
    people, bot, finished_table
) -> None:
    """``pending``, ``uncounted`` and the sweep, read from the queue, equal
    what the anti-join of every finished table with the markers gave."""
    site = mixed_site(people, bot, finished_table)

    for game in (None, *rules.GAMES):
        assert computed_through_get(game=game)["pending"] == _pending_as_before(game)
        for user in site["people"]:
            rows = player_tables_uncounted(user=user, game=game)
            got = [
                (r["table"], r["game"], r["finished_at"], r["players"], r["seat"])
                + (r["place"],)
                for r in rows
            ]
            assert got == _uncounted_as_before(user, game)
    assert computed_through_get()["pending"] == 4
    for grace in (0, 3600):
        assert table_list_uncounted(grace_seconds=grace) == _sweep_as_before(grace)
    assert table_list_uncounted(grace_seconds=3600) == [site["ids"][1]]
    assert table_list_uncounted(grace_seconds=0, limit=2) == _sweep_as_before(0)[:2]


def _still_to_count_queries(user: User) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        computed_through_get()
        computed_through_get(game="alkort")
        player_tables_uncounted(user=user)
        table_list_uncounted()
    return [q["sql"] for q in captured.captured_queries]


def test_still_to_count_is_read_from_the_queue_not_every_finished_table(
    people, bot, finished_table
) -> None:
    """No read of "still to count" looks through the site's finished tables
    for the absence of a marker: each starts from the queue and joins a
    queued row's own table by its primary key."""
    mixed_site(people, bot, finished_table)

    queries = _still_to_count_queries(bot("basic"))

    from_queue = 'FROM "stats_pendingtable" INNER JOIN "games_table" ON '
    from_queue += '("stats_pendingtable"."table_id" = "games_table"."id")'
    for sql in queries:
        if '"games_table"' in sql:
            assert from_queue in sql, sql
            assert '"stats_countedtable"' not in sql, sql
    assert sum(from_queue in sql for sql in queries) == 4


def _rows_read(plan: dict[str, Any], relations: set[str]) -> int:
    """Rows PostgreSQL read from ``relations`` in an ``EXPLAIN (ANALYZE,
    FORMAT JSON)`` plan: those it kept and those its filters removed."""
    read = 0
    if plan.get("Relation Name") in relations:
        per_loop = plan["Actual Rows"] + plan.get("Rows Removed by Filter", 0)
        read += per_loop * plan["Actual Loops"]
    for child in plan.get("Plans", []):
        read += _rows_read(child, relations)
    return read


def test_still_to_count_reads_rows_of_queued_tables_only(
    people, bot, finished_table
) -> None:
    """With 3,000 counted tables the house bot sat at, finished after the
    queued ones (whose tasks were lost, say), PostgreSQL reads no more rows
    of the tables and seats than the queued tables have."""
    site = mixed_site(people, bot, finished_table)
    ada, basic = site["people"][0], site["people"][3]
    counted_many(ada, seated=(ada, basic, basic))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_table, games_seat, stats_pendingtable")

    def explained(sql: str, params: Any = ()) -> dict[str, Any]:
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params)
            [[plan]] = cursor.fetchall()
        return plan[0]["Plan"]  # type: ignore[no-any-return]

    site_tables = Table.objects.filter(status=TableStatus.FINISHED).count()
    assert site_tables == 3007
    # What "still to count" read before: every finished table of the site.
    before = Table.objects.filter(status=TableStatus.FINISHED)
    before = before.filter(stats_counted__isnull=True)
    sql, params = before.values("pk").query.sql_with_params()
    assert (
        _rows_read(
            explained(f"SELECT COUNT(*) FROM ({sql}) t", params), {"games_table"}
        )
        >= 3000
    )
    for sql in _still_to_count_queries(basic):
        if '"games_table"' not in sql:
            continue
        plan = explained(sql)
        # A few rows around the four queued tables, never the site's.
        assert _rows_read(plan, {"games_table"}) <= 10, json.dumps(plan)
        assert _rows_read(plan, {"games_seat"}) <= 30, json.dumps(plan)
