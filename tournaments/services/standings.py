"""The cached standings, recomputed from the finished tables' outcomes.

``standings_recompute`` replaces a tournament's ``Standing`` rows with what
the outcomes give, under the tournament row lock, so running it twice (a
repeated task, the sweep, the admin action) leaves the same rows.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments import scoring, selectors
from tournaments.models import Standing, Tournament
from tournaments.services.registration import tournament_lock
from tournaments.services.setup import layout_get


def standings_rows(*, tournament: Tournament) -> list[scoring.Row]:
    """The standings as the results give them now (not stored)."""
    rows, _ = _compute(tournament)
    return rows


def _compute(tournament: Tournament) -> tuple[list[scoring.Row], int]:
    layout = layout_get(tournament=tournament)
    rounds = selectors.rounds_get(tournament=tournament)
    results, byes, counted = selectors.results_get(rounds=rounds, layout=layout)
    # Entries that withdrew before ever being seated (during registration, or
    # before their round started) have no place in the standings.
    never_played = set(
        tournament.entries.filter(
            withdrawn=True, seats__isnull=True, byes__isnull=True
        ).values_list("pk", flat=True)
    )
    order = [
        pk
        for pk in selectors.seat_order(tournament=tournament)
        if pk not in never_played
    ]
    # A team event ranks teams: partners share their team's place (an entry
    # without a team, which a team event refuses, counts as one of its own).
    teams = (
        {pk: team for pk, team in tournament.entries.values_list("pk", "team") if team}
        if tournament.team_event
        else None
    )
    rows = scoring.standings_rows(
        entries=order,
        results=results,
        byes=byes,
        table_size=tournament.table_size,
        game=tournament.game,
        order=order,
        teams=teams,
    )
    return rows, counted


@transaction.atomic
def standings_recompute(*, tournament_id: int) -> int:
    """Rebuild the tournament's standings; return how many tables they count.

    Lock: the tournament row. Idempotent: the rows depend only on the tables'
    outcomes, the byes and the entries.
    """
    tournament = tournament_lock(tournament_id)
    rows, counted = _compute(tournament)
    Standing.objects.filter(tournament=tournament).delete()
    Standing.objects.bulk_create(
        Standing(
            tournament=tournament,
            entry_id=row.entry,
            rank=row.rank,
            points=row.points,
            buchholz=row.buchholz,
            game_score=row.game_score,
            played=row.played,
            wins=row.wins,
            byes=row.byes,
        )
        for row in rows
    )
    tournament.standings_counted = counted
    tournament.standings_updated_at = timezone.now()
    tournament.save(update_fields=["standings_counted", "standings_updated_at"])
    return counted
