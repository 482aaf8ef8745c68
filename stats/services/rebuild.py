"""``stats_rebuild``: every statistic and rating again, from the events alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import rules
from games.models import Table, TableStatus
from stats.locks import games_writer
from stats.models import (
    CountedTable,
    GameStat,
    PlayerGameStat,
    PlayerResult,
    Rating,
    RatingChange,
)
from stats.projection import counters_add, project
from stats.ratings import RatingBook
from stats.services.progress import progress_refresh
from stats.services.queue import tables_queue_remove
from stats.services.writes import book_save, change_rows, per_user, results_rows
from stats.sources import tables_load

BATCH = 500


def stats_rebuild(
    *,
    batch: int = BATCH,
    total: Callable[[int], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Throw every read model away and count every finished table again.

    Tables are read in batches in finish order (``finished_at``, then id) and
    rated in that order, through the same projection and rating code as the
    task, so the result equals the incremental one exactly. Returns the
    number of tables counted. ``total(n)`` is told the number of tables
    first, ``progress(k)`` after each batch (the command's progress bar).

    Each table counted leaves the queue of tables waiting for their count
    (``PendingTable``) in the same transaction; a table that finishes while
    the rebuild runs, after it listed the finished tables, stays queued for
    its own task.

    Each game's progress (``GameProgress``) is read again from the markers
    once all are written.

    Lock: the writer lock of every game, in one transaction: tasks wait for
    the rebuild and then find their tables counted.

    ``batch`` below 1 is refused before anything is deleted (a batch of 0 or
    less would read no table and leave every statistic and rating empty).
    """
    if batch < 1:
        raise ValueError(f"batch must be at least 1, not {batch}")
    with games_writer(rules.GAMES):
        for model in (RatingChange, Rating, PlayerResult, PlayerGameStat, GameStat):
            model.objects.all().delete()
        CountedTable.objects.all().delete()
        ids = list(
            Table.objects.filter(status=TableStatus.FINISHED)
            .order_by("finished_at", "id")
            .values_list("id", flat=True)
        )
        if total is not None:
            total(len(ids))
        books = {game: RatingBook() for game in rules.GAMES}
        players: dict[tuple[int, str], dict[str, Any]] = {}
        games: dict[str, dict[str, Any]] = {}
        counted = 0
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            sources = tables_load(chunk)
            order = sorted(sources.values(), key=lambda s: (s.finished_at, s.table_id))
            results, markers, changes = [], [], []
            for source in order:
                contribution = project(source)
                data = contribution.to_json()
                results.extend(results_rows(source, contribution))
                for user_id, counters in per_user(data).items():
                    counters_add(
                        players.setdefault((user_id, source.game), {}), counters
                    )
                counters_add(games.setdefault(source.game, {}), data["game"])
                markers.append(
                    CountedTable(
                        table_id=source.table_id,
                        game=source.game,
                        players=source.players,
                        finished_at=source.finished_at,
                        rated=contribution.rating_input is not None,
                        rating_input=contribution.rating_input,
                        contribution=data,
                    )
                )
                if contribution.rating_input is not None:
                    changes.extend(
                        change_rows(
                            source.game,
                            books[source.game].apply(
                                table_id=source.table_id,
                                finished_at=source.finished_at,
                                rating_input=contribution.rating_input,
                            ),
                        )
                    )
            PlayerResult.objects.bulk_create(results, batch_size=2000)
            CountedTable.objects.bulk_create(markers, batch_size=2000)
            tables_queue_remove(table_ids=[m.table_id for m in markers])
            RatingChange.objects.bulk_create(changes, batch_size=2000)
            counted += len(order)
            if progress is not None:
                progress(len(chunk))
        PlayerGameStat.objects.bulk_create(
            [
                PlayerGameStat(user_id=user_id, game=game, counters=counters)
                for (user_id, game), counters in sorted(players.items())
            ],
            batch_size=2000,
        )
        GameStat.objects.bulk_create(
            [GameStat(game=g, counters=c) for g, c in sorted(games.items())]
        )
        for game, book in books.items():
            book_save(game, book, book.entries)
        progress_refresh(games=rules.GAMES)
        return counted
