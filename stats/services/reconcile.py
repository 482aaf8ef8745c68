"""The safety net under the count: tables and progress rows that drifted.

A table is counted because its finish queued it (``PendingTable``) and
because each game's progress row (``GameProgress``) moves with its markers.
Processes of an earlier release know neither: one that finishes a table
after ``stats/0004`` leaves it unqueued (were its own task lost, the sweep,
which reads the queue only, would never find it), and one that counts a
table after ``stats/0005`` leaves the game's row behind. A table deleted by
hand in the database leaves its game's row counting it too. The
reconciliation finds both kinds of drift and repairs them, without a rebuild:

1. finished tables with neither a ``CountedTable`` marker nor a queue row are
   queued (the sweep then counts them as any table whose task was lost);
2. each game's progress row is compared with the aggregate over its markers
   (what ``computed_through`` read before the rows) and written again when
   they differ.

Each game's repair runs under that game's writer lock (``stats.locks``), in
a transaction of its own, reading again there what it found without the
lock: a count, a recount or the rebuild that commits meanwhile is seen, so
a table counted meanwhile is not queued, and a progress row is never
"repaired" from markers read half before and half after a count. It never
counts a table itself, so it cannot count one twice, and it queues only
tables that are finished (a finished table stays finished).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

import rules
from games.models import Table, TableStatus
from stats.locks import game_writer
from stats.models import CountedTable, GameProgress, PendingTable
from stats.services.progress import progress_expected, progress_refresh

logger = logging.getLogger(__name__)

#: At most this many table ids are named in one log line.
LOG_IDS = 100
#: Tables read again and queued at a time (a query's parameters are bounded).
BATCH = 1000


@dataclass
class Reconciled:
    """What one reconciliation repaired: the tables it queued (by game, in id
    order) and, per game whose progress row disagreed with its markers, the
    row as it was and as it is now (``None``: no row)."""

    queued: dict[str, list[int]] = field(default_factory=dict)
    progress: dict[str, tuple[dict[str, Any] | None, dict[str, Any] | None]] = field(
        default_factory=dict
    )

    @property
    def queued_count(self) -> int:
        return sum(len(ids) for ids in self.queued.values())


def _unqueued(ids: list[int] | None = None) -> QuerySet[Table]:
    """Finished tables with neither a marker nor a queue row."""
    tables = Table.objects.filter(status=TableStatus.FINISHED)
    if ids is not None:
        tables = tables.filter(pk__in=ids)
    return tables.exclude(
        Exists(PendingTable.objects.filter(table_id=OuterRef("pk")))
    ).exclude(Exists(CountedTable.objects.filter(table_id=OuterRef("pk"))))


def _progress_now(game: str) -> dict[str, Any] | None:
    row = (
        GameProgress.objects.filter(game=game)
        .values("tables", "last_table", "last_finished_at", "counted_at")
        .first()
    )
    return None if row is None else dict(row)


def stats_reconcile() -> Reconciled:
    """Queue the finished tables nothing will count and repair the progress
    rows that disagree with their markers; what it repaired (each repair is
    logged at WARNING: drift means something went wrong).

    Lock: each game's writer lock in turn, one transaction per game, held
    while the game's progress row is checked (one read of its markers' count)
    and the tables the read without the lock found are read again and queued.
    """
    done = Reconciled()
    found: dict[str, list[int]] = {}
    for table_id, game in _unqueued().order_by("id").values_list("id", "game"):
        found.setdefault(game, []).append(table_id)
    for game in rules.GAMES:
        with game_writer(game):
            if found.get(game):
                _queue(game, found[game], done)
            _progress(game, done)
    return done


def _queue(game: str, candidates: list[int], done: Reconciled) -> None:
    """Queue ``candidates`` still unqueued and uncounted now that the game's
    writer lock is held (a count that committed meanwhile is seen)."""
    ids: list[int] = []
    for start in range(0, len(candidates), BATCH):
        rows = list(
            _unqueued(ids=candidates[start : start + BATCH])
            .order_by("id")
            .values_list("id", "game", "finished_at")
        )
        PendingTable.objects.bulk_create(
            [PendingTable(table_id=pk, game=g, finished_at=at) for pk, g, at in rows],
            ignore_conflicts=True,
        )
        ids.extend(pk for pk, _, _ in rows)
    if not ids:
        return
    done.queued[game] = ids
    shown = ", ".join(str(pk) for pk in ids[:LOG_IDS])
    more = f" and {len(ids) - LOG_IDS} more" if len(ids) > LOG_IDS else ""
    logger.warning(
        "Statistics reconcile: queued %d finished %s table(s) that were neither "
        "counted nor queued for their count: %s%s",
        len(ids),
        game,
        shown,
        more,
    )


def _progress(game: str, done: Reconciled) -> None:
    """Write game ``game``'s progress row again if it disagrees with its
    markers (the caller holds the game's writer lock)."""
    expected = progress_expected(game)
    now = _progress_now(game)
    if now == expected:
        return
    progress_refresh(games=[game])
    done.progress[game] = (now, expected)
    logger.warning(
        "Statistics reconcile: %s's progress disagreed with its counted tables "
        "and was repaired: %s, now %s",
        game,
        _described(now),
        _described(expected),
    )


def _described(row: dict[str, Any] | None) -> str:
    if row is None:
        return "no row"
    return (
        f"{row['tables']} tables, last table {row['last_table']} finished "
        f"{row['last_finished_at'].isoformat()}, counted at "
        f"{row['counted_at'].isoformat()}"
    )
