"""Team events' stored standings rank teams, not players.

Partners share their team's place and the next team is 2nd (standard
competition ranking over teams, ``tournaments.scoring.rank_rows``); the rows
stored before ranked each player, so the team after two partners was 3rd.
Only ``rank`` changes: the points and tie-breaks are as stored. Backwards,
each player is ranked again. Individual events are left alone.
"""

from typing import Any

from django.db import migrations


def _rerank(apps: Any, by_team: bool) -> None:
    Standing = apps.get_model("tournaments", "Standing")
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament_id in Tournament.objects.filter(team_event=True).values_list(
        "pk", flat=True
    ):
        rows = list(
            Standing.objects.filter(tournament_id=tournament_id).select_related("entry")
        )
        changed = []
        for row in rows:
            mine = (row.points, row.buchholz, row.game_score)
            ahead = {
                (other.entry.team or other.entry_id) if by_team else other.entry_id
                for other in rows
                if (other.points, other.buchholz, other.game_score) > mine
            }
            if row.rank != len(ahead) + 1:
                row.rank = len(ahead) + 1
                changed.append(row)
        Standing.objects.bulk_update(changed, ["rank"])


def forwards(apps: Any, schema_editor: Any) -> None:
    _rerank(apps, by_team=True)


def backwards(apps: Any, schema_editor: Any) -> None:
    _rerank(apps, by_team=False)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_tournament_places"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
