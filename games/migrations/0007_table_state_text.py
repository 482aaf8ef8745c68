"""Keep the table's cached state as JSON text, not ``jsonb`` (PostgreSQL).

Every move rewrites the state whole and nothing queries inside it: as
``jsonb`` PostgreSQL parsed it on every write, printed it back on every read
that needed it, and, the binary form being 1.5 to 2.3 times the text, the row
went over the 2 KB at which it is compressed (``games.fields.JSONTextField``,
docs/performance.md). The column's values are converted in place both ways
(``jsonb::text`` and back: the same JSON values). SQLite keeps the JSON text
it always had: nothing to do there.

PostgreSQL rewrites ``games_table`` under an exclusive lock to do it: about
one second per 100,000 tables here (0.95 s forward, 1.4 s back), during which
moves wait, and answer 503 ``busy`` past ``DB_LOCK_TIMEOUT``. Run it when
traffic is low (docs/operations.md).
"""

from typing import Any

from django.db import migrations

import games.fields


def _column_type(to: str) -> Any:
    def alter(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(
                f'ALTER TABLE games_table ALTER COLUMN "state" TYPE {to} '
                f'USING "state"::{to}',
                params=None,
            )

    return alter


class Migration(migrations.Migration):
    dependencies = [("games", "0006_table_fillfactor")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunPython(_column_type("text"), _column_type("jsonb"))
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="table",
                    name="state",
                    field=games.fields.JSONTextField(
                        blank=True, editable=False, null=True
                    ),
                )
            ],
        )
    ]
