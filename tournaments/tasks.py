"""Celery tasks of tournaments. They take ids, are idempotent, may run twice."""

from __future__ import annotations

from celery import shared_task
from django.db.models import Count, F, Q

from games.models import TableStatus
from tournaments.models import Tournament, TournamentStatus
from tournaments.services.standings import standings_recompute


@shared_task(ignore_result=True)
def tournament_standings_update(tournament_id: int) -> int:
    """Recompute the standings of ``tournament_id`` (a table of it finished)."""
    if not Tournament.objects.filter(pk=tournament_id).exists():
        return 0
    return standings_recompute(tournament_id=tournament_id)


def stale_tournaments() -> list[int]:
    """Running tournaments whose standings miss a finished table."""
    finished = Count(
        "round_set__tables",
        filter=Q(round_set__tables__table__status=TableStatus.FINISHED),
    )
    return list(
        Tournament.objects.filter(status=TournamentStatus.RUNNING)
        .annotate(finished=finished)
        .exclude(finished=F("standings_counted"))
        .values_list("pk", flat=True)
    )


@shared_task(ignore_result=True)
def tournaments_sweep() -> int:
    """Re-queue the standings of tournaments a lost task left behind."""
    stale = stale_tournaments()
    for tournament_id in stale:
        tournament_standings_update.delay(tournament_id)
    return len(stale)
