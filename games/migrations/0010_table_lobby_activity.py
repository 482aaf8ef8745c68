"""An open table's activity: the latest of its opening and its seats taken.

From this release a seat taken at an open table (a person joining, the
creator adding a bot) writes the table's ``updated_at``, which the tables
list reads as its activity (``active_at``) and folds away the open tables
nobody has come to for ``TABLE_IDLE_HOURS`` (docs/api.md). Before, a join
wrote nothing to the table: each open table whose last seat was taken after
its ``updated_at`` takes that seat's ``joined_at``, so one joined yesterday
is not taken for idle from its opening alone. Tables in play or ended keep
theirs (their moves wrote it). Nothing to undo backwards.
"""

from typing import Any

from django.db import migrations
from django.db.models import F, OuterRef, Subquery


def seats_taken(apps: Any, schema_editor: Any) -> None:
    Table = apps.get_model("games", "Table")
    Seat = apps.get_model("games", "Seat")
    last_taken = (
        Seat.objects.filter(table=OuterRef("pk"))
        .order_by("-joined_at")
        .values("joined_at")[:1]
    )
    behind = Table.objects.filter(
        status="lobby", seats__joined_at__gt=F("updated_at")
    ).values("pk")
    Table.objects.filter(pk__in=Subquery(behind)).update(
        updated_at=Subquery(last_taken)
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0009_table_request")]

    operations = [migrations.RunPython(seats_taken, migrations.RunPython.noop)]
