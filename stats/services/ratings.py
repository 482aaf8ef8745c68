"""Applying rating updates in finish order, even when tables arrive late.

Tables are rated in the order ``(finished_at, table id)``. A table counted
after a later-finished one (its task was slow, lost and swept up, or it was
recounted) is not rated out of turn: the ratings of its game are wound back to
just before it and every later rated table is replayed, so the numbers are
always those of the finish order, exactly as ``stats_rebuild`` computes them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q

from stats.models import CountedTable, RatingChange
from stats.ratings import Entry
from stats.services.writes import book_load, book_save, change_rows


def _from(finished_at: datetime, table_id: int, field: str = "table_id") -> Q:
    return Q(finished_at__gt=finished_at) | Q(
        finished_at=finished_at, **{f"{field}__gte": table_id}
    )


def ratings_apply(
    *, game: str, table_id: int, finished_at: datetime, rating_input: dict[str, Any]
) -> None:
    """Rate one newly counted table. Lock: the caller holds the game's writer lock."""
    last = (
        RatingChange.objects.filter(game=game)
        .order_by("-finished_at", "-table_id")
        .values_list("finished_at", "table_id")
        .first()
    )
    if last is not None and (finished_at, table_id) < last:
        ratings_replay_from(game=game, finished_at=finished_at, table_id=table_id)
        return
    users = {u for team in rating_input["teams"] for u in team}
    book = book_load(game, users)
    changes = book.apply(
        table_id=table_id, finished_at=finished_at, rating_input=rating_input
    )
    book_save(game, book, users)
    RatingChange.objects.bulk_create(change_rows(game, changes))


def ratings_replay_from(*, game: str, finished_at: datetime, table_id: int) -> None:
    """Wind ``game``'s ratings back to before ``(finished_at, table_id)`` and
    replay every rated counted table from there, in finish order.

    Lock: the caller holds the game's writer lock.
    """
    later = RatingChange.objects.filter(game=game).filter(_from(finished_at, table_id))
    restore: dict[int, Entry] = {}
    for change in later.order_by("finished_at", "table_id"):
        if change.user_id not in restore:
            restore[change.user_id] = Entry(
                change.before_mu, change.before_sigma, change.matches - 1
            )
    later.delete()
    tables = [
        (tid, finished, rating_input)
        for tid, finished, rating_input in CountedTable.objects.filter(
            game=game, rated=True, rating_input__isnull=False
        )
        .filter(_from(finished_at, table_id, "table"))
        .order_by("finished_at", "table_id")
        .values_list("table_id", "finished_at", "rating_input")
        if rating_input is not None
    ]
    users = set(restore)
    for _, _, rating_input in tables:
        users.update(u for team in rating_input["teams"] for u in team)
    book = book_load(game, users)
    book.entries.update(restore)
    changes = []
    for tid, finished, rating_input in tables:
        changes.extend(
            book.apply(table_id=tid, finished_at=finished, rating_input=rating_input)
        )
    book_save(game, book, users)
    RatingChange.objects.bulk_create(change_rows(game, changes))
