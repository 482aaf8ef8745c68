"""Each game's progress (``stats.GameProgress``), filled from the markers.

From now on the statistics writer keeps a row a game with its markers, so
``computed_through`` and ``Last-Modified`` read three rows instead of every
``CountedTable``; the rows start out as the markers of today say.
"""

from typing import Any

from django.db import migrations, models
from django.db.models import Count, Max

#: The games and the writer lock's namespace as ``stats.locks`` had them.
GAMES = ("alager", "alkort", "allegra")
LOCK_NAMESPACE = 0x5747


def progress_fill(apps: Any, schema_editor: Any) -> None:
    """One row per game with markers: their number, the last in finish
    order (``finished_at``, then table id), their newest ``counted_at``.

    On PostgreSQL it takes every game's writer lock first, so a count in
    progress commits before the markers are read, not in between.
    """
    CountedTable = apps.get_model("stats", "CountedTable")
    GameProgress = apps.get_model("stats", "GameProgress")
    connection = schema_editor.connection
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for index in range(len(GAMES)):
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, index]
                )
    for game in GAMES:
        markers = CountedTable.objects.filter(game=game)
        last = (
            markers.order_by("-finished_at", "-table_id")
            .values_list("table_id", "finished_at")
            .first()
        )
        if last is None:
            continue
        agg = markers.aggregate(n=Count("pk"), at=Max("counted_at"))
        GameProgress.objects.create(
            game=game,
            tables=agg["n"],
            last_table=last[0],
            last_finished_at=last[1],
            counted_at=agg["at"],
        )


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0004_pendingtable"),
    ]

    operations = [
        migrations.CreateModel(
            name="GameProgress",
            fields=[
                (
                    "game",
                    models.CharField(
                        choices=[
                            ("alager", "Alager"),
                            ("alkort", "Alkort"),
                            ("allegra", "Allegra"),
                        ],
                        max_length=32,
                        primary_key=True,
                        serialize=False,
                    ),
                ),
                ("tables", models.PositiveIntegerField(default=0)),
                ("last_table", models.BigIntegerField()),
                ("last_finished_at", models.DateTimeField()),
                ("counted_at", models.DateTimeField()),
            ],
            options={
                "verbose_name_plural": "game progress",
                "ordering": ["game"],
            },
        ),
        migrations.RunPython(progress_fill, migrations.RunPython.noop, elidable=True),
    ]
