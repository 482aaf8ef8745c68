"""How far each game's counting has got (``stats.GameProgress``).

Every function here runs in the transaction that writes or removes the
game's ``CountedTable`` markers, and the caller holds the game's writer lock
(``stats.locks``), so the row moves with the markers and two writers never
update it at once. The reads (``computed_through``, ``Last-Modified``) then
read one row a game instead of every marker.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Max

from stats.models import CountedTable, GameProgress


def progress_counted(*, marker: CountedTable) -> None:
    """``marker`` was just written for a table the game had not counted.

    One more table; the last table in finish order becomes this one only if
    it finished later (a late table does not move it back); ``counted_at`` is
    the newest of the markers', as their maximum would be.
    """
    row = GameProgress.objects.filter(game=marker.game).first()
    if row is None:
        GameProgress.objects.create(
            game=marker.game,
            tables=1,
            last_table=marker.table_id,
            last_finished_at=marker.finished_at,
            counted_at=marker.counted_at,
        )
        return
    row.tables += 1
    if (marker.finished_at, marker.table_id) > (row.last_finished_at, row.last_table):
        row.last_table, row.last_finished_at = marker.table_id, marker.finished_at
    row.counted_at = max(row.counted_at, marker.counted_at)
    row.save()


def progress_recounted(*, old: CountedTable, new: CountedTable) -> None:
    """A table's marker ``old`` was replaced by ``new`` (the admin's recount).

    Same table, same finish: the count and the last table stay, and
    ``counted_at`` moves on to the new marker's. Anything else (a finish
    that changed, a row missing) is read again from the markers.
    """
    row = GameProgress.objects.filter(game=new.game).first()
    if row is None or old.game != new.game or old.finished_at != new.finished_at:
        progress_refresh(games=[old.game, new.game])
        return
    row.counted_at = max(row.counted_at, new.counted_at)
    row.save(update_fields=["counted_at"])


def progress_expected(game: str) -> dict[str, Any] | None:
    """Game ``game``'s progress row as its markers say it is: their number,
    the last of them in finish order (``finished_at``, then table id), their
    newest ``counted_at`` (the aggregate over every marker that the row
    replaced); ``None`` when the game has no marker (and so no row)."""
    markers = CountedTable.objects.filter(game=game)
    last = (
        markers.order_by("-finished_at", "-table_id")
        .values_list("table_id", "finished_at")
        .first()
    )
    if last is None:
        return None
    agg = markers.aggregate(n=Count("pk"), at=Max("counted_at"))
    return {
        "tables": agg["n"],
        "last_table": last[0],
        "last_finished_at": last[1],
        "counted_at": agg["at"],
    }


def progress_refresh(*, games: Iterable[str]) -> None:
    """Read ``games``' rows again from their markers (the rebuild, once all
    are written; a recount that removed a marker; the reconciliation). A game
    with no marker loses its row."""
    for game in sorted(set(games)):
        expected = progress_expected(game)
        if expected is None:
            GameProgress.objects.filter(game=game).delete()
        else:
            GameProgress.objects.update_or_create(game=game, defaults=expected)
