"""Counting one finished table: the task's work, and the admin's recount."""

from __future__ import annotations

from games.models import Table
from stats.locks import game_writer
from stats.models import CountedTable, PlayerResult
from stats.projection import project
from stats.services.progress import (
    progress_counted,
    progress_recounted,
    progress_refresh,
)
from stats.services.queue import tables_queue_remove
from stats.services.ratings import ratings_apply, ratings_replay_from
from stats.services.writes import results_rows, stats_add
from stats.sources import tables_load


def table_record(*, table_id: int) -> bool:
    """Count finished table ``table_id`` once; True if this call counted it.

    Reads the table's events (never its cached state), adds its statistics,
    rates it, writes its ``CountedTable`` marker, moves the game's progress
    on (``GameProgress``) and takes it off the queue of tables waiting for
    their count (``PendingTable``) in one transaction. A
    table already counted, not finished or missing is left alone, so running
    this twice, or twice at once, counts the table once.

    Lock: the writer lock of the table's game (``stats.locks``), so updates of
    one game are applied one at a time.
    """
    game = Table.objects.filter(pk=table_id).values_list("game", flat=True).first()
    if game is None:
        return False
    with game_writer(game):
        if CountedTable.objects.filter(table_id=table_id).exists():
            # Counted already. A queue row left beside the marker (a worker
            # of the previous release counted a table the new one queued)
            # goes now, or the table would stay pending and swept for ever.
            tables_queue_remove(table_ids=[table_id])
            return False
        counted = _count(table_id, rate=True)
        if counted is not None:
            progress_counted(marker=counted)
        return counted is not None


def table_recount(*, table_id: int) -> bool:
    """Take a table's statistics out and count it again from its events.

    For the admin's "recount this table" (after an upcaster fixed old events,
    say). The game's ratings are replayed from the table on, in finish order.
    Returns True if the table is counted afterwards. The game's progress
    (``GameProgress``) follows in the same transaction. Lock: the game's
    writer lock.
    """
    game = Table.objects.filter(pk=table_id).values_list("game", flat=True).first()
    if game is None:
        return False
    with game_writer(game):
        old = CountedTable.objects.filter(table_id=table_id).first()
        if old is not None:
            stats_add(game, old.contribution, sign=-1)
            PlayerResult.objects.filter(table_id=table_id).delete()
            old.delete()
        new = _count(table_id, rate=False)
        if old is not None and new is not None:
            progress_recounted(old=old, new=new)
        elif new is not None:
            progress_counted(marker=new)
        elif old is not None:  # no longer countable: its marker is gone
            progress_refresh(games=[game])
        rated = [c for c in (old, new) if c is not None and c.rated]
        if rated:
            ratings_replay_from(
                game=game, finished_at=rated[0].finished_at, table_id=table_id
            )
        return new is not None


def _count(table_id: int, *, rate: bool) -> CountedTable | None:
    source = tables_load([table_id]).get(table_id)
    if source is None:
        return None
    contribution = project(source)
    PlayerResult.objects.bulk_create(results_rows(source, contribution))
    data = contribution.to_json()
    stats_add(source.game, data)
    counted = CountedTable.objects.create(
        table_id=table_id,
        game=source.game,
        players=source.players,
        finished_at=source.finished_at,
        rated=contribution.rating_input is not None,
        rating_input=contribution.rating_input,
        contribution=data,
    )
    tables_queue_remove(table_ids=[table_id])
    if rate and contribution.rating_input is not None:
        ratings_apply(
            game=source.game,
            table_id=table_id,
            finished_at=source.finished_at,
            rating_input=contribution.rating_input,
        )
    return counted
