"""A site of every kind of table, for the tests of the count's queue."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Seat, Table, TableStatus
from stats.models import CountedTable, PendingTable
from stats.services import table_record
from tests.games.tables import table_started

QUICK = {"target": 1}


def mixed_site(people: Any, bot: Any, finished_table: Any) -> dict[str, Any]:
    """Counted and uncounted tables of every game, a bot at most of them, a
    table in play and an aborted one (neither ever finished)."""
    ada, bob, cy = people(3)
    basic = bot("basic")
    ids = [
        finished_table("alkort", [ada, bob], seed="m-1", options=QUICK),
        finished_table("alager", [basic, ada, basic], seed="m-2"),
        finished_table("allegra", [bob, basic, cy], seed="m-3"),
        finished_table("alkort", [basic, cy], seed="m-4", options=QUICK),
        finished_table("alager", [ada, bob, cy], seed="m-5"),
        finished_table("allegra", [basic, basic, ada], seed="m-6"),
        finished_table("alkort", [bob, basic], seed="m-7", options=QUICK),
    ]
    for table_id in ids[::3]:
        table_record(table_id=table_id)
    table_started(seating=[ada, bob], options=QUICK, seed="m-playing")
    lobby = services.table_create(user=cy, game="alkort", players=2, options=QUICK)
    Table.objects.filter(pk=lobby.pk).update(status=TableStatus.ABORTED)
    # One that finished a while ago, for the sweep's grace.
    long_ago = timezone.now() - timedelta(hours=2)
    Table.objects.filter(pk=ids[1]).update(finished_at=long_ago)
    PendingTable.objects.filter(table_id=ids[1]).update(finished_at=long_ago)
    return {"people": [ada, bob, cy, basic], "ids": ids}


def counted_many(
    creator: User, *, seated: tuple[User, ...] = (), n: int = 3000
) -> list[Table]:
    """``n`` finished 3-player Alager tables, counted (a marker each, no
    statistics), seated by ``seated`` when given: a big site's history, for
    the tests that hold a read bounded by what is still to count."""
    at = timezone.now()
    tables = Table.objects.bulk_create(
        Table(
            game="alager",
            players=3,
            status=TableStatus.FINISHED,
            created_by=creator,
            outcome={"places": [1, 2, 3]},
            finished_at=at,
        )
        for _ in range(n)
    )
    Seat.objects.bulk_create(
        Seat(table=t, index=i, user=u, bot_level=u.bot_level if u.is_bot else None)
        for t in tables
        for i, u in enumerate(seated)
    )
    CountedTable.objects.bulk_create(
        CountedTable(
            table=t, game=t.game, players=3, finished_at=at, rated=True, contribution={}
        )
        for t in tables
    )
    return tables
