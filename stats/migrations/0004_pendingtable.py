"""The queue of finished tables waiting for their count (``docs/stats.md``).

From now on a table joins it in the transaction that finishes it and leaves
it with its count; the finished tables without a ``CountedTable`` marker
today are queued here, once, so the queue starts out right.
"""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Exists, OuterRef

BATCH = 2000


def pending_fill(apps: Any, schema_editor: Any) -> None:
    """Queue every finished table that has no ``CountedTable`` marker."""
    Table = apps.get_model("games", "Table")
    CountedTable = apps.get_model("stats", "CountedTable")
    PendingTable = apps.get_model("stats", "PendingTable")
    waiting = (
        Table.objects.filter(status="finished")
        .exclude(Exists(CountedTable.objects.filter(table_id=OuterRef("pk"))))
        .order_by("id")
        .values_list("id", "game", "finished_at")
    )
    rows = [
        PendingTable(table_id=pk, game=game, finished_at=finished_at)
        for pk, game, finished_at in waiting.iterator(chunk_size=BATCH)
    ]
    PendingTable.objects.bulk_create(rows, batch_size=BATCH, ignore_conflicts=True)


class Migration(migrations.Migration):
    # games' tables as stats/0001 knew them (they had status, game and
    # finished_at already), so that games' own migrations can still be
    # taken back past their later ones with this one in place.
    dependencies = [("stats", "0003_playerresult_user_order")]

    operations = [
        migrations.CreateModel(
            name="PendingTable",
            fields=[
                (
                    "table",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="stats_pending",
                        serialize=False,
                        to="games.table",
                    ),
                ),
                (
                    "game",
                    models.CharField(
                        choices=[
                            ("alager", "Alager"),
                            ("alkort", "Alkort"),
                            ("allegra", "Allegra"),
                        ],
                        max_length=32,
                    ),
                ),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
            ],
            options={
                "ordering": ["finished_at", "table"],
                "indexes": [
                    models.Index(
                        fields=["finished_at", "table"], name="stats_pending_order"
                    )
                ],
            },
        ),
        migrations.RunPython(pending_fill, migrations.RunPython.noop, elidable=True),
    ]
