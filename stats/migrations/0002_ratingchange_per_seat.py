"""A rating change per seat: a house bot holding several seats of one table
gets each seat's place and expected place (``docs/stats.md``).

Rows from before keep one per player and table; each takes the seat whose
place it holds (the player's best seat: a person's only one). A bot's old
rows are split into seats by ``manage.py stats_rebuild``; going back keeps
each bot's best seat's row of a table.
"""

from typing import Any

from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def seats_fill(apps: Any, schema_editor: Any) -> None:
    RatingChange = apps.get_model("stats", "RatingChange")
    PlayerResult = apps.get_model("stats", "PlayerResult")
    best = PlayerResult.objects.filter(
        table_id=OuterRef("table_id"), user_id=OuterRef("user_id")
    ).order_by("place", "seat")
    RatingChange.objects.update(seat=Subquery(best.values("seat")[:1]))


def seats_fold(apps: Any, schema_editor: Any) -> None:
    """Back to one row per player and table: a bot's best seat's (the old rule)."""
    RatingChange = apps.get_model("stats", "RatingChange")
    kept: set[tuple[int, int]] = set()
    extra = []
    for pk, table_id, user_id in RatingChange.objects.order_by(
        "table_id", "user_id", "place", "seat"
    ).values_list("pk", "table_id", "user_id"):
        if (table_id, user_id) in kept:
            extra.append(pk)
        kept.add((table_id, user_id))
    RatingChange.objects.filter(pk__in=extra).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0001_stats_models"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="ratingchange",
            options={"ordering": ["finished_at", "table", "user", "seat"]},
        ),
        migrations.RemoveConstraint(
            model_name="ratingchange",
            name="stats_ratingchange_unique",
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="seat",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(seats_fill, seats_fold),
        migrations.AddConstraint(
            model_name="ratingchange",
            constraint=models.UniqueConstraint(
                fields=("table", "seat"), name="stats_ratingchange_unique_seat"
            ),
        ),
    ]
